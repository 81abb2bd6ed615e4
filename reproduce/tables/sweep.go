package tables

import (
	"fmt"
	"io"
	"slices"
	"sync"
	"time"
)

// cell is one Cell of a sweep with its record's path.
type cell struct {
	Cell
	path string
	skip bool
	// shared is another table's record of the same cell, retargeted to this table (SharedFrom
	// set), written instead of training.
	shared *Record
}

// sweepRun is one Run's cells on their way through opts.Jobs workers: the counters, the failures
// and the progress lines are shared, and touched only under mu (see locked).
type sweepRun struct {
	opts     Options
	runner   CellRunner
	table    string
	cells    []cell
	toRun    int
	progress io.Writer
	start    time.Time

	mu     sync.Mutex
	sweep  Sweep     // Failed is filled by all, in table order
	failed []failure // as they happen
}

// failure is a failed cell with its index in the sweep.
type failure struct {
	index int
	CellError
}

// all runs every cell, opts.Jobs at a time in table order, and returns the sweep with its failures
// in table order.
func (s *sweepRun) all() *Sweep {
	s.start = time.Now()
	work := make(chan int)
	var wg sync.WaitGroup
	for range max(s.opts.Jobs, 1) {
		wg.Go(func() {
			for i := range work {
				s.one(i)
			}
		})
	}
	for i := range s.cells {
		work <- i
	}
	close(work)
	wg.Wait()
	slices.SortFunc(s.failed, func(a, b failure) int { return a.index - b.index })
	for _, f := range s.failed {
		s.sweep.Failed = append(s.sweep.Failed, f.CellError)
	}
	return &s.sweep
}

// one skips, copies or trains cell i and reports it.
func (s *sweepRun) one(i int) {
	c := s.cells[i]
	prefix := fmt.Sprintf("%s cell %d of %d, %s", s.table, i+1, len(s.cells), c.Cell)
	fail := func(err error, format string, args ...any) {
		s.locked(func() {
			s.failed = append(s.failed, failure{i, CellError{Dataset: c.Dataset, Method: c.Method, Params: c.Params, Err: err}})
			fmt.Fprintf(s.progress, format, args...)
		})
	}
	switch {
	case c.skip:
		s.locked(func() {
			s.sweep.Skipped++
			fmt.Fprintf(s.progress, "%s: finished earlier (%s), skipped\n", prefix, c.path)
		})
	case c.shared != nil:
		if err := writeRecord(c.path, c.shared); err != nil {
			fail(err, "%s: FAILED: %v\n", prefix, err)
			return
		}
		s.locked(func() {
			s.sweep.Shared++
			fmt.Fprintf(s.progress, "%s: same cell as %s, copied to %s\n", prefix, c.shared.SharedFrom, c.path)
		})
	default:
		s.locked(func() {
			fmt.Fprintf(s.progress, "%s: running %d run(s), quick=%v; elapsed %s, ETA %s\n", prefix, c.Runs, s.opts.Quick,
				roundDuration(time.Since(s.start)), eta(time.Since(s.start), s.sweep.Ran+len(s.failed), s.toRun))
		})
		cellStart := time.Now()
		rec, err := s.opts.runCell(s.runner, s.table, c)
		if err != nil {
			fail(err, "%s: FAILED after %s: %v\n", prefix, roundDuration(time.Since(cellStart)), err)
			return
		}
		s.locked(func() {
			s.sweep.Ran++
			fmt.Fprintf(s.progress, "%s: %.2f ± %.2f in %s -> %s\n",
				prefix, rec.TestAccMean, rec.TestAccStd, roundDuration(time.Since(cellStart)), c.path)
		})
	}
}

// locked runs f under the sweep's lock.
func (s *sweepRun) locked(f func()) {
	s.mu.Lock()
	defer s.mu.Unlock()
	f()
}

// Cell states of a Plan.
const (
	StateFinished   = "finished"
	StateShared     = "copied from another table"
	StateInProgress = "in progress"
	StateStale      = "checkpoint for another run count (--force starts over)"
	StateToRun      = "to run"
)

// PlannedCell is a cell of a sweep before it runs: its training, record path and state (one of the
// State* constants); Done counts the runs its checkpoint holds when in progress.
type PlannedCell struct {
	Cell
	Path, State string
	Done        int
}

// eta estimates the remaining time from the mean duration of the done cells among total to run.
func eta(elapsed time.Duration, done, total int) string {
	if done == 0 {
		return "unknown"
	}
	return roundDuration(elapsed / time.Duration(done) * time.Duration(total-done)).String()
}

// roundDuration rounds d for display.
func roundDuration(d time.Duration) time.Duration {
	if d < time.Minute {
		return d.Round(100 * time.Millisecond)
	}
	return d.Round(time.Second)
}
