package tables

import (
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/geomix-go/geomix/datasets"
	"github.com/geomix-go/geomix/geomix"
	"github.com/geomix-go/geomix/geomix/backbones"
	"github.com/geomix-go/geomix/geomix/training"
)

// tuneFake trains a configuration instantly: its validation and test accuracies are functions of
// its settings, its trainable parameters 10 × hidden; it counts the calls by tuneKey and fails the
// keys in fail.
type tuneFake struct {
	mu        sync.Mutex
	calls     map[string]int
	fail      map[string]bool
	val, test func(settings map[string]any) float64
}

func newTuneFake(val, test func(map[string]any) float64) *tuneFake {
	return &tuneFake{calls: map[string]int{}, fail: map[string]bool{}, val: val, test: test}
}

func (f *tuneFake) run(c Cell) (*geomix.Result, error) {
	id := tuneKey(c.Dataset, c.Method, ConfigID(c.Params))
	f.mu.Lock()
	f.calls[id]++
	fail := f.fail[id]
	f.mu.Unlock()
	if fail {
		return nil, fmt.Errorf("fake failure of %s", id)
	}
	params := maps.Clone(c.Params)
	params[training.ParamSeed] = 123
	hidden, _ := c.Params[backbones.ParamHidden].(int)
	val, test := f.val(c.Params), f.test(c.Params)
	res := &geomix.Result{Dataset: c.Dataset, Method: c.Method, Backbone: "gcn", Runs: c.Runs, TestAccMean: test, ValAccMean: val,
		SecondsTotal: 2, Params: params, TrainableParams: 10 * hidden}
	for i := range c.Runs {
		res.PerRun = append(res.PerRun, geomix.RunResult{Run: i, TestAcc: test, ValAcc: val})
	}
	return res, nil
}

func (f *tuneFake) total() int {
	n := 0
	for _, c := range f.calls {
		n += c
	}
	return n
}

func tuneOptions(dir string) Options {
	return Options{OutDir: dir, Command: "go run ./reproduce tune --table table2", GitRevision: "abc1234", Progress: io.Discard}
}

// byLR is a validation accuracy that grows with the learning rate (every hidden width ties), and
// its opposite as the test accuracy, so that a selection reading the test accuracy would pick
// another configuration.
func byLR(s map[string]any) float64      { return 70 + 100*s[training.ParamLR].(float64) }
func againstLR(s map[string]any) float64 { return 100 - byLR(s) }

