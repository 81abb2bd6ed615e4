package tables

import (
	"bytes"
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/geomix-go/geomix/geomix/theory"
)

// TestCommittedCharts charts the committed results as the notebooks do and checks each chart's
// option holds the committed numbers.
func TestCommittedCharts(t *testing.T) {
	rep, err := LoadReport(committedDir, "table2")
	if err != nil {
		t.Fatal(err)
	}
	rep = rep.WithResults()
	if len(rep.Rows) == 0 {
		t.Skip("no committed Table 2 results")
	}
	chart, err := rep.Chart()
	if err != nil {
		t.Fatal(err)
	}
	row := rep.Rows[0]
	for _, want := range []string{"Table 2: test accuracy, ours vs paper", DatasetNames[row.Dataset] + " " + MethodNames[row.Method], strconv.FormatFloat(row.Paper.Mean, 'f', -1, 64)} {
		if !strings.Contains(chart.Option(), want) {
			t.Errorf("Table 2 chart: no %q in its option", want)
		}
	}

	backbones, err := LoadBackbones(committedDir, DefaultBackboneSweep())
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range backbones.StoredDatasets() {
		c, err := backbones.Chart(d)
		if err != nil {
			t.Fatal(err)
		}
		want := "Test accuracy on " + DatasetNames[d]
		if len(oodGraphs(d, 0)) > 0 {
			want = "OOD accuracy on Twitch FR, PT and RU"
		}
		if !strings.Contains(c.Option(), want) {
			t.Errorf("backbone chart of %s: no title %q", d, want)
		}
	}

	grid, err := LoadGrid(committedDir, DefaultGrid())
	if err != nil {
		t.Fatal(err)
	}
	if grid.Points() > 0 {
		j := grid.PresetAlphaIndex()
		if grid.Panels[0].Alphas[j] != grid.Panels[0].PresetAlpha {
			t.Errorf("PresetAlphaIndex %d: α %g, preset %g", j, grid.Panels[0].Alphas[j], grid.Panels[0].PresetAlpha)
		}
		if _, err := grid.HopsChart(j); err != nil {
			t.Error(err)
		}
		if _, err := grid.HopsChart(len(grid.Panels[0].Alphas)); err == nil {
			t.Error("HopsChart past the last α: no error")
		}
	}
}

func TestTheoryCurveAndSetting(t *testing.T) {
	c := theory.Check{Name: "demo", Series: []theory.Point{
		{Label: "p=0.1 class=0", X: 0.1, Predicted: 1, Observed: 1.1, Tolerance: 0.2},
		{Label: "p=0.1 class=1", X: 0.1, Predicted: 5, Observed: 5, Tolerance: 0},
		{Label: "p=0.5 class=0", X: 0.5, Predicted: 2, Observed: 1.9, Tolerance: 0.3},
	}}
	x, predicted, observed, err := TheoryCurve(c, "class 0", " class=0")
	if err != nil {
		t.Fatal(err)
	}
	if len(x) != 2 || x[1] != 0.5 || predicted.Y[1] != 2 || !predicted.Dashed || math.Abs(observed.Lower[0]-0.9) > 1e-12 || math.Abs(observed.Upper[1]-2.2) > 1e-12 {
		t.Errorf("curve: x %v, predicted %+v, observed %+v", x, predicted, observed)
	}
	if _, _, _, err := TheoryCurve(c, "none", " class=7"); err == nil || !strings.Contains(err.Error(), "class=7") {
		t.Errorf("a suffix no point has: error %v", err)
	}

	// By hand for C = 4, p = 0.5, ε = 0.2, α = 0.5, degree 10, t = 1.5, B = 1, F = 4 (as 01-theory's test).
	_, v := TheorySetting{P: 0.5, Eps: 0.2, Alpha: 0.5, Degree: 10}.Predictions()
	bound := 8 * math.Exp(-22.5/8)
	for i, want := range []float64{0.4 + 0.1/3, 0.5/3 + 0.2/9, 1.0 / 3, 2.0 / 3, bound, bound} {
		if math.Abs(v[i]-want) > 1e-9 {
			t.Errorf("prediction %d: %g, want %g", i, v[i], want)
		}
	}

	var b bytes.Buffer
	if err := WriteCheck(&b, theory.Check{Name: "demo", Predicted: 1, Observed: 1.5, Tolerance: 0.25, Comparison: "equal", Note: "n"}); err != nil {
		t.Fatal(err)
	}
	if want := "check demo: predicted=1 observed=1.5 tolerance=0.25 compare=equal pass=false\n  note: n\n"; b.String() != want {
		t.Errorf("WriteCheck: %q, want %q", b.String(), want)
	}
}

func TestNotebookLogPathsRelative(t *testing.T) {
	var b bytes.Buffer
	log := Notebook{RepoDir: "/repo/x/", Log: &b}.log()
	if _, err := log.Write([]byte("committed results: /repo/x/results/table2 (not /repo/xy)\n")); err != nil {
		t.Fatal(err)
	}
	if want := "committed results: results/table2 (not /repo/xy)\n"; b.String() != want {
		t.Errorf("log line %q, want %q", b.String(), want)
	}
}
