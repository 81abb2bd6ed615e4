package tables

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/geomix-go/geomix/geomix"
	"github.com/geomix-go/geomix/geomix/training"
)

// fakeRunner returns results whose every run has accuracy means[dataset/method] (default 50) and
// counts its calls per cell. Like a real runner it leaves a checkpoint file when a cell fails, and it
// records whether the cell's checkpoint existed when it was called.
type fakeRunner struct {
	means   map[string]float64
	calls   map[string]int
	fail    map[string]bool    // cells that return an error
	resumed map[string]bool    // cells whose checkpoint existed at the call
	seconds map[string]float64 // cells' seconds_total (default 0.5)
}

func newFake(means map[string]float64) *fakeRunner {
	return &fakeRunner{means: means, calls: map[string]int{}, fail: map[string]bool{}, resumed: map[string]bool{}, seconds: map[string]float64{}}
}

func (f *fakeRunner) total() int {
	n := 0
	for _, c := range f.calls {
		n += c
	}
	return n
}

func (f *fakeRunner) run(c Cell) (*geomix.Result, error) {
	dataset, method, runs := c.Dataset, c.Method, c.Runs
	key := dataset + "/" + method
	f.calls[key]++
	if _, err := os.Stat(c.Checkpoint); c.Checkpoint != "" && err == nil {
		f.resumed[key] = true
	}
	if f.fail[key] {
		if c.Checkpoint != "" {
			if err := os.WriteFile(c.Checkpoint, []byte("state after run 1"), 0o644); err != nil {
				return nil, err
			}
		}
		return nil, fmt.Errorf("fake failure of %s", key)
	}
	mean, ok := f.means[key]
	if !ok {
		mean = 50
	}
	seconds, ok := f.seconds[key]
	if !ok {
		seconds = 0.5
	}
	res := &geomix.Result{Dataset: dataset, Method: method, Backbone: "gcn", Runs: runs, TestAccMean: mean,
		ValAccMean: mean + 1, EpochMsMedian: 2, SecondsTotal: seconds,
		Params: map[string]any{training.ParamSeed: 123, training.ParamLR: 0.01}}
	if dataset == "twitch-ood" {
		res.ExtraTests = map[string]geomix.MeanStd{"FR": {Mean: mean - 1, Std: 1}, "PTBR": {Mean: mean, Std: 2}, "RU": {Mean: mean + 1, Std: 3}}
	}
	for i := range runs {
		res.PerRun = append(res.PerRun, geomix.RunResult{Run: i, TestAcc: mean, ValAcc: mean + 1})
	}
	return res, nil
}

