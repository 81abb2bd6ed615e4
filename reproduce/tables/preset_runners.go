package tables

import (
	"fmt"
	"io"

	"github.com/geomix-go/geomix/datasets"
	"github.com/geomix-go/geomix/geomix"
	"github.com/geomix-go/geomix/geomix/training"
	"github.com/gomlx/gomlx/backends"
	"github.com/gomlx/gomlx/pkg/ml/context"
)

// QuickEpochs is the number of epochs of a quick cell: enough for a smoke test of the whole
// pipeline, far fewer than the authors' 150-500, so quick numbers are NOT comparable with the paper.
const QuickEpochs = 50

// PresetCells returns the CellRunner of the table commands and notebooks: geomix.TrainPreset (the
// authors' script preset for (dataset, method)) with the cell's runs, Params and checkpoint, and QuickEpochs epochs when
// quick, on backend, reading data with data; it stops at its next safe point once c.Stop is closed. Each cell's training progress, and notes on where a
// data set differs from the paper's, go to out (nil: discarded); the notes are also kept in each
// Result. The runner may train several cells at once (Options.Jobs): each call has its own context
// and random streams, and backend serves concurrent executions.
func PresetCells(backend backends.Backend, data datasets.Options, out io.Writer) CellRunner {
	if out == nil {
		out = io.Discard
	}
	if data.Progress == nil {
		data.Progress = out
	}
	return func(c Cell) (*geomix.Result, error) {
		ctx := context.New()
		ctx.SetParam(training.ParamRuns, c.Runs)
		for k, v := range c.Params {
			ctx.SetParam(k, v)
		}
		if c.Quick {
			ctx.SetParam(training.ParamEpochs, QuickEpochs)
		}
		opts := []geomix.Option{geomix.WithProgress(out), geomix.WithStop(c.Stop)}
		if c.Checkpoint != "" {
			opts = append(opts, geomix.WithCheckpoint(c.Checkpoint))
		}
		res, err := geomix.TrainPreset(ctx, backend, c.Dataset, c.Method, data, opts...)
		if err == nil && res.DataNotes != "" {
			fmt.Fprintf(out, "note on %s: %s\n", c.Dataset, res.DataNotes)
		}
		return res, err
	}
}

// PresetRepresentations returns the RepresentationRunner of the t-SNE figures: one run of
// geomix.TrainPreset (QuickEpochs epochs when quick) with geomix.WithRepresentations, and the data
// set's labels, on backend with data; progress goes to out (nil: discarded).
func PresetRepresentations(backend backends.Backend, data datasets.Options, out io.Writer) RepresentationRunner {
	if out == nil {
		out = io.Discard
	}
	if data.Progress == nil {
		data.Progress = out
	}
	return func(c Cell) (*geomix.Result, [][]float32, []int32, error) {
		g, err := datasets.Load(c.Dataset, data)
		if err != nil {
			return nil, nil, nil, err
		}
		ctx := context.New()
		ctx.SetParam(training.ParamRuns, 1)
		if c.Quick {
			ctx.SetParam(training.ParamEpochs, QuickEpochs)
		}
		var reps [][]float32
		res, err := geomix.TrainPreset(ctx, backend, c.Dataset, c.Method, data, geomix.WithProgress(out), geomix.WithStop(c.Stop),
			geomix.WithRepresentations(func(_, _ int, logits [][]float32) { reps = logits }))
		if err != nil {
			return nil, nil, nil, err
		}
		return res, reps, g.Labels, nil
	}
}
