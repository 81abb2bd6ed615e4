package backbones

import (
	"testing"

	"github.com/geomix-go/geomix/geomix/mixing"
	"github.com/geomix-go/geomix/internal/testutil"
)

func TestAPPNPHandComputed(t *testing.T) {
	dims := Dims{Features: 5, Classes: 1}
	adj := mixing.BuildAdjacency(cycle4(), mixing.NormSymmetric)
	ctx := testutil.NewContext(t, map[string]any{ParamLayers: 2, ParamHidden: 2, ParamAPPNPHops: 2, ParamAPPNPAlpha: 0.1})
	ctx.In("layer_0").VariableWithValue("bias", []float32{0, 1})
	ctx.In("layer_1").VariableWithValue("weight", [][]float32{{1}, {0.5}})
	ctx.In("layer_1").VariableWithValue("bias", []float32{-1})
	// h0 = ReLU(xw + [0,1]) [1, 0.5]ᵀ − 1 = [0, 1.5, 1, −0.5];
	// Â h0 = [1/3, 5/6, 2/3, 1/6], h1 = 0.9 Â h0 + 0.1 h0 = [0.3, 0.9, 0.7, 0.1];
	// Â h1 = [1.3, 1.9, 1.7, 1.1]/3, h2 = 0.9 Â h1 + 0.1 h0 = [0.39, 0.72, 0.61, 0.28].
	assertClose(t, runRest(t, ctx, APPNP{}, adj, mlpTestXW, dims, false), [][]float64{{0.39}, {0.72}, {0.61}, {0.28}})

	// α = 1 keeps the MLP's output; K = 0 too.
	for _, p := range []map[string]any{{ParamAPPNPAlpha: 1.0}, {ParamAPPNPHops: 0}} {
		ctx := testutil.NewContext(t, map[string]any{ParamLayers: 2, ParamHidden: 2})
		ctx.SetParams(p)
		ctx.In("layer_0").VariableWithValue("bias", []float32{0, 1})
		ctx.In("layer_1").VariableWithValue("weight", [][]float32{{1}, {0.5}})
		ctx.In("layer_1").VariableWithValue("bias", []float32{-1})
		assertClose(t, runRest(t, ctx, APPNP{}, adj, mlpTestXW, dims, false), [][]float64{{0}, {1.5}, {1}, {-0.5}})
	}
}

func TestAPPNPShapesAndGradient(t *testing.T) {
	dims := Dims{Features: 10, Classes: 3}
	ctx := testutil.NewContext(t, map[string]any{ParamLayers: 3, ParamHidden: 4, ParamUseBN: true, ParamDropout: 0.2})
	if got := (APPNP{}).InputWidth(ctx, dims); got != 4 {
		t.Errorf("InputWidth = %d, want ParamHidden = 4", got)
	}
	xw := [][]float32{{1, 2, 3, -1}, {-1, 0, 1, 2}, {0.5, 0.5, -2, 1}}
	adj := mixing.BuildAdjacency(path3(), mixing.NormSymmetric)
	if got := runRest(t, ctx, APPNP{}, adj, xw, dims, false); len(got) != 3 || len(got[0]) != 3 {
		t.Errorf("logits shape = [%d, %d], want [3, 3]", len(got), len(got[0]))
	}
	assertGradientsFlow(t, gradientSums(t, ctx, APPNP{}, adj, xw, dims),
		"/layer_0/bias", "/layer_1/weight", "/layer_2/weight", "/layer_2/bias")
}