func table5(t *testing.T) *Spec {
	t.Helper()
	s, err := SpecFor("table5")
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func testOptions(dir string) Options {
	return Options{OutDir: dir, Command: "go run ./reproduce table5", GitRevision: "abc1234", Progress: io.Discard}
}

// TestRunWritesEveryCell runs Table 5 with a fake runner and checks the stored record's keys and
// values, the number of runs per data set, and the report.
func TestRunWritesEveryCell(t *testing.T) {
	dir := t.TempDir()
	fake := newFake(map[string]float64{"cora/geomix1": 80, "cora/randommix": 78, "cora/gcn": 81.6, "citeseer/gcn": 60})
	var progress strings.Builder
	o := testOptions(dir)
	o.Progress = &progress
	sweep, err := Run(table5(t), fake.run, o)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"table5 cell 1 of 12, cora/gcn: running 5 run(s), quick=false; elapsed 0s, ETA unknown",
		"table5 cell 12 of 12, squirrel/nolocality: running 10 run(s)", "ETA ", "table5 cell 2 of 12, cora/geomix1: 80.00 ± 0.00 in "} {
		if !strings.Contains(progress.String(), want) {
			t.Errorf("progress lacks %q:\n%s", want, progress.String())
		}
	}
	if sweep.Ran != 12 || sweep.Skipped != 0 || fake.total() != 12 {
		t.Fatalf("ran %d, skipped %d, runner calls %d; want 12, 0, 12", sweep.Ran, sweep.Skipped, fake.total())
	}
	data, err := os.ReadFile(filepath.Join(dir, "table5", "squirrel-nolocality.json"))
	if err != nil {
		t.Fatal(err)
	}
	var raw map[string]any
	if err := json.Unmarshal(data, &raw); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"dataset", "method", "backbone", "runs", "test_acc_mean", "test_acc_std", "val_acc_mean",
		"epoch_ms_median", "seconds_total", "per_run", "params", "command", "seed", "git_revision", "test_accs",
		"wall_seconds", "quick", "table", "finished_at"} {
		if _, ok := raw[k]; !ok {
			t.Errorf("record lacks key %q", k)
		}
	}
	if raw["runs"] != 10.0 || raw["seed"] != 123.0 || raw["quick"] != false || raw["git_revision"] != "abc1234" ||
		raw["command"] != "go run ./reproduce table5" || len(raw["test_accs"].([]any)) != 10 {
		t.Errorf("squirrel record: runs %v seed %v quick %v rev %v command %v test_accs %v", raw["runs"], raw["seed"],
			raw["quick"], raw["git_revision"], raw["command"], raw["test_accs"])
	}
	if r, err := ReadRecord(RecordPath(dir, "table5", "cora", "gcn")); err != nil || r.Runs != 5 {
		t.Errorf("cora/gcn record: %v, err %v; want 5 runs", r, err)
	}

	rows := map[string]Row{}
	for _, r := range sweep.Report.Rows {
		rows[r.Dataset+"/"+r.Method] = r
	}
	// Hand-computed: (78 − 80) / 80 = −2.5 %; 81.6 − 81.6 = 0; 60 − 71.6 = −11.6 > max(0.6, 1) → flagged.
	if r := rows["cora/randommix"]; r.RelChange == nil || *r.RelChange != -2.5 || *r.PaperRelChange != -2.38 {
		t.Errorf("cora/randommix Δ vs GeoMix-I = %v (paper %v), want -2.5 (-2.38)", r.RelChange, r.PaperRelChange)
	}
	if r := rows["cora/gcn"]; r.RelChange != nil {
		t.Errorf("cora/gcn has a Δ vs GeoMix-I (%v) where the paper prints none", *r.RelChange)
	}
	if r := rows["cora/gcn"]; r.Diff == nil || *r.Diff != 0 || r.Flagged {
		t.Errorf("cora/gcn diff %v flagged %v, want 0, false", r.Diff, r.Flagged)
	}
	if r := rows["citeseer/gcn"]; r.Diff == nil || math.Abs(*r.Diff+11.6) > 1e-9 || !r.Flagged {
		t.Errorf("citeseer/gcn diff %v flagged %v, want -11.6, true", *r.Diff, r.Flagged)
	}
	md, err := os.ReadFile(ReportPath(dir, "table5"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"| Random Mix | 78.00 ± 0.00 (-2.50%) / 82.10 ± 0.50 (-2.38%) ⚠ |",
		"| GCN | 81.60 ± 0.00 / 81.60 ± 0.50 | 60.00 ± 0.00 / 71.60 ± 0.30 ⚠ | 50.00 ± 0.00 / 39.50 ± 1.50 ⚠ |",
		"Rendered by `go run ./reproduce table5`",
		"12 of 12 cells have results",
	} {
		if !strings.Contains(string(md), want) {
			t.Errorf("report lacks %q:\n%s", want, md)
		}
	}
	if strings.Contains(string(md), "NOT the paper's protocol") {
		t.Error("a report without quick cells warns about quick cells")
	}
}

