package presets

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/geomix-go/geomix/geomix/backbones"
	"github.com/geomix-go/geomix/geomix/methods"
	"github.com/geomix-go/geomix/geomix/training"
)

// scriptRow is one row of the authors' run scripts, transcribed by hand (not from presets.go):
// lr, hidden, weight decay, dropout, hops, α (GeoMix-I/II) or β, η (GeoMix-III), and flags.
type scriptRow struct {
	lr              float64
	hidden          int
	wd, dropout     float64
	hops            int
	alpha           float64
	res, graph      float64
	labelGrad, bn   bool
	raw             bool
	epochs, layers  int // 0: the group's
	hasAlpha, isIII bool
}

func rowI(lr float64, hidden int, wd, do float64, hops int, alpha float64) scriptRow {
	return scriptRow{lr: lr, hidden: hidden, wd: wd, dropout: do, hops: hops, alpha: alpha, hasAlpha: true}
}

func rowIII(lr float64, hidden int, wd, do float64, hops int, res, graph float64) scriptRow {
	return scriptRow{lr: lr, hidden: hidden, wd: wd, dropout: do, hops: hops, res: res, graph: graph, isIII: true}
}

func (r scriptRow) lg() scriptRow              { r.labelGrad = true; return r }
func (r scriptRow) withBN() scriptRow          { r.bn = true; return r }
func (r scriptRow) nfn() scriptRow             { r.raw = true; return r }
func (r scriptRow) ep(e int) scriptRow         { r.epochs = e; return r }
func (r scriptRow) withLayers(l int) scriptRow { r.layers = l; return r }

// scriptGroup is one run script: what every row shares, then the GeoMix-I, -II, -III rows.
type scriptGroup struct {
	common map[string]any
	rows   [3]scriptRow
}

// scriptGroups are the scripts of the authors' code: src/main_exp/exp/aug_gcn.sh (Cora to Physics),
// src/main_exp/exp/nograph.sh (STL10, CIFAR10, 20News; every row bn and label_grad),
// src/hetero/exp/aug_gcn.sh (Squirrel, Chameleon; PyG GCNConv, W_q/W_k untrained, patience 200)
// and src/twitch/exp/aug_gcn.sh (every row 2 layers of 32 units, Adam re-created per run).
func scriptGroups() map[string]scriptGroup {
	mainExp := map[string]any{training.ParamRuns: 5, training.ParamEpochs: 300, backbones.ParamLayers: 2, training.ParamSeed: 123,
		backbones.ParamBackbone: "gcn", methods.ParamAttnDim: 16}
	hetero := map[string]any{training.ParamRuns: 10, training.ParamEpochs: 500, training.ParamPatience: 200, training.ParamSeed: 42,
		backbones.ParamBackbone: "gcnconv", methods.ParamAttnDim: 16, methods.ParamTrainAttention: false}
	twitch := map[string]any{training.ParamRuns: 5, training.ParamEpochs: 300, backbones.ParamLayers: 2, training.ParamSeed: 123,
		backbones.ParamBackbone: "gcn", methods.ParamAttnDim: 16, backbones.ParamHidden: 32, training.ParamResetAdam: true}
	nograph := func(r scriptRow) scriptRow { return r.lg().withBN() }
	return map[string]scriptGroup{
		"cora": {mainExp, [3]scriptRow{rowI(0.1, 16, 5e-4, 0.5, 3, 0.1).lg(), rowI(0.1, 16, 5e-4, 0.5, 2, 0.1).lg(),
			rowIII(0.1, 16, 5e-4, 0.5, 2, 0.1, 0.8).lg()}},
		"citeseer": {mainExp, [3]scriptRow{rowI(0.01, 64, 0.1, 0.3, 2, 0.7).lg().withBN(), rowI(0.01, 64, 0.1, 0.3, 2, 0.5).lg().withBN(),
			rowIII(0.1, 16, 1e-2, 0.5, 2, 0.5, 0.3).lg().withBN()}},
		"pubmed": {mainExp, [3]scriptRow{rowI(0.3, 16, 1e-3, 0.4, 2, 0.1).lg(), rowI(0.3, 16, 5e-3, 0.6, 2, 0.1).lg().nfn(),
			rowIII(0.3, 16, 8e-4, 0.3, 3, 0.2, 0.5).lg().nfn()}},
		"cs": {mainExp, [3]scriptRow{rowI(0.005, 64, 5e-5, 0.5, 1, 0.8), rowI(0.005, 64, 5e-5, 0.5, 1, 0.8),
			rowIII(0.005, 64, 1e-4, 0.3, 1, 0.7, 0.5)}},
		"physics": {mainExp, [3]scriptRow{rowI(0.005, 64, 5e-5, 0.3, 1, 0.8).lg().ep(200), rowI(0.005, 64, 5e-5, 0.3, 1, 0.8).lg(),
			rowIII(0.01, 64, 5e-4, 0.5, 1, 0.8, 0.7).lg().ep(150)}},
		"stl10": {mainExp, [3]scriptRow{nograph(rowI(0.005, 32, 1e-3, 0.5, 2, 0)), nograph(rowI(0.005, 32, 1e-5, 0.5, 2, 0.1)),
			nograph(rowIII(0.005, 32, 1e-5, 0.5, 2, 0.8, 0.8))}},
		"cifar10": {mainExp, [3]scriptRow{nograph(rowI(0.001, 32, 1e-2, 0.5, 2, 0)), nograph(rowI(0.005, 32, 1e-4, 0.4, 1, 0.8)),
			nograph(rowIII(0.005, 32, 1e-4, 0.4, 1, 0.8, 0.8))}},
		"20news": {mainExp, [3]scriptRow{nograph(rowI(0.005, 128, 5e-3, 0.6, 1, 0)), nograph(rowI(0.005, 128, 1e-3, 0.5, 2, 0.1)),
			nograph(rowIII(0.005, 128, 1e-2, 0.5, 2, 0.1, 0.3))}},
		"squirrel": {hetero, [3]scriptRow{rowI(0.1, 128, 5e-4, 0.7, 1, 0.8).withLayers(5), rowI(0.1, 128, 1e-3, 0.4, 2, 0.8).withLayers(5),
			rowIII(0.1, 128, 1e-4, 0.3, 2, 0.8, 0.8).withLayers(5)}},
		"chameleon": {hetero, [3]scriptRow{rowI(0.1, 64, 1e-3, 0.3, 2, 0.8).withLayers(2), rowI(0.05, 64, 5e-4, 0.5, 2, 0.8).withLayers(2),
			rowIII(0.1, 64, 5e-4, 0.4, 2, 0.8, 0.8).withLayers(2)}},
		"twitch-ood": {twitch, [3]scriptRow{rowI(0.05, 0, 5e-3, 0.6, 2, 0), rowI(0.1, 0, 5e-4, 0.5, 2, 0.5),
			rowIII(0.1, 0, 5e-4, 0.5, 2, 0.5, 0.5)}},
	}
}

