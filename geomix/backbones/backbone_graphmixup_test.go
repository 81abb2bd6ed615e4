package backbones

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/geomix-go/geomix/geomix/internal/ops"
	"github.com/geomix-go/geomix/geomix/mixing"
	"github.com/geomix-go/geomix/internal/testutil"
	. "github.com/gomlx/gomlx/pkg/core/graph"
	"github.com/gomlx/gomlx/pkg/ml/context"
)

// TestGraphMixupShapesAndNeighbours: on the path 0-1-2 (binary edges of the row adjacency), Rest
// gives [3, C] logits, the neighbour sums are Σ_j z_j over the edges and the degrees 1, 2, 1; with
// every head's descriptor equal, the semantic loss (mean pairwise cosine) is 1.
func TestGraphMixupShapesAndNeighbours(t *testing.T) {
	adj := mixing.BuildAdjacency(path3(), mixing.NormRow)
	ctx := testutil.NewContext(t, map[string]any{ParamHidden: 8})
	dims := Dims{Features: 4, Classes: 3}
	xw := [][]float32{{1, 0, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8}, {0, 1, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1}, {0, 0, 1, 0, 2, 2, 2, 2, 2, 2, 2, 2}}
	xw16 := make([][]float32, 3)
	for i := range xw16 {
		xw16[i] = append(slices.Clone(xw[i]), 0, 0, 0, 0)
	}
	logits := runRest(t, ctx, GraphMixup{}, adj, xw16, dims, false)
	if len(logits) != 3 || len(logits[0]) != 3 {
		t.Fatalf("logits %dx%d, want 3x3", len(logits), len(logits[0]))
	}
	src, dst, w := adj.Inputs()
	exec, err := context.NewExec(testutil.Backend(t), ctx, func(ctx *context.Context, z, s, d, wt *Node) []*Node {
		sum, deg := GraphMixup{}.NeighbourSum(mixing.NewAdjacencyNodes(3, s, d, wt), z)
		same := Concatenate([]*Node{Const(z.Graph(), [][]float32{{1, 2, 3, 4, 5, 6, 7, 8}}), Const(z.Graph(), [][]float32{{1, 2, 3, 4, 5, 6, 7, 8}}),
			Const(z.Graph(), [][]float32{{1, 2, 3, 4, 5, 6, 7, 8}}), Const(z.Graph(), [][]float32{{1, 2, 3, 4, 5, 6, 7, 8}})}, 0)
		return []*Node{sum, deg, GraphMixup{}.semanticLoss(ctx, same)}
	})
	if err != nil {
		t.Fatal(err)
	}
	out, err := exec.Exec([][]float32{{1, 10}, {2, 20}, {4, 40}}, src, dst, w)
	if err != nil {
		t.Fatal(err)
	}
	sum, deg := out[0].Value().([][]float32), out[1].Value().([][]float32)
	if !slices.Equal(sum[0], []float32{2, 20}) || !slices.Equal(sum[1], []float32{5, 50}) || !slices.Equal(sum[2], []float32{2, 20}) {
		t.Errorf("neighbour sums %v, want [[2 20] [5 50] [2 20]]", sum)
	}
	if deg[0][0] != 1 || deg[1][0] != 2 || deg[2][0] != 1 {
		t.Errorf("degrees %v, want 1, 2, 1", deg)
	}
	if loss := out[2].Value().(float32); math.Abs(float64(loss)-1) > 1e-5 {
		t.Errorf("semantic loss of equal heads = %v, want 1", loss)
	}
}

// TestGraphMixupRejectsWidth: a hidden width that is not a multiple of 2K panics with the setting.
func TestGraphMixupRejectsWidth(t *testing.T) {
	defer func() {
		if r := recover(); r == nil {
			t.Error("hidden 12: no panic")
		}
	}()
	GraphMixup{}.InputWidth(testutil.NewContext(t, map[string]any{ParamHidden: 12}), Dims{})
}

// TestEdgeScoresMatchGatheredRows: edgeScores (each node's halves h a computed once, read at the
// edges' ends) gives the scores of the gathered rows σ(h_Dst a_dst + h_Src a_src) [E, 1] to the
// bit, and their gradients with respect to h, a_dst and a_src within 1e-5 of each gradient's
// largest magnitude (sums of 20,000 edges' terms in another order), on a random float32 graph with
// more edges than the blocked kernel's bound.
func TestEdgeScoresMatchGatheredRows(t *testing.T) {
	const n, e, h = 120, 20000, 64
	rng := rand.New(rand.NewPCG(5, 6))
	matrix := func(rows, cols int) [][]float32 { return testutil.NormalMatrix32(rng, rows, cols) }
	src, dst := make([][]int32, e), make([][]int32, e)
	for i := range src {
		src[i], dst[i] = []int32{int32(rng.IntN(n))}, []int32{int32(rng.IntN(n))}
	}
	hv, aDst, aSrc, w := matrix(n, h), matrix(h, 1), matrix(h, 1), matrix(e, 1)
	scores := func(perNode bool) func([]*Node) []*Node {
		return func(in []*Node) []*Node {
			hn, ad, as, s, d, w := in[0], in[1], in[2], in[3], in[4], in[5]
			adj := mixing.NewAdjacencyNodes(n, s, d, OnesLike(ConvertDType(s, hn.DType())))
			var sc *Node
			if perNode {
				sc = edgeScores(hn, ad, as, adj)
			} else {
				sc = Sigmoid(Add(ops.MatMulFastGrad(Gather(hn, d), ad), ops.MatMulFastGrad(Gather(hn, s), as)))
			}
			return append([]*Node{sc}, Gradient(ReduceAllSum(Mul(Square(sc), w)), hn, ad, as)...)
		}
	}
	backend := testutil.Backend(t)
	want := MustExecOnceN(backend, scores(false), hv, aDst, aSrc, src, dst, w)
	got := MustExecOnceN(backend, scores(true), hv, aDst, aSrc, src, dst, w)
	for i, name := range []string{"scores", "∂h", "∂a_dst", "∂a_src"} {
		wv, gv := want[i].Value().([][]float32), got[i].Value().([][]float32)
		diff, scale := testutil.LargestDifference(wv, gv)
		if i == 0 && diff != 0 {
			t.Errorf("scores differ by %.3g from the gathered rows', want the same to the bit", diff)
		}
		if scale == 0 || diff/scale > 1e-5 {
			t.Errorf("%s: largest difference %.3g of the largest magnitude %.3g, want at most 1e-5", name, diff, scale)
		}
	}
}
