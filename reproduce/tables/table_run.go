package tables

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/geomix-go/geomix/internal/atomicfile"
)

// Sweep is what a call to Run did.
type Sweep struct {
	// Ran and Skipped count the cells run now and those already finished by an earlier sweep;
	// Shared counts the cells copied from another table's identical cell (see Record.SharedFrom).
	Ran, Skipped, Shared int
	// ByOthers counts the cells another sweep over the same folder finished while this one ran;
	// OtherShards the cells left to the other shards (Options.Shard); NotStarted the cells not
	// started because the sweep was stopped (Options.Stop).
	ByOthers, OtherShards, NotStarted int
	// Failed lists the cells whose runner returned an error (or panicked).
	Failed []CellError
	// Stopped lists the cells stopped mid-way (Options.Stop); each Err says what their checkpoint
	// keeps.
	Stopped []CellError
	// Report is the comparison written to ReportPath.
	Report *Report
	// ReportPath is OutDir/<table>.md.
	ReportPath string
}

// Run runs every selected cell of spec through runner, opts.Jobs at a time, writing each finished
// cell atomically to OutDir/<table>/<dataset>-<method>.json. Cells with a record of the same runs
// and quick setting are skipped unless Force, so an interrupted sweep resumes where it stopped; an
// interrupted cell resumes at its run from its checkpoint (CheckpointPath), which Force deletes. A
// failing cell does not stop the sweep: the other cells still run, and Run returns an error naming
// every failed cell after it rendered OutDir/<table>.md (also atomically) from all records on disk.
//
// A cell trains under its lock (see lock.go), so sweeps over one OutDir (several shells, or the
// shards of opts.Shard) never train one cell twice at once; a sweep finding a cell locked comes back
// to it after its other cells. OutDir is checked writable before anything trains. Once opts.Stop is
// closed, Run stops at the cells' next safe point, writes the report of the finished cells and
// returns an error wrapping ErrStopped.
func Run(spec *Spec, runner CellRunner, opts Options) (*Sweep, error) {
	if runner == nil {
		return nil, errors.New("tables: no CellRunner given")
	}
	datasets, methods, err := opts.selection(spec)
	if err != nil {
		return nil, err
	}
	if err := opts.Shard.Check(); err != nil {
		return nil, err
	}
	opts = opts.withOutDir()
	table := spec.Paper.ID
	if err := checkWritable(filepath.Join(opts.OutDir, table)); err != nil {
		return nil, err
	}
	if opts.GitRevision == "" {
		opts.GitRevision = GitRevision(".", opts.OutDir) // the sweep's own output does not make the tree dirty
	}
	progress := opts.Progress
	if progress == nil {
		progress = os.Stderr
	}

	cells := opts.plan(spec, datasets, methods, progress)
	toRun := markShard(cells, opts)

	sweep := (&sweepRun{opts: opts, runner: runner, table: table, cells: cells, toRun: toRun, progress: progress}).all()

	sweep.Report, sweep.ReportPath, err = writeReport(spec, opts, sweep.Failed)
	if err != nil {
		return sweep, err
	}
	if err := sweep.stopError(table, len(cells)); err != nil {
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

// Plan returns what Run would do with spec and opts, cell by cell, without training anything.
func Plan(spec *Spec, opts Options) ([]PlannedCell, error) {
	datasets, methods, err := opts.selection(spec)
	if err != nil {
		return nil, err
	}
	if err := opts.Shard.Check(); err != nil {
		return nil, err
	}
	opts = opts.withOutDir()
	cells := opts.plan(spec, datasets, methods, io.Discard)
	markShard(cells, opts)
	out := make([]PlannedCell, len(cells))
	for i, c := range cells {
		p := PlannedCell{Cell: c.Cell, Path: c.path, State: StateToRun}
		switch {
		case c.otherShard:
			p.State = StateOtherShard
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
		if p.State != StateOtherShard && p.State != StateFinished && p.State != StateShared {
			p.TrainedBy = heldBy(c.path)
		}
		out[i] = p
	}
	return out, nil
}

// plan lists the trainings of the columns datasets × the rows methods in order, marking those a
// matching record already covers (unless Force) and those another table's record gives.
func (o Options) plan(spec *Spec, datasets, methods []string, progress io.Writer) (cells []cell) {
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
			cells = append(cells, c)
		}
	}
	return cells
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
	if o.annotate != nil {
		if err := o.annotate(c.Cell, rec); err != nil {
			return nil, err
		}
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