// TestTuneSelectsByValidation: Table 2's Cora GCN tries 24 of the 240 configurations; the selected
// cell is the configuration with the highest validation accuracy (not the highest test accuracy),
// among those the one with the fewest parameters, then the smallest id; its record is the
// configuration's, with the tuning's summary, and the report shows the validation-selected group
// first with its settings and tuning time, then the script settings group.
func TestTuneSelectsByValidation(t *testing.T) {
	dir := t.TempDir()
	fake := newTuneFake(byLR, againstLR)
	sweep := TuneSweep{Table: "table2", Datasets: []string{"cora"}, Methods: []string{"gcn"}, Seed: 1}
	report, path, err := RunTune(sweep, fake.run, tuneOptions(dir))
	if err != nil {
		t.Fatal(err)
	}
	if fake.total() != DefaultTuneSize || path != ReportPath(dir, "table2") {
		t.Fatalf("%d trainings, report %s; want %d and %s", fake.total(), path, DefaultTuneSize, ReportPath(dir, "table2"))
	}
	configs, total, err := TuneConfigs("gcn", DefaultTuneSize, 1)
	if err != nil || total != 240 {
		t.Fatalf("TuneConfigs: %d of %d, %v", len(configs), total, err)
	}
	var want TuneConfig // highest lr, then smallest hidden, then smallest id: worked out apart from rankCandidates
	for _, c := range configs {
		lr, h := c.Settings[training.ParamLR].(float64), c.Settings[backbones.ParamHidden].(int)
		if want.ID == "" {
			want = c
			continue
		}
		wlr, wh := want.Settings[training.ParamLR].(float64), want.Settings[backbones.ParamHidden].(int)
		if lr > wlr || lr == wlr && (h < wh || h == wh && c.ID < want.ID) {
			want = c
		}
	}
	rec, err := readSelected(TunedRecordPath(dir, "table2", "cora", "gcn"), "table2", "cora", "gcn")
	if err != nil {
		t.Fatal(err)
	}
	tu := rec.Tuning
	if tu.ConfigID != want.ID || tu.Tried != 24 || tu.GridSize != 240 || tu.SubsetSeed != 1 || tu.TuningSeconds != 48 ||
		tu.SelectedFrom != "tune/table2/cora-gcn/"+want.ID+".json" || len(tu.Candidates) != 24 {
		t.Errorf("selected %+v; want config %s (%v) of 24 of 240, 48 s of tuning", tu, want.ID, want.Settings)
	}
	if rec.TestAccMean != againstLR(want.Settings) || rec.ValAccMean != byLR(want.Settings) {
		t.Errorf("selected cell has test %v val %v, want the configuration's %v and %v", rec.TestAccMean, rec.ValAccMean, againstLR(want.Settings), byLR(want.Settings))
	}
	for i := 1; i < len(tu.Candidates); i++ {
		if tu.Candidates[i].ValAccMean > tu.Candidates[i-1].ValAccMean {
			t.Fatalf("candidates not ranked by validation accuracy: %+v", tu.Candidates)
		}
	}
	var row *Row
	for i := range report.Selected {
		if r := report.Selected[i]; r.Dataset == "cora" && r.Method == "gcn" {
			row = &report.Selected[i]
		}
		if r := report.Selected[i]; r.Method == "geomix1" && !r.ScriptSettings {
			t.Errorf("%s GeoMix-I in the selected group is not marked as keeping the script settings", r.Dataset)
		}
	}
	if row == nil || row.Tuning == nil || row.Ours.Mean != rec.TestAccMean {
		t.Fatalf("report's selected Cora GCN row: %+v", row)
	}
	if report.TuningTime == nil || report.TuningTime.Seconds != 48 || report.TuningTime.Trainings != 1 || report.TuningTime.Of != 56 {
		t.Errorf("tuning time %+v, want 48 s, 1 of 56 tunings (7 data sets × 8 tuned rows)", report.TuningTime)
	}
	md := report.Markdown()
	for _, s := range []string{"## Validation-selected settings (headline)", "| GeoMix-I † |", "## Script settings",
		"Tuning time (every configuration tried): 48 s (1 of the 56 tunings needed)",
		"- Cora, GCN: `" + (&Tuning{Settings: want.Settings}).SettingsString() + "` (validation 75.00, runner-up 75.00; 24 of 240 configurations, seeded subset (seed 1); tuning 48 s)",
		"Claims counted on the validation-selected group", "(validation-selected, `tune/table2/cora-gcn/" + want.ID + ".json`)"} {
		if !strings.Contains(md, s) {
			t.Errorf("report lacks %q:\n%s", s, md)
		}
	}
	if strings.Index(md, "## Validation-selected") > strings.Index(md, "## Script settings") {
		t.Error("the validation-selected group is not first")
	}
}

// TestRankCandidates: the higher validation accuracy first; validation accuracies within 1e-9 tie
// and go to fewer trainable parameters, then to the smaller id.
func TestRankCandidates(t *testing.T) {
	c := []TuneCandidate{{"b", 80, 100}, {"a", 80 + 1e-12, 100}, {"c", 80, 50}, {"d", 81, 900}, {"e", 79, 1}}
	rankCandidates(c)
	var got []string
	for _, x := range c {
		got = append(got, x.ConfigID)
	}
	if want := []string{"d", "c", "a", "b", "e"}; !slices.Equal(got, want) {
		t.Errorf("ranked %v, want %v", got, want)
	}
}

