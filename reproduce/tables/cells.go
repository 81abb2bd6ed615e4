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
// authors' script preset for (dataset, method)) with the cell's runs, and QuickEpochs epochs when
// quick, on backend, reading data with data. Notes on where a data set differs from the paper's go
// to notes (nil: discarded); they are also kept in each Result.
func PresetCells(backend backends.Backend, data datasets.Options, notes io.Writer) CellRunner {
	return func(dataset, method string, runs int, quick bool) (*geomix.Result, error) {
		ctx := context.New()
		ctx.SetParam(geomix.ParamRuns, runs)
		if quick {
			ctx.SetParam(geomix.ParamEpochs, QuickEpochs)
		}
		res, err := geomix.TrainPreset(ctx, backend, dataset, method, data)
		if err == nil && res.DataNotes != "" && notes != nil {
			fmt.Fprintf(notes, "note on %s: %s\n", dataset, res.DataNotes)
		}
		return res, err
	}
}
