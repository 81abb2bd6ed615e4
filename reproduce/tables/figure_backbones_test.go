package tables

import (
	"io"
	"os"
	"strings"
	"testing"

	"github.com/geomix-go/geomix/geomix"
	"github.com/geomix-go/geomix/geomix/backbones"
)

// backboneRunner trains every point to acc[method] on any backbone, reporting the backbone it was
// given as geomix.Train does.
func backboneRunner(acc map[string]float64, calls *int) CellRunner {
	return func(c Cell) (*geomix.Result, error) {
		*calls++
		a := acc[c.Method]
		res := &geomix.Result{Dataset: c.Dataset, Method: c.Method, Runs: c.Runs, TestAccMean: a, TestAccStd: 0.4, SecondsTotal: 2,
			Params: map[string]any{backbones.ParamBackbone: c.Params[backbones.ParamBackbone]}}
		for i := range c.Runs {
			res.PerRun = append(res.PerRun, geomix.RunResult{Run: i, TestAcc: a})
		}
		return res, nil
	}
}

// TestRunBackbones sweeps Cora with GAT and APPNP, plain and under GeoMix-I and -III, and checks
// the record paths, the report's table and gain count, the bars and that a rerun trains nothing.
func TestRunBackbones(t *testing.T) {
	dir := t.TempDir()
	calls := 0
	// GeoMix-I is 2 points above the plain backbone (more than its std), GeoMix-III 0.2 (less).
	acc := map[string]float64{"gat": 80, "appnp": 82, "geomix1": 84, "geomix3": 82.2}
	sweep := BackboneSweep{Datasets: []string{"cora"}, Backbones: []string{"gat", "appnp"}, Methods: []string{"geomix1", "geomix3"}}
	opts := Options{OutDir: dir, Runs: 2, Progress: io.Discard, Command: "test"}
	report, path, err := RunBackbones(sweep, backboneRunner(acc, &calls), opts)
	if err != nil {
		t.Fatal(err)
	}
	if calls != 6 {
		t.Errorf("%d trainings, want 6 (2 backbones × plain, GeoMix-I, GeoMix-III)", calls)
	}
	for _, name := range []string{"cora-gat.json", "cora-gat-geomix1.json", "cora-appnp-geomix3.json"} {
		if _, err := os.Stat(dir + "/" + FigureBackbones + "/" + name); err != nil {
			t.Error(err)
		}
	}
	if c, a, s := report.Gains(false); c != 4 || a != 4 || s != 3 {
		t.Errorf("gains: %d compared, %d above, %d above by a std; want 4, 4, 3 (APPNP GeoMix-III is 0.2 above, under its std 0.4)", c, a, s)
	}
	md, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"| Cora | GAT | 80.00 ± 0.40 | 84.00 ± 0.40 (+4.00) | 82.20 ± 0.40 (+2.20) |",
		"| Cora | APPNP | 82.00 ± 0.40 | 84.00 ± 0.40 (+2.00) | 82.20 ± 0.40 (+0.20) |", "above the plain backbone in 4 of 4 comparisons, by more than the plain backbone's std in 3"} {
		if !strings.Contains(string(md), want) {
			t.Errorf("report lacks %q:\n%s", want, md)
		}
	}
	categories, series := report.Bars("cora")
	if strings.Join(categories, ",") != "GAT,APPNP" || len(series) != 3 || series[1].Name != "GeoMix-I" || series[2].Values[1] != 82.2 {
		t.Errorf("bars: %v %+v", categories, series)
	}
	if _, _, err := RunBackbones(sweep, backboneRunner(acc, &calls), opts); err != nil || calls != 6 {
		t.Errorf("rerun: err %v, %d trainings in all, want 6", err, calls)
	}
	// A record of GeoMix-I on another backbone is not this point's.
	if _, err := readPoint(BackboneRecordPath(dir, "cora", "gat", "geomix1"), FigureBackbones, backbonePoint("cora", "appnp", "geomix1")); err == nil {
		t.Error("GeoMix-I on GAT read as GeoMix-I on APPNP")
	}
}

func TestBackboneSweepCheck(t *testing.T) {
	for name, s := range map[string]BackboneSweep{
		"mixing backbone": {Datasets: []string{"cora"}, Backbones: []string{"geomix1"}, Methods: []string{"geomix1"}},
		"method":          {Datasets: []string{"cora"}, Backbones: []string{"gat"}, Methods: []string{"mixup"}},
		"dataset":         {Datasets: []string{"nope"}, Backbones: []string{"gat"}, Methods: []string{"geomix1"}},
		"twice":           {Datasets: []string{"cora"}, Backbones: []string{"gat", "gat"}, Methods: []string{"geomix1"}},
		"empty":           {Datasets: []string{"cora"}, Methods: []string{"geomix1"}},
	} {
		if err := s.Check(); err == nil {
			t.Errorf("%s: no error for %+v", name, s)
		}
	}
	if err := DefaultBackboneSweep().Check(); err != nil {
		t.Error(err)
	}
}
