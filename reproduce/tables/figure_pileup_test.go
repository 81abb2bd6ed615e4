package tables

import (
	"errors"
	"io"
	"os"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/geomix-go/geomix/datasets/pileup"
	"github.com/geomix-go/geomix/geomix"
)

// pileupRunner trains every point to acc[method] plus gain[shift] for the GeoMix variants, each run
// r at that accuracy + r, with balanced accuracy 60, AUC 0.7 and a majority baseline of 79.
func pileupRunner(acc, gain map[string]float64, calls *atomic.Int32) PileupRunner {
	return func(c Cell) (*geomix.Result, *PileupCell, error) {
		calls.Add(1)
		a := acc[c.Method]
		if strings.HasPrefix(c.Method, "geomix") {
			a += gain[strings.TrimPrefix(c.Dataset, PileupPrefix)]
		}
		res := &geomix.Result{Dataset: c.Dataset, Method: c.Method, Runs: c.Runs, TestAccMean: a, SecondsTotal: 3}
		pc := &PileupCell{MajorityAcc: 79, Simulated: true}
		for i := range c.Runs {
			res.PerRun = append(res.PerRun, geomix.RunResult{Run: i, TestAcc: a + float64(i)})
			pc.Runs = append(pc.Runs, PileupRun{Run: i, Acc: a + float64(i), BalancedAcc: 60, AUC: 0.7})
		}
		return res, pc, nil
	}
}

// TestRunPileup sweeps two shifts with GCN, DANN and GeoMix-I/III, and checks the records, the
// report's table and claims, the bars and that a rerun trains nothing.
func TestRunPileup(t *testing.T) {
	dir := t.TempDir()
	var calls atomic.Int32
	acc := map[string]float64{"gcn": 80, "dann": 80.5, "geomix1": 81, "geomix3": 80.2}
	gain := map[string]float64{"pu30-gg-qq": 4}
	sweep := PileupSweep{Shifts: []string{"gg-pu10-pu30", "pu30-gg-qq"}, Methods: []string{"gcn", "dann", "geomix1", "geomix3"}}
	opts := Options{OutDir: dir, Runs: 2, Jobs: 2, Progress: io.Discard, Command: "test"}
	report, path, err := RunPileup(sweep, pileupRunner(acc, gain, &calls), opts)
	if err != nil {
		t.Fatal(err)
	}
	if calls.Load() != 8 {
		t.Errorf("%d trainings, want 8", calls.Load())
	}
	rec, err := ReadRecord(PileupRecordPath(dir, "pu30-gg-qq", "geomix1"))
	if err != nil {
		t.Fatal(err)
	}
	if rec.Pileup == nil || len(rec.Pileup.Runs) != 2 || rec.Pileup.Runs[1].Acc != 86 || !rec.Pileup.Simulated || rec.Pileup.MajorityAcc != 79 {
		t.Errorf("record's pileup metrics: %+v", rec.Pileup)
	}
	md, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"| Method | PU10→PU30 | gg→qq |",
		"| GeoMix-I | 81.50 ± 0.71 · 60.0 · 0.700 | 85.50 ± 0.71 · 60.0 · 0.700 |",
		"| majority class | 79.00 · 50.0 · 0.500 | 79.00 · 50.0 · 0.500 |",
		"**holds**: a variant's mean accuracy is above GCN's in 4 of 4 (shift, variant) pairs",
		"**not judged** (it needs both process shifts and another): the best variant's relative gain in accuracy over GCN per shift is PU10→PU30 +1.24%, gg→qq +6.21%",
		"**holds**: the best GeoMix variant's accuracy is above the best of DANN, Mixup and GraphMix on 2 of 2 shifts",
		"not the Zenodo Delphes files",
	} {
		if !strings.Contains(string(md), want) {
			t.Errorf("report lacks %q:\n%s", want, md)
		}
	}
	if lines := strings.Split(string(md), "\n"); !strings.HasPrefix(lines[4], "| Method |") {
		t.Errorf("the table does not start on line 5:\n%s", md)
	}
	if _, above := report.AboveERM(false); above != 4 {
		t.Errorf("above ERM: %d, want 4", above)
	}
	cats, series := report.Bars()
	if len(cats) != 2 || len(series) != 5 || series[2].Values[1] != 85.5 || series[4].Name != "majority class" || series[4].Values[0] != 79 {
		t.Errorf("bars: %v %+v", cats, series)
	}
	if _, _, err := RunPileup(sweep, pileupRunner(acc, gain, &calls), opts); err != nil || calls.Load() != 8 {
		t.Errorf("rerun: %d trainings in all (want 8), err %v", calls.Load(), err)
	}
	plan, err := PlanPileup(sweep, opts)
	if err != nil || len(plan) != 8 || plan[0].State != StateFinished {
		t.Errorf("plan after the sweep: %v, %v", plan, err)
	}
}

