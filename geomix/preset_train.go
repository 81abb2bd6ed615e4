package geomix

import (
	"github.com/geomix-go/geomix/datasets"
	"github.com/geomix-go/geomix/geomix/presets"
	"github.com/gomlx/gomlx/backends"
	"github.com/gomlx/gomlx/pkg/ml/context"
)

// TrainPreset loads the data set called dataset (see datasets.Names) and trains method on it with
// the authors' script preset for (dataset, method) (see PresetFor): the one path the CLI, the table
// runner and the notebooks share. Hyper-parameters already set in ctx override the preset's; a data
// set without a preset (e.g. "synthetic") trains with the reference's argparse defaults. ctx itself
// is only read, so it can be reused for another data set. data gives
// the data root and download options; its RawFeatures follows the preset. The preset's source and
// the data set's notes (where it differs from the paper's) are returned in Result.Preset and
// Result.DataNotes.
func TrainPreset(ctx *context.Context, backend backends.Backend, dataset, method string, data datasets.Options, opts ...Option) (*Result, error) {
	merged, g, source, err := presets.Load(ctx, dataset, method, data)
	if err != nil {
		return nil, err
	}
	res, err := Train(merged, backend, g, method, opts...)
	if err != nil {
		return nil, err
	}
	res.Preset, res.DataNotes = source, g.Notes
	return res, nil
}
