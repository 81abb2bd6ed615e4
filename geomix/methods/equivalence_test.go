package methods

import (
	"math/rand/v2"
	"testing"

	"github.com/geomix-go/geomix/datasets"
	"github.com/geomix-go/geomix/geomix/backbones"
	"github.com/geomix-go/geomix/geomix/mixing"
	"github.com/geomix-go/geomix/internal/testutil"
	. "github.com/gomlx/gomlx/pkg/core/graph"
)

// TestMixThenProjectEqualsProjectThenMix checks the identity the trainer relies on, in float64:
// mixing [X, Y] then X_mix W equals mixing the blocks [X W, X W_q¹, X W_k¹, …, Y] (queries and keys
// read from the projected blocks plus their biases), for every mixing, on a random sparse graph,
// with X held sparse and dense.
func TestMixThenProjectEqualsProjectThenMix(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 11))
	const n, f, h0, m, c, hops = 12, 10, 3, 2, 2, 2
	g := &datasets.Graph{Name: "random", NumNodes: n}
	for i := range n {
		for j := i + 1; j < n; j++ {
			if rng.Float64() < 0.25 {
				g.Src, g.Dst = append(g.Src, int32(i), int32(j)), append(g.Dst, int32(j), int32(i))
			}
		}
	}
	adj := mixing.BuildAdjacency(g, mixing.NormSymmetric)
	x := testutil.RandomMatrix(rng, n, f, 0.6)
	rows, cols, vals := testutil.NonZeros(x)
	y := testutil.RandomMatrix(rng, n, c, 0)
	w := testutil.RandomMatrix(rng, f, h0, 0)
	var attn []any // W_q, W_k [f, m] and b_q, b_k [m] per hop
	for range hops {
		bq, bk := testutil.RandomMatrix(rng, 1, m, 0)[0], testutil.RandomMatrix(rng, 1, m, 0)[0]
		attn = append(attn, testutil.RandomMatrix(rng, f, m, 0), testutil.RandomMatrix(rng, f, m, 0), bq, bk)
	}
	perm := make([][]int32, n)
	for i, p := range rng.Perm(n) {
		perm[i] = []int32{int32(p)}
	}
	linear := func(fn func(a *mixing.AdjacencyNodes, h, perm *Node) *Node) func(a *mixing.AdjacencyNodes, hs []*Node, perm *Node, qk mixing.QueryKeyFn) []*Node {
		return func(a *mixing.AdjacencyNodes, hs []*Node, perm *Node, _ mixing.QueryKeyFn) []*Node {
			out := make([]*Node, len(hs))
			for i, h := range hs {
				out[i] = fn(a, h, perm)
			}
			return out
		}
	}
	mixings := map[string]func(a *mixing.AdjacencyNodes, hs []*Node, perm *Node, qk mixing.QueryKeyFn) []*Node{
		"GeoMix-I":   linear(func(a *mixing.AdjacencyNodes, h, _ *Node) *Node { return mixing.MixI(a, h, 0.3, hops) }),
		"GeoMix-II":  linear(func(a *mixing.AdjacencyNodes, h, _ *Node) *Node { return mixing.MixII(a, h, 0.3, hops) }),
		"NoLocality": linear(func(a *mixing.AdjacencyNodes, h, _ *Node) *Node { return mixing.NoLocality(a, h, hops) }),
		"RandomMix":  linear(func(a *mixing.AdjacencyNodes, h, p *Node) *Node { return mixing.RandomMix(a, h, p, 0.3, hops) }),
		"GeoMix-III": func(a *mixing.AdjacencyNodes, hs []*Node, _ *Node, qk mixing.QueryKeyFn) []*Node {
			return mixing.MixIII(a, hs, qk, mixing.MixIIIConfig{Hops: hops, ResWeight: 0.2, GraphWeight: 0.6})
		},
		"GeoMix-IIIp": func(a *mixing.AdjacencyNodes, hs []*Node, _ *Node, qk mixing.QueryKeyFn) []*Node {
			return mixing.MixIII(a, hs, qk, mixing.MixIIIConfig{Hops: hops, ResWeight: 0.2, GraphWeight: 0.6, Form: mixing.AttentionPaper})
		},
	}
	src, dst, ew := adj.Inputs()
	for name, mix := range mixings {
		for _, dense := range []bool{false, true} {
			args := append([]any{src, dst, ew, x, rows, cols, vals, y, w, perm}, attn...)
			out := MustExecOnceN(testutil.Backend(t), func(in []*Node) []*Node {
				a := mixing.NewAdjacencyNodes(n, in[0], in[1], in[2])
				xd, yn, wn, p := in[3], in[7], in[8], in[9]
				// Reference: mix raw features and labels, then project.
				refQK := func(hop int, hs []*Node) (*Node, *Node, []*Node) {
					wq, wk, bq, bk := in[10+4*hop], in[11+4*hop], in[12+4*hop], in[13+4*hop]
					return Add(MatMul(hs[0], wq), InsertAxes(bq, 0)), Add(MatMul(hs[0], wk), InsertAxes(bk, 0)), hs
				}
				ref := mix(a, []*Node{xd, yn}, p, refQK)
				// Projected: X W_in, X W_q¹, X W_k¹, … through Features.Project, then mix.
				features := backbones.NewFeatures(n, f, in[4:7])
				if dense {
					features = backbones.NewFeatures(n, f, []*Node{xd, Transpose(xd, 0, 1)})
				}
				var proj Projection
				weights := []*Node{wn}
				for hop := range hops {
					weights = append(weights, in[10+4*hop], in[11+4*hop])
					proj.QBias, proj.KBias = append(proj.QBias, in[12+4*hop]), append(proj.KBias, in[13+4*hop])
				}
				got := mix(a, append(features.ProjectBlocks(weights), yn), p, proj.QueryKey())
				return []*Node{MatMul(ref[0], wn), ref[len(ref)-1], got[0], got[len(got)-1]}
			}, args...)
			flat := func(i int) []float64 { return testutil.FlatRows(out[i].Value().([][]float64)) }
			layout := map[bool]string{false: " sparse", true: " dense"}[dense]
			testutil.AssertNear(t, name+layout+" features", flat(2), flat(0), 1e-10)
			testutil.AssertNear(t, name+layout+" labels", flat(3), flat(1), 1e-10)
		}
	}
}
