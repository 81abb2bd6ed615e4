package mixing

import (
	"fmt"

	"github.com/geomix-go/geomix/geomix/internal/ops"
	. "github.com/gomlx/gomlx/pkg/core/graph"
	"github.com/gomlx/gomlx/pkg/core/shapes"
)

// The mixing operators of GeoMix act on any [N, D] node matrix: raw features, projected features X W,
// or (pseudo-)label distributions [N, C]. For a fixed graph (and, for GeoMix-III, fixed attention
// weights) they are linear in their input, so mixing features then projecting them equals projecting
// then mixing, which is how the trainer runs them in the small projected width (package methods).

// MixI is GeoMix-I (paper Eq. 4-5): hops times, h ← α h + (1−α) Â h. x is [N, D];
// alpha = 0 is the basic geometric mixup without locality enhancement (see NoLocality).
func MixI(adj *AdjacencyNodes, x *Node, alpha float64, hops int) *Node {
	for range hops {
		ax := Propagate(adj, x)
		if alpha > 0 {
			ax = Add(MulScalar(ax, 1-alpha), MulScalar(x, alpha))
		}
		x = ax
	}
	return x
}

// NoLocality is the ablation "w/o Locality" (paper Table 5): GeoMix-I with α = 0, i.e. Â^hops x.
func NoLocality(adj *AdjacencyNodes, x *Node, hops int) *Node {
	return MixI(adj, x, 0, hops)
}

// MixII is GeoMix-II (paper Eq. 6-7), APPNP-like: hops times, h ← (1−α) Â h + α h⁽⁰⁾,
// with h⁽⁰⁾ = x [N, D].
func MixII(adj *AdjacencyNodes, x *Node, alpha float64, hops int) *Node {
	h := x
	for range hops {
		h = Add(MulScalar(Propagate(adj, h), 1-alpha), MulScalar(x, alpha))
	}
	return h
}

// RandomMix is the ablation "Random Mix" (paper Table 5: "we randomly pair nodes to perform Mixup
// while keeping all other aspects of the training pipeline consistent"): GeoMix-I run on a randomly
// relabelled copy of the graph. With perm [N, 1] a permutation π of the nodes (drawn anew by the
// trainer at every epoch), node v's neighbours are the nodes u with π(u) ∈ N(π(v)), weighted by
// Â[π(v), π(u)]: the same degrees, normalisation, self-loops, α and hops as GeoMix-I, but random
// partners instead of the graph's. Hops times, h ← α h + (1−α) Â_π h. x is [N, D].
//
// The paper does not say how nodes are paired. Pairing each node with a single random partner
// (h ← α h + (1−α) h[π]) would, with GeoMix-I's α = 0.1 and K = 3, leave 0.1% of a node's own
// feature and train on noise (Cora: 15% test accuracy against the paper's 82.1%); relabelling the
// graph keeps every other aspect of GeoMix-I, as the paper states.
func RandomMix(adj *AdjacencyNodes, x, perm *Node, alpha float64, hops int) *Node {
	n := x.Shape().Dim(0)
	if perm.Rank() != 2 || perm.Shape().Dim(0) != n || perm.Shape().Dim(1) != 1 {
		panic(fmt.Sprintf("RandomMix: want x [N, D] and perm [N, 1], got x %s, perm %s", x.Shape(), perm.Shape()))
	}
	g := x.Graph()
	// inverse[π(v)] = v.
	iota := Iota(g, shapes.Make(perm.DType(), n), 0)
	inverse := InsertAxes(ScatterSum(ZerosLike(iota), perm, iota, false, true), -1)
	for range hops {
		relabelled := Gather(Propagate(adj, Gather(x, inverse)), perm)
		x = Add(MulScalar(x, alpha), MulScalar(relabelled, 1-alpha))
	}
	return x
}

// AttentionForm selects GeoMix-III's all-pair weights a_vu.
type AttentionForm int

const (
	// AttentionCode is what the authors' code computes: q̃ = Q/‖Q‖_F, k̃ = K/‖K‖_F and
	// a_vu = (q̃_v·k̃_u + N·[u=v]) / (N + Σ_w q̃_v·k̃_w), an SGFormer-style weight close to the identity.
	AttentionCode AttentionForm = iota
	// AttentionPaper is the paper's Eq. 11-12: rows of Q and K L2-normalised and
	// a_vu = q_v·k_u / Σ_w q_v·k_w (weights may be negative; rows sum to 1).
	AttentionPaper
)

// String returns "code" or "paper".
func (f AttentionForm) String() string {
	if f == AttentionPaper {
		return "paper"
	}
	return "code"
}

// normalizeQK returns the normalised queries and keys of form: whole-matrix Frobenius norms for
// AttentionCode, row L2 norms for AttentionPaper.
func normalizeQK(q, k *Node, form AttentionForm) (*Node, *Node) {
	if q.Rank() != 2 || !q.Shape().Equal(k.Shape()) {
		panic(fmt.Sprintf("GeoMix-III attention: want q, k [N, m] of equal shapes, got q %s, k %s", q.Shape(), k.Shape()))
	}
	if form == AttentionPaper {
		rowNorm := func(x *Node) *Node { return Div(x, InsertAxes(Sqrt(ReduceSum(Square(x), -1)), -1)) }
		return rowNorm(q), rowNorm(k)
	}
	frob := func(x *Node) *Node { return Div(x, Sqrt(ReduceAllSum(Square(x)))) }
	return frob(q), frob(k)
}

