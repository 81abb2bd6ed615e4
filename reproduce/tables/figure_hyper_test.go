package tables

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"testing"

	"github.com/geomix-go/geomix/datasets"
	"github.com/geomix-go/geomix/geomix"
	"github.com/geomix-go/geomix/geomix/methods"
	"github.com/geomix-go/geomix/geomix/training"
)

// gridRunner trains every point to accuracy acc(alpha, hops), reporting the Params it was given
// (as geomix.Train does) unless ignoreParams, and counts its calls.
type gridRunner struct {
	mu           sync.Mutex
	calls        int
	ignoreParams bool
	acc          func(alpha float64, hops int) float64
}

func (g *gridRunner) run(c Cell) (*geomix.Result, error) {
	g.mu.Lock()
	g.calls++
	g.mu.Unlock()
	alpha, hops := c.Params[methods.ParamAlpha].(float64), c.Params[methods.ParamHops].(int)
	params := map[string]any{methods.ParamAlpha: alpha, methods.ParamHops: hops, training.ParamSeed: 123}
	if g.ignoreParams {
		params[methods.ParamAlpha], params[methods.ParamHops] = 0.2, 7
	}
	acc := g.acc(alpha, hops)
	res := &geomix.Result{Dataset: c.Dataset, Method: c.Method, Runs: c.Runs, TestAccMean: acc, TestAccStd: 0.5, SecondsTotal: 1, Params: params}
	for i := range c.Runs {
		res.PerRun = append(res.PerRun, geomix.RunResult{Run: i, TestAcc: acc})
	}
	return res, nil
}

func smallGrid() Grid {
	return Grid{Datasets: []string{"cora"}, Methods: []string{"geomix1"}, Alphas: []float64{0, 0.1, 0.5}, Hops: []int{1, 2, 3}}
}

// TestRunGrid sweeps a 3 × 3 grid with a runner whose best K is 2 except at α = 0.5 (K = 3), and
// checks the records, the report (bold best, preset mark, the K = 2 count), that a rerun trains
// nothing and that --force retrains.
func TestRunGrid(t *testing.T) {
	dir := t.TempDir()
	r := &gridRunner{acc: func(alpha float64, hops int) float64 {
		if alpha == 0.5 {
			return 70 + float64(hops)
		}
		return 80 - 2*(float64(hops)-2)*(float64(hops)-2) + alpha
	}}
	opts := Options{OutDir: dir, Runs: 2, Jobs: 2, Progress: io.Discard, Command: "test", GitRevision: "abc"}
	report, path, err := RunGrid(smallGrid(), r.run, opts)
	if err != nil {
		t.Fatal(err)
	}
	if r.calls != 9 {
		t.Errorf("runner called %d times, want 9", r.calls)
	}
	rec, err := readPoint(GridRecordPath(dir, "cora", "geomix1", 0.1, 3), FigureHyper,
		Cell{Dataset: "cora", Method: "geomix1", Params: map[string]any{methods.ParamAlpha: 0.1, methods.ParamHops: 3}})
	if err != nil {
		t.Fatal(err)
	}
	if rec.Table != FigureHyper || rec.Runs != 2 || rec.TestAccMean != 78.1 || rec.GitRevision != "abc" {
		t.Errorf("record %+v", rec)
	}
	p := report.Panels[0]
	if p.PresetAlpha != 0.1 || p.PresetHops != 3 || p.Runs != 2 || p.TrainSeconds != 9 {
		t.Errorf("panel preset α %v K %d, runs %d, seconds %v; want Cora GeoMix-I's 0.1, 3, 2 runs, 9 s", p.PresetAlpha, p.PresetHops, p.Runs, p.TrainSeconds)
	}
	if got := p.BestHops(); got[0] != 2 || got[1] != 2 || got[2] != 3 {
		t.Errorf("best hops %v, want [2 2 3]", got)
	}
	md, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"## Cora, GeoMix-I", "| 2 | **80.00 ± 0.50** | **80.10 ± 0.50** | 72.00 ± 0.50 |",
		"| 3 | 78.00 ± 0.50 | 78.10 ± 0.50 † | **73.00 ± 0.50** |", "K = 2 is the best at 2 of 3 α values, and within one std (the best point's) of the best at 2 (", "Rendered by `test`"} {
		if !strings.Contains(string(md), want) {
			t.Errorf("report lacks %q:\n%s", want, md)
		}
	}
	if _, _, err := RunGrid(smallGrid(), r.run, opts); err != nil || r.calls != 9 {
		t.Errorf("rerun: err %v, %d calls in all, want 9 (every point finished)", err, r.calls)
	}
	opts.Force = true
	if _, _, err := RunGrid(smallGrid(), r.run, opts); err != nil || r.calls != 18 {
		t.Errorf("--force: err %v, %d calls in all, want 18", err, r.calls)
	}
}

