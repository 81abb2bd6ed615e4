package backbones

import (
	"math"
	"testing"

	"github.com/geomix-go/geomix/datasets"
	"github.com/geomix-go/geomix/geomix/mixing"
	"github.com/geomix-go/geomix/internal/testutil"
	. "github.com/gomlx/gomlx/pkg/core/graph"
	"github.com/gomlx/gomlx/pkg/ml/context"
)

// cycle4 is the 4-cycle 0-1-2-3-0. Every node has two neighbours, so the symmetric Â has 1/3 on the
// diagonal and on both neighbours: (Â x)_i = (x_{i-1} + x_i + x_{i+1}) / 3.
func cycle4() *datasets.Graph {
	return &datasets.Graph{NumNodes: 4, Src: []int32{0, 0, 1, 1, 2, 2, 3, 3}, Dst: []int32{1, 3, 0, 2, 1, 3, 0, 2}}
}

// path3 is the path 0-1-2.
func path3() *datasets.Graph {
	return &datasets.Graph{NumNodes: 3, Src: []int32{0, 1, 1, 2}, Dst: []int32{1, 0, 2, 1}}
}

// runRest executes b.Rest on adj and xw [N, H0] (in training mode if training) and returns the
// logits [N, C].
func runRest(t *testing.T, ctx *context.Context, b Backbone, adj *mixing.Adjacency, xw [][]float32, dims Dims, training bool) [][]float32 {
	t.Helper()
	src, dst, w := adj.Inputs()
	exec, err := context.NewExec(testutil.Backend(t), ctx, func(ctx *context.Context, x, s, d, wt *Node) *Node {
		ctx.SetTraining(x.Graph(), training)
		return b.Rest(ctx, mixing.NewAdjacencyNodes(adj.NumNodes, s, d, wt), x, dims)
	})
	if err != nil {
		t.Fatal(err)
	}
	out, err := exec.Exec(xw, src, dst, w)
	if err != nil {
		t.Fatal(err)
	}
	return out[0].Value().([][]float32)
}

// gradientSums builds, in training mode, loss = Σ_ij c_ij logits_ij (c_ij = 1 + i + 2j, so no gradient cancels
// by symmetry) and returns Σ|∂loss/∂·| for xw and for every trainable variable, keyed by
// "xw" or the variable's scope/name.
func gradientSums(t *testing.T, ctx *context.Context, b Backbone, adj *mixing.Adjacency, xw [][]float32, dims Dims) map[string]float64 {
	t.Helper()
	src, dst, w := adj.Inputs()
	var names []string
	exec, err := context.NewExec(testutil.Backend(t), ctx, func(ctx *context.Context, x, s, d, wt *Node) []*Node {
		g := x.Graph()
		ctx.SetTraining(g, true)
		logits := b.Rest(ctx, mixing.NewAdjacencyNodes(adj.NumNodes, s, d, wt), x, dims)
		coef := AddScalar(Add(Iota(g, logits.Shape(), 0), MulScalar(Iota(g, logits.Shape(), 1), 2)), 1)
		loss := ReduceAllSum(Mul(logits, coef))
		names = []string{"xw"}
		wrt := []*Node{x}
		for v := range ctx.IterVariables() {
			if v.Trainable {
				names = append(names, v.ScopeAndName())
				wrt = append(wrt, v.ValueGraph(g))
			}
		}
		grads := Gradient(loss, wrt...)
		out := make([]*Node, len(grads))
		for i, gr := range grads {
			out[i] = ReduceAllSum(Abs(gr))
		}
		return out
	})
	if err != nil {
		t.Fatal(err)
	}
	outs, err := exec.Exec(xw, src, dst, w)
	if err != nil {
		t.Fatal(err)
	}
	sums := make(map[string]float64, len(outs))
	for i, o := range outs {
		sums[names[i]] = float64(o.Value().(float32))
	}
	return sums
}

// assertGradientsFlow fails unless every entry of gradientSums is finite and positive and the
// expected variables are among them.
func assertGradientsFlow(t *testing.T, sums map[string]float64, wantVars ...string) {
	t.Helper()
	for _, v := range append([]string{"xw"}, wantVars...) {
		if _, ok := sums[v]; !ok {
			t.Errorf("no gradient for %q; got %v", v, sums)
		}
	}
	for name, s := range sums {
		if !(s > 0) || math.IsInf(s, 0) {
			t.Errorf("Σ|grad| of %s = %g, want finite and > 0", name, s)
		}
	}
}

// assertClose fails when got and want [N, C] differ by more than 1e-5 anywhere.
func assertClose(t *testing.T, got [][]float32, want [][]float64) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("got %d rows, want %d: %v", len(got), len(want), got)
	}
	for i := range want {
		if len(got[i]) != len(want[i]) {
			t.Fatalf("row %d: got %d columns, want %d: %v", i, len(got[i]), len(want[i]), got)
		}
		for j := range want[i] {
			if math.Abs(float64(got[i][j])-want[i][j]) > 1e-5 {
				t.Errorf("[%d][%d] = %.6f, want %.6f", i, j, got[i][j], want[i][j])
			}
		}
	}
}

func TestSGCHandComputed(t *testing.T) {
	adj := mixing.BuildAdjacency(cycle4(), mixing.NormSymmetric)
	dims := Dims{Features: 5, Classes: 2}
	xw := [][]float32{{3, 0}, {0, 6}, {0, 0}, {0, 0}}
	ctx := testutil.NewContext(t, map[string]any{ParamSGCHops: 2})
	ctx.VariableWithValue("bias", []float32{0.5, -1})
	// Column 0: Â[3,0,0,0] = [1,1,0,1], Â² = [1, 2/3, 2/3, 2/3]; column 1: Â[0,6,0,0] = [2,2,2,0],
	// Â² = [4/3, 2, 4/3, 4/3]; then + bias.
	want := [][]float64{{1.5, 1.0 / 3}, {2.0/3 + 0.5, 1}, {2.0/3 + 0.5, 1.0 / 3}, {2.0/3 + 0.5, 1.0 / 3}}
	assertClose(t, runRest(t, ctx, SGC{}, adj, xw, dims, false), want)

	ctx1 := testutil.NewContext(t, map[string]any{ParamSGCHops: 1})
	ctx1.VariableWithValue("bias", []float32{0.5, -1})
	assertClose(t, runRest(t, ctx1, SGC{}, adj, xw, dims, false), [][]float64{{1.5, 1}, {1.5, 1}, {0.5, 1}, {1.5, -1}})
}

func TestSGCShapesAndGradient(t *testing.T) {
	ctx := testutil.NewContext(t, nil)
	dims := Dims{Features: 10, Classes: 3}
	if got := (SGC{}).InputWidth(ctx, dims); got != 3 {
		t.Errorf("InputWidth = %d, want C = 3", got)
	}
	adj := mixing.BuildAdjacency(path3(), mixing.NormSymmetric)
	xw := [][]float32{{1, 2, 3}, {-1, 0, 1}, {0.5, 0.5, -2}}
	assertGradientsFlow(t, gradientSums(t, ctx, SGC{}, adj, xw, dims), "/bias")
}
