package main

import (
	"fmt"
	"os"
	"sync"

	"github.com/geomix-go/geomix/datasets"
	"github.com/geomix-go/geomix/geomix"
	"github.com/gomlx/gomlx/backends"
	"github.com/gomlx/gomlx/pkg/ml/context"
)

// quickEpochs is the number of epochs of a --quick table cell: enough for a smoke test of the whole
// pipeline, far fewer than the authors' 150-500, so quick numbers are NOT comparable with the paper.
const quickEpochs = 50

func init() { cellRunner = trainCell }

var (
	cellBackendOnce sync.Once
	cellBackend     backends.Backend
	cellBackendErr  error
)

// trainCell is the tables.CellRunner of the table commands: it applies the authors' script preset
// for (dataset, method) (geomix.ApplyPreset), sets the runs (and quickEpochs epochs when quick),
// loads the data set from $GEOMIX_DATA (or the user cache; see datasets.DefaultRoot) with the
// preset's feature normalisation, and trains with geomix.Train on one backend shared by all cells.
func trainCell(dataset, method string, runs int, quick bool) (*geomix.Result, error) {
	ctx := context.New()
	preset, err := geomix.ApplyPreset(ctx, dataset, method)
	if err != nil {
		return nil, err
	}
	ctx.SetParam(geomix.ParamRuns, runs)
	if quick {
		ctx.SetParam(geomix.ParamEpochs, quickEpochs)
	}
	g, err := datasets.Load(dataset, datasets.Options{RawFeatures: preset.RawFeatures})
	if err != nil {
		return nil, err
	}
	if g.Notes != "" {
		fmt.Fprintf(os.Stderr, "note on %s: %s\n", g.Name, g.Notes)
	}
	cellBackendOnce.Do(func() { cellBackend, cellBackendErr = newBackend() })
	if cellBackendErr != nil {
		return nil, cellBackendErr
	}
	return geomix.Train(ctx, cellBackend, g, method)
}
