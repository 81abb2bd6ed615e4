package geomix

import (
	"errors"

	"github.com/geomix-go/geomix/datasets"
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
	merged, g, source, err := presetAndGraph(ctx, dataset, method, data)
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

// presetAndGraph returns a new context with the preset for (dataset, method) overridden by ctx's
// hyper-parameters, the data set loaded as the preset wants it, and the preset's source.
func presetAndGraph(ctx *context.Context, dataset, method string, data datasets.Options) (*context.Context, *datasets.Graph, string, error) {
	source := "no preset for " + dataset + ": the reference's argparse defaults"
	merged := context.New()
	preset, err := PresetFor(dataset, method)
	var noPreset *NoPresetError
	switch {
	case errors.As(err, &noPreset):
	case err != nil:
		return nil, nil, "", err
	default:
		source = preset.Source
		data.RawFeatures = preset.RawFeatures
		merged.SetParams(preset.Params)
	}
	for _, k := range ParamNames() {
		if v, set := ctx.GetParam(k); set {
			merged.SetParam(k, v)
		}
	}
	g, err := datasets.Load(dataset, data)
	if err != nil {
		return nil, nil, "", err
	}
	return merged, g, source, nil
}
