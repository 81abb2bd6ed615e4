package mixing

import (
	"math"
	"testing"

	"github.com/geomix-go/geomix/internal/testutil"
	. "github.com/gomlx/gomlx/pkg/core/graph"
)

// runOnAdj executes fn on the adjacency of g (normalised as norm) and float64 inputs, returning the
// flat float64 result.
func runOnAdj(t *testing.T, adj *Adjacency, fn func(a *AdjacencyNodes, in []*Node) *Node, inputs ...any) []float64 {
	t.Helper()
	src, dst, w := adj.Inputs()
	args := append([]any{src, dst, w}, inputs...)
	out := MustExecOnce(testutil.Backend(t), func(in []*Node) *Node {
		return fn(NewAdjacencyNodes(adj.NumNodes, in[0], in[1], in[2]), in[3:])
	}, args...)
	flat := make([]float64, 0, out.Size())
	switch v := out.Value().(type) {
	case [][]float64:
		for _, row := range v {
			flat = append(flat, row...)
		}
	default:
		t.Fatalf("unexpected output type %T", v)
	}
	return flat
}

var pathX = [][]float64{{1}, {2}, {3}, {4}}

// On the path graph with row normalisation Â x = [2, 2, 2, 0] for x = [1, 2, 3, 4].
func TestMixHopsByHand(t *testing.T) {
	row := BuildAdjacency(testutil.PathGraph(), NormRow)
	cases := []struct {
		name string
		fn   func(a *AdjacencyNodes, in []*Node) *Node
		want []float64
	}{
		{"NoLocality 1 hop", func(a *AdjacencyNodes, in []*Node) *Node { return NoLocality(a, in[0], 1) }, []float64{2, 2, 2, 0}},
		{"GeoMix-I α=.5 1 hop", func(a *AdjacencyNodes, in []*Node) *Node { return MixI(a, in[0], 0.5, 1) }, []float64{1.5, 2, 2.5, 2}},
		// h1 = [1.5, 2, 2.5, 2], Â h1 = [2, 2, 2, 0], h2 = (h1 + Â h1)/2.
		{"GeoMix-I α=.5 2 hops", func(a *AdjacencyNodes, in []*Node) *Node { return MixI(a, in[0], 0.5, 2) }, []float64{1.75, 2, 2.25, 1}},
		// At K = 1 GeoMix-II's residual to h0 is GeoMix-I's residual to the previous hop: the same
		// map (CS's presets run both at K = 1 with one row, so its two cells give the same runs).
		{"GeoMix-II α=.5 1 hop", func(a *AdjacencyNodes, in []*Node) *Node { return MixII(a, in[0], 0.5, 1) }, []float64{1.5, 2, 2.5, 2}},
		// h2 = Â h1 / 2 + x / 2.
		{"GeoMix-II α=.5 2 hops", func(a *AdjacencyNodes, in []*Node) *Node { return MixII(a, in[0], 0.5, 2) }, []float64{1.5, 2, 2.5, 2}},
	}
	for _, c := range cases {
		testutil.AssertNear(t, c.name, runOnAdj(t, row, c.fn, pathX), c.want, 1e-7)
	}
	// Symmetric: Â x = [1/2 + 2s, s + 2/3 + 3s, 2s + 3/2, 4], s = 1/√6.
	s := 1 / math.Sqrt(6)
	sym := BuildAdjacency(testutil.PathGraph(), NormSymmetric)
	testutil.AssertNear(t, "Propagate sym", runOnAdj(t, sym, func(a *AdjacencyNodes, in []*Node) *Node { return Propagate(a, in[0]) }, pathX),
		[]float64{0.5 + 2*s, 4*s + 2.0/3, 2*s + 1.5, 4}, 1e-6)
}

// Labels mix with the same operators: one-hot rows [1,0],[0,1],[1,0],[0,1].
func TestMixLabelsByHand(t *testing.T) {
	y := [][]float64{{1, 0}, {0, 1}, {1, 0}, {0, 1}}
	got := runOnAdj(t, BuildAdjacency(testutil.PathGraph(), NormRow), func(a *AdjacencyNodes, in []*Node) *Node { return MixI(a, in[0], 0.5, 1) }, y)
	testutil.AssertNear(t, "GeoMix-I labels", got, []float64{0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0, 0.5}, 1e-7)
}