// TestTuneConfigsStable: the seeded subset is the same on every call (pinned: a change of the
// draw would change every committed tuning), distinct, in grid order, and holds every smaller
// subset of the same seed; another seed draws another subset; a size at least the grid's takes the
// whole grid.
func TestTuneConfigsStable(t *testing.T) {
	a, _, err := TuneConfigs("gcn", 24, 1)
	if err != nil {
		t.Fatal(err)
	}
	b, _, _ := TuneConfigs("gcn", 24, 1)
	other, _, _ := TuneConfigs("gcn", 24, 2)
	var ia, io, ib []int
	ids := map[string]bool{}
	for i := range a {
		ia, ib, io = append(ia, a[i].Index), append(ib, b[i].Index), append(io, other[i].Index)
		ids[a[i].ID] = true
	}
	if !slices.Equal(ia, ib) || slices.Equal(ia, io) || !slices.IsSorted(ia) || len(ids) != 24 {
		t.Errorf("seed 1: %v and %v, seed 2: %v; want equal, different from seed 2's, sorted, 24 distinct", ia, ib, io)
	}
	if want := pinnedGCNSubset; !slices.Equal(ia, want) {
		t.Errorf("gcn's subset of 24 with seed 1 is %v, was %v", ia, want)
	}
	small, _, _ := TuneConfigs("gcn", 6, 1)
	for _, c := range small {
		if !ids[c.ID] {
			t.Errorf("configuration %s of the subset of 6 is not in the subset of 24 with the same seed", c.ID)
		}
	}
	all, total, _ := TuneConfigs("sgc", 100, 1)
	if total != 32 || len(all) != 32 || all[31].Index != 31 {
		t.Errorf("sgc with size 100: %d of %d configurations, want all 32", len(all), total)
	}
	if _, _, err := TuneConfigs("gcn", 0, 1); err == nil {
		t.Error("size 0 gave no error")
	}
}

// pinnedGCNSubset is TuneConfigs("gcn", 24, 1)'s grid indices.
var pinnedGCNSubset = []int{7, 14, 17, 20, 26, 35, 42, 64, 94, 99, 106, 111, 120, 129, 132, 149, 157, 169, 185, 189, 207, 215, 227, 237}

// TestTuneResume: a tuning with failed configurations stores the others, writes no selected cell
// and the report shows the cell in progress; the same sweep then trains only the failed ones and
// selects; a third run trains nothing and leaves the selected record's bytes as they were.
func TestTuneResume(t *testing.T) {
	dir := t.TempDir()
	fake := newTuneFake(byLR, againstLR)
	sweep := TuneSweep{Table: "table2", Datasets: []string{"cora"}, Methods: []string{"gcn"}, Size: 6, Seed: 3}
	configs, _, _ := TuneConfigs("gcn", 6, 3)
	failed := []string{tuneKey("cora", "gcn", configs[1].ID), tuneKey("cora", "gcn", configs[4].ID)}
	fake.fail[failed[0]], fake.fail[failed[1]] = true, true
	report, _, err := RunTune(sweep, fake.run, tuneOptions(dir))
	var fe *FigureError
	if !errors.As(err, &fe) || len(fe.Failed) != 2 || fe.Of != 6 {
		t.Fatalf("err %v, want a FigureError with 2 of 6 failed", err)
	}
	if _, err := os.Stat(TunedRecordPath(dir, "table2", "cora", "gcn")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("selected cell written with 2 configurations missing: %v", err)
	}
	if report != nil && report.Selected != nil {
		t.Errorf("report has a selected group before any cell is selected")
	}
	if rep, err := LoadReport(dir, "table2"); err != nil || rep.Selected != nil {
		t.Errorf("LoadReport: %v, selected %v; want no selected group yet", err, rep.Selected)
	}
	status, err := TuneStatus(sweep, tuneOptions(dir))
	if err != nil || len(status) != 1 || status[0].Finished != 4 || status[0].Tried != 6 || status[0].Selected != nil {
		t.Errorf("status %+v, %v; want 4 of 6 finished, none selected", status, err)
	}
	if p, want := tuneProgress(dir, "table2", "cora", "gcn"), "4 of 6 configurations stored (the same tune command resumes it)"; p != want {
		t.Errorf("progress %q, want %q", p, want)
	}

	clear(fake.fail)
	fake.calls = map[string]int{}
	if _, _, err := RunTune(sweep, fake.run, tuneOptions(dir)); err != nil {
		t.Fatal(err)
	}
	if fake.total() != 2 || fake.calls[failed[0]] != 1 || fake.calls[failed[1]] != 1 {
		t.Errorf("resumed sweep trained %v, want only the 2 failed configurations", fake.calls)
	}
	path := TunedRecordPath(dir, "table2", "cora", "gcn")
	first, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	fake.calls = map[string]int{}
	if _, _, err := RunTune(sweep, fake.run, tuneOptions(dir)); err != nil {
		t.Fatal(err)
	}
	second, _ := os.ReadFile(path)
	if fake.total() != 0 || string(first) != string(second) {
		t.Errorf("third run trained %d configurations; selected record changed: %v", fake.total(), string(first) != string(second))
	}
}

