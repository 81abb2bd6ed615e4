package backbones

import (
	"testing"

	"github.com/geomix-go/geomix/geomix/mixing"
	"github.com/geomix-go/geomix/internal/testutil"
)

// mlpTestXW is xw [4, 2] of the hand-computed MLP and APPNP tests: with b_1 = [0, 1],
// ReLU(xw + b_1) = [[1,0],[2,1],[0,4],[0,1]].
var mlpTestXW = [][]float32{{1, -1}, {2, 0}, {-1, 3}, {0, 0}}

func TestMLPHandComputed(t *testing.T) {
	dims := Dims{Features: 5, Classes: 2}
	params := map[string]any{ParamLayers: 2, ParamHidden: 2, ParamDropout: 0.5}
	want := [][]float64{{0, -1}, {1.5, 0}, {1, 8}, {-0.5, 2}}
	// ReLU(xw + [0, 1]) = [[1,0],[2,1],[0,4],[0,1]]; times W_2 = [[1,-1],[0.5,2]], plus b_2 = [-1, 0].
	for _, adj := range []*mixing.Adjacency{mixing.BuildAdjacency(cycle4(), mixing.NormSymmetric), mixing.BuildAdjacency(cycle4(), mixing.NormRow)} {
		ctx := testutil.NewContext(t, params)
		ctx.In("layer_0").VariableWithValue("bias", []float32{0, 1})
		ctx.In("layer_1").VariableWithValue("weight", [][]float32{{1, -1}, {0.5, 2}})
		ctx.In("layer_1").VariableWithValue("bias", []float32{-1, 0})
		// Evaluation mode: no dropout; the adjacency must not matter.
		assertClose(t, runRest(t, ctx, MLP{}, adj, mlpTestXW, dims, false), want)
	}
}

func TestMLPDropoutInTraining(t *testing.T) {
	dims := Dims{Features: 5, Classes: 2}
	ctx := testutil.NewContext(t, map[string]any{ParamLayers: 2, ParamHidden: 64, ParamDropout: 0.5})
	adj := mixing.BuildAdjacency(cycle4(), mixing.NormSymmetric)
	xw := make([][]float32, 4)
	for i := range xw {
		xw[i] = make([]float32, 64)
		for j := range xw[i] {
			xw[i][j] = float32(i+j) / 10
		}
	}
	eval1 := runRest(t, ctx, MLP{}, adj, xw, dims, false)
	eval2 := runRest(t, ctx, MLP{}, adj, xw, dims, false)
	train := runRest(t, ctx, MLP{}, adj, xw, dims, true)
	same := func(a, b [][]float32) bool {
		for i := range a {
			for j := range a[i] {
				if a[i][j] != b[i][j] {
					return false
				}
			}
		}
		return true
	}
	if !same(eval1, eval2) {
		t.Errorf("evaluation is not deterministic: %v vs %v", eval1, eval2)
	}
	if same(eval1, train) {
		t.Errorf("training mode with dropout 0.5 gave the evaluation logits %v", train)
	}
}

func TestMLPShapesAndGradient(t *testing.T) {
	dims := Dims{Features: 10, Classes: 3}
	for _, bn := range []bool{false, true} {
		ctx := testutil.NewContext(t, map[string]any{ParamLayers: 3, ParamHidden: 4, ParamUseBN: bn})
		if got := (MLP{}).InputWidth(ctx, dims); got != 4 {
			t.Errorf("InputWidth = %d, want ParamHidden = 4", got)
		}
		xw := [][]float32{{1, 2, 3, -1}, {-1, 0, 1, 2}, {0.5, 0.5, -2, 1}}
		adj := mixing.BuildAdjacency(path3(), mixing.NormSymmetric)
		if got := runRest(t, ctx, MLP{}, adj, xw, dims, false); len(got) != 3 || len(got[0]) != 3 {
			t.Errorf("logits shape = [%d, %d], want [3, 3]", len(got), len(got[0]))
		}
		want := []string{"/layer_0/bias", "/layer_1/weight", "/layer_1/bias", "/layer_2/weight", "/layer_2/bias"}
		if bn {
			want = append(want, "/layer_0/batch_norm/scale", "/layer_1/batch_norm/offset")
		}
		assertGradientsFlow(t, gradientSums(t, ctx, MLP{}, adj, xw, dims), want...)
	}
	if got := (MLP{}).InputWidth(testutil.NewContext(t, map[string]any{ParamLayers: 1}), dims); got != 3 {
		t.Errorf("1-layer InputWidth = %d, want C = 3", got)
	}
}
