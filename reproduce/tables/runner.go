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
	"time"

	"github.com/geomix-go/geomix/geomix"
	"github.com/geomix-go/geomix/internal/atomicfile"
)

// Cell is one (dataset, method) of a table for a CellRunner to train.
type Cell struct {
	Dataset, Method string
	// Runs is the number of independent runs to train.
	Runs int
	// Quick asks for a short, non-paper protocol (few epochs); its meaning is the runner's.
	Quick bool
	// Params are hyper-parameters (the Param* names of packages training, backbones and methods) that override the preset, e.g. a point
	// of a Grid; nil for a table's cells.
	Params map[string]any
	// Checkpoint is the file where the runner keeps its state between runs (geomix.WithCheckpoint),
	// so that an interrupted cell resumes at the run it was in; the sweep deletes it once the cell's
	// record is written. "" (quick cells) means none.
	Checkpoint string
}

// String names the cell in progress lines and errors: "dataset/method", then its Params in name
// order, e.g. "cora/geomix1 alpha=0.3 hops=2".
func (c Cell) String() string {
	s := c.Dataset + "/" + c.Method
	for _, k := range slices.Sorted(maps.Keys(c.Params)) {
		s += fmt.Sprintf(" %s=%v", k, c.Params[k])
	}
	return s
}

// CellRunner trains one cell and returns the summary of its runs. A runner must return exactly
// c.Runs runs for c.Dataset and c.Method.
type CellRunner func(c Cell) (*geomix.Result, error)

// Options configure a sweep over a table's cells. The zero value runs every cell of the table with
// the paper's number of runs into "results/".
type Options struct {
	// Datasets and Methods restrict the sweep (in the table's order whatever the order given); nil
	// means every runnable column/row, and with Quick every column in QuickDatasets (every column
	// of a table whose columns are read from other trainings, Spec.TrainedOn). A column selects its
	// training, hence all the columns read from it.
	Datasets, Methods []string
	// Runs per cell; 0 means DefaultRuns(dataset), or 1 with Quick.
	Runs int
	// Quick runs a short, non-paper protocol: 1 run (unless Runs says otherwise), few epochs (the
	// runner decides), QuickDatasets only unless Datasets names others.
	Quick bool
	// OutDir is the results directory; "" means "results". Cells go to OutDir/<table>/, the report to
	// OutDir/<table>.md.
	OutDir string
	// Force reruns cells that already have a matching record.
	Force bool
	// Command is the command line recorded in every cell and in the report's header.
	Command string
	// GitRevision is recorded in every cell; "" means GitRevision(".", OutDir).
	GitRevision string
	// Progress receives one line per cell (cell i of n, dataset/method, elapsed, ETA); nil means
	// os.Stderr.
	Progress io.Writer
	// Jobs is how many cells train at once, taken in table order; 0 or 1 means one after the
	// other. Cells are independent, so a cell's record does not depend on Jobs. On GoMLX's pure-Go
	// backend a training keeps one core busy, so up to the number of cores Jobs shortens a sweep
	// nearly in proportion; memory adds up across the cells in flight.
	Jobs int
}

// withOutDir returns o with OutDir defaulted to "results".
func (o Options) withOutDir() Options {
	if o.OutDir == "" {
		o.OutDir = "results"
	}
	return o
}

// CellError is a cell that failed in a sweep.
type CellError struct {
	Dataset, Method string
	// Params are the failed cell's Cell.Params (nil for a table's cells).
	Params map[string]any
	Err    error
}

// Sweep is what a call to Run did.
type Sweep struct {
	// Ran and Skipped count the cells run now and those already finished by an earlier sweep;
	// Shared counts the cells copied from another table's identical cell (see Record.SharedFrom).
	Ran, Skipped, Shared int
	// Failed lists the cells whose runner returned an error (or panicked).
	Failed []CellError
	// Report is the comparison written to ReportPath.
	Report *Report
	// ReportPath is OutDir/<table>.md.
	ReportPath string
}

// cell is one Cell of a sweep with its record's path.
type cell struct {
	Cell
	path string
	skip bool
	// shared is another table's record of the same cell, retargeted to this table (SharedFrom
	// set), written instead of training.
	shared *Record
}