// TestTuneShards: two shards over one folder train disjoint configurations that together make the
// whole tuning; the selected cell is written once both are done, by the second.
func TestTuneShards(t *testing.T) {
	dir := t.TempDir()
	sweep := TuneSweep{Table: "table2", Datasets: []string{"cora", "citeseer"}, Methods: []string{"gcn", "sgc"}, Size: 5, Seed: 1}
	fakes := []*tuneFake{newTuneFake(byLR, againstLR), newTuneFake(byLR, againstLR)}
	for i, fake := range fakes {
		opts := tuneOptions(dir)
		opts.Shard = Shard{Index: i + 1, Count: 2}
		if i == 0 {
			plan, err := PlanTune(sweep, opts)
			if err != nil || len(plan) != 20 {
				t.Fatalf("plan: %d configurations, %v; want 2 data sets × 2 rows × 5", len(plan), err)
			}
		}
		if _, _, err := RunTune(sweep, fake.run, opts); err != nil {
			t.Fatal(err)
		}
		if i == 0 {
			status, _ := TuneStatus(sweep, opts)
			for _, s := range status {
				if s.Finished == s.Tried {
					t.Errorf("%s/%s has every configuration after shard 1 of 2", s.Dataset, s.Method)
				}
			}
		}
	}
	for id := range fakes[0].calls {
		if fakes[1].calls[id] > 0 {
			t.Errorf("configuration %s trained by both shards", id)
		}
	}
	if n := fakes[0].total() + fakes[1].total(); n != 20 || fakes[0].total() == 0 || fakes[1].total() == 0 {
		t.Errorf("shards trained %d and %d configurations, want 20 in all, some in each", fakes[0].total(), fakes[1].total())
	}
	for _, d := range []string{"cora", "citeseer"} {
		for _, m := range []string{"gcn", "sgc"} {
			if _, err := readSelected(TunedRecordPath(dir, "table2", d, m), "table2", d, m); err != nil {
				t.Errorf("selected %s/%s: %v", d, m, err)
			}
		}
	}
}

// TestTuneCheck: what cannot be tuned is an error naming it; Table 3 tunes GeoMix too.
func TestTuneCheck(t *testing.T) {
	for _, c := range []struct {
		sweep TuneSweep
		want  string
	}{
		{TuneSweep{Table: "table5"}, "table5 is not tuned"},
		{TuneSweep{Table: "table9"}, "table9"},
		{TuneSweep{Table: "table2", Methods: []string{"geomix1"}}, "keeps the authors' script settings"},
		{TuneSweep{Table: "table2", Methods: []string{"eerm"}}, "no row \"eerm\""},
		{TuneSweep{Table: "table2", Datasets: []string{"mars"}}, "no data set \"mars\""},
		{TuneSweep{Table: "table2", Size: -1}, "tune size -1"},
	} {
		if err := c.sweep.Check(); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: %v, want an error with %q", c.sweep, err, c.want)
		}
	}
	if err := (TuneSweep{Table: "table3", Methods: []string{"geomix2", "erm"}}).Check(); err != nil {
		t.Errorf("table3 geomix2, erm: %v", err)
	}
}

