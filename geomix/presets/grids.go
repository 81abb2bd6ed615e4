package presets

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/geomix-go/geomix/geomix/backbones"
	"github.com/geomix-go/geomix/geomix/methods"
	"github.com/geomix-go/geomix/geomix/training"
)

// Grid is the validation grid search of one method from the paper's appendix ("Additional
// Experimental Details"): every combination of its Axes' values is one configuration, with Fixed
// set beside it; every other hyper-parameter (epochs, runs, seed, patience, ...) is the (data set,
// method) preset's, so a configuration trains with its data set's protocol. Keys are the Param*
// names (`reproduce run --set`), values pass training.CheckParams.
type Grid struct {
	// Method is the method id the grid tunes.
	Method string
	// Axes are the tuned hyper-parameters in order: configuration i takes the value of each axis
	// by the mixed-radix digits of i, the last axis fastest (see Config).
	Axes []Axis
	// Fixed are the values the appendix fixes for the method (e.g. 2 layers for GCN).
	Fixed map[string]any
	// Note says how the appendix's ranges became these points, and what it names that is not tuned.
	Note string
}

// Axis is one tuned hyper-parameter and the values the grid tries.
type Axis struct {
	Param  string
	Values []any
}

// The appendix's shared ranges: the learning rate and dropout sets, and one weight decay per
// decade of its interval [1e-5, 1e-2].
var (
	gridLR          = Axis{training.ParamLR, []any{0.001, 0.005, 0.01, 0.05}}
	gridDropout     = Axis{backbones.ParamDropout, []any{0.0, 0.2, 0.3, 0.5, 0.6}}
	gridWeightDecay = Axis{training.ParamWeightDecay, []any{1e-5, 1e-4, 1e-3, 1e-2}}
	gcnHidden       = Axis{backbones.ParamHidden, []any{16, 32, 64}}
	twoLayers       = map[string]any{backbones.ParamLayers: 2}
)

// shared is the appendix's learning rate, dropout and weight decay axes followed by own.
func shared(own ...Axis) []Axis { return append([]Axis{gridLR, gridDropout, gridWeightDecay}, own...) }

// gridNote is what every grid's Note starts with.
const gridNote = "lr {0.001, 0.005, 0.01, 0.05}, dropout {0, 0.2, 0.3, 0.5, 0.6} and weight decay one point per decade of [1e-5, 1e-2]"

