package tables

import (
	"io"
	"os"
	"strings"
	"testing"

	"github.com/geomix-go/geomix/datasets"
	"github.com/geomix-go/geomix/geomix"
	"github.com/geomix-go/geomix/geomix/training"
	"github.com/gomlx/gomlx/pkg/ml/context"
)

// TestLoadReportStatuses checks rows of a table without results: every runnable cell is "not run",
// the rows the toolkit lacks are "not implemented yet", and the paper's numbers are there.
func TestLoadReportStatuses(t *testing.T) {
	rep, err := LoadReport(t.TempDir(), "table2")
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Rows) != 7*11 {
		t.Fatalf("%d rows, want 77", len(rep.Rows))
	}
	counts := map[string]int{}
	for _, r := range rep.Rows {
		counts[r.Status]++
		if r.Paper == nil {
			t.Errorf("row %s/%s lacks the paper's cell", r.Dataset, r.Method)
		}
	}
	if counts[StatusNotRun] != 7*11 || counts[StatusNotImplemented] != 0 {
		t.Errorf("statuses %v, want 77 not run", counts)
	}
	md := rep.Markdown()
	if got := reportCell(md, "GraphMixup", "PubMed"); got != "not run / 78.82 ± 0.52" {
		t.Errorf("report lacks the GraphMixup row:\n%s", md)
	}
	rep, err = LoadReport(t.TempDir(), "table4")
	counts = map[string]int{}
	for _, r := range rep.Rows {
		counts[r.Status]++
	}
	if err != nil || len(rep.Rows) != 8*10 || rep.Rows[0].Status != StatusUnavailable || rep.Rows[0].Paper.Mean != 66.6 ||
		counts[StatusUnavailable] != 4*10 || counts[StatusNotImplemented] != 0 || counts[StatusNotRun] != 4*10 {
		t.Errorf("table4 report: err %v, rows %d, statuses %v, first %+v; want STL10/CIFAR10 not obtainable, 20News and Fashion-MNIST not run", err, len(rep.Rows), counts, rep.Rows[0])
	}
	t4, _ := SpecFor("table4")
	if ds, _, err := (Options{}).selection(t4); err != nil || strings.Join(ds, ",") != "20news-100,20news-200,fmnist,fmnist-20" {
		t.Errorf("table4 default selection %v, %v; want the 20News and Fashion-MNIST columns", ds, err)
	}
	if _, _, err := (Options{Datasets: []string{"stl10-10"}}).selection(t4); err == nil || !strings.Contains(err.Error(), "not obtainable") {
		t.Errorf("selecting stl10-10: %v, want an error saying its data is not obtainable", err)
	}
	if _, err := LoadReport(t.TempDir(), "table1"); err == nil {
		t.Error("LoadReport(table1) returned no error")
	}
}

// TestQuickLabelled checks that quick cells are marked in the records and the report.
func TestQuickLabelled(t *testing.T) {
	dir := t.TempDir()
	o := testOptions(dir)
	o.Quick, o.Methods = true, []string{"gcn"}
	f := newFake(nil)
	sweep, err := Run(table5(t), f.run, o)
	if err != nil || f.total() != 2 || f.calls["squirrel/gcn"] != 0 {
		t.Fatalf("err %v, calls %v; want cora and citeseer only", err, f.calls)
	}
	r, err := ReadRecord(RecordPath(dir, "table5", "citeseer", "gcn"))
	if err != nil || !r.Quick || r.Runs != 1 {
		t.Fatalf("quick record: %+v, %v; want quick, 1 run", r, err)
	}
	md := sweep.Report.Markdown()
	if !sweep.Report.Quick || !strings.Contains(md, "NOT the paper's protocol") || reportCell(md, "GCN", "CiteSeer") != "50.00 (quick) / 71.60 ± 0.30 ⚠" ||
		!strings.Contains(md, "1 run per cell on Cora and CiteSeer.") {
		t.Errorf("quick report not labelled:\n%s", md)
	}
}

