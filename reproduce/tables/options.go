package tables

import (
	"fmt"
	"io"
	"os"
)

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
	// Shard is the part of the sweep this process trains (the zero value: all of it).
	Shard Shard
	// Stop, once closed (e.g. on SIGINT), stops the sweep at its next safe point: no cell starts,
	// and the cells in training stop after their epoch in progress, keeping their checkpoints (see
	// Cell.Stop). nil never stops.
	Stop <-chan struct{}

	// annotate, when set, adds to a cell's record what its runner returned beside the Result (see
	// RunPileup), before the record is written.
	annotate func(c Cell, r *Record) error
}

// withOutDir returns o with OutDir defaulted to "results".
func (o Options) withOutDir() Options {
	if o.OutDir == "" {
		o.OutDir = "results"
	}
	return o
}

// sweepDefaults checks opts' counts and fills OutDir and GitRevision.
func sweepDefaults(opts Options) (Options, error) {
	if opts.Runs < 0 || opts.Jobs < 0 {
		return opts, fmt.Errorf("tables: runs and jobs must be >= 0 (0 for the default), got %d and %d", opts.Runs, opts.Jobs)
	}
	opts = opts.withOutDir()
	if opts.GitRevision == "" {
		opts.GitRevision = GitRevision(".", opts.OutDir)
	}
	return opts, nil
}

// progressOf is opts.Progress, or os.Stderr when nil.
func progressOf(opts Options) io.Writer {
	if opts.Progress == nil {
		return os.Stderr
	}
	return opts.Progress
}