// want is the full parameter map the row resolves to in its group.
func (r scriptRow) want(common map[string]any) map[string]any {
	w := maps.Clone(common)
	maps.Copy(w, map[string]any{training.ParamLR: r.lr, training.ParamWeightDecay: r.wd, backbones.ParamDropout: r.dropout,
		methods.ParamHops: r.hops, methods.ParamLabelGrad: r.labelGrad, backbones.ParamUseBN: r.bn})
	if r.hidden > 0 {
		w[backbones.ParamHidden] = r.hidden
	}
	if r.isIII {
		maps.Copy(w, map[string]any{methods.ParamResWeight: r.res, methods.ParamGraphWeight: r.graph, methods.ParamUseWeight: true})
	} else {
		w[methods.ParamAlpha] = r.alpha
	}
	if r.epochs > 0 {
		w[training.ParamEpochs] = r.epochs
	}
	if r.layers > 0 {
		w[backbones.ParamLayers] = r.layers
	}
	return w
}

// baselineSettings are the baselines' own settings from their public code, transcribed by hand, as
// they override the data set's GeoMix-I row: node Mixup (vanoracai/MixupForGraph), GraphMix
// (vikasverma1077/GraphMix, γ per data set), DANN (Graph-COM/StruRW's template), GloGNN
// (RecklessRonan/GloGNN small-scale reproduce script; Cora's row for the data sets it has none for)
// and EERM (qitianwu/GraphOOD-EERM, its Twitch command).
func baselineSettings(dataset, method string) map[string]any {
	switch method {
	case "mixup":
		return map[string]any{backbones.ParamLayers: 3, backbones.ParamHidden: 256, backbones.ParamDropout: 0.4, training.ParamLR: 1e-3,
			training.ParamWeightDecay: 0.0, backbones.ParamUseBN: false, training.ParamNormalization: "row", methods.ParamMixupBeta: 4}
	case "graphmix":
		gamma := 1.0
		if dataset == "cora" || dataset == "citeseer" {
			gamma = 10.0
		}
		return map[string]any{backbones.ParamHidden: 16, methods.ParamInputDropout: 0.5, backbones.ParamDropout: 0.0, training.ParamLR: 0.01,
			training.ParamWeightDecay: 5e-4, training.ParamEpochs: 2000, training.ParamSelectLast: true, backbones.ParamUseBN: false,
			methods.ParamGraphMixGamma: gamma}
	case "dann":
		return map[string]any{backbones.ParamHidden: 50, backbones.ParamDropout: 0.1, training.ParamLR: 0.007, training.ParamWeightDecay: 0.0,
			training.ParamLRDecayEvery: 50, training.ParamLRDecayFactor: 0.8, methods.ParamDANNReversal: 0.2, backbones.ParamUseBN: false}
	case "glognn":
		rows := map[string]map[string]any{
			"chameleon": {backbones.ParamDropout: 0.0, training.ParamWeightDecay: 5e-5, backbones.ParamGloGNNAlpha: 0.0, backbones.ParamGloGNNBeta: 1.0,
				backbones.ParamGloGNNGamma: 0.0, backbones.ParamGloGNNDelta: 0.0, backbones.ParamGloGNNNormLayers: 2, backbones.ParamGloGNNOrders: 1},
			"squirrel": {backbones.ParamDropout: 0.8, training.ParamWeightDecay: 5e-5, backbones.ParamGloGNNAlpha: 0.0, backbones.ParamGloGNNBeta: 1.0,
				backbones.ParamGloGNNGamma: 0.0, backbones.ParamGloGNNDelta: 1.0, backbones.ParamGloGNNNormLayers: 2, backbones.ParamGloGNNOrders: 1},
			"cora": {backbones.ParamDropout: 0.8, training.ParamWeightDecay: 1e-5, backbones.ParamGloGNNAlpha: 77.0, backbones.ParamGloGNNBeta: 1000.0,
				backbones.ParamGloGNNGamma: 0.8, backbones.ParamGloGNNDelta: 0.9, backbones.ParamGloGNNNormLayers: 2, backbones.ParamGloGNNOrders: 6},
		}
		row, ok := rows[dataset]
		if !ok {
			row = rows["cora"]
		}
		row = maps.Clone(row)
		maps.Copy(row, map[string]any{backbones.ParamHidden: 64, training.ParamLR: 0.01, training.ParamEpochs: 2000,
			training.ParamNormalization: "rowself", backbones.ParamUseBN: false})
		return row
	case "eerm":
		return map[string]any{backbones.ParamHidden: 32, backbones.ParamLayers: 2, backbones.ParamUseBN: true, backbones.ParamDropout: 0.0,
			training.ParamLR: 0.01, training.ParamWeightDecay: 1e-3, training.ParamEpochs: 200, methods.ParamEERMEnvironments: 3,
			methods.ParamEERMSamples: 5, methods.ParamEERMBeta: 3.0, methods.ParamEERMEditorLR: 1e-3}
	}
	return nil
}