// TestFlagged checks the threshold max(2 × paper std, 1.0 point) on hand-computed cases.
func TestFlagged(t *testing.T) {
	for _, c := range []struct {
		ours, paper Stat
		want        bool
	}{
		{Stat{83.00, 0.3}, Stat{81.63, 0.45}, true},  // |1.37| > max(0.90, 1)
		{Stat{82.50, 0.3}, Stat{81.63, 0.45}, false}, // |0.87| < 1
		{Stat{47.00, 1.0}, Stat{41.32, 3.22}, false}, // |5.68| < 6.44
		{Stat{34.80, 1.0}, Stat{41.32, 3.22}, true},  // |6.52| > 6.44
	} {
		if got := Flagged(c.ours, c.paper); got != c.want {
			t.Errorf("Flagged(%v, %v) = %v, want %v", c.ours, c.paper, got, c.want)
		}
	}
}

// TestLoadReportInProgress: a cell without a record but with its checkpoint (here a real one of a
// 2-of-3-runs training relabelled as Table 5's cora/gcn) is "in progress" with its run count; a
// checkpoint of another cell is ignored.
func TestLoadReportInProgress(t *testing.T) {
	dir := t.TempDir()
	g, err := datasets.Load("synthetic", datasets.Options{Offline: true})
	if err != nil {
		t.Fatal(err)
	}
	g.Name = "cora"
	backend, err := geomix.NewBackend()
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.New()
	ctx.SetParams(map[string]any{training.ParamRuns: 3, training.ParamEpochs: 2})
	checkpoint := CheckpointPath(dir, "table5", "cora", "gcn")
	if _, err := geomix.Train(ctx, backend, g, "gcn", geomix.WithProgress(io.Discard), geomix.WithCheckpoint(checkpoint)); err != nil {
		t.Fatal(err)
	}
	if err := os.Link(checkpoint, CheckpointPath(dir, "table5", "citeseer", "gcn")); err != nil {
		t.Fatal(err)
	}
	rep, err := LoadReport(dir, "table5")
	if err != nil {
		t.Fatal(err)
	}
	statuses := map[string]string{}
	for _, r := range rep.Rows {
		statuses[r.Dataset+"/"+r.Method] = r.Status
	}
	if statuses["cora/gcn"] != StatusInProgress || statuses["citeseer/gcn"] != StatusNotRun {
		t.Errorf("statuses %v: want cora/gcn in progress, citeseer/gcn (another cell's checkpoint) not run", statuses)
	}
	if md := rep.Markdown(); reportCell(md, "GCN", "Cora") != "in progress / 81.60 ± 0.50" ||
		!strings.Contains(md, "Cora, GCN in progress: 2 of 3 runs finished (a checkpoint on the machine") {
		t.Errorf("report lacks the in-progress row:\n%s", md)
	}
	perRun := []geomix.RunResult{{Run: 0, TestAcc: 1}, {Run: 1, TestAcc: 2}, {Run: 2, TestAcc: 3}}
	if err := writeRecord(RecordPath(dir, "table5", "cora", "geomix1"), &Record{Result: geomix.Result{Dataset: "cora", Method: "geomix1", Runs: 3, PerRun: perRun},
		Table: "table5", TestAccs: []float64{1, 2, 3}}); err != nil {
		t.Fatal(err)
	}
	plan, err := Plan(table5(t), Options{OutDir: dir, Datasets: []string{"cora"}, Runs: 3})
	if err != nil {
		t.Fatal(err)
	}
	states := map[string]string{}
	for _, c := range plan {
		states[c.Method] = c.State
		if c.State == StateInProgress && c.Done != 2 {
			t.Errorf("%s: %d runs done, want 2", c.Method, c.Done)
		}
	}
	if states["gcn"] != StateInProgress || states["geomix1"] != StateFinished || states["randommix"] != StateToRun {
		t.Errorf("plan states %v: want gcn in progress, geomix1 finished, randommix to run", states)
	}
	if plan, err := Plan(table5(t), Options{OutDir: dir, Datasets: []string{"cora"}, Methods: []string{"gcn"}}); err != nil || plan[0].State != StateStale {
		t.Errorf("plan for 5 runs over a 3-run checkpoint: %+v, %v; want %q", plan, err, StateStale)
	}
}