// TestRunResumes interrupts a sweep (one failing cell) and checks the rerun calls only that cell,
// with the checkpoint the failed call left (deleted once the cell is done), a third run calls
// nothing, and Force (without the checkpoint) or other runs/quick settings rerun.
func TestRunResumes(t *testing.T) {
	dir := t.TempDir()
	fake := newFake(nil)
	fake.fail["citeseer/randommix"] = true
	sweep, err := Run(table5(t), fake.run, testOptions(dir))
	if err == nil || !strings.Contains(err.Error(), "1 of 12 cells of table5 failed: citeseer/randommix") {
		t.Fatalf("err = %v, want the failed cell named", err)
	}
	if fake.total() != 12 || sweep.Ran != 11 || len(sweep.Failed) != 1 {
		t.Fatalf("calls %d, ran %d, failed %d: a failing cell must not stop the others", fake.total(), sweep.Ran, len(sweep.Failed))
	}
	for _, r := range sweep.Report.Rows {
		if r.Dataset+"/"+r.Method == "citeseer/randommix" && (r.Status != StatusFailed || !strings.Contains(r.Error, "fake failure")) {
			t.Errorf("failed cell row: %+v", r)
		}
	}
	if _, err := os.Stat(RecordPath(dir, "table5", "citeseer", "randommix")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a failed cell left a record: %v", err)
	}
	checkpoint := CheckpointPath(dir, "table5", "citeseer", "randommix")
	if _, err := os.Stat(checkpoint); err != nil {
		t.Errorf("the failed cell's checkpoint is gone: %v", err)
	}

	resumed := newFake(nil)
	var progress strings.Builder
	o := testOptions(dir)
	o.Progress = &progress
	sweep, err = Run(table5(t), resumed.run, o)
	if want := "table5 cell 1 of 12, cora/gcn: finished earlier"; !strings.Contains(progress.String(), want) {
		t.Errorf("progress lacks %q:\n%s", want, progress.String())
	}
	if err != nil || resumed.total() != 1 || resumed.calls["citeseer/randommix"] != 1 || sweep.Skipped != 11 {
		t.Fatalf("resume: err %v, calls %v, skipped %d; want only citeseer/randommix", err, resumed.calls, sweep.Skipped)
	}
	if _, err := os.Stat(checkpoint); !resumed.resumed["citeseer/randommix"] || !errors.Is(err, os.ErrNotExist) {
		t.Errorf("resume: checkpoint seen %v, stat after the cell %v; want it handed to the runner, then deleted", resumed.resumed, err)
	}
	again := newFake(nil)
	if _, err := Run(table5(t), again.run, testOptions(dir)); err != nil || again.total() != 0 {
		t.Fatalf("finished sweep: err %v, calls %d; want 0", err, again.total())
	}

	for name, mod := range map[string]func(*Options){
		"force": func(o *Options) { o.Force = true },
		"runs":  func(o *Options) { o.Runs = 2 },
		"quick": func(o *Options) { o.Quick, o.Datasets = true, []string{"cora", "citeseer", "squirrel"} },
	} {
		f := newFake(nil)
		o := testOptions(dir)
		o.Methods = []string{"gcn"}
		mod(&o)
		stale := CheckpointPath(dir, "table5", "cora", "gcn")
		if err := os.WriteFile(stale, []byte("old state"), 0o644); err != nil {
			t.Fatal(err)
		}
		if _, err := Run(table5(t), f.run, o); err != nil || f.total() != 3 {
			t.Errorf("%s: err %v, calls %v; want all 3 gcn cells rerun", name, err, f.calls)
		}
		if name != "runs" && f.resumed["cora/gcn"] {
			t.Errorf("%s: the runner was handed the old checkpoint", name)
		}
	}
}

