package presets

import (
	"strings"
	"testing"

	"github.com/geomix-go/geomix/datasets"
	"github.com/geomix-go/geomix/geomix/backbones"
	"github.com/geomix-go/geomix/geomix/methods"
	"github.com/geomix-go/geomix/geomix/training"
	"github.com/gomlx/gomlx/pkg/ml/context"
)

// TestPresetCora checks one preset row against the authors' main_exp/exp/aug_gcn.sh (Cora GeoMix-III).
func TestPresetCora(t *testing.T) {
	p, err := For("cora", "geomix3")
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]any{training.ParamLR: 0.1, backbones.ParamHidden: 16, training.ParamWeightDecay: 5e-4, backbones.ParamDropout: 0.5, methods.ParamHops: 2,
		methods.ParamResWeight: 0.1, methods.ParamGraphWeight: 0.8, methods.ParamLabelGrad: true, training.ParamRuns: 5, training.ParamEpochs: 300}
	for k, v := range want {
		if p.Params[k] != v {
			t.Errorf("cora/geomix3 %s = %v, want %v", k, p.Params[k], v)
		}
	}
	if err := training.CheckParams(p.Params); err != nil {
		t.Error(err)
	}
}

// TestPresetResetAdam: Adam's state carries across runs for GeoMix on main_exp and hetero data
// and is re-created for the plain baselines and on Twitch.
func TestPresetResetAdam(t *testing.T) {
	for _, c := range []struct {
		dataset, method string
		want            bool
	}{{"cora", "geomix1", false}, {"chameleon", "geomix3", false}, {"cora", "gcn", true}, {"chameleon", "gat", true}, {"twitch-ood", "geomix1", true}} {
		p, err := For(c.dataset, c.method)
		if err != nil {
			t.Fatal(err)
		}
		if got, _ := p.Params[training.ParamResetAdam].(bool); got != c.want {
			t.Errorf("%s/%s: reset_adam %v, want %v", c.dataset, c.method, got, c.want)
		}
	}
}

// TestPresetBaselines: Mixup, GraphMix and GloGNN take their code's model settings and the data
// set's protocol (epochs aside, patience included).
func TestPresetBaselines(t *testing.T) {
	for _, c := range []struct {
		dataset, method string
		want            map[string]any
	}{
		{"cora", "mixup", map[string]any{backbones.ParamHidden: 256, backbones.ParamLayers: 3, training.ParamLR: 1e-3, training.ParamWeightDecay: 0.0, training.ParamNormalization: "row", training.ParamEpochs: 300}},
		{"cora", "graphmix", map[string]any{methods.ParamGraphMixGamma: 10.0, methods.ParamInputDropout: 0.5, training.ParamEpochs: 2000, training.ParamSelectLast: true, backbones.ParamHidden: 16}},
		{"pubmed", "graphmix", map[string]any{methods.ParamGraphMixGamma: 1.0}},
		{"chameleon", "graphmix", map[string]any{training.ParamPatience: 200, training.ParamEpochs: 2000}},
		{"squirrel", "glognn", map[string]any{backbones.ParamGloGNNDelta: 1.0, backbones.ParamDropout: 0.8, training.ParamNormalization: "rowself", training.ParamPatience: 200}},
		{"twitch-ood", "dann", map[string]any{backbones.ParamHidden: 50, training.ParamLR: 0.007, training.ParamLRDecayEvery: 50, training.ParamLRDecayFactor: 0.8, training.ParamEpochs: 300}},
		{"citeseer", "glognn", map[string]any{backbones.ParamGloGNNAlpha: 77.0, backbones.ParamGloGNNBeta: 1000.0, backbones.ParamGloGNNOrders: 6, backbones.ParamHidden: 64}},
	} {
		p, err := For(c.dataset, c.method)
		if err != nil {
			t.Fatal(err)
		}
		for k, want := range c.want {
			if got := p.Params[k]; got != want {
				t.Errorf("%s/%s: %s = %v, want %v", c.dataset, c.method, k, got, want)
			}
		}
		if _, err := methods.New(c.method); err != nil {
			t.Error(err)
		}
	}
}

// TestLoadPassesTwitchFeatures: the twitch_features hyper-parameter reaches the loader (which refuses
// svd128 outside twitch-ood before reading any file), and a value of the wrong type is refused.
func TestLoadPassesTwitchFeatures(t *testing.T) {
	ctx := context.New()
	ctx.SetParam(training.ParamTwitchFeatures, datasets.TwitchFeaturesSVD128)
	opts := datasets.Options{Root: t.TempDir(), Offline: true}
	if _, _, _, err := Load(ctx, "cora", "gcn", opts); err == nil || !strings.Contains(err.Error(), "twitch-ood only") {
		t.Errorf("cora with twitch_features=svd128: %v", err)
	}
	ctx.SetParam(training.ParamTwitchFeatures, 128)
	if _, _, _, err := Load(ctx, "cora", "gcn", opts); err == nil || !strings.Contains(err.Error(), "want string") {
		t.Errorf("twitch_features=128: %v", err)
	}
}

// TestPresetPileup checks rows of the Pileup script (src/pileup/exp/trans.sh) and that the
// baselines take GeoMix-I's row with their own model settings.
func TestPresetPileup(t *testing.T) {
	for _, c := range []struct {
		dataset, method string
		want            map[string]any
	}{
		{"pileup-gg-pu10-pu30", "geomix1", map[string]any{training.ParamLR: 0.005, training.ParamWeightDecay: 1e-3, backbones.ParamDropout: 0.3, methods.ParamHops: 2,
			methods.ParamAlpha: 0.0, methods.ParamAugLambda: 10.0, backbones.ParamHidden: 64, training.ParamEpochs: 200, training.ParamRuns: 5, training.ParamSeed: 123}},
		{"pileup-gg-pu10-pu30", "geomix2", map[string]any{methods.ParamHops: 3, methods.ParamAugLambda: 1.0, methods.ParamLabelGrad: false}},
		{"pileup-gg-pu10-pu30", "gcn", map[string]any{training.ParamLR: 0.005, backbones.ParamDropout: 0.3, backbones.ParamHidden: 64, training.ParamResetAdam: true}},
		{"pileup-pu30-qq-gg", "geomix3", map[string]any{training.ParamLR: 0.005, methods.ParamResWeight: 0.1, methods.ParamGraphWeight: 0.8, methods.ParamLabelGrad: true, backbones.ParamLayers: 2}},
		{"pileup-gg-pu30-pu10", "dann", map[string]any{backbones.ParamHidden: 50, training.ParamLR: 0.007, training.ParamEpochs: 200}},
	} {
		p, err := For(c.dataset, c.method)
		if err != nil {
			t.Fatal(err)
		}
		for k, want := range c.want {
			if got := p.Params[k]; got != want {
				t.Errorf("%s/%s: %s = %v, want %v", c.dataset, c.method, k, got, want)
			}
		}
		if _, ok := p.Params[methods.ParamAugLambda]; ok && c.method == "gcn" {
			t.Errorf("%s/gcn sets %s, which only GeoMix reads", c.dataset, methods.ParamAugLambda)
		}
		if err := training.CheckParams(p.Params); err != nil {
			t.Error(err)
		}
	}
}
