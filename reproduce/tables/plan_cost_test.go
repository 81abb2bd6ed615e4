package tables

import (
	"math"
	"path/filepath"
	"strings"
	"testing"
)

// TestCostOf: finished and copied cells cost nothing, an in-progress cell its runs left, a
// configuration of a tuning its cell's committed cost, and a cell without a record and of no
// committed kind its data set's mean, every cost read from the committed table.
func TestCostOf(t *testing.T) {
	gcn, ok := committedCosts["table2/cora-gcn"]
	if !ok {
		t.Fatal("cell_costs.json has no table2/cora-gcn")
	}
	perRun := gcn.Seconds / float64(gcn.Runs)
	out := t.TempDir()
	cell := func(dataset, method string, runs, done int, state, path string) PlannedCell {
		return PlannedCell{Cell: Cell{Dataset: dataset, Method: method, Runs: runs}, Path: path, State: state, Done: done}
	}
	cells := []PlannedCell{
		cell("cora", "gcn", 5, 5, StateFinished, filepath.Join(out, "table2", "cora-gcn.json")),
		cell("cora", "gcn", 5, 0, StateShared, filepath.Join(out, "table5", "cora-gcn.json")),
		cell("cora", "gcn", 5, 2, StateInProgress, filepath.Join(out, "table2", "cora-gcn.json")),
		cell("cora", "gcn", 5, 0, StateToRun, filepath.Join(out, "tune", "table2", "cora-gcn", "0123456789.json")),
		cell("cora", "nosuchmethod", 1, 0, StateToRun, filepath.Join(out, "table2", "cora-nosuchmethod.json")),
	}
	got := CostOf(cells)
	if got.Cells != 3 || got.Measured != 2 {
		t.Fatalf("CostOf: %d cells, %d measured; want 3 and 2", got.Cells, got.Measured)
	}
	mean := cellCost(cells[4].Path, "cora", 1)
	want := 3*perRun + 5*perRun + mean
	if math.Abs(got.Seconds-want) > 1e-9*want {
		t.Errorf("CostOf: %g s, want %g s (3 runs left and a tuning configuration of cora-gcn at %g s per run, and %g s estimated)", got.Seconds, want, perRun, mean)
	}
	if text := got.Text("cells"); !strings.HasPrefix(text, "3 cells to train, about ") || !strings.Contains(text, "2 at their committed record's measured cost, 1 estimated") {
		t.Errorf("Text: %q", text)
	}
	if text := CostOf(cells[:2]).Text("points"); text != "nothing left to train" {
		t.Errorf("Text of finished cells: %q", text)
	}
}

// TestEstimateWeighsTheKind: a GAT + GeoMix-I point of the backbone figure on Chameleon, without a
// record, is estimated at Chameleon's mean seconds per run times the geometric mean of what the
// committed GAT + GeoMix-I points cost over their own data sets' means, computed here from the table.
func TestEstimateWeighsTheKind(t *testing.T) {
	mean := func(dataset string) float64 {
		var sum float64
		var n int
		for _, c := range committedCosts {
			if c.Dataset == dataset {
				sum, n = sum+c.Seconds/float64(c.Runs), n+1
			}
		}
		if n == 0 {
			t.Fatalf("no committed cell on %s", dataset)
		}
		return sum / float64(n)
	}
	var logSum float64
	var n int
	for key, c := range committedCosts {
		if key == "figure-backbones/"+c.Dataset+"-gat-geomix1" {
			logSum, n = logSum+math.Log(c.Seconds/float64(c.Runs)/mean(c.Dataset)), n+1
		}
	}
	if n < 2 {
		t.Fatalf("cell_costs.json has %d GAT + GeoMix-I points of the backbone figure, want at least 2", n)
	}
	path := filepath.Join(t.TempDir(), "figure-backbones", "chameleon-gat-geomix1.json")
	if _, ok := measuredCost(path); ok {
		t.Fatalf("%s has a committed cost: the test needs a point without one", path)
	}
	want := mean("chameleon") * math.Exp(logSum/float64(n)) * 5
	if got := cellCost(path, "chameleon", 5); math.Abs(got-want) > 1e-9*want {
		t.Errorf("cellCost(%s) = %.1f s, want %.1f s", path, got, want)
	}
	if got := cellCost(filepath.Join(t.TempDir(), "table2", "cora-nosuchmethod.json"), "cora", 1); math.Abs(got-mean("cora")) > 1e-9*got {
		t.Errorf("a kind without cells: %.1f s, want Cora's mean %.1f s", got, mean("cora"))
	}
}