// TestRunRerunsDamagedRecord plants a truncated record (as a non-atomic writer killed mid-way would
// leave) and a stray temporary file: the cell is rerun and the report is complete.
func TestRunRerunsDamagedRecord(t *testing.T) {
	dir := t.TempDir()
	o := testOptions(dir)
	o.Datasets, o.Methods = []string{"cora"}, []string{"gcn"}
	if err := os.MkdirAll(filepath.Join(dir, "table5"), 0o755); err != nil {
		t.Fatal(err)
	}
	for name, content := range map[string]string{"cora-gcn.json": `{"dataset": "cora", "runs": 5, "test_ac`, ".cora-gcn.json.tmp42": `{"da`} {
		if err := os.WriteFile(filepath.Join(dir, "table5", name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if rep, err := LoadReport(dir, "table5"); err != nil || rep.Rows[0].Status != StatusUnreadable {
		t.Fatalf("damaged record: err %v, row %+v; want status %q", err, rep.Rows[0], StatusUnreadable)
	}
	f := newFake(map[string]float64{"cora/gcn": 81})
	sweep, err := Run(table5(t), f.run, o)
	if err != nil || f.total() != 1 {
		t.Fatalf("err %v, calls %d; want the damaged cell rerun", err, f.total())
	}
	if r := sweep.Report.Rows[0]; r.Status != StatusOK || r.Ours.Mean != 81 {
		t.Errorf("row after rerun: %+v", r)
	}
}

// TestRunCellErrors checks that a panicking runner and inconsistent results fail only their cell.
func TestRunCellErrors(t *testing.T) {
	runner := func(c Cell) (*geomix.Result, error) {
		dataset, method, runs := c.Dataset, c.Method, c.Runs
		switch method {
		case "gcn":
			panic("shape mismatch [2708, 16] vs [16]")
		case "geomix1":
			return &geomix.Result{Dataset: "pubmed", Method: method, Runs: runs}, nil
		case "randommix":
			return &geomix.Result{Dataset: dataset, Method: method, Runs: runs - 1}, nil
		}
		return newFake(nil).run(c)
	}
	o := testOptions(t.TempDir())
	o.Datasets = []string{"cora"}
	sweep, err := Run(table5(t), runner, o)
	if err == nil || sweep.Ran != 1 || len(sweep.Failed) != 3 {
		t.Fatalf("err %v, ran %d, failed %v; want 1 ran, 3 failed", err, sweep.Ran, sweep.Failed)
	}
	for i, want := range []string{"runner panicked: shape mismatch", `dataset "pubmed", want "cora"`, "returned 4 runs, want 5"} {
		if !strings.Contains(sweep.Failed[i].Err.Error(), want) {
			t.Errorf("failure %d = %v, want it to contain %q", i, sweep.Failed[i].Err, want)
		}
	}
}

// TestSelection checks the default, quick and explicit cell selections and the errors for cells a
// table cannot run.
func TestSelection(t *testing.T) {
	t2, _ := SpecFor("table2")
	ds, ms, err := Options{Quick: true}.selection(t2)
	if err != nil || strings.Join(ds, ",") != "cora,citeseer,chameleon" || strings.Join(ms, ",") != "gcn,gat,sgc,appnp,glognn,mixup,graphmixup,graphmix,geomix1,geomix2,geomix3" {
		t.Errorf("quick selection = %v %v %v", ds, ms, err)
	}
	ds, ms, err = Options{Datasets: []string{"physics", "cora"}, Methods: []string{"geomix2"}}.selection(t2)
	if err != nil || strings.Join(ds, ",") != "cora,physics" || strings.Join(ms, ",") != "geomix2" {
		t.Errorf("explicit selection = %v %v %v", ds, ms, err)
	}
	for _, o := range []Options{{Datasets: []string{"twitch-fr"}}, {Methods: []string{"bogus"}}, {Runs: -1}} {
		if _, _, err := o.selection(t2); err == nil {
			t.Errorf("selection %+v returned no error", o)
		}
	}
	if _, err := SpecFor("table1"); err == nil {
		t.Error("SpecFor(table1) returned no error")
	}
	if DefaultRuns("chameleon") != 10 || DefaultRuns("pubmed") != 5 {
		t.Error("DefaultRuns: want 10 for chameleon, 5 for pubmed")
	}
}

// TestRunSharesIdenticalCells runs Table 2's Cora GCN and GeoMix-I cells, then Table 5 on Cora: the
// two shared cells are copied (marked with their source) instead of trained, the others run.
func TestRunSharesIdenticalCells(t *testing.T) {
	dir := t.TempDir()
	t2, err := SpecFor("table2")
	if err != nil {
		t.Fatal(err)
	}
	o := testOptions(dir)
	o.Datasets, o.Methods = []string{"cora"}, []string{"gcn", "geomix1"}
	if _, err := Run(t2, newFake(nil).run, o); err != nil {
		t.Fatal(err)
	}
	fake := newFake(nil)
	o.Methods = nil
	sweep, err := Run(table5(t), fake.run, o)
	if err != nil {
		t.Fatal(err)
	}
	if sweep.Shared != 2 || sweep.Ran != 2 || fake.calls["cora/gcn"] != 0 || fake.calls["cora/randommix"] != 1 {
		t.Fatalf("shared %d, ran %d, calls %v; want gcn and geomix1 shared, randommix and nolocality run", sweep.Shared, sweep.Ran, fake.calls)
	}
	r, err := ReadRecord(RecordPath(dir, "table5", "cora", "gcn"))
	if err != nil {
		t.Fatal(err)
	}
	if r.Table != "table5" || r.SharedFrom != RecordPath(dir, "table2", "cora", "gcn") {
		t.Errorf("shared record: table %q, shared_from %q", r.Table, r.SharedFrom)
	}
	// Other runs are another cell: trained, not shared.
	o.Runs, o.Force = 2, false
	again := newFake(nil)
	if _, err := Run(table5(t), again.run, o); err != nil || again.calls["cora/gcn"] != 1 {
		t.Fatalf("runs=2: err %v, calls %v; want cora/gcn trained", err, again.calls)
	}
}

// TestTable3ReadsExtraTests: Table 3 trains each row once on twitch-ood (ERM as gcn) and reads its
// three columns from the record's extra test sets; a failed training fails its row in every column.
func TestTable3ReadsExtraTests(t *testing.T) {
	t3, err := SpecFor("table3")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	fake := newFake(map[string]float64{"twitch-ood/gcn": 60, "twitch-ood/geomix1": 62})
	fake.fail["twitch-ood/geomix3"] = true
	o := testOptions(dir)
	o.Datasets = []string{"twitch-ru"}
	sweep, err := Run(t3, fake.run, o)
	if err == nil || fake.total() != 8 || fake.calls["twitch-ood/gcn"] != 1 || fake.calls["twitch-ood/eerm"] != 1 || sweep.Ran != 7 {
		t.Fatalf("err %v, calls %v, ran %d; want one training per row on twitch-ood, geomix3 failing", err, fake.calls, sweep.Ran)
	}
	if _, err := os.Stat(RecordPath(dir, "table3", "twitch-ood", "gcn")); err != nil {
		t.Errorf("ERM's record: %v", err)
	}
	got := map[string]Row{}
	for _, r := range sweep.Report.Rows {
		got[r.Dataset+"/"+r.Method] = r
	}
	for key, want := range map[string]Stat{"twitch-fr/erm": {59, 1}, "twitch-ptbr/erm": {60, 2}, "twitch-ru/geomix1": {63, 3}} {
		if r := got[key]; r.Status != StatusOK || *r.Ours != want {
			t.Errorf("%s: %+v, want %v", key, r, want)
		}
	}
	for _, col := range t3.Datasets {
		if r := got[col+"/geomix3"]; r.Status != StatusFailed {
			t.Errorf("%s/geomix3: status %q, want failed", col, r.Status)
		}
		if r := got[col+"/eerm"]; r.Status != StatusOK || r.Paper == nil {
			t.Errorf("%s/eerm: %+v, want ours beside the paper's", col, r)
		}
	}
	if md := sweep.Report.Markdown(); !strings.HasPrefix(reportCell(md, "ERM", "Twitch-FR"), "59.00 ± 1.00 / 57.98 ± 2.41") {
		t.Errorf("report lacks the ERM row on FR:\n%s", md)
	}
}

// TestRunJobs: with Jobs = 2 two cells train at once (each call waits until another is in flight),
// every record equals the one-at-a-time sweep's but for its timing fields, and failures come back in
// table order whichever finished first.
func TestRunJobs(t *testing.T) {
	sweepWith := func(jobs int) (string, *Sweep, error) {
		fake := newFake(map[string]float64{"cora/gcn": 81})
		fake.fail["cora/randommix"], fake.fail["cora/geomix1"] = true, true
		var mu sync.Mutex
		inFlight := 0
		paired := make(chan struct{})
		var pairOnce sync.Once
		timedOut := make(chan struct{}) // one deadline for the whole sweep
		deadline := time.AfterFunc(20*time.Second, func() { close(timedOut) })
		defer deadline.Stop()
		runner := func(c Cell) (*geomix.Result, error) {
			mu.Lock()
			if inFlight++; inFlight == 2 {
				pairOnce.Do(func() { close(paired) })
			}
			mu.Unlock()
			if jobs > 1 {
				select {
				case <-paired:
				case <-timedOut:
					t.Errorf("Jobs = %d: %s/%s never had another cell in flight", jobs, c.Dataset, c.Method)
				}
			}
			mu.Lock()
			defer mu.Unlock()
			inFlight--
			return fake.run(c)
		}
		o := testOptions(t.TempDir())
		o.Datasets, o.Jobs = []string{"cora", "citeseer"}, jobs
		sweep, err := Run(table5(t), runner, o)
		return o.OutDir, sweep, err
	}
	oneDir, one, oneErr := sweepWith(1)
	twoDir, two, twoErr := sweepWith(2)
	if oneErr == nil || twoErr == nil || oneErr.Error() != twoErr.Error() {
		t.Fatalf("errors: one at a time %v, two at once %v; want the same failure", oneErr, twoErr)
	}
	if one.Ran != 6 || two.Ran != 6 || len(two.Failed) != 2 || two.Failed[0].Method != "geomix1" || two.Failed[1].Method != "randommix" {
		t.Fatalf("ran %d and %d, Jobs = 2 failed %v; want 6 ran, cora/geomix1 then cora/randommix failed", one.Ran, two.Ran, two.Failed)
	}
	records, _ := filepath.Glob(filepath.Join(oneDir, "table5", "*.json"))
	if len(records) != 6 {
		t.Fatalf("one at a time wrote %d records, want 6", len(records))
	}
	for _, path := range records {
		a, errA := ReadRecord(path)
		b, errB := ReadRecord(filepath.Join(twoDir, "table5", filepath.Base(path)))
		if errA != nil || errB != nil {
			t.Fatalf("%s: %v, %v", filepath.Base(path), errA, errB)
		}
		a.WallSeconds, b.WallSeconds, a.FinishedAt, b.FinishedAt = 0, 0, time.Time{}, time.Time{}
		ja, _ := json.Marshal(a)
		jb, _ := json.Marshal(b)
		if string(ja) != string(jb) {
			t.Errorf("%s differs with Jobs = 2:\n%s\n%s", filepath.Base(path), ja, jb)
		}
	}
	if _, _, err := (Options{Jobs: -1}).selection(table5(t)); err == nil {
		t.Error("Jobs = -1: no error")
	}
}

// TestWriteReport: a report rendered without a runner shows the finished cells with their numbers,
// the others without, and writes no record.
func TestWriteReport(t *testing.T) {
	dir := t.TempDir()
	o := testOptions(dir)
	o.Methods = []string{"gcn"}
	if _, err := Run(table5(t), newFake(map[string]float64{"cora/gcn": 81.6}).run, o); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(ReportPath(dir, "table5")); err != nil {
		t.Fatal(err)
	}
	report, path, err := WriteReport(table5(t), testOptions(dir))
	if err != nil || path != ReportPath(dir, "table5") {
		t.Fatalf("WriteReport: path %q, err %v", path, err)
	}
	md, err := os.ReadFile(path)
	if err != nil || !strings.Contains(string(md), "81.60") {
		t.Fatalf("report %s (err %v) lacks cora/gcn's 81.60:\n%s", path, err, md)
	}
	for _, r := range report.Rows {
		if ok := r.Status == StatusOK; ok != (r.Method == "gcn") {
			t.Errorf("%s/%s: status %q; want ok exactly for the gcn cells", r.Dataset, r.Method, r.Status)
		}
	}
	records, _ := filepath.Glob(filepath.Join(dir, "table5", "*.json"))
	if len(records) != 3 {
		t.Errorf("records after WriteReport: %v; want the 3 gcn cells only", records)
	}
}
