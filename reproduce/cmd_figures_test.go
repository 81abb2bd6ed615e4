package main

import (
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/geomix-go/geomix/geomix"
	"github.com/geomix-go/geomix/geomix/methods"
	"github.com/geomix-go/geomix/reproduce/tables"
)

// echoRunner trains every cell to 60 + 10 alpha + hops (its Params, 0 when unset), reporting the
// Params it was given as geomix.Train does.
func echoRunner(c tables.Cell) (*geomix.Result, error) {
	alpha, _ := c.Params[methods.ParamAlpha].(float64)
	hops, _ := c.Params[methods.ParamHops].(int)
	acc := 60 + 10*alpha + float64(hops)
	res := &geomix.Result{Dataset: c.Dataset, Method: c.Method, Runs: c.Runs, TestAccMean: acc, Params: c.Params}
	for i := range c.Runs {
		res.PerRun = append(res.PerRun, geomix.RunResult{Run: i, TestAcc: acc})
	}
	return res, nil
}

// TestFigureHyperCommand sweeps a 2 × 2 grid with a runner that trains as told (accuracy 60 +
// 10 α + K), and checks the report, the heatmap page and that a bad flag names itself.
func TestFigureHyperCommand(t *testing.T) {
	withRunner(t, echoRunner)
	dir := t.TempDir()
	if err := runFigureHyper([]string{"--out", dir, "--datasets", "cora", "--methods", "geomix1", "--alphas", "0.1,0.5", "--hops", "1,2", "--runs", "1"}); err != nil {
		t.Fatal(err)
	}
	md, err := os.ReadFile(filepath.Join(dir, tables.FigureHyper+".md"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(md), "| 2 | **63.00 ± 0.00** | **67.00 ± 0.00** |") || !strings.Contains(string(md), "K = 2 is the best at 2 of 2 α values") {
		t.Errorf("report:\n%s", md)
	}
	page, err := os.ReadFile(filepath.Join(dir, tables.FigureHyper, "cora-geomix1.html"))
	if err != nil || !strings.Contains(string(page), "heatmap") || !strings.Contains(string(page), "Cora, GeoMix-I") {
		t.Errorf("heatmap page (err %v) lacks the heatmap or its title", err)
	}
	if err := runFigureHyper([]string{"--out", dir, "--hops", "2,x"}); err == nil || !strings.Contains(err.Error(), `--hops: "x"`) {
		t.Errorf("bad --hops: %v", err)
	}
}

// TestFigureBackbonesCommand trains GAT plainly and under GeoMix-I on Cora and checks the report,
// the bar chart page and the dry run after it.
func TestFigureBackbonesCommand(t *testing.T) {
	withRunner(t, echoRunner)
	dir := t.TempDir()
	args := []string{"--out", dir, "--datasets", "cora", "--backbones", "gat", "--methods", "geomix1", "--runs", "1"}
	if err := runFigureBackbones(args); err != nil {
		t.Fatal(err)
	}
	md, err := os.ReadFile(filepath.Join(dir, tables.FigureBackbones+".md"))
	if err != nil || !strings.Contains(string(md), "| Cora | GAT | 60.00 ± 0.00 | 60.00 ± 0.00 (+0.00) |") {
		t.Errorf("report (err %v):\n%s", err, md)
	}
	page, err := os.ReadFile(filepath.Join(dir, tables.FigureBackbones, "cora.html"))
	if err != nil || !strings.Contains(string(page), "Test accuracy on Cora") {
		t.Errorf("bar chart page (err %v) lacks its title", err)
	}
	if err := runFigureBackbones([]string{"--out", dir, "--backbones", "mixup"}); err == nil || !strings.Contains(err.Error(), `"mixup" is not a backbone`) {
		t.Errorf("bad --backbones: %v", err)
	}
}

// TestFigureTSNECommand embeds GCN on Cora with a fake runner (two classes of 40 nodes) and checks
// the report, the scatter page and a bad flag.
func TestFigureTSNECommand(t *testing.T) {
	saved := newRepresentationRunner
	newRepresentationRunner = func(io.Writer) (tables.RepresentationRunner, error) {
		return func(c tables.Cell) (*geomix.Result, [][]float32, []int32, error) {
			var reps [][]float32
			var labels []int32
			for i := range 80 {
				reps, labels = append(reps, []float32{float32(i%2) * 10, float32(i%7) / 7}), append(labels, int32(i%2))
			}
			return &geomix.Result{Dataset: c.Dataset, Method: c.Method, Runs: 1, PerRun: []geomix.RunResult{{TestAcc: 71}}}, reps, labels, nil
		}, nil
	}
	t.Cleanup(func() { newRepresentationRunner = saved })
	dir := t.TempDir()
	if err := runFigureTSNE([]string{"--out", dir, "--datasets", "cora", "--methods", "gcn", "--iterations", "100", "--perplexity", "10"}); err != nil {
		t.Fatal(err)
	}
	md, err := os.ReadFile(filepath.Join(dir, tables.FigureTSNE+".md"))
	if err != nil || !strings.Contains(string(md), "| Cora | GCN | 71.00 |") || !strings.Contains(string(md), "perplexity 10, 100 iterations") {
		t.Errorf("report (err %v):\n%s", err, md)
	}
	page, err := os.ReadFile(filepath.Join(dir, tables.FigureTSNE, "cora-gcn.html"))
	if err != nil || !strings.Contains(string(page), "t-SNE of GCN on Cora") {
		t.Errorf("scatter page (err %v) lacks its title", err)
	}
	if err := runFigureTSNE([]string{"--out", dir, "--methods", "nope"}); err == nil || !strings.Contains(err.Error(), `unknown method "nope"`) {
		t.Errorf("bad --methods: %v", err)
	}
}

// TestFigureShards: two shards of a figure-hyper grid and of a figure-tsne sweep over one folder
// train every point once between them, and the dry run of one shard marks the other's points.
func TestFigureShards(t *testing.T) {
	var trained []string
	withRunner(t, func(c tables.Cell) (*geomix.Result, error) {
		trained = append(trained, c.String())
		return echoRunner(c)
	})
	dir := t.TempDir()
	args := []string{"--out", dir, "--datasets", "cora", "--methods", "geomix1", "--alphas", "0.1,0.5", "--hops", "1,2", "--runs", "1"}
	for _, shard := range []string{"1/2", "2/2"} {
		if err := runFigureHyper(append([]string{"--shard", shard}, args...)); err != nil {
			t.Fatal(err)
		}
	}
	if len(trained) != 4 || len(slices.Compact(slices.Sorted(slices.Values(trained)))) != 4 {
		t.Errorf("two shards trained %v, want the 4 points once each", trained)
	}
	plan, err := tables.PlanGrid(tables.Grid{Datasets: []string{"cora"}, Methods: []string{"geomix1"}, Alphas: []float64{0.1, 0.5}, Hops: []int{1, 2}},
		tables.Options{OutDir: t.TempDir(), Runs: 1, Shard: tables.Shard{Index: 1, Count: 2}})
	if err != nil {
		t.Fatal(err)
	}
	other := 0
	for _, p := range plan {
		if p.State == tables.StateOtherShard {
			other++
		}
	}
	if other == 0 || other == len(plan) {
		t.Errorf("shard 1/2 of 4 points leaves %d to the other shard", other)
	}
	if err := runFigureHyper(append([]string{"--shard", "3/2"}, args...)); err == nil || !strings.Contains(err.Error(), `--shard "3/2"`) {
		t.Errorf("--shard 3/2: %v", err)
	}
}
