package presets

import (
	"errors"
	"fmt"

	"github.com/geomix-go/geomix/datasets"
	"github.com/geomix-go/geomix/geomix/training"
	"github.com/gomlx/gomlx/pkg/ml/context"
)

// Load returns a new context with the preset for (dataset, method) overridden by ctx's
// hyper-parameters (a data set without a preset takes the reference's argparse defaults), the data
// set loaded as the preset wants it (raw or row-normalised features; twitch-ood's features as
// training.ParamTwitchFeatures says), and the preset's source.
func Load(ctx *context.Context, dataset, method string, data datasets.Options) (*context.Context, *datasets.Graph, string, error) {
	source := "no preset for " + dataset + ": the reference's argparse defaults"
	merged := context.New()
	preset, err := For(dataset, method)
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
	for _, k := range training.ParamNames() {
		if v, set := ctx.GetParam(k); set {
			merged.SetParam(k, v)
		}
	}
	if v, set := merged.GetParam(training.ParamTwitchFeatures); set {
		features, ok := v.(string)
		if !ok {
			return nil, nil, "", fmt.Errorf("hyper-parameter %q = %v has type %T, want string", training.ParamTwitchFeatures, v, v)
		}
		data.TwitchFeatures = features
	}
	g, err := datasets.Load(dataset, data)
	if err != nil {
		return nil, nil, "", err
	}
	return merged, g, source, nil
}