// TestTuneQuick: a quick tuning tries QuickTuneSize configurations of 1 run on the quick data
// sets, stored with quick=true, and its selected cell is labelled quick in the report.
func TestTuneQuick(t *testing.T) {
	dir := t.TempDir()
	fake := newTuneFake(byLR, againstLR)
	opts := tuneOptions(dir)
	opts.Quick = true
	report, _, err := RunTune(TuneSweep{Table: "table2", Methods: []string{"sgc"}, Seed: 1}, fake.run, opts)
	if err != nil {
		t.Fatal(err)
	}
	if fake.total() != QuickTuneSize*len(QuickDatasets) {
		t.Errorf("%d trainings, want %d configurations × %d quick data sets", fake.total(), QuickTuneSize, len(QuickDatasets))
	}
	rec, err := readSelected(TunedRecordPath(dir, "table2", "chameleon", "sgc"), "table2", "chameleon", "sgc")
	if err != nil || !rec.Quick || rec.Runs != 1 || rec.Tuning.Tried != QuickTuneSize {
		t.Fatalf("quick selected cell %+v, %v", rec, err)
	}
	if md := report.Markdown(); !strings.Contains(md, "(quick)") || !strings.Contains(md, "NOT the paper's protocol") {
		t.Errorf("quick selected cells not labelled:\n%s", md)
	}
	paths, _ := filepath.Glob(filepath.Join(dir, "tune", "table2", "cora-sgc", "*.json"))
	if len(paths) != QuickTuneSize {
		t.Errorf("%d configuration records for cora/sgc, want %d", len(paths), QuickTuneSize)
	}
}

// TestTuneStopResumes: a tuning stopped (Options.Stop) after its second configuration keeps the
// two records, reports the stop, and the same sweep then trains only the others.
func TestTuneStopResumes(t *testing.T) {
	dir := t.TempDir()
	fake := newTuneFake(byLR, againstLR)
	stop := make(chan struct{})
	runner := func(c Cell) (*geomix.Result, error) {
		res, err := fake.run(c)
		if fake.total() == 2 {
			close(stop)
		}
		return res, err
	}
	sweep := TuneSweep{Table: "table2", Datasets: []string{"cora"}, Methods: []string{"gcn"}, Size: 5, Seed: 1}
	opts := tuneOptions(dir)
	opts.Stop = stop
	if _, _, err := RunTune(sweep, runner, opts); !errors.Is(err, ErrStopped) {
		t.Fatalf("err %v, want ErrStopped", err)
	}
	if status, _ := TuneStatus(sweep, opts); len(status) != 1 || status[0].Finished != 2 {
		t.Fatalf("after the stop: %+v, want 2 of 5 finished", status)
	}
	fake.calls = map[string]int{}
	if _, _, err := RunTune(sweep, fake.run, tuneOptions(dir)); err != nil {
		t.Fatal(err)
	}
	if fake.total() != 3 {
		t.Errorf("resumed sweep trained %d configurations, want the 3 left", fake.total())
	}
	if _, err := readSelected(TunedRecordPath(dir, "table2", "cora", "gcn"), "table2", "cora", "gcn"); err != nil {
		t.Error(err)
	}
}

// syntheticAsCora is the preset runner training the embedded synthetic data set in place of
// Cora's cell.
func syntheticAsCora(t *testing.T) CellRunner {
	t.Helper()
	backend, err := geomix.NewBackend()
	if err != nil {
		t.Fatal(err)
	}
	preset := PresetCells(backend, datasets.Options{Offline: true}, nil)
	return func(c Cell) (*geomix.Result, error) {
		c.Dataset = "synthetic"
		res, err := preset(c)
		if res != nil {
			res.Dataset = "cora"
		}
		return res, err
	}
}