// TestReportTrainingTime checks the report's training times: each row's own, the sum over the
// distinct trainings (Table 3's three columns of a row are one training), how many are needed, and
// Table 2's sum over GCN and GeoMix-I/II/III.
func TestReportTrainingTime(t *testing.T) {
	t3, err := SpecFor("table3")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	fake := newFake(nil)
	fake.seconds["twitch-ood/gcn"], fake.seconds["twitch-ood/geomix1"] = 600, 3000
	o := testOptions(dir)
	o.Methods = []string{"erm", "geomix1"}
	sweep, err := Run(t3, fake.run, o)
	if err != nil || fake.total() != 2 {
		t.Fatalf("table3 sweep: err %v, calls %v; want the two trainings", err, fake.calls)
	}
	if got, want := sweep.Report.Time, (TrainingTime{Seconds: 3600, Trainings: 2, Of: 8}); got != want || sweep.Report.Timed != nil {
		t.Errorf("table3 time %+v, timed %+v; want %+v (each training once, not once per column), no timed block", got, sweep.Report.Timed, want)
	}
	md := sweep.Report.Markdown()
	if got := reportCell(md, "ERM", "Twitch-RU"); got != "51.00 ± 3.00 / 59.74 ± 3.89 ⚠" {
		t.Errorf("table3 report's ERM cell on Twitch-RU is %q:\n%s", got, md)
	}
	for _, want := range []string{"| twitch-ood GCN | 5 | 10 min |",
		"Training time of the cells with results: 1 h 00 min (2 of the 8 trainings needed)."} {
		if !strings.Contains(md, want) {
			t.Errorf("table3 report lacks %q:\n%s", want, md)
		}
	}

	t2, err := SpecFor("table2")
	if err != nil {
		t.Fatal(err)
	}
	fake = newFake(nil)
	fake.seconds["cora/gcn"], fake.seconds["cora/sgc"], fake.seconds["cora/geomix3"] = 20, 7200, 45
	o = testOptions(dir)
	o.Datasets, o.Methods = []string{"cora"}, []string{"gcn", "sgc", "geomix3"}
	sweep, err = Run(t2, fake.run, o)
	if err != nil {
		t.Fatal(err)
	}
	rep := sweep.Report
	if rep.Time != (TrainingTime{Seconds: 7265, Trainings: 3, Of: 77}) || rep.Timed == nil || *rep.Timed != (TrainingTime{Seconds: 65, Trainings: 2, Of: 28}) {
		t.Errorf("table2 time %+v, timed %+v; want 3 of 77 trainings in 7265 s, 2 of 28 timed in 65 s", rep.Time, rep.Timed)
	}
	if md := rep.Markdown(); !strings.Contains(md, "Training time of GCN, GeoMix-I, GeoMix-II, GeoMix-III on every data set: 1 min (2 of the 28 trainings needed).") ||
		!strings.Contains(md, "| Cora SGC | 5 | 2 h 00 min |") {
		t.Errorf("table2 report lacks the timed block's line or SGC's time:\n%s", md)
	}
}

// reportCell returns the cell of row method and column dataset (printed names) of the first
// Markdown table of md whose header starts with "| Method |", "" when there is none.
func reportCell(md, method, dataset string) string {
	var columns []string
	for _, line := range strings.Split(md, "\n") {
		cells := strings.Split(strings.Trim(line, "| "), " | ")
		switch {
		case columns == nil && strings.HasPrefix(line, "| Method |"):
			columns = cells
		case columns != nil && len(cells) == len(columns) && cells[0] == method:
			for i, c := range columns {
				if c == dataset {
					return cells[i]
				}
			}
			return ""
		}
	}
	return ""
}
