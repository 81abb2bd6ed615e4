package presets

import (
	"strings"

	"github.com/geomix-go/geomix/geomix/backbones"
	"github.com/geomix-go/geomix/geomix/methods"
	"github.com/geomix-go/geomix/geomix/training"
)

// pileupExp is what every row of the authors' Pileup script (src/pileup/exp/trans.sh) shares: 5 runs
// of 200 epochs, 2 layers of 64 units, seed 123 (set once), η 0.5 and 16-wide attention unless a row
// says otherwise, Adam re-created every run as its code does. Its batches of 5 source events are the
// data's (datasets/pileup.BatchSize).
var pileupExp = map[string]any{training.ParamRuns: 5, training.ParamEpochs: 200, backbones.ParamLayers: 2, backbones.ParamHidden: 64, training.ParamSeed: 123,
	backbones.ParamBackbone: "gcn", methods.ParamAttnDim: 16, training.ParamResetAdam: true}

// pileupPresets are the rows of src/pileup/exp/trans.sh, one group per shift, keyed "pileup-<shift>"
// after datasets/pileup.Shifts' names.
var pileupPresets = map[string]presetGroup{
	"pileup-gg-pu10-pu30": {"pileup/exp/trans.sh", pileupExp, [3]variantRow{
		{lr: 0.005, hidden: 64, wd: 1e-3, dropout: 0.3, hops: 2, alpha: 0},
		{lr: 0.005, hidden: 64, wd: 5e-3, dropout: 0.5, hops: 3, alpha: 0.1},
		{lr: 0.005, hidden: 64, wd: 5e-3, dropout: 0.5, hops: 2, res: 0.1, graph: 0.5}}},
	"pileup-gg-pu30-pu10": {"pileup/exp/trans.sh", pileupExp, [3]variantRow{
		{lr: 0.001, hidden: 64, wd: 5e-3, dropout: 0.5, hops: 1, alpha: 0.8},
		{lr: 0.001, hidden: 64, wd: 5e-3, dropout: 0.5, hops: 1, alpha: 0.8},
		{lr: 0.001, hidden: 64, wd: 5e-3, dropout: 0.5, hops: 1, res: 0.8, graph: 0.5}}},
	"pileup-gg-pu30-pu50": {"pileup/exp/trans.sh", pileupExp, [3]variantRow{
		{lr: 0.01, hidden: 64, wd: 1e-2, dropout: 0.5, hops: 3, alpha: 0.1, labelGrad: true},
		{lr: 0.01, hidden: 64, wd: 1e-2, dropout: 0.5, hops: 3, alpha: 0.1, labelGrad: true},
		{lr: 0.01, hidden: 64, wd: 1e-2, dropout: 0.3, hops: 3, res: 0.1, graph: 0.5, labelGrad: true}}},
	"pileup-gg-pu50-pu30": {"pileup/exp/trans.sh", pileupExp, [3]variantRow{
		{lr: 0.005, hidden: 64, wd: 1e-4, dropout: 0.6, hops: 2, alpha: 0.1, labelGrad: true},
		{lr: 0.005, hidden: 64, wd: 1e-4, dropout: 0.6, hops: 2, alpha: 0.1, labelGrad: true},
		{lr: 0.005, hidden: 64, wd: 1e-4, dropout: 0.6, hops: 2, res: 0.1, graph: 0.5, labelGrad: true}}},
	"pileup-pu30-gg-qq": {"pileup/exp/trans.sh", pileupExp, [3]variantRow{
		{lr: 0.05, hidden: 64, wd: 1e-3, dropout: 0.5, hops: 2, alpha: 0, labelGrad: true},
		{lr: 0.05, hidden: 64, wd: 1e-3, dropout: 0.5, hops: 2, alpha: 0.1, labelGrad: true},
		{lr: 0.05, hidden: 64, wd: 5e-3, dropout: 0.5, hops: 2, res: 0.1, graph: 0.5, labelGrad: true}}},
	"pileup-pu30-qq-gg": {"pileup/exp/trans.sh", pileupExp, [3]variantRow{
		{lr: 0.01, hidden: 64, wd: 5e-4, dropout: 0.5, hops: 2, alpha: 0, labelGrad: true},
		{lr: 0.005, hidden: 64, wd: 1e-3, dropout: 0.5, hops: 2, alpha: 0.1, labelGrad: true},
		{lr: 0.005, hidden: 64, wd: 1e-3, dropout: 0.5, hops: 2, res: 0.1, graph: 0.8, labelGrad: true}}},
}

// augLambdaRows are λ (methods.ParamAugLambda) of GeoMix-I/II/III on the data sets whose script
// changes it from 1: only the Pileup script's PU10→PU30 GeoMix-I row (λ 10).
var augLambdaRows = map[string][3]float64{"pileup-gg-pu10-pu30": {10, 1, 1}}

// usesAugLambda reports whether method weighs GeoMix's augmentation loss by λ: GeoMix-I/II/III and
// their ablations.
func usesAugLambda(method string) bool {
	return strings.HasPrefix(method, "geomix") || method == "randommix" || method == "nolocality"
}

func init() {
	for name, group := range pileupPresets {
		presets[name] = group
	}
}
