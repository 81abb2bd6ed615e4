package backbones

import (
	"math"
	"testing"

	"github.com/geomix-go/geomix/geomix/mixing"
	"github.com/geomix-go/geomix/internal/testutil"
	. "github.com/gomlx/gomlx/pkg/core/graph"
	"github.com/gomlx/gomlx/pkg/ml/context"
)

// graphConvInput is xw [4, 2×2] for GraphConv with 2 hidden units on cycle4.
var graphConvInput = [][]float32{{1, -1, 0.5, 2}, {0, 2, -1, 1}, {3, 1, 1, -2}, {-1, 0, 2, 0.5}}

// TestGraphConvByHand: one convolution with the row-normalised adjacency (mean over the two
// neighbours, no self-loop) plus the centre term, ReLU, then the linear output, against values
// computed by hand with all weights set.
func TestGraphConvByHand(t *testing.T) {
	ctx := testutil.NewContext(t, map[string]any{ParamLayers: 1, ParamHidden: 2})
	ctx.In("layer_0").VariableWithValue("bias", []float32{0.5, -1})
	ctx.In("output").VariableWithValue("weight", [][]float32{{1, 0, 2}, {0, 1, -1}})
	ctx.In("output").VariableWithValue("bias", []float32{0, 0.1, 0})
	adj := mixing.BuildAdjacency(cycle4(), mixing.NormRow)
	got := runRest(t, ctx, GraphConv{}, adj, graphConvInput, Dims{Features: 3, Classes: 3}, false)
	for i := range 4 {
		prev, next := graphConvInput[(i+3)%4], graphConvInput[(i+1)%4]
		h := make([]float64, 2)
		for k := range 2 {
			v := (float64(prev[k])+float64(next[k]))/2 + float64(graphConvInput[i][2+k]) + []float64{0.5, -1}[k]
			h[k] = math.Max(v, 0)
		}
		want := []float64{h[0], h[1] + 0.1, 2*h[0] - h[1]}
		for c := range 3 {
			if math.Abs(float64(got[i][c])-want[c]) > 1e-5 {
				t.Errorf("logits[%d][%d] = %v, want %v", i, c, got[i][c], want[c])
			}
		}
	}
}

// runMixup executes GraphConv.MixupLogits in evaluation mode and Rest on the same variables.
func runMixup(t *testing.T, ctx *context.Context, lambda float32, perm []int32) (mixed, plain [][]float32) {
	t.Helper()
	adj := mixing.BuildAdjacency(cycle4(), mixing.NormRow)
	src, dst, w := adj.Inputs()
	p := make([][]int32, len(perm))
	for i, v := range perm {
		p[i] = []int32{v}
	}
	dims := Dims{Features: 3, Classes: 3}
	exec, err := context.NewExec(testutil.Backend(t), ctx, func(ctx *context.Context, in []*Node) []*Node {
		ctx.SetTraining(in[0].Graph(), false)
		a := mixing.NewAdjacencyNodes(4, in[1], in[2], in[3])
		return []*Node{GraphConv{}.MixupLogits(ctx, a, in[0], in[4], in[5], dims), GraphConv{}.Rest(ctx, a, in[0], dims)}
	})
	if err != nil {
		t.Fatal(err)
	}
	out, err := exec.Exec(graphConvInput, src, dst, w, lambda, p)
	if err != nil {
		t.Fatal(err)
	}
	return out[0].Value().([][]float32), out[1].Value().([][]float32)
}

// TestGraphConvMixupLimits: with λ = 1 node Mixup's forward is the plain forward; with λ = 0 every
// layer takes the partner's neighbourhood around the partner's mixed state, so the logits are the
// plain ones permuted (3 layers, evaluation mode).
func TestGraphConvMixupLimits(t *testing.T) {
	ctx := testutil.NewContext(t, map[string]any{ParamLayers: 3, ParamHidden: 2})
	perm := []int32{2, 1, 3, 0}
	mixed, plain := runMixup(t, ctx, 1, perm)
	for i := range plain {
		for c := range plain[i] {
			if math.Abs(float64(mixed[i][c]-plain[i][c])) > 1e-6 {
				t.Fatalf("λ=1: logits[%d] = %v, plain %v", i, mixed[i], plain[i])
			}
		}
	}
	mixed, plain = runMixup(t, ctx, 0, perm)
	for i := range plain {
		for c := range plain[i] {
			if math.Abs(float64(mixed[i][c]-plain[perm[i]][c])) > 1e-6 {
				t.Fatalf("λ=0: logits[%d] = %v, want plain[%d] = %v", i, mixed[i], perm[i], plain[perm[i]])
			}
		}
	}
	half, _ := runMixup(t, ctx, 0.5, perm)
	if half[0][0] == plain[0][0] || half[0][0] == plain[perm[0]][0] {
		t.Errorf("λ=0.5 gave an end point: %v", half[0])
	}
}
