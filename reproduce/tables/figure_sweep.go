package tables

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/geomix-go/geomix/internal/atomicfile"
)

// A figure sweep (figure-hyper, figure-backbones) trains a list of points: cells whose Params
// override the preset, each stored at its own path under DIR/<figure>/. These functions are what
// every figure sweep shares: planning with resume, running opts.Jobs at a time, and the error
// naming the failed points.

// figure is a figure sweep: Grid, BackboneSweep.
type figure interface {
	// Check returns an error naming what the sweep cannot run.
	Check() error
	// id is the figure's id: its records' folder and report name.
	id() string
	// points lists the sweep's points under opts, in sweep order.
	points(opts Options) []cell
}

// sweepFigure checks f and that OutDir is writable, trains its missing points of opts.Shard through
// runner (opts.Jobs at a time, each under its lock, resuming finished and interrupted ones, stopping
// once opts.Stop is closed) and renders the report with write, which it returns with a
// *FigureError when points failed, or an error wrapping ErrStopped when stopped.
func sweepFigure[R any](f figure, runner CellRunner, opts Options, write func(Options) (R, string, error)) (R, string, error) {
	var none R
	if err := f.Check(); err != nil {
		return none, "", err
	}
	opts, err := sweepDefaults(opts)
	if err != nil {
		return none, "", err
	}
	if err := checkWritable(filepath.Join(opts.OutDir, f.id())); err != nil {
		return none, "", err
	}
	points := f.points(opts)
	markFinished(f.id(), points, opts, progressOf(opts))
	err = runPoints(f.id(), points, markShard(points, opts), runner, opts)
	report, path, werr := write(opts)
	if werr != nil {
		return report, path, werr
	}
	return report, path, err
}

// planFigure returns what sweepFigure would do with f and opts, point by point, without training.
func planFigure(f figure, opts Options) ([]PlannedCell, error) {
	if err := f.Check(); err != nil {
		return nil, err
	}
	if err := opts.Shard.Check(); err != nil {
		return nil, err
	}
	opts = opts.withOutDir()
	points := f.points(opts)
	markFinished(f.id(), points, opts, io.Discard)
	markShard(points, opts)
	return plannedPoints(points, opts), nil
}

// pointRuns is the number of runs of a point on dataset under opts.
func pointRuns(opts Options, dataset string) int {
	switch {
	case opts.Runs > 0:
		return opts.Runs
	case opts.Quick:
		return 1
	}
	return DefaultRuns(dataset)
}

// newPoint is the point (dataset, method, params) of a sweep under opts, stored at path.json with
// its checkpoint at path.ckpt (none for quick points).
func newPoint(opts Options, dataset, method string, params map[string]any, path string) cell {
	c := cell{Cell: Cell{Dataset: dataset, Method: method, Runs: pointRuns(opts, dataset), Quick: opts.Quick, Params: params}, path: path + ".json"}
	if !opts.Quick {
		c.Checkpoint = path + ".ckpt"
	}
	return c
}

// markFinished marks the points a matching record covers (same cell, Params, runs and quick
// setting), unless opts.Force.
func markFinished(figure string, points []cell, opts Options, progress io.Writer) {
	for i := range points {
		c := &points[i]
		if !opts.Force {
			r, err := readPoint(c.path, figure, c.Cell)
			if err == nil && r.Runs == c.Runs && r.Quick == c.Quick {
				c.skip = true
			} else if err != nil && !errors.Is(err, os.ErrNotExist) {
				fmt.Fprintf(progress, "%s: unreadable record, the point is rerun: %v\n", figure, err)
			}
		}
	}
}

// readPoint reads the record at path and checks it is c's: figure, data set, method and every one of
// c.Params.
func readPoint(path, figure string, c Cell) (*Record, error) {
	r, err := readCell(path, figure, c.Dataset, c.Method)
	if err != nil {
		return nil, err
	}
	if err := sameParams(c.Params, r.Params); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return r, nil
}

// sameParams returns an error naming the first of want's parameters that got lacks or holds
// another value (compared as printed: JSON turns every number into a float64).
func sameParams(want, got map[string]any) error {
	for k, v := range want {
		if g, ok := got[k]; !ok || fmt.Sprint(g) != fmt.Sprint(v) {
			return fmt.Errorf("trained with %s = %v, want %v", k, g, v)
		}
	}
	return nil
}