// TestRunGridMissingPointsAndBadRunner checks that a partly run grid reports "not run" and no best
// K for an incomplete α, and that a runner ignoring the point's α and K fails the point instead of
// storing a wrong record.
func TestRunGridMissingPointsAndBadRunner(t *testing.T) {
	dir := t.TempDir()
	r := &gridRunner{acc: func(float64, int) float64 { return 60 }}
	g := smallGrid()
	g.Hops = []int{1}
	opts := Options{OutDir: dir, Runs: 1, Progress: io.Discard}
	if _, _, err := RunGrid(g, r.run, opts); err != nil {
		t.Fatal(err)
	}
	report, err := LoadGrid(dir, smallGrid())
	if err != nil {
		t.Fatal(err)
	}
	md := report.Markdown()
	if !strings.Contains(md, "| 2 | not run | not run | not run |") || !strings.Contains(md, "no α has all its points yet") {
		t.Errorf("partial report:\n%s", md)
	}
	bad := &gridRunner{ignoreParams: true, acc: func(float64, int) float64 { return 60 }}
	_, _, err = RunGrid(smallGrid(), bad.run, opts)
	if err == nil || !strings.Contains(err.Error(), "6 of 9 points") || !strings.Contains(err.Error(), "alpha=0.5 hops=3") {
		t.Errorf("runner ignoring the point: %v, want 6 of 9 points failed, naming alpha=0.5 hops=3", err)
	}
	if _, err := os.Stat(GridRecordPath(dir, "cora", "geomix1", 0.5, 3)); !os.IsNotExist(err) {
		t.Errorf("a wrong point was stored: %v", err)
	}
}

func TestGridCheck(t *testing.T) {
	for name, g := range map[string]Grid{
		"method":  {Datasets: []string{"cora"}, Methods: []string{"geomix3"}, Alphas: []float64{0.1}, Hops: []int{1}},
		"dataset": {Datasets: []string{"nope"}, Methods: []string{"geomix1"}, Alphas: []float64{0.1}, Hops: []int{1}},
		"alpha":   {Datasets: []string{"cora"}, Methods: []string{"geomix1"}, Alphas: []float64{-0.1}, Hops: []int{1}},
		"hops":    {Datasets: []string{"cora"}, Methods: []string{"geomix1"}, Alphas: []float64{0.1}, Hops: []int{0}},
		"twice":   {Datasets: []string{"cora"}, Methods: []string{"geomix1"}, Alphas: []float64{0.1, 0.1}, Hops: []int{1}},
		"empty":   {Datasets: []string{"cora"}, Methods: []string{"geomix1"}, Hops: []int{1}},
	} {
		if err := g.Check(); err == nil {
			t.Errorf("%s: no error for %+v", name, g)
		}
	}
	if err := DefaultGrid().Check(); err != nil {
		t.Error(err)
	}
}

// TestGridCommittedOrQuick checks the notebook's choice: committed points when there are some,
// a quick grid when asked (or when nothing is committed), and the committed points when the quick
// grid lacks its data; and the point lines it prints.
func TestGridCommittedOrQuick(t *testing.T) {
	dir := t.TempDir()
	r := &gridRunner{acc: func(alpha float64, hops int) float64 { return 70 + alpha + float64(hops) }}
	quickGrid := Grid{Datasets: []string{"cora"}, Methods: []string{"geomix1"}, Alphas: []float64{0.5}, Hops: []int{1, 2}}

	rep, err := GridCommittedOrQuick(dir, smallGrid(), false, quickGrid, r.run, "nb", "rev", io.Discard)
	if err != nil || rep.Points() != 2 || !rep.Quick || r.calls != 2 {
		t.Fatalf("nothing committed: err %v, %d points, quick %v, %d calls; want the 2 quick points", err, rep.Points(), rep.Quick, r.calls)
	}
	if _, _, err := RunGrid(smallGrid(), r.run, Options{OutDir: dir, Runs: 2, Progress: io.Discard}); err != nil {
		t.Fatal(err)
	}
	r.calls = 0
	rep, err = GridCommittedOrQuick(dir, smallGrid(), false, quickGrid, r.run, "nb", "rev", io.Discard)
	if err != nil || rep.Points() != 9 || rep.Quick || r.calls != 0 {
		t.Fatalf("committed: err %v, %d points, quick %v, %d calls; want the 9 committed points, nothing trained", err, rep.Points(), rep.Quick, r.calls)
	}
	var lines strings.Builder
	if err := rep.WritePoints(&lines); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"point cora geomix1 alpha=0.1 hops=3: acc=73.10 std=0.50 runs=2 quick=false preset=true best=true\n",
		"point cora geomix1 alpha=0 hops=1: acc=71.00 std=0.50 runs=2 quick=false preset=false best=false\n"} {
		if !strings.Contains(lines.String(), want) {
			t.Errorf("point lines lack %q:\n%s", want, lines.String())
		}
	}
	offline := func(c Cell) (*geomix.Result, error) {
		return nil, fmt.Errorf("loading %s: %w", c.Dataset, datasets.ErrMissing)
	}
	if rep, err := GridCommittedOrQuick(dir, smallGrid(), true, quickGrid, offline, "nb", "rev", io.Discard); err != nil || rep.Points() != 9 {
		t.Errorf("quick without data: err %v; want the committed points", err)
	}
	broken := func(Cell) (*geomix.Result, error) { return nil, errors.New("shape mismatch") }
	if _, err := GridCommittedOrQuick(dir, smallGrid(), true, quickGrid, broken, "nb", "rev", io.Discard); err == nil {
		t.Error("quick grid failing for another reason than missing data: no error")
	}
}
