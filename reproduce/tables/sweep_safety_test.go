package tables

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/geomix-go/geomix/geomix"
	"github.com/geomix-go/geomix/geomix/training"
)

// countingRunner is a thread-safe fake runner: every run at 60%, each call taking pause, counted
// per cell.
type countingRunner struct {
	mu    sync.Mutex
	calls map[string]int
	pause time.Duration
}

func (r *countingRunner) run(c Cell) (*geomix.Result, error) {
	r.mu.Lock()
	if r.calls == nil {
		r.calls = map[string]int{}
	}
	r.calls[c.String()]++
	r.mu.Unlock()
	time.Sleep(r.pause)
	res := &geomix.Result{Dataset: c.Dataset, Method: c.Method, Runs: c.Runs, TestAccMean: 60, SecondsTotal: 1}
	for i := range c.Runs {
		res.PerRun = append(res.PerRun, geomix.RunResult{Run: i, TestAcc: 60})
	}
	return res, nil
}

// syncBuffer is a strings.Builder safe for the concurrent sweeps' progress lines.
type syncBuffer struct {
	mu sync.Mutex
	b  strings.Builder
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// TestTwoSweepsTrainEachCellOnce runs two sweeps of Table 5 into one folder at once: every cell is
// trained once, the sweep that finds a cell in training says so and waits for it, and both
// sweeps end with every cell finished.
func TestTwoSweepsTrainEachCellOnce(t *testing.T) {
	saved := lockPollInterval
	lockPollInterval = 10 * time.Millisecond
	t.Cleanup(func() { lockPollInterval = saved })
	dir := t.TempDir()
	runner := &countingRunner{pause: 30 * time.Millisecond}
	var progress [2]syncBuffer
	var sweeps [2]*Sweep
	var errs [2]error
	var wg sync.WaitGroup
	for i := range 2 {
		wg.Go(func() {
			o := testOptions(dir)
			o.Progress = &progress[i]
			sweeps[i], errs[i] = Run(table5(t), runner.run, o)
		})
	}
	wg.Wait()
	for i := range 2 {
		if errs[i] != nil {
			t.Fatalf("sweep %d: %v", i, errs[i])
		}
		if s := sweeps[i]; s.Ran+s.Skipped+s.ByOthers != 12 {
			t.Errorf("sweep %d: ran %d, skipped %d, finished by the other %d; want 12 in all", i, s.Ran, s.Skipped, s.ByOthers)
		}
	}
	if len(runner.calls) != 12 {
		t.Errorf("%d cells trained, want 12: %v", len(runner.calls), runner.calls)
	}
	for c, n := range runner.calls {
		if n != 1 {
			t.Errorf("%s trained %d times", c, n)
		}
	}
	if sweeps[0].Ran+sweeps[1].Ran != 12 {
		t.Errorf("the sweeps ran %d and %d cells, want 12 in all", sweeps[0].Ran, sweeps[1].Ran)
	}
	all := progress[0].String() + progress[1].String()
	if !strings.Contains(all, "in progress in another sweep (host ") || !strings.Contains(all, "waiting for the other sweep training it") {
		t.Errorf("neither sweep said it found a cell in progress and waited:\n%s", all)
	}
}

// TestLockedCellIsNotTouched: while another holder keeps a cell's lock, a sweep neither trains
// that cell nor touches its checkpoint; stopped while waiting, it reports the cell not started.
func TestLockedCellIsNotTouched(t *testing.T) {
	saved := lockPollInterval
	lockPollInterval = 10 * time.Millisecond
	t.Cleanup(func() { lockPollInterval = saved })
	dir := t.TempDir()
	held, _, err := tryLock(RecordPath(dir, "table5", "cora", "gcn"))
	if err != nil || held == nil {
		t.Fatalf("tryLock: %v", err)
	}
	defer held.unlock()
	checkpoint := CheckpointPath(dir, "table5", "cora", "gcn")
	if err := os.WriteFile(checkpoint, []byte("the other sweep's state"), 0o644); err != nil {
		t.Fatal(err)
	}
	orphan := filepath.Join(dir, "table5", ".cora-gcn.ckpt.tmp42")
	if err := os.WriteFile(orphan, []byte("the other sweep's write in progress"), 0o644); err != nil {
		t.Fatal(err)
	}
	stop := make(chan struct{})
	runner := &countingRunner{}
	var progress syncBuffer
	o := testOptions(dir)
	o.Datasets, o.Progress, o.Stop = []string{"cora"}, &progress, stop
	go func() {
		for !strings.Contains(progress.String(), "waiting for the other sweep") {
			time.Sleep(5 * time.Millisecond)
		}
		close(stop)
	}()
	sweep, err := Run(table5(t), runner.run, o)
	if !errors.Is(err, ErrStopped) || sweep.Ran != 3 || sweep.NotStarted != 1 || runner.calls["cora/gcn"] != 0 {
		t.Fatalf("err %v, ran %d, not started %d, calls %v; want cora/gcn left alone and reported not started", err, sweep.Ran, sweep.NotStarted, runner.calls)
	}
	for _, path := range []string{checkpoint, orphan} {
		if _, err := os.Stat(path); err != nil {
			t.Errorf("the locked cell's %s: %v", path, err)
		}
	}
}

// TestStopWritesReportAndKeepsCheckpoint: a sweep stopped in its third cell stops that cell (its
// runner reports what it kept), starts no other, renders the report of the finished cells and
// returns an error wrapping ErrStopped that says how to resume.
func TestStopWritesReportAndKeepsCheckpoint(t *testing.T) {
	dir := t.TempDir()
	stop := make(chan struct{})
	calls := 0
	runner := func(c Cell) (*geomix.Result, error) {
		if calls++; calls == 3 {
			close(stop)
			if err := os.WriteFile(c.Checkpoint, []byte("runs 1-2"), 0o644); err != nil {
				return nil, err
			}
			<-c.Stop
			return nil, &training.StoppedError{Dataset: c.Dataset, Method: c.Method, Run: 2, Runs: c.Runs, Epoch: 7, Checkpoint: c.Checkpoint, Kept: 2}
		}
		return (&countingRunner{}).run(c)
	}
	o := testOptions(dir)
	o.Stop = stop
	sweep, err := Run(table5(t), runner, o)
	if !errors.Is(err, ErrStopped) || !strings.Contains(err.Error(), "keeps 2 finished run(s)") || !strings.Contains(err.Error(), "the same command resumes") {
		t.Fatalf("err = %v, want ErrStopped saying what was kept and how to resume", err)
	}
	if sweep.Ran != 2 || len(sweep.Stopped) != 1 || sweep.NotStarted != 9 || len(sweep.Failed) != 0 || calls != 3 {
		t.Fatalf("ran %d, stopped %v, not started %d, failed %v, calls %d", sweep.Ran, sweep.Stopped, sweep.NotStarted, sweep.Failed, calls)
	}
	if got, err := os.ReadFile(CheckpointPath(dir, "table5", sweep.Stopped[0].Dataset, sweep.Stopped[0].Method)); err != nil || string(got) != "runs 1-2" {
		t.Errorf("the stopped cell's checkpoint: %q, %v", got, err)
	}
	report, err := os.ReadFile(sweep.ReportPath)
	if err != nil || sweep.Report == nil || len(sweep.Report.WithResults().Rows) != 2 {
		t.Errorf("report %s: %v; want it rendered with the 2 finished cells", sweep.ReportPath, err)
	}
	_ = report
}

// TestOrphanTempsRemoved: temporary files a killed write left beside a record and a checkpoint
// are removed when a sweep starts, and it says so.
func TestOrphanTempsRemoved(t *testing.T) {
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "table5"), 0o755); err != nil {
		t.Fatal(err)
	}
	var orphans []string
	for _, name := range []string{".cora-gcn.ckpt.tmp123", ".squirrel-geomix1.json.tmp7"} {
		orphans = append(orphans, filepath.Join(dir, "table5", name))
		if err := os.WriteFile(orphans[len(orphans)-1], []byte("half"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var progress syncBuffer
	o := testOptions(dir)
	o.Progress = &progress
	if _, err := Run(table5(t), (&countingRunner{}).run, o); err != nil {
		t.Fatal(err)
	}
	for _, path := range orphans {
		if _, err := os.Stat(path); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("%s: %v, want it removed", path, err)
		}
		if !strings.Contains(progress.String(), "removed 1 orphaned temporary file(s) of an interrupted write: "+path) {
			t.Errorf("progress does not name %s:\n%s", path, progress.String())
		}
	}
}

// TestUnwritableOutFailsFirst: an output folder that cannot be written is an error naming it
// before any cell trains.
func TestUnwritableOutFailsFirst(t *testing.T) {
	file := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	runner := &countingRunner{}
	o := testOptions(filepath.Join(file, "results"))
	if _, err := Run(table5(t), runner.run, o); err == nil || !strings.Contains(err.Error(), file) || len(runner.calls) != 0 {
		t.Errorf("err %v, %d cells trained; want an error naming %s before training", err, len(runner.calls), file)
	}
	if os.Geteuid() != 0 { // root writes into read-only folders
		ro := t.TempDir()
		if err := os.Chmod(ro, 0o500); err != nil {
			t.Fatal(err)
		}
		defer os.Chmod(ro, 0o755)
		if _, err := Run(table5(t), runner.run, testOptions(ro)); err == nil || !strings.Contains(err.Error(), "not writable") {
			t.Errorf("read-only %s: %v", ro, err)
		}
	}
}

// TestShardsSplitTheSweep: three shards of Table 5 over one folder train every cell once between
// them, each the cells assignShards gives it; the shards' committed costs are balanced; a bad shard
// is refused.
func TestShardsSplitTheSweep(t *testing.T) {
	dir := t.TempDir()
	runner := &countingRunner{}
	var load [3]float64
	var trained [3][]string
	for i := range 3 {
		o := testOptions(dir)
		o.Shard = Shard{Index: i + 1, Count: 3}
		plan, err := Plan(table5(t), o)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range plan {
			if c.State != StateOtherShard {
				load[i] += cellCost(c.Path, c.Dataset, c.Runs)
				trained[i] = append(trained[i], c.Cell.String())
			}
		}
		sweep, err := Run(table5(t), runner.run, o)
		if err != nil || sweep.Ran != len(trained[i]) || sweep.OtherShards != 12-len(trained[i]) {
			t.Fatalf("shard %d: err %v, ran %d, other shards' %d; planned %v", i+1, err, sweep.Ran, sweep.OtherShards, trained[i])
		}
	}
	if len(runner.calls) != 12 {
		t.Errorf("the shards trained %d cells, want 12", len(runner.calls))
	}
	for c, n := range runner.calls {
		if n != 1 {
			t.Errorf("%s trained %d times", c, n)
		}
	}
	maxCost := 0.0
	for _, d := range []string{"cora", "citeseer", "squirrel"} {
		for _, m := range []string{"gcn", "geomix1", "randommix", "nolocality"} {
			maxCost = max(maxCost, cellCost(RecordPath(dir, "table5", d, m), d, DefaultRuns(d)))
		}
	}
	if spread := slices.Max(load[:]) - slices.Min(load[:]); spread > maxCost {
		t.Errorf("shard loads %v s differ by %.0f s, more than the costliest cell (%.0f s)", load, spread, maxCost)
	}
	t.Logf("shard loads (committed seconds): %.0f %.0f %.0f; cells %v", load[0], load[1], load[2], trained)
	for _, bad := range []Shard{{Index: 0, Count: 3}, {Index: 4, Count: 3}, {Index: 1, Count: 0}} {
		o := testOptions(dir)
		o.Shard = bad
		if _, err := Run(table5(t), runner.run, o); err == nil || !strings.Contains(err.Error(), fmt.Sprintf("shard %d/%d", bad.Index, bad.Count)) {
			t.Errorf("shard %v: %v", bad, err)
		}
	}
}

// TestAssignShards: the costliest cells go first, each to the least loaded shard (the lowest on
// ties): 10 and 3 and 2 to shard 1 (15), 7 and 6 and 1 to shard 2 (14).
func TestAssignShards(t *testing.T) {
	got := assignShards([]float64{1, 10, 3, 7, 2, 6}, 2)
	if want := []int{2, 1, 1, 2, 1, 2}; !slices.Equal(got, want) {
		t.Errorf("assignShards = %v, want %v", got, want)
	}
	// An estimated cost is the same to the bit every time (map order must not change a sum).
	first := cellCost("out/figure-hyper/cora-geomix1-alpha0.11-hops7.json", "cora", 1)
	for range 50 {
		if c := cellCost("out/figure-hyper/cora-geomix1-alpha0.11-hops7.json", "cora", 1); c != first {
			t.Fatalf("estimated cost %v, then %v", first, c)
		}
	}
}

// TestPlanNamesTheTrainingProcess: the dry run names the process holding a cell's lock, and
// creates no lock file for the others.
func TestPlanNamesTheTrainingProcess(t *testing.T) {
	dir := t.TempDir()
	held, _, err := tryLock(RecordPath(dir, "table5", "cora", "gcn"))
	if err != nil || held == nil {
		t.Fatalf("tryLock: %v", err)
	}
	defer held.unlock()
	o := testOptions(dir)
	o.Datasets = []string{"cora"}
	plan, err := Plan(table5(t), o)
	if err != nil {
		t.Fatal(err)
	}
	host, _ := os.Hostname()
	for _, c := range plan {
		want := ""
		if c.Method == "gcn" {
			want = fmt.Sprintf("host %s pid %d since ", host, os.Getpid())
		}
		if (want == "") != (c.TrainedBy == "") || !strings.HasPrefix(c.TrainedBy, want) {
			t.Errorf("%s: trained by %q, want %q...", c.Cell, c.TrainedBy, want)
		}
	}
	if locks, _ := filepath.Glob(filepath.Join(dir, "table5", ".*.lock")); len(locks) != 1 {
		t.Errorf("lock files after the dry run: %v, want the held one only", locks)
	}
}