// TestRunPileupMissingMetrics: a runner that returns fewer runs' metrics than runs fails the point,
// naming the counts; a bad shift or method is an error naming it.
func TestRunPileupMissingMetrics(t *testing.T) {
	runner := func(c Cell) (*geomix.Result, *PileupCell, error) {
		res := &geomix.Result{Dataset: c.Dataset, Method: c.Method, Runs: c.Runs, PerRun: []geomix.RunResult{{Run: 0, TestAcc: 70}}}
		return res, &PileupCell{}, nil
	}
	sweep := PileupSweep{Shifts: []string{"gg-pu30-pu50"}, Methods: []string{"gcn"}}
	_, _, err := RunPileup(sweep, runner, Options{OutDir: t.TempDir(), Runs: 1, Progress: io.Discard})
	var fe *FigureError
	if !errors.As(err, &fe) || !strings.Contains(err.Error(), "metrics of 0 runs, want 1") {
		t.Errorf("err = %v", err)
	}
	if err := (PileupSweep{Shifts: []string{"gg-pu10-pu20"}, Methods: []string{"gcn"}}).Check(); err == nil || !strings.Contains(err.Error(), `"gg-pu10-pu20"`) {
		t.Errorf("bad shift: %v", err)
	}
	if err := (PileupSweep{Shifts: []string{"gg-pu10-pu30"}, Methods: []string{"gat"}}).Check(); err == nil || !strings.Contains(err.Error(), `"gat"`) {
		t.Errorf("bad method: %v", err)
	}
}

// TestPileupNames: every shift has a printed name and a preset for every method of the figure.
func TestPileupNames(t *testing.T) {
	for _, s := range pileup.Shifts {
		if PileupShiftNames[s.Name] == "" {
			t.Errorf("no printed name for %s", s.Name)
		}
		for _, m := range PileupMethods {
			if _, err := geomix.PresetFor(PileupPrefix+s.Name, m); err != nil {
				t.Error(err)
			}
		}
	}
}

// TestPileupProcessClaim: with the process shifts' relative gains the two largest of three shifts
// the claim holds; with a pileup shift's above one of them it does not.
func TestPileupProcessClaim(t *testing.T) {
	sweep := PileupSweep{Shifts: []string{"gg-pu10-pu30", "pu30-gg-qq", "pu30-qq-gg"}, Methods: []string{"gcn", "geomix1"}}
	for _, c := range []struct {
		gain map[string]float64
		want string
	}{
		{map[string]float64{"gg-pu10-pu30": 1, "pu30-gg-qq": 4, "pu30-qq-gg": 8}, "(gg→qq, qq→gg): **holds**"},
		{map[string]float64{"gg-pu10-pu30": 5, "pu30-gg-qq": 4, "pu30-qq-gg": 8}, "(gg→qq, qq→gg): **does not hold**"},
	} {
		var calls atomic.Int32
		opts := Options{OutDir: t.TempDir(), Runs: 1, Progress: io.Discard}
		report, _, err := RunPileup(sweep, pileupRunner(map[string]float64{"gcn": 80, "geomix1": 80}, c.gain, &calls), opts)
		if err != nil {
			t.Fatal(err)
		}
		if md := report.Markdown(); !strings.Contains(md, c.want) {
			t.Errorf("gains %v: the report lacks %q:\n%s", c.gain, c.want, md)
		}
		if order := report.LargestGainShifts(); order[0] != "pu30-qq-gg" {
			t.Errorf("largest gain first: %v", order)
		}
	}
}