// TestTuneRealTraining: a quick tuning with the preset runner, really training GCN on the
// embedded synthetic data set (in place of Cora's cell), stores each configuration with its
// settings in effect and its parameter count, and the selected cell's numbers are exactly those
// of training the selected configuration once more, which is why the selection run stands as the
// cell.
func TestTuneRealTraining(t *testing.T) {
	if testing.Short() {
		t.Skip("trains four quick configurations (~10 s)")
	}
	synthetic := syntheticAsCora(t)
	dir := t.TempDir()
	opts := tuneOptions(dir)
	opts.Quick = true
	sweep := TuneSweep{Table: "table2", Datasets: []string{"cora"}, Methods: []string{"gcn"}, Seed: 1}
	if _, _, err := RunTune(sweep, synthetic, opts); err != nil {
		t.Fatal(err)
	}
	sel, err := readSelected(TunedRecordPath(dir, "table2", "cora", "gcn"), "table2", "cora", "gcn")
	if err != nil {
		t.Fatal(err)
	}
	params := map[int]bool{}
	for _, c := range sel.Tuning.Candidates {
		params[c.TrainableParams] = true
	}
	configs, _, _ := TuneConfigs("gcn", QuickTuneSize, 1)
	hidden := map[any]bool{}
	for _, c := range configs {
		hidden[c.Settings[backbones.ParamHidden]] = true
	}
	if len(params) != len(hidden) || sel.TrainableParams == 0 {
		t.Errorf("candidates' parameter counts %v for hidden widths %v: want one count per width", params, hidden)
	}
	settings := map[string]any{}
	for _, c := range configs {
		if c.ID == sel.Tuning.ConfigID {
			settings = c.Settings
		}
	}
	again, err := synthetic(Cell{Dataset: "cora", Method: "gcn", Runs: 1, Quick: true, Params: settings})
	if err != nil {
		t.Fatal(err)
	}
	if again.TestAccMean != sel.TestAccMean || again.ValAccMean != sel.ValAccMean {
		t.Errorf("selected cell test %v val %v; the selected configuration trained again gives %v and %v",
			sel.TestAccMean, sel.ValAccMean, again.TestAccMean, again.ValAccMean)
	}
}

