package tables

import (
	"fmt"
	"maps"
	"slices"

	"github.com/geomix-go/geomix/geomix"
)

// Cell is one (dataset, method) of a table for a CellRunner to train.
type Cell struct {
	// Dataset and Method are the ids the runner trains (geomix presets' names).
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
	// Stop is Options.Stop: once it is closed the runner returns at its next safe point with an error
	// wrapping training.ErrStopped (geomix.WithStop does that).
	Stop <-chan struct{}
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

// CellError is a cell that failed in a sweep.
type CellError struct {
	// Dataset and Method name the failed cell.
	Dataset, Method string
	// Params are the failed cell's Cell.Params (nil for a table's cells).
	Params map[string]any
	// Err is what the runner returned (or its panic).
	Err error
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
