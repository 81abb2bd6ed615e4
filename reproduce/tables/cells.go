package tables

import (
	"fmt"
	"io"

	"github.com/geomix-go/geomix/datasets"
	"github.com/geomix-go/geomix/geomix"
	"github.com/gomlx/gomlx/backends"
	"github.com/gomlx/gomlx/pkg/ml/context"
)

// QuickEpochs is the number of epochs of a quick cell: enough for a smoke test of the whole
// pipeline, far fewer than the authors' 150-500, so quick numbers are NOT comparable with the paper.
const QuickEpochs = 50

// PresetCells returns the CellRunner of the table commands and notebooks: geomix.TrainPreset (the
// authors' script preset for (dataset, method)) with the cell's runs and checkpoint, and QuickEpochs epochs when
// quick, on backend, reading data with data. Notes on where a data set differs from the paper's go
// to notes (nil: discarded); they are also kept in each Result.
func PresetCells(backend backends.Backend, data datasets.Options, notes io.Writer) CellRunner {
	return func(c Cell) (*geomix.Result, error) {
		ctx := context.New()
		ctx.SetParam(geomix.ParamRuns, c.Runs)
		if c.Quick {
			ctx.SetParam(geomix.ParamEpochs, QuickEpochs)
		}
		var opts []geomix.Option
		if c.Checkpoint != "" {
			opts = append(opts, geomix.WithCheckpoint(c.Checkpoint))
		}
		res, err := geomix.TrainPreset(ctx, backend, c.Dataset, c.Method, data, opts...)
		if err == nil && res.DataNotes != "" && notes != nil {
			fmt.Fprintf(notes, "note on %s: %s\n", c.Dataset, res.DataNotes)
		}
		return res, err
	}
}