// TestTuneScreening: with Screen 2 of 6 configurations, each configuration trains the protocol's
// first run (under screen/), the 2 best by that run's validation accuracy train the full protocol,
// and the selection is made among those by their mean validation accuracy, which here ranks them
// the other way round; the record and the report say so and sum both stages' time; a rerun trains nothing; a
// failed screening run holds the finalists back until it is stored; too many finalists is an error.
func TestTuneScreening(t *testing.T) {
	dir := t.TempDir()
	fake := newTuneFake(byLR, againstLR)
	firstRunFavoursLR := func(c Cell) (*geomix.Result, error) {
		res, err := fake.run(c)
		if err == nil && c.Runs > 1 { // the full protocol's mean ranks the finalists by the lower lr
			res.ValAccMean = 200 - res.ValAccMean
		}
		return res, err
	}
	sweep := TuneSweep{Table: "table2", Datasets: []string{"cora"}, Methods: []string{"gcn"}, Size: 6, Seed: 3, Screen: 2}
	configs, _, _ := TuneConfigs("gcn", 6, 3)
	var ranked []TuneCandidate
	for _, c := range configs {
		ranked = append(ranked, TuneCandidate{ConfigID: c.ID, ValAccMean: byLR(c.Settings), TrainableParams: 10 * c.Settings[backbones.ParamHidden].(int)})
	}
	rankCandidates(ranked)
	last := tuneKey("cora", "gcn", ranked[5].ConfigID)
	fake.fail[last] = true
	if _, _, err := RunTune(sweep, firstRunFavoursLR, tuneOptions(dir)); err == nil {
		t.Fatal("a failed screening run gave no error")
	}
	if fake.total() != 6 {
		t.Fatalf("%d trainings with a screening run failed, want the 6 screening runs only: %v", fake.total(), fake.calls)
	}
	status, err := TuneStatus(sweep, tuneOptions(dir))
	if err != nil || status[0].Screened != 5 || status[0].Finished != 0 || status[0].Selected != nil {
		t.Errorf("status %+v, %v; want 5 of 6 screened, no finalist", status, err)
	}
	if p, want := tuneProgress(dir, "table2", "cora", "gcn"), "5 of 6 screening runs and 0 of 2 finalists stored (the same tune command resumes it)"; p != want {
		t.Errorf("progress %q, want %q", p, want)
	}

	clear(fake.fail)
	fake.calls = map[string]int{}
	report, _, err := RunTune(sweep, firstRunFavoursLR, tuneOptions(dir))
	if err != nil {
		t.Fatal(err)
	}
	md := report.Markdown()
	for _, s := range []string{`except in a cell whose settings below say "screened"`, "seeded subset (seed 3), screened on the first run, the best 2 on the full protocol; tuning 16 s)"} {
		if !strings.Contains(md, s) {
			t.Errorf("report lacks %q:\n%s", s, md)
		}
	}
	if fake.total() != 3 || fake.calls[last] != 1 || fake.calls[tuneKey("cora", "gcn", ranked[0].ConfigID)] != 1 {
		t.Errorf("resumed: %v; want the failed screening run and the 2 finalists", fake.calls)
	}
	for _, c := range configs {
		if _, err := os.Stat(filepath.Join(ScreenDir(dir, "table2", "cora", "gcn"), c.ID+".json")); err != nil {
			t.Errorf("screening run of %s: %v", c.ID, err)
		}
		_, err := os.Stat(filepath.Join(TuneDir(dir, "table2", "cora", "gcn"), c.ID+".json"))
		if finalist := c.ID == ranked[0].ConfigID || c.ID == ranked[1].ConfigID; finalist != (err == nil) {
			t.Errorf("%s: finalist %v, full-protocol record %v", c.ID, finalist, err)
		}
	}
	rec, err := readSelected(TunedRecordPath(dir, "table2", "cora", "gcn"), "table2", "cora", "gcn")
	if err != nil {
		t.Fatal(err)
	}
	tu := rec.Tuning
	if tu.ConfigID != ranked[1].ConfigID || tu.Finalists != 2 || len(tu.Candidates) != 2 || len(tu.Screening) != 6 ||
		tu.TuningSeconds != 16 || tu.Screening[0].ConfigID != ranked[0].ConfigID || rec.Runs != DefaultRuns("cora") {
		t.Errorf("selected %+v (%d runs); want the runner-up of the screening %s, 2 finalists of 6, 16 s", tu, rec.Runs, ranked[1].ConfigID)
	}
	if want := "6 of 240 configurations, seeded subset (seed 3), screened on the first run, the best 2 on the full protocol"; tu.Searched() != want {
		t.Errorf("Searched %q, want %q", tu.Searched(), want)
	}
	fake.calls = map[string]int{}
	if _, _, err := RunTune(sweep, firstRunFavoursLR, tuneOptions(dir)); err != nil || fake.total() != 0 {
		t.Errorf("rerun: %v, %d trainings; want none", err, fake.total())
	}
	sweep.Screen = 6
	if _, _, err := RunTune(sweep, firstRunFavoursLR, tuneOptions(dir)); err == nil || !strings.Contains(err.Error(), "fewer finalists than configurations") {
		t.Errorf("6 finalists of 6: %v", err)
	}
}

// TestTuneScreeningRealTraining: a screening run is the full protocol's first run: with the preset
// runner on the embedded synthetic data set, the finalist's screening record holds exactly the
// validation and test accuracy of the first run of its full-protocol record.
func TestTuneScreeningRealTraining(t *testing.T) {
	if testing.Short() {
		t.Skip("trains quick configurations (~10 s)")
	}
	synthetic := syntheticAsCora(t)
	dir := t.TempDir()
	opts := tuneOptions(dir)
	opts.Quick, opts.Runs = true, 2
	sweep := TuneSweep{Table: "table2", Datasets: []string{"cora"}, Methods: []string{"gcn"}, Seed: 1, Screen: 1}
	if _, _, err := RunTune(sweep, synthetic, opts); err != nil {
		t.Fatal(err)
	}
	sel, err := readSelected(TunedRecordPath(dir, "table2", "cora", "gcn"), "table2", "cora", "gcn")
	if err != nil {
		t.Fatal(err)
	}
	screen, err := ReadRecord(filepath.Join(ScreenDir(dir, "table2", "cora", "gcn"), sel.Tuning.ConfigID+".json"))
	if err != nil {
		t.Fatal(err)
	}
	if sel.Runs != 2 || screen.Runs != 1 || len(sel.PerRun) != 2 || sel.Tuning.Screening[0].ConfigID != sel.Tuning.ConfigID {
		t.Fatalf("selected %d runs, screening %d runs, screening ranking %+v", sel.Runs, screen.Runs, sel.Tuning.Screening)
	}
	if screen.PerRun[0].ValAcc != sel.PerRun[0].ValAcc || screen.PerRun[0].TestAcc != sel.PerRun[0].TestAcc {
		t.Errorf("screening run val %v test %v; the full protocol's first run %v and %v",
			screen.PerRun[0].ValAcc, screen.PerRun[0].TestAcc, sel.PerRun[0].ValAcc, sel.PerRun[0].TestAcc)
	}
}