// grids are the appendix's grids by method.
var grids = map[string]Grid{
	"gcn": {Axes: shared(gcnHidden), Fixed: twoLayers, Note: gridNote + "; hidden {16, 32, 64}, 2 layers."},
	"mlp": {Axes: shared(gcnHidden), Fixed: twoLayers,
		Note: gridNote + "; the appendix lists no MLP grid: GCN's, hidden {16, 32, 64} and 2 layers."},
	"gat": {Axes: shared(Axis{backbones.ParamHidden, []any{8, 16, 32, 64}}, Axis{backbones.ParamGATHeads, []any{4, 6, 8}}), Fixed: twoLayers,
		Note: gridNote + "; hidden {8, 16, 32, 64} per head, heads {4, 6, 8}, 2 layers."},
	"sgc": {Axes: []Axis{gridLR, gridWeightDecay, {backbones.ParamSGCHops, []any{2, 3}}},
		Note: "lr {0.001, 0.005, 0.01, 0.05} and weight decay one point per decade of [1e-5, 1e-2]; hops {2, 3}; SGC has no dropout (one linear layer), so the dropout set is not swept."},
	"appnp": {Axes: shared(gcnHidden, Axis{backbones.ParamAPPNPAlpha, []any{0.1, 0.2, 0.5}}, Axis{backbones.ParamAPPNPHops, []any{5, 10}}),
		Note: gridNote + "; hidden {16, 32, 64}, alpha {0.1, 0.2, 0.5}, hops {5, 10}."},
	"glognn": {Axes: shared(
		Axis{backbones.ParamGloGNNDelta, []any{0.0, 0.5, 1.0}},
		Axis{backbones.ParamGloGNNAlpha, []any{0.0, 1.0, 10.0}},
		Axis{backbones.ParamGloGNNBeta, []any{0.1, 1.0, 10.0, 100.0, 1000.0}},
		Axis{backbones.ParamGloGNNGamma, []any{0.0, 0.5, 0.9}},
		Axis{backbones.ParamGloGNNNormLayers, []any{1, 2, 3}},
		Axis{backbones.ParamGloGNNOrders, []any{1, 3, 6}}),
		Note: gridNote + "; in GloGNN's code's names: the paper's alpha in [0, 1] (the feature/adjacency share) as delta {0, 0.5, 1}, beta1 as alpha {0, 1, 10}, " +
			"beta2 as beta {0.1, 1, 10, 100, 1000}, gamma in [0, 0.9] as {0, 0.5, 0.9}, norm layers {1, 2, 3}, K in [1, 6] as orders {1, 3, 6}; hidden 64 as its script."},
	"mixup": {Axes: shared(Axis{backbones.ParamHidden, []any{64, 128, 256}}, Axis{methods.ParamMixupBeta, []any{1, 2, 5}}),
		Fixed: map[string]any{backbones.ParamLayers: 3},
		Note:  gridNote + "; hidden {64, 128, 256}, 3 layers; the Beta(a, a) parameter a in [0.5, 5] as {1, 2, 5} (the toolkit's a is an integer)."},
	"graphmixup": {Axes: shared(Axis{backbones.ParamHidden, []any{16, 64, 128}}), Fixed: twoLayers,
		Note: gridNote + "; hidden {16, 64, 128}, 2 layers, K = 4 semantic relations and loss weights 1.0 as implemented."},
	"graphmix": {Axes: []Axis{gridLR, {methods.ParamInputDropout, gridDropout.Values}, gridWeightDecay, gcnHidden, {methods.ParamGraphMixGamma, []any{0.1, 1.0, 10.0}}},
		Fixed: map[string]any{backbones.ParamLayers: 2, backbones.ParamDropout: 0.0},
		Note: gridNote + " (applied to GraphMix's input dropout, the only one its scripts use; no hidden dropout); GCN's hidden {16, 32, 64} and 2 layers; " +
			"gamma in [0.1, 10] as {0.1, 1, 10}; the appendix's mixing alpha {0, 0.1, 1, 2} is not a parameter here (Beta(1, 1), i.e. alpha = 1), T = 0.1 and K = 10 as implemented."},
	"eerm": {Axes: shared(gcnHidden, Axis{methods.ParamEERMBeta, []any{0.2, 0.5, 1.0, 2.0, 3.0}}, Axis{methods.ParamEERMSamples, []any{1, 5, 10}},
		Axis{methods.ParamEERMEnvironments, []any{3, 5}}), Fixed: twoLayers,
		Note: gridNote + "; GCN's hidden {16, 32, 64} and 2 layers; beta {0.2, 0.5, 1, 2, 3}, s {1, 5, 10}, K {3, 5}; the inner iterations T are 1 as implemented (T = 5 is not)."},
	"dann": {Axes: shared(gcnHidden, Axis{methods.ParamDANNReversal, []any{0.2, 1.0, 6.0}}), Fixed: twoLayers,
		Note: gridNote + "; hidden {16, 32, 64}, 2 layers; lambda in [0.2, 6] (the reversal coefficient's cap) as {0.2, 1, 6}."},
	"geomix1": geoMixGrid(methods.ParamAlpha),
	"geomix2": geoMixGrid(methods.ParamAlpha),
	"geomix3": {Axes: shared(gcnHidden, Axis{methods.ParamHops, []any{1, 2, 3, 4}}, Axis{methods.ParamResWeight, []any{0.1, 0.3, 0.5, 0.8}},
		Axis{methods.ParamGraphWeight, []any{0.3, 0.5, 0.7, 0.8}}), Fixed: twoLayers,
		Note: gridNote + "; GCN's hidden {16, 32, 64} and 2 layers; hops {1, 2, 3, 4}, alpha in [0.1, 0.8] (the residual weight) as {0.1, 0.3, 0.5, 0.8}, " +
			"graph weight {0.3, 0.5, 0.7, 0.8}; projection 16 and lambda as the preset."},
}

// geoMixGrid is GeoMix-I/II's grid, alpha being param.
func geoMixGrid(param string) Grid {
	return Grid{Axes: shared(gcnHidden, Axis{methods.ParamHops, []any{1, 2, 3, 4}}, Axis{param, []any{0.1, 0.3, 0.5, 0.8}}), Fixed: twoLayers,
		Note: gridNote + "; GCN's hidden {16, 32, 64} and 2 layers; hops {1, 2, 3, 4}, alpha in [0.1, 0.8] as {0.1, 0.3, 0.5, 0.8}; lambda as the preset."}
}

// GridMethods lists the methods with a grid, sorted.
func GridMethods() []string { return slices.Sorted(maps.Keys(grids)) }

// GridFor returns the appendix's grid of method, or an error naming the methods that have one.
func GridFor(method string) (*Grid, error) {
	g, ok := grids[method]
	if !ok {
		return nil, fmt.Errorf("no validation grid for method %q: grids exist for %s", method, strings.Join(GridMethods(), ", "))
	}
	g.Method = method
	g.Fixed = maps.Clone(g.Fixed)
	return &g, nil
}

// Size is the number of configurations: the product of the axes' lengths.
func (g *Grid) Size() int {
	n := 1
	for _, a := range g.Axes {
		n *= len(a.Values)
	}
	return n
}

// Config returns configuration i of the grid, 0 <= i < Size(): Fixed, and each axis at the digit
// of i in the mixed radix of the axes' lengths, the last axis fastest. It panics on i out of range.
func (g *Grid) Config(i int) map[string]any {
	if i < 0 || i >= g.Size() {
		panic(fmt.Sprintf("presets: configuration %d of a grid of %d", i, g.Size()))
	}
	c := maps.Clone(g.Fixed)
	if c == nil {
		c = map[string]any{}
	}
	for k := len(g.Axes) - 1; k >= 0; k-- {
		a := g.Axes[k]
		c[a.Param] = a.Values[i%len(a.Values)]
		i /= len(a.Values)
	}
	return c
}