// diffParams lists, key by key, where got differs from want (missing and extra keys included).
func diffParams(got, want map[string]any) []string {
	var out []string
	for _, k := range slices.Sorted(maps.Keys(want)) {
		if g, ok := got[k]; !ok {
			out = append(out, fmt.Sprintf("%s missing, want %v", k, want[k]))
		} else if g != want[k] {
			out = append(out, fmt.Sprintf("%s = %v (%T), want %v (%T)", k, g, g, want[k], want[k]))
		}
	}
	for _, k := range slices.Sorted(maps.Keys(got)) {
		if _, ok := want[k]; !ok {
			out = append(out, fmt.Sprintf("%s = %v not in the script", k, got[k]))
		}
	}
	return out
}

// TestPresetsMatchScripts walks every (data set, method) of the authors' run scripts and the
// baselines' settings and checks the resolved hyper-parameters field by field, every key of the
// row and of its group, and nothing else.
func TestPresetsMatchScripts(t *testing.T) {
	groups := scriptGroups()
	groups["20news-200"] = groups["20news"]
	for _, stand := range []string{"fmnist", "fmnist-20", "fmnist-pca", "fmnist-pca-20"} { // the image stand-in takes CIFAR10's rows
		groups[stand] = groups["cifar10"]
	}
	variants := map[string]int{"geomix1": 0, "randommix": 0, "nolocality": 0, "geomix2": 1, "geomix3": 2, "geomix3-paper": 2}
	datasetNames := slices.Sorted(maps.Keys(groups))
	// The Pileup shifts' rows (src/pileup/exp/trans.sh) are checked by TestPresetPileup.
	got := slices.DeleteFunc(Datasets(), func(name string) bool { return strings.HasPrefix(name, "pileup-") })
	if !slices.Equal(got, datasetNames) {
		t.Errorf("presets exist for %v, the scripts cover %v", got, datasetNames)
	}
	check := func(dataset, method string, want map[string]any, raw bool) {
		t.Helper()
		p, err := For(dataset, method)
		if err != nil {
			t.Errorf("%s/%s: %v", dataset, method, err)
			return
		}
		for _, d := range diffParams(p.Params, want) {
			t.Errorf("%s/%s: %s", dataset, method, d)
		}
		if p.RawFeatures != raw {
			t.Errorf("%s/%s: raw features %v, want %v", dataset, method, p.RawFeatures, raw)
		}
		if err := training.CheckParams(p.Params); err != nil {
			t.Errorf("%s/%s: %v", dataset, method, err)
		}
	}
	for _, dataset := range datasetNames {
		grp := groups[dataset]
		for method, v := range variants {
			check(dataset, method, grp.rows[v].want(grp.common), grp.rows[v].raw)
		}
		// The baselines take GeoMix-I's row for the data and protocol, Adam re-created every run,
		// and their own settings on top.
		base := grp.rows[0].want(grp.common)
		base[training.ParamResetAdam] = true
		for _, method := range []string{"gcn", "gat", "sgc", "appnp", "mlp", "glognn", "mixup", "graphmix", "dann", "eerm"} {
			want := maps.Clone(base)
			maps.Copy(want, baselineSettings(dataset, method))
			check(dataset, method, want, grp.rows[0].raw)
		}
	}
}