// tuneCoraSGC runs sweep (Table 2's Cora SGC cell) under dir and returns its selected record's
// path and bytes.
func tuneCoraSGC(t *testing.T, sweep TuneSweep, fake *tuneFake, dir string) (string, []byte) {
	t.Helper()
	if _, _, err := RunTune(sweep, fake.run, tuneOptions(dir)); err != nil {
		t.Fatal(err)
	}
	path := TunedRecordPath(dir, "table2", "cora", "sgc")
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return path, b
}

// TestTuneScreenKeepsFullSearch: a cell whose configurations are all stored on the full protocol
// keeps its search when a screening sweep comes to it: nothing trains and its selected record
// stays as it is.
func TestTuneScreenKeepsFullSearch(t *testing.T) {
	dir := t.TempDir()
	fake := newTuneFake(byLR, againstLR)
	sweep := TuneSweep{Table: "table2", Datasets: []string{"cora"}, Methods: []string{"sgc"}, Size: 6, Seed: 3}
	path, before := tuneCoraSGC(t, sweep, fake, dir)
	sweep.Screen = 2
	fake.calls = map[string]int{}
	if _, _, err := RunTune(sweep, fake.run, tuneOptions(dir)); err != nil || fake.total() != 0 {
		t.Fatalf("screening sweep over a finished search: %v, %d trainings; want none", err, fake.total())
	}
	after, _ := os.ReadFile(path)
	status, err := TuneStatus(sweep, tuneOptions(dir))
	if string(before) != string(after) || err != nil || status[0].Finalists != 0 || status[0].Selected == nil {
		t.Errorf("selected record changed %v; status %+v, %v", string(before) != string(after), status, err)
	}
	if c, err := FinalistsCost(sweep, tuneOptions(dir)); err != nil || c.Cells != 0 {
		t.Errorf("finalists to train: %+v, %v; want none", c, err)
	}
}

// TestTuneLargerSearchStands: a cell selected from its whole grid keeps that selection when a
// search of a smaller subset of the same grid finishes later.
func TestTuneLargerSearchStands(t *testing.T) {
	dir := t.TempDir()
	fake := newTuneFake(byLR, againstLR)
	whole := TuneSweep{Table: "table2", Datasets: []string{"cora"}, Methods: []string{"sgc"}, Size: 32, Seed: 3}
	path, before := tuneCoraSGC(t, whole, fake, dir)
	small := whole
	small.Size = 6
	if _, _, err := RunTune(small, fake.run, tuneOptions(dir)); err != nil {
		t.Fatal(err)
	}
	after, _ := os.ReadFile(path)
	if rec, err := readSelected(path, "table2", "cora", "sgc"); err != nil || rec.Tuning.Tried != 32 || string(before) != string(after) {
		t.Errorf("after a 6-configuration search the selected cell is %+v, %v; want the 32-configuration one unchanged", rec.Tuning, err)
	}
	if status, err := TuneStatus(small, tuneOptions(dir)); err != nil || status[0].Selected == nil || status[0].Selected.Tuning.Tried != 32 {
		t.Errorf("status of the 6-configuration search: %+v, %v; want the standing 32-configuration selection", status, err)
	}
}
