package torchbench

import (
	"fmt"
	"slices"

	"github.com/geomix-go/geomix/geomix/backbones"
	"github.com/geomix-go/geomix/geomix/methods"
	"github.com/geomix-go/geomix/geomix/training"
	"github.com/gomlx/gomlx/pkg/ml/context"
)

// Methods are the methods geomix_ref.py implements.
var Methods = []string{"gcn", "geomix1", "geomix2", "geomix3"}

// valueFlags map our hyper-parameters to geomix_ref.py's flags that take a value (the reference's
// argparse names).
var valueFlags = map[string]string{
	backbones.ParamBackbone:   "--backbone",
	backbones.ParamLayers:     "--num_layers",
	backbones.ParamHidden:     "--hidden_channels",
	backbones.ParamDropout:    "--dropout",
	training.ParamLR:          "--lr",
	training.ParamWeightDecay: "--weight_decay",
	training.ParamSeed:        "--seed",
	methods.ParamHops:         "--hops",
	methods.ParamAlpha:        "--alpha",
	methods.ParamResWeight:    "--res_weight",
	methods.ParamGraphWeight:  "--graph_weight",
	methods.ParamAttnDim:      "--attn_emb_dim",
	methods.ParamAugLambda:    "--aug_lamb",
	training.ParamEpochs:      "--epochs",
	training.ParamRuns:        "--runs",
	training.ParamPatience:    "--patience",
}

// switchFlags map our boolean hyper-parameters to geomix_ref.py's flags given when they are true.
var switchFlags = map[string]string{
	backbones.ParamUseBN:    "--use_bn",
	methods.ParamLabelGrad:  "--label_grad",
	training.ParamResetAdam: "--reset_adam",
}

// sameWork are hyper-parameters geomix_ref.py has no flag for that change neither the arithmetic
// nor the data: which of equal epochs is selected, how our trainer holds the features, which
// features twitch-ood loads (the exported file holds them).
var sameWork = []string{training.ParamSelectLast, backbones.ParamFeatureLayout, training.ParamTwitchFeatures}

// required are hyper-parameters geomix_ref.py supports at one value only.
var required = map[string]any{methods.ParamUseWeight: true, training.ParamNormalization: "sym"}

// Flags returns geomix_ref.py's flags for method with ctx's hyper-parameters (presets.Load's
// merged context): one flag per hyper-parameter set, the others left at the script's argparse
// defaults, which are ours (both are the reference's). A method the script does not implement,
// a backbone other than gcn or gcnconv, or a hyper-parameter it has no counterpart for is an
// error naming it.
func Flags(ctx *context.Context, method string) ([]string, error) {
	if err := CheckMethods([]string{method}); err != nil {
		return nil, err
	}
	flags := []string{"--method", method}
	for _, key := range training.ParamNames() {
		v, set := ctx.GetParam(key)
		if !set || slices.Contains(sameWork, key) {
			continue
		}
		if want, ok := required[key]; ok {
			if v != want {
				return nil, fmt.Errorf("hyper-parameter %s = %v: the PyTorch reference supports only %v", key, v, want)
			}
			continue
		}
		if flag, ok := switchFlags[key]; ok {
			if on, isBool := v.(bool); !isBool {
				return nil, fmt.Errorf("hyper-parameter %s = %v has type %T, want bool", key, v, v)
			} else if on {
				flags = append(flags, flag)
			}
			continue
		}
		if key == methods.ParamTrainAttention { // false: W_q, W_k frozen, as the hetero code
			if v == false {
				flags = append(flags, "--frozen_attention")
			}
			continue
		}
		flag, ok := valueFlags[key]
		switch {
		case !ok:
			return nil, fmt.Errorf("hyper-parameter %s = %v has no counterpart in the PyTorch reference", key, v)
		case key == backbones.ParamBackbone && v != "gcn" && v != "gcnconv":
			return nil, fmt.Errorf("backbone %v: the PyTorch reference has gcn and gcnconv", v)
		default:
			flags = append(flags, flag, fmt.Sprint(v))
		}
	}
	return flags, nil
}