// AttentionWeights returns GeoMix-III's dense [N, N] all-pair weights a_vu for queries q and keys k
// ([N, m]) in the given form. Quadratic in N: for tests, theorem checks and pictures; training uses
// Attend, which never forms this matrix.
func AttentionWeights(q, k *Node, form AttentionForm) *Node {
	q, k = normalizeQK(q, k, form)
	n := q.Shape().Dim(0)
	scores := Einsum("vm,um->vu", q, k)
	if form == AttentionCode {
		square := shapes.Make(q.DType(), n, n)
		eye := ConvertDType(Equal(Iota(q.Graph(), square, 0), Iota(q.Graph(), square, 1)), q.DType())
		scores = Add(scores, MulScalar(eye, float64(n)))
	}
	return Div(scores, InsertAxes(ReduceSum(scores, -1), -1))
}

// Attend returns Σ_u a_vu h_u for h [N, D] with the weights of AttentionWeights, in linear time:
// q̃ (k̃ᵀ h) and q̃ (k̃ᵀ 1) (paper Eq. 14), plus N·h and N for AttentionCode.
func Attend(q, k, h *Node, form AttentionForm) *Node {
	return attendAll(q, k, []*Node{h}, form)[0]
}

// attendAll is Attend on each of hs ([N, D_i]), sharing the normalised q and k and the denominator.
func attendAll(q, k *Node, hs []*Node, form AttentionForm) []*Node {
	q, k = normalizeQK(q, k, form)
	n := q.Shape().Dim(0)
	den := ops.MatMulFastGrad(q, InsertAxes(ReduceSum(k, 0), -1)) // [N, 1]
	if form == AttentionCode {
		den = AddScalar(den, float64(n))
	}
	out := make([]*Node, len(hs))
	for i, h := range hs {
		if h.Rank() != 2 || h.Shape().Dim(0) != n {
			panic(fmt.Sprintf("GeoMix-III Attend: want h [N=%d, D], got %s", n, h.Shape()))
		}
		num := ops.MatMulFastGrad(q, ops.TransposedMatMulFastGrad(k, h)) // [N, D]
		if form == AttentionCode {
			num = Add(num, MulScalar(h, float64(n)))
		}
		out[i] = Div(num, den)
	}
	return out
}

// MixIIIConfig holds GeoMix-III's hyper-parameters.
type MixIIIConfig struct {
	// Hops is K, the number of mixing steps.
	Hops int
	// ResWeight is the residual weight to the previous hop: β (`res_weight`) in the code form,
	// α in the paper's Eq. 9.
	ResWeight float64
	// GraphWeight is η, the weight of the graph branch.
	GraphWeight float64
	// Form picks the code's or the paper's attention and hop formula.
	Form AttentionForm
}

// QueryKeyFn returns the queries and keys [N, m] of hop t (0-based) from the current mixed blocks
// hs, and rest, the blocks the hop mixes: hs itself, or hs without blocks no later hop reads.
type QueryKeyFn func(hop int, hs []*Node) (q, k *Node, rest []*Node)

// MixIII is GeoMix-III (paper Eq. 9-12) on blocks hs ([N, D_i] each), with the hop's
// queries and keys from qk.
//
// Code form (default), per hop: A = Attend(h); A ← η Â^K h + (1−η) A; h ← β h + (1−β) A, where the
// graph branch propagates K = Hops times inside every hop (K² propagations in total).
// Paper form, per hop: ĥ = α h + (1−α) Attend(h); h ← (1−η) ĥ + η Â h.
//
// Every column is mixed independently of the others with the same weights, so features and labels
// are mixed alike whether they come as one block or several; blocks avoid slicing columns, which
// the pure-Go backend does element by element. The result holds the blocks qk never dropped.
func MixIII(adj *AdjacencyNodes, hs []*Node, qk QueryKeyFn, cfg MixIIIConfig) []*Node {
	for t := range cfg.Hops {
		q, k, rest := qk(t, hs)
		att := attendAll(q, k, rest, cfg.Form)
		hs = make([]*Node, len(rest))
		for i, h := range rest {
			a := att[i]
			if cfg.Form == AttentionPaper {
				hat := Add(MulScalar(h, cfg.ResWeight), MulScalar(a, 1-cfg.ResWeight))
				hs[i] = Add(MulScalar(hat, 1-cfg.GraphWeight), MulScalar(Propagate(adj, h), cfg.GraphWeight))
				continue
			}
			if cfg.GraphWeight > 0 {
				a = Add(MulScalar(PropagateK(adj, h, cfg.Hops), cfg.GraphWeight), MulScalar(a, 1-cfg.GraphWeight))
			}
			if cfg.ResWeight > 0 {
				a = Add(MulScalar(h, cfg.ResWeight), MulScalar(a, 1-cfg.ResWeight))
			}
			hs[i] = a
		}
	}
	return hs
}
