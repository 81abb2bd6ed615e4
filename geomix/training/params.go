package training

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/geomix-go/geomix/datasets"
	"github.com/geomix-go/geomix/geomix/backbones"
	"github.com/geomix-go/geomix/geomix/methods"
)

// Hyper-parameters of training, read from the context; package presets fills every hyper-parameter
// per data set and method, and any of them can be overridden with ctx.SetParam (or `--set
// key=value` in the CLI). The backbones' are in package backbones, the methods' in package methods.
const (
	// ParamLR is Adam's learning rate (float64, 0.01).
	ParamLR = "lr"
	// ParamWeightDecay is PyTorch-style coupled L2: wd*w is added to every gradient, biases and BN
	// included (float64, 5e-4).
	ParamWeightDecay = "weight_decay"
	// ParamEpochs is the number of training epochs per run (int, 300).
	ParamEpochs = "epochs"
	// ParamRuns is R, the number of independent runs (int, 1).
	ParamRuns = "runs"
	// ParamPatience stops a run after this many epochs without a better validation accuracy;
	// 0 disables early stopping (int, 0; 200 in the hetero presets).
	ParamPatience = "patience"
	// ParamSeed seeds the host RNG and the context RNG (int, 123, the reference's seed).
	ParamSeed = "seed"
	// ParamResetAdam re-creates Adam's moments for every run (bool, false). The reference keeps them
	// across runs in main_exp and hetero, which is the default here; the presets reset
	// them for Twitch and for the plain baselines (see PresetFor).
	ParamResetAdam = "reset_adam"
	// ParamNormalization is the adjacency normalisation, "sym", "row" or "rowself" (string, "sym"; see
	// mixing.Normalization).
	ParamNormalization = "normalization"
	// ParamSelectLast selects, among the epochs of equal best validation accuracy, the last instead
	// of the first (bool, false; GraphMix's code takes the last).
	ParamSelectLast = "select_last"
	// ParamLRDecayEvery multiplies the learning rate by ParamLRDecayFactor every this many updates
	// of a run, torch's StepLR (int, 0 = constant; DANN's 50).
	ParamLRDecayEvery = "lr_decay_every"
	// ParamLRDecayFactor is StepLR's γ (float64, 1; DANN's 0.8).
	ParamLRDecayFactor = "lr_decay_factor"
	// ParamTwitchFeatures selects twitch-ood's node features, datasets.TwitchFeaturesRaw or
	// datasets.TwitchFeaturesSVD128 (string, "raw"). presets.Load (TrainPreset, the CLI, the tables)
	// loads the data set with it; Train itself trains on the graph it is given, whose Notes name
	// its features.
	ParamTwitchFeatures = "twitch_features"
)

// paramSpecs are the hyper-parameters Train reads: each one's default (the argparse defaults of the
// authors' main_exp code, src/main_exp/main.py, used when neither a preset nor the caller set a
// value) and its valid values, checked by ParseParam and CheckParams.
var paramSpecs = map[string]paramSpec{
	backbones.ParamBackbone:         {"gcn", backboneNames},
	ParamLR:                         {0.01, positive},
	ParamWeightDecay:                {5e-4, nonNegative},
	backbones.ParamDropout:          {0.0, rate},
	backbones.ParamHidden:           {64, atLeastOne},
	backbones.ParamLayers:           {2, atLeastOne},
	backbones.ParamUseBN:            {false, anyValue},
	methods.ParamHops:               {1, atLeastOne},
	methods.ParamAlpha:              {0.0, probability},
	methods.ParamResWeight:          {0.5, probability},
	methods.ParamGraphWeight:        {0.8, probability},
	methods.ParamAttnDim:            {16, atLeastOne},
	methods.ParamUseWeight:          {true, anyValue},
	methods.ParamTrainAttention:     {true, anyValue},
	methods.ParamLabelGrad:          {false, anyValue},
	methods.ParamAugLambda:          {1.0, nonNegative},
	ParamEpochs:                     {300, atLeastOne},
	ParamRuns:                       {1, atLeastOne},
	ParamPatience:                   {0, nonNegative},
	ParamSeed:                       {123, anyValue},
	ParamResetAdam:                  {false, anyValue},
	ParamNormalization:              {"sym", oneOf("sym", "row", "rowself")},
	methods.ParamMixupBeta:          {4, atLeastOne},
	methods.ParamInputDropout:       {0.0, rate},
	ParamSelectLast:                 {false, anyValue},
	methods.ParamGraphMixGamma:      {1.0, nonNegative},
	methods.ParamDANNReversal:       {0.2, nonNegative},
	methods.ParamEERMEnvironments:   {3, atLeastOne},
	methods.ParamEERMSamples:        {5, atLeastOne},
	methods.ParamEERMBeta:           {1.0, nonNegative},
	methods.ParamEERMEditorLR:       {0.005, positive},
	methods.ParamEERMCandidates:     {64, atLeastOne},
	ParamLRDecayEvery:               {0, nonNegative},
	ParamLRDecayFactor:              {1.0, positive},
	ParamTwitchFeatures:             {datasets.TwitchFeaturesRaw, oneOf(datasets.TwitchFeaturesRaw, datasets.TwitchFeaturesSVD128)},
	backbones.ParamFeatureLayout:    {"auto", oneOf("auto", "sparse", "dense")},
	backbones.ParamGATHeads:         {8, atLeastOne},
	backbones.ParamGATOutHeads:      {1, atLeastOne},
	backbones.ParamSGCHops:          {2, atLeastOne},
	backbones.ParamAPPNPHops:        {10, atLeastOne},
	backbones.ParamAPPNPAlpha:       {0.1, probability},
	backbones.ParamGloGNNAlpha:      {0.0, nonNegative},
	backbones.ParamGloGNNBeta:       {1.0, nonNegative},
	backbones.ParamGloGNNGamma:      {0.0, probability},
	backbones.ParamGloGNNDelta:      {0.0, probability},
	backbones.ParamGloGNNNormLayers: {2, atLeastOne},
	backbones.ParamGloGNNOrders:     {1, atLeastOne},
}

// ParamNames lists every hyper-parameter Train reads, sorted.
func ParamNames() []string {
	return slices.Sorted(maps.Keys(paramSpecs))
}

// ParseParam converts the text value of hyper-parameter key (e.g. from `--set key=value`) to the Go
// type Train expects: int, float64, bool or string. Unknown keys, malformed values and values out of
// the key's range are errors that name the key and the expected type or range.
func ParseParam(key, value string) (any, error) {
	spec, ok := paramSpecs[key]
	if !ok {
		return nil, fmt.Errorf("unknown hyper-parameter %q: valid ones are %s", key, strings.Join(ParamNames(), ", "))
	}
	var (
		v   any
		err error
	)
	def := spec.def
	switch def.(type) {
	case int:
		v, err = strconv.Atoi(value)
	case float64:
		v, err = strconv.ParseFloat(value, 64)
	case bool:
		v, err = strconv.ParseBool(value)
	default:
		v = value
	}
	if err != nil {
		return nil, fmt.Errorf("hyper-parameter %q: value %q is not a valid %T", key, value, def)
	}
	if err := spec.check(key, v); err != nil {
		return nil, err
	}
	return v, nil
}
