package tables

import (
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/geomix-go/geomix/geomix/training"
)

// cell is one Cell of a sweep with its record's path.
type cell struct {
	Cell
	path string
	skip bool
	// shared is another table's record of the same cell, retargeted to this table (SharedFrom
	// set), written instead of training.
	shared *Record
	// otherShard marks a cell another shard trains (Options.Shard).
	otherShard bool
	// costOf, when set, is the record whose committed cost stands for this cell's in a shard
	// assignment (a tuning's configurations: the table's cell); "" means path.
	costOf string
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

	mu      sync.Mutex
	sweep   Sweep     // Failed and Stopped are filled by all, in table order
	failed  []failure // as they happen
	stopped []failure // cells stopped mid-way (Options.Stop), as they happen
	// busy are the cells another sweep held the lock of when this one came to them.
	busy []int
}

// failure is a failed cell with its index in the sweep.
type failure struct {
	index int
	CellError
}

// all runs every cell, opts.Jobs at a time in table order, then waits for the cells another sweep
// was training and trains those it left unfinished; it returns the sweep with its failures and
// stopped cells in table order. Once opts.Stop is closed no cell starts, and the cells in training
// stop at their next safe point.
func (s *sweepRun) all() *Sweep {
	s.start = time.Now()
	s.removeOrphans()
	all := make([]int, len(s.cells))
	for i := range all {
		all[i] = i
	}
	s.pass(all, false)
	slices.Sort(s.busy)
	s.pass(s.busy, true)
	for _, list := range []struct {
		from []failure
		to   *[]CellError
	}{{s.failed, &s.sweep.Failed}, {s.stopped, &s.sweep.Stopped}} {
		slices.SortFunc(list.from, func(a, b failure) int { return a.index - b.index })
		for _, f := range list.from {
			*list.to = append(*list.to, f.CellError)
		}
	}
	return &s.sweep
}

// pass hands cells to opts.Jobs workers in order; waited says the cells were held by another sweep
// earlier, so each worker waits for its lock.
func (s *sweepRun) pass(cells []int, waited bool) {
	work := make(chan int)
	var wg sync.WaitGroup
	for range max(s.opts.Jobs, 1) {
		wg.Go(func() {
			for i := range work {
				s.one(i, waited)
			}
		})
	}
	for _, i := range cells {
		work <- i
	}
	close(work)
	wg.Wait()
}

// removeOrphans removes the temporary files a killed process left beside the records and
// checkpoints of this sweep's cells, for every cell no other sweep holds, and says so.
func (s *sweepRun) removeOrphans() {
	for _, c := range s.cells {
		if c.otherShard {
			continue
		}
		lock, _, err := tryLock(c.path)
		if err != nil || lock == nil {
			continue
		}
		s.removeOrphanTemps(c)
		lock.unlock()
	}
}

// removeOrphanTemps removes the temporary files left beside c's record and checkpoint (the caller
// holds c's lock) and says so.
func (s *sweepRun) removeOrphanTemps(c cell) {
	for _, path := range []string{c.path, c.Checkpoint} {
		removed, err := removeOrphanTemps(path)
		s.locked(func() {
			if len(removed) > 0 {
				fmt.Fprintf(s.progress, "%s: removed %d orphaned temporary file(s) of an interrupted write: %s\n", s.table, len(removed), strings.Join(removed, ", "))
			}
			if err != nil {
				fmt.Fprintf(s.progress, "%s: %v\n", s.table, err)
			}
		})
	}
}