// Run runs every selected cell of spec through runner, opts.Jobs at a time, writing each finished
// cell atomically to OutDir/<table>/<dataset>-<method>.json. Cells with a record of the same runs
// and quick setting are skipped unless Force, so an interrupted sweep resumes where it stopped; an
// interrupted cell resumes at its run from its checkpoint (CheckpointPath), which Force deletes. A
// failing cell does not stop the sweep: the other cells still run, and Run returns an error naming
// every failed cell after it rendered OutDir/<table>.md (also atomically) from all records on disk.
func Run(spec *Spec, runner CellRunner, opts Options) (*Sweep, error) {
	if runner == nil {
		return nil, errors.New("tables: no CellRunner given")
	}
	datasets, methods, err := opts.selection(spec)
	if err != nil {
		return nil, err
	}
	opts = opts.withOutDir()
	if opts.GitRevision == "" {
		opts.GitRevision = GitRevision(".", opts.OutDir) // the sweep's own output does not make the tree dirty
	}
	progress := opts.Progress
	if progress == nil {
		progress = os.Stderr
	}
	table := spec.Paper.ID

	cells, toRun := opts.plan(spec, datasets, methods, progress)

	sweep := (&sweepRun{opts: opts, runner: runner, table: table, cells: cells, toRun: toRun, progress: progress}).all()

	sweep.Report, sweep.ReportPath, err = writeReport(spec, opts, sweep.Failed)
	if err != nil {
		return sweep, err
	}
	if len(sweep.Failed) > 0 {
		names := make([]string, len(sweep.Failed))
		for i, f := range sweep.Failed {
			names[i] = f.Dataset + "/" + f.Method
		}
		return sweep, fmt.Errorf("%d of %d cells of %s failed: %s", len(sweep.Failed), len(cells), table, strings.Join(names, ", "))
	}
	return sweep, nil
}

// WriteReport renders OutDir/<table>.md (atomically) from the records on disk, as Run does after
// its cells, without training anything: how a report is refreshed after records were added by hand
// or its notes changed. It returns the report and its path.
func WriteReport(spec *Spec, opts Options) (*Report, string, error) {
	return writeReport(spec, opts.withOutDir(), nil)
}