// runPoints trains the points not marked finished nor another shard's through runner, opts.Jobs at
// a time (opts has its defaults), and returns a *FigureError naming the failed ones, or an error
// wrapping ErrStopped when opts.Stop stopped it.
func runPoints(figure string, points []cell, toRun int, runner CellRunner, opts Options) error {
	if runner == nil {
		return errors.New("tables: no CellRunner given")
	}
	sweep := (&sweepRun{opts: opts, runner: runner, table: figure, cells: points, toRun: toRun, progress: progressOf(opts)}).all()
	if err := sweep.stopError(figure, len(points)); err != nil {
		return err
	}
	if len(sweep.Failed) > 0 {
		return &FigureError{Figure: figure, Failed: sweep.Failed, Of: len(points)}
	}
	return nil
}

// plannedPoints returns points as PlannedCells: finished, in progress (with its checkpoint's runs),
// stale or to run.
func plannedPoints(points []cell, opts Options) []PlannedCell {
	out := make([]PlannedCell, len(points))
	for i, c := range points {
		out[i] = PlannedCell{Cell: c.Cell, Path: c.path, State: StateToRun}
		if c.otherShard {
			out[i].State = StateOtherShard
		} else if c.skip {
			out[i].State = StateFinished
		} else if done, runs, ok := checkpointProgress(c.Checkpoint, c.Dataset, c.Method); ok && !opts.Force {
			out[i].State, out[i].Done = StateInProgress, done
			if runs != c.Runs {
				out[i].State = StateStale
			}
		}
		if !c.otherShard && !c.skip {
			out[i].TrainedBy = heldBy(c.path)
		}
	}
	return out
}

// FigureError is a figure sweep's error when points failed.
type FigureError struct {
	// Figure is the figure's id, e.g. FigureHyper.
	Figure string
	// Failed are the failed points, in sweep order, of Of points.
	Failed []CellError
	Of     int
}

// Error names every failed point and its error.
func (e *FigureError) Error() string {
	names := make([]string, len(e.Failed))
	for i, f := range e.Failed {
		names[i] = Cell{Dataset: f.Dataset, Method: f.Method, Params: f.Params}.String() + ": " + f.Err.Error()
	}
	return fmt.Sprintf("%d of %d points of %s failed: %s", len(names), e.Of, e.Figure, strings.Join(names, "; "))
}

// pointTally is what a figure panel sums over its stored points.
type pointTally struct {
	// Runs is the largest run count of the stored points; TrainSeconds sums their seconds_total.
	Runs         int     `json:"runs"`
	TrainSeconds float64 `json:"train_seconds"`
}

// loadPoint reads the point c of figure stored at path for a report: nil when it is not stored,
// else its test accuracy, counted in tally and prov. An unreadable record is an error naming it.
func loadPoint(path, figure string, c Cell, tally *pointTally, prov *Provenance) (*Stat, error) {
	rec, err := loadPointRecord(path, figure, c, tally, prov)
	if rec == nil {
		return nil, err
	}
	return &Stat{Mean: rec.TestAccMean, Std: rec.TestAccStd}, nil
}

// loadPointRecord is loadPoint returning the point's whole record (nil when not stored).
func loadPointRecord(path, figure string, c Cell, tally *pointTally, prov *Provenance) (*Record, error) {
	rec, err := readPoint(path, figure, c)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	} else if err != nil {
		return nil, err
	}
	tally.Runs = max(tally.Runs, rec.Runs)
	tally.TrainSeconds += rec.SecondsTotal
	prov.add(rec.Quick, rec.Command, rec.GitRevision)
	return rec, nil
}

// writeFigureReport writes markdown atomically to OutDir/<id>.md and returns the path.
func writeFigureReport(opts Options, id, markdown string) (string, error) {
	path := ReportPath(opts.OutDir, id)
	return path, atomicfile.Write(path, func(w io.Writer) error {
		_, err := io.WriteString(w, markdown)
		return err
	})
}

// writeQuickWarning warns, when any point was run with --quick, that such points are not the
// paper's protocol.
func (p Provenance) writeQuickWarning(b *strings.Builder) {
	if p.Quick {
		b.WriteString("\n> **Points run with --quick are NOT the paper's protocol**: few epochs (and 1 run per point).\n")
	}
}