// one skips, copies or trains cell i and reports it. A cell to train is trained under its lock;
// when another sweep holds it, the cell is put aside for the pass with waited set, which waits for
// the lock and trains the cell only if that sweep did not finish it.
func (s *sweepRun) one(i int, waited bool) {
	c := s.cells[i]
	c.Stop = s.opts.Stop
	prefix := fmt.Sprintf("%s cell %d of %d, %s", s.table, i+1, len(s.cells), c.Cell)
	fail := func(err error, format string, args ...any) {
		s.locked(func() {
			s.failed = append(s.failed, failure{i, CellError{Dataset: c.Dataset, Method: c.Method, Params: c.Params, Err: err}})
			fmt.Fprintf(s.progress, format, args...)
		})
	}
	switch {
	case c.otherShard:
		s.locked(func() {
			s.sweep.OtherShards++
			fmt.Fprintf(s.progress, "%s: another shard's (this is shard %s), skipped\n", prefix, s.opts.Shard)
		})
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
	case training.StopRequested(s.opts.Stop):
		s.locked(func() { s.sweep.NotStarted++ })
	default:
		lock, err := s.lock(c, prefix, waited, i)
		if err != nil {
			fail(err, "%s: FAILED: %v\n", prefix, err)
			return
		}
		if lock == nil {
			return
		}
		defer lock.unlock()
		if s.finishedMeanwhile(c) {
			s.locked(func() {
				s.sweep.ByOthers++
				fmt.Fprintf(s.progress, "%s: finished by another sweep (%s), skipped\n", prefix, c.path)
			})
			return
		}
		s.removeOrphanTemps(c)
		s.locked(func() {
			fmt.Fprintf(s.progress, "%s: running %d run(s), quick=%v; elapsed %s, ETA %s\n", prefix, c.Runs, s.opts.Quick,
				roundDuration(time.Since(s.start)), eta(time.Since(s.start), s.sweep.Ran+len(s.failed), s.toRun))
		})
		cellStart := time.Now()
		rec, err := s.opts.runCell(s.runner, s.table, c)
		if errors.Is(err, training.ErrStopped) {
			s.locked(func() {
				s.stopped = append(s.stopped, failure{i, CellError{Dataset: c.Dataset, Method: c.Method, Params: c.Params, Err: err}})
				fmt.Fprintf(s.progress, "%s: STOPPED after %s: %v\n", prefix, roundDuration(time.Since(cellStart)), err)
			})
			return
		} else if err != nil {
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

// lock takes cell i's lock. On the first pass (waited false) a lock another sweep holds puts the
// cell aside and returns nil; on the second it waits for the lock, and returns nil if the sweep is
// stopped meanwhile.
func (s *sweepRun) lock(c cell, prefix string, waited bool, i int) (*cellLock, error) {
	if !waited {
		lock, holder, err := tryLock(c.path)
		if lock == nil && err == nil {
			s.locked(func() {
				s.busy = append(s.busy, i)
				fmt.Fprintf(s.progress, "%s: in progress in another sweep (%s, lock %s): this sweep comes back to it after its other cells\n",
					prefix, holder, lockFile(c.path))
			})
		}
		return lock, err
	}
	s.locked(func() { fmt.Fprintf(s.progress, "%s: waiting for the other sweep training it\n", prefix) })
	lock, err := waitLock(c.path, s.opts.Stop)
	if lock == nil && err == nil {
		s.locked(func() { s.sweep.NotStarted++ })
	}
	return lock, err
}

// finishedMeanwhile reports whether c's record on disk is complete and c's (after this sweep
// planned it: written by another sweep since, and with Force written since this sweep started).
func (s *sweepRun) finishedMeanwhile(c cell) bool {
	r, err := readPoint(c.path, s.table, c.Cell)
	return err == nil && r.Runs == c.Runs && r.Quick == c.Quick && (!s.opts.Force || r.FinishedAt.After(s.start))
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
	StateOtherShard = "another shard's"
)

// ErrStopped is wrapped by the error of a sweep stopped through Options.Stop.
var ErrStopped = errors.New("sweep stopped")

// stopError returns, when the sweep was stopped, an error wrapping ErrStopped that counts what was
// finished, stopped and not started among the of cells, and says how to resume; nil otherwise.
func (s *Sweep) stopError(table string, of int) error {
	if len(s.Stopped) == 0 && s.NotStarted == 0 {
		return nil
	}
	msg := fmt.Sprintf("%d of %d cells trained now, %d finished earlier", s.Ran, of, s.Skipped+s.Shared+s.ByOthers)
	if len(s.Stopped) > 0 {
		kept := make([]string, len(s.Stopped))
		for i, c := range s.Stopped {
			kept[i] = c.Err.Error()
		}
		msg += fmt.Sprintf(", %d stopped mid-way (%s)", len(s.Stopped), strings.Join(kept, "; "))
	}
	if s.NotStarted > 0 {
		msg += fmt.Sprintf(", %d not started", s.NotStarted)
	}
	if len(s.Failed) > 0 {
		msg += fmt.Sprintf(", %d failed", len(s.Failed))
	}
	return fmt.Errorf("%w (%s): %s; the same command resumes where it stopped", ErrStopped, table, msg)
}

// PlannedCell is a cell of a sweep before it runs: its training, record path and state (one of the
// State* constants); Done counts the runs its checkpoint holds when in progress.
type PlannedCell struct {
	Cell
	Path, State string
	Done        int
	// TrainedBy names the process training the cell now (host, pid, since when), when another
	// sweep holds its lock.
	TrainedBy string
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