// RandomMix on the path 0-1-2 (node 3 isolated) with row normalisation, perm π = [1, 2, 3, 0] and
// α = 1/4: node v's neighbours are π⁻¹(N(π(v))): 0 → {3, 1}, 1 → {0}, 2 → {}, 3 → {0}, so for
// x = [1, 2, 3, 4] the mixed values are 0.25 x + 0.75 [3, 1, 0, 1] = [2.5, 1.25, 0.75, 1.75].
func TestRandomMixByHand(t *testing.T) {
	perm := [][]int32{{1}, {2}, {3}, {0}}
	got := runOnAdj(t, BuildAdjacency(testutil.PathGraph(), NormRow), func(a *AdjacencyNodes, in []*Node) *Node {
		return RandomMix(a, in[0], in[1], 0.25, 1)
	}, pathX, perm)
	testutil.AssertNear(t, "RandomMix", got, []float64{2.5, 1.25, 0.75, 1.75}, 1e-12)
}

// With the identity permutation RandomMix is GeoMix-I.
func TestRandomMixIdentityIsMixI(t *testing.T) {
	identity := [][]int32{{0}, {1}, {2}, {3}}
	adj := BuildAdjacency(testutil.PathGraph(), NormSymmetric)
	got := runOnAdj(t, adj, func(a *AdjacencyNodes, in []*Node) *Node { return RandomMix(a, in[0], in[1], 0.3, 2) }, pathX, identity)
	want := runOnAdj(t, adj, func(a *AdjacencyNodes, in []*Node) *Node { return MixI(a, in[0], 0.3, 2) }, pathX)
	testutil.AssertNear(t, "RandomMix(identity)", got, want, 1e-12)
}

var (
	attnQ = [][]float64{{1, 0}, {0, 1}}
	attnK = [][]float64{{1, 0}, {1, 1}}
	attnH = [][]float64{{1, 2}, {3, 4}}
)

// attentionByHand: code form: q kᵀ = [[1,1],[0,1]], ‖q‖_F ‖k‖_F = √6, plus N = 2 on the diagonal.
// Paper form: rows of k normalised to [1,0], [1/√2,1/√2]; scores [[1, 1/√2],[0, 1/√2]].
func attentionByHand(form AttentionForm) []float64 {
	if form == AttentionCode {
		s := 1 / math.Sqrt(6)
		return []float64{(2 + s) / (2 + 2*s), s / (2 + 2*s), 0, 1}
	}
	r := 1 / math.Sqrt(2)
	return []float64{1 / (1 + r), r / (1 + r), 0, 1}
}

func TestAttentionWeightsByHand(t *testing.T) {
	for _, form := range []AttentionForm{AttentionCode, AttentionPaper} {
		got := MustExecOnce(testutil.Backend(t), func(q, k *Node) *Node { return AttentionWeights(q, k, form) }, attnQ, attnK).Value().([][]float64)
		testutil.AssertNear(t, "a_vu "+form.String(), append(got[0], got[1]...), attentionByHand(form), 1e-12)
		a := attentionByHand(form)
		want := []float64{a[0]*1 + a[1]*3, a[0]*2 + a[1]*4, a[2]*1 + a[3]*3, a[2]*2 + a[3]*4}
		att := MustExecOnce(testutil.Backend(t), func(q, k, h *Node) *Node { return Attend(q, k, h, form) }, attnQ, attnK, attnH).Value().([][]float64)
		testutil.AssertNear(t, "Attend "+form.String(), append(att[0], att[1]...), want, 1e-12)
	}
}

// One GeoMix-III hop on the 2-node graph 0-1 (Â = all 1/2) with fixed q, k and h.
func TestMixIIIHopByHand(t *testing.T) {
	g := testutil.PathGraph()
	g.NumNodes, g.Src, g.Dst = 2, []int32{0, 1}, []int32{1, 0}
	adj := BuildAdjacency(g, NormSymmetric)
	ah := []float64{2, 3, 2, 3} // Â h: column means of h repeated.
	const beta, eta = 0.25, 0.6
	for _, form := range []AttentionForm{AttentionCode, AttentionPaper} {
		a := attentionByHand(form)
		att := []float64{a[0]*1 + a[1]*3, a[0]*2 + a[1]*4, a[2]*1 + a[3]*3, a[2]*2 + a[3]*4}
		h := []float64{1, 2, 3, 4}
		want := make([]float64, 4)
		for i := range want {
			if form == AttentionCode {
				want[i] = beta*h[i] + (1-beta)*(eta*ah[i]+(1-eta)*att[i])
			} else {
				want[i] = (1-eta)*(beta*h[i]+(1-beta)*att[i]) + eta*ah[i]
			}
		}
		got := runOnAdj(t, adj, func(an *AdjacencyNodes, in []*Node) *Node {
			qk := func(_ int, hs []*Node) (*Node, *Node, []*Node) { return in[1], in[2], hs }
			return MixIII(an, []*Node{in[0]}, qk, MixIIIConfig{Hops: 1, ResWeight: beta, GraphWeight: eta, Form: form})[0]
		}, attnH, attnQ, attnK)
		testutil.AssertNear(t, "GeoMix-III hop "+form.String(), got, want, 1e-7)
	}
}