// writeReport renders OutDir/<table>.md from the records on disk, marking the failed cells.
func writeReport(spec *Spec, opts Options, failed []CellError) (*Report, string, error) {
	table := spec.Paper.ID
	report, err := LoadReport(opts.OutDir, table)
	if err != nil {
		return nil, "", err
	}
	report.Command = opts.Command
	for _, f := range failed {
		report.markFailed(spec, f.Dataset, f.Method, f.Err)
	}
	path := ReportPath(opts.OutDir, table)
	err = atomicfile.Write(path, func(w io.Writer) error {
		_, err := io.WriteString(w, report.Markdown())
		return err
	})
	return report, path, err
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

// Plan returns what Run would do with spec and opts, cell by cell, without training anything.
func Plan(spec *Spec, opts Options) ([]PlannedCell, error) {
	datasets, methods, err := opts.selection(spec)
	if err != nil {
		return nil, err
	}
	opts = opts.withOutDir()
	cells, _ := opts.plan(spec, datasets, methods, io.Discard)
	out := make([]PlannedCell, len(cells))
	for i, c := range cells {
		p := PlannedCell{Cell: c.Cell, Path: c.path, State: StateToRun}
		switch {
		case c.skip:
			p.State = StateFinished
		case c.shared != nil:
			p.State = StateShared
		case c.Checkpoint != "" && !opts.Force:
			if done, runs, ok := checkpointProgress(c.Checkpoint, c.Dataset, c.Method); ok {
				p.State, p.Done = StateInProgress, done
				if runs != c.Runs {
					p.State = StateStale
				}
			}
		}
		out[i] = p
	}
	return out, nil
}

// plan lists the trainings of the columns datasets × the rows methods in order, marking those a
// matching record already covers (unless Force), and counts the cells left to run.
func (o Options) plan(spec *Spec, datasets, methods []string, progress io.Writer) (cells []cell, toRun int) {
	table := spec.Paper.ID
	for _, d := range spec.trainings(datasets) {
		runs := o.Runs
		if runs == 0 {
			runs = DefaultRuns(d)
			if o.Quick {
				runs = 1
			}
		}
		for _, row := range methods {
			m := spec.runAs(row)
			c := cell{Cell: Cell{Dataset: d, Method: m, Runs: runs, Quick: o.Quick}, path: RecordPath(o.OutDir, table, d, m)}
			if !o.Quick { // quick cells are short, and must not meet a full cell's checkpoint
				c.Checkpoint = CheckpointPath(o.OutDir, table, d, m)
			}
			if !o.Force {
				if r, err := readCell(c.path, table, d, m); err == nil && r.Runs == runs && r.Quick == o.Quick {
					c.skip = true
				} else if err != nil && !errors.Is(err, os.ErrNotExist) {
					fmt.Fprintf(progress, "%s: unreadable record, the cell is rerun: %v\n", table, err)
				}
			}
			if !c.skip && !o.Force {
				c.shared = o.sameCellElsewhere(table, c)
			}
			if !c.skip && c.shared == nil {
				toRun++
			}
			cells = append(cells, c)
		}
	}
	return cells, toRun
}

// sameCellElsewhere returns another table's record under OutDir of cell c (its dataset and method
// with c's runs and quick setting) as a record of table with SharedFrom set to its path, or nil.
func (o Options) sameCellElsewhere(table string, c cell) *Record {
	others, _ := filepath.Glob(filepath.Join(o.OutDir, "*", c.Dataset+"-"+c.Method+".json"))
	for _, path := range others {
		r, err := ReadRecord(path)
		if err == nil && r.Table != table && r.SharedFrom == "" && r.Dataset == c.Dataset && r.Method == c.Method &&
			r.Runs == c.Runs && r.Quick == o.Quick {
			r.Table, r.SharedFrom = table, path
			return r
		}
	}
	return nil
}

// runCell runs one cell and stores its record atomically.
func (o Options) runCell(runner CellRunner, table string, c cell) (*Record, error) {
	start := time.Now()
	if o.Force && c.Checkpoint != "" {
		if err := os.Remove(c.Checkpoint); err != nil && !errors.Is(err, os.ErrNotExist) {
			return nil, err
		}
	}
	res, err := callRunner(runner, c.Cell)
	if err != nil {
		return nil, err
	}
	rec, err := newRecord(table, c.Dataset, c.Method, c.Runs, o.Quick, res)
	if err != nil {
		return nil, err
	}
	if err := sameParams(c.Params, rec.Params); err != nil {
		return nil, fmt.Errorf("runner %w", err)
	}
	rec.Command, rec.GitRevision = o.Command, o.GitRevision
	rec.WallSeconds = time.Since(start).Seconds()
	rec.FinishedAt = time.Now().UTC()
	if err := writeRecord(c.path, rec); err != nil {
		return nil, err
	}
	if c.Checkpoint == "" {
		return rec, nil
	}
	if err := os.Remove(c.Checkpoint); err != nil && !errors.Is(err, os.ErrNotExist) {
		return nil, fmt.Errorf("cell finished, but its checkpoint stays: %w", err)
	}
	return rec, nil
}

// selection returns the data sets and methods to run, in the table's order, after checking that
// every requested one is a runnable column/row of spec.
func (o Options) selection(spec *Spec) (datasets, methods []string, err error) {
	table := spec.Paper.ID
	for _, d := range o.Datasets {
		if !slices.Contains(spec.Datasets, d) {
			return nil, nil, fmt.Errorf("tables: %s has no data set %q (columns: %s)", table, d, strings.Join(spec.Datasets, ","))
		}
		if why, ok := spec.Unavailable[d]; ok {
			return nil, nil, fmt.Errorf("tables: %s column %q cannot run: %s", table, d, why)
		}
	}
	for _, m := range o.Methods {
		if slices.Contains(spec.NotImplemented, m) {
			return nil, nil, fmt.Errorf("tables: %s row %q is not implemented yet (runnable: %s)", table, m, strings.Join(spec.Methods, ","))
		}
		if !spec.runnable(m) {
			return nil, nil, fmt.Errorf("tables: %s has no row %q (runnable: %s)", table, m, strings.Join(spec.Methods, ","))
		}
	}
	if o.Runs < 0 {
		return nil, nil, fmt.Errorf("tables: runs must be >= 1 (0 for the default), got %d", o.Runs)
	}
	if o.Jobs < 0 {
		return nil, nil, fmt.Errorf("tables: jobs must be >= 1 (0 for one at a time), got %d", o.Jobs)
	}
	for _, d := range spec.Datasets {
		switch _, unavailable := spec.Unavailable[d]; {
		case unavailable:
		case len(o.Datasets) > 0 && slices.Contains(o.Datasets, d),
			len(o.Datasets) == 0 && (!o.Quick || len(spec.TrainedOn) > 0 || slices.Contains(QuickDatasets, d)):
			datasets = append(datasets, d)
		}
	}
	for _, m := range spec.Methods {
		if len(o.Methods) == 0 || slices.Contains(o.Methods, m) {
			methods = append(methods, m)
		}
	}
	return datasets, methods, nil
}

// callRunner calls runner, turning a panic (e.g. a GoMLX shape error) into an error for this cell.
func callRunner(runner CellRunner, c Cell) (res *geomix.Result, err error) {
	defer func() {
		if p := recover(); p != nil {
			res, err = nil, fmt.Errorf("runner panicked: %v", p)
		}
	}()
	return runner(c)
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
