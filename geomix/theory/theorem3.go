package theory

import (
	"fmt"
	"math"

	"github.com/geomix-go/geomix/datasets"
	"github.com/geomix-go/geomix/geomix/mixing"
	"github.com/gomlx/gomlx/backends"
	"github.com/gomlx/gomlx/pkg/core/graph"
	"github.com/gomlx/gomlx/pkg/core/tensors"
)

// theorem3Hops is K, the number of mixing steps compared with as many gradient steps.
const theorem3Hops = 3

// SmoothnessEnergy builds S(H) = ½ Σ_e w_e ‖h_Src[e] − h_Dst[e]‖² + Σ_u (1 − r_u) ‖h_u‖² for h [N, D]
// and a symmetric adjacency adj, where r_u is row u's sum of weights, given as correction = 1 − r [N, 1].
// The first term is the paper's Σ_{(u,v)∈E} e_uv ‖h_u − h_v‖² over undirected edges (adj holds both
// directions, hence ½; self-loops add 0). The second term is ours: it vanishes when every row of e
// sums to 1 (D^-1 A on a regular graph, the case the paper's proof implicitly assumes) and makes
// S(H) = tr(Hᵀ(I − Â)H) for any symmetric Â, e.g. the code's D̃^-1/2(A+I)D̃^-1/2, so that
// ∇S = 2(I − Â)H. Pass a nil correction for the paper's form alone.
func SmoothnessEnergy(adj *mixing.AdjacencyNodes, h, correction *graph.Node) *graph.Node {
	w := graph.ConvertDType(adj.Weight, h.DType())
	diff := graph.Sub(graph.Gather(h, adj.Src), graph.Gather(h, adj.Dst))
	s := graph.MulScalar(graph.ReduceAllSum(graph.Mul(w, graph.Square(diff))), 0.5)
	if correction != nil {
		s = graph.Add(s, graph.ReduceAllSum(graph.Mul(correction, graph.Square(h))))
	}
	return s
}

// RegularizerF builds F(H; anchor) = ‖H − anchor‖² + β S(H) (Theorem 3): F1 with anchor H⁽ᵗ⁾, F2 with
// anchor H⁽⁰⁾. The anchor is a constant of F: its gradient is stopped.
func RegularizerF(adj *mixing.AdjacencyNodes, h, anchor, correction *graph.Node, beta float64) *graph.Node {
	fidelity := graph.ReduceAllSum(graph.Square(graph.Sub(h, graph.StopGradient(anchor))))
	return graph.Add(fidelity, graph.MulScalar(SmoothnessEnergy(adj, h, correction), beta))
}

// theorem3Variant selects the mixing operator and its regulariser.
type theorem3Variant struct {
	// second is GeoMix-II / F2; false is GeoMix-I / F1.
	second bool
	// params gives (β, τ) for residual α; for F1, β is given and only τ is computed.
	params func(alpha, beta float64) (float64, float64)
	// paperForm drops the degree-correction term of SmoothnessEnergy.
	paperForm bool
}

// Theorem3F1GradientStep checks Theorem 3 for GeoMix-I: on a synthetic graph with the code's
// adjacency D̃^-1/2(A+I)D̃^-1/2 (irregular degrees), K = 3 GeoMix-I steps (mixing.MixI) equal K
// gradient-descent steps H ← H − τ ∇_H F1(H; H⁽ᵗ⁾)|_{H=H⁽ᵗ⁾} computed by GoMLX autodiff
// (graph.Gradient), for α in {0.1, 0.5, 0.8} and β in {0.5, 2} with τ = (1−α)/(2β) (F1StepSize).
func Theorem3F1GradientStep(o Options) (Check, error) {
	return theorem3(o, "theorem3/f1-gradient-step", theorem3Variant{params: func(alpha, beta float64) (float64, float64) {
		return beta, F1StepSize(alpha, beta)
	}})
}

// Theorem3F2GradientStep checks Theorem 3 for GeoMix-II as Theorem3F1GradientStep does for GeoMix-I,
// with F2 (anchor H⁽⁰⁾), α in {0.1, 0.3, 0.6} and β = (1−α)/α, τ = 1/(2(β+1)) (F2Parameters).
func Theorem3F2GradientStep(o Options) (Check, error) {
	return theorem3(o, "theorem3/f2-gradient-step", theorem3Variant{second: true, params: func(alpha, _ float64) (float64, float64) {
		return F2Parameters(alpha)
	}})
}

func theorem3(o Options, name string, v theorem3Variant) (Check, error) {
	backend, err := o.backend()
	if err != nil {
		return Check{}, err
	}
	if o.Backend == nil {
		defer backend.Finalize()
	}
	g, _, err := datasets.Synthetic(datasets.SyntheticConfig{Nodes: 400, Classes: 4, Features: 3, Degree: 6, P: 0.5,
		TrainPerClass: 5, ValNodes: 50, Seed: sampleSeed(o, name, 0, 0)})
	if err != nil {
		return Check{}, err
	}
	adj := mixing.BuildAdjacency(g, mixing.NormSymmetric)
	correction := make([]float64, g.NumNodes)
	if !v.paperForm {
		for u := range correction {
			correction[u] = 1
		}
		for e, d := range adj.Dst {
			correction[d] -= float64(adj.Weight[e])
		}
	}
	maxDeg := 0
	rowLen := make([]int, g.NumNodes)
	for _, d := range adj.Dst {
		rowLen[d]++
		maxDeg = max(maxDeg, rowLen[d])
	}
	h0 := make([]float64, len(g.Features.Values))
	maxAbs := 0.0
	for i, x := range g.DenseFeatures() {
		h0[i] = float64(x)
		maxAbs = max(maxAbs, math.Abs(h0[i]))
	}
	// float64 rounding: every step sums at most maxDeg+2 terms of size <= maxAbs per entry, for
	// each of the two paths; allow 16 units of 2^-52 per term and step.
	tol := 16 * float64(theorem3Hops*(maxDeg+2)) * math.Pow(2, -52) * maxAbs

	alphas, betas := []float64{0.1, 0.5, 0.8}, []float64{0.5, 2}
	if v.second {
		alphas, betas = []float64{0.1, 0.3, 0.6}, []float64{0}
	}
	var series []Point
	for _, alpha := range alphas {
		for _, b := range betas {
			beta, tau := v.params(alpha, b)
			diff, err := mixMinusGradientSteps(backend, adj, h0, g.NumFeatures(), correction, v.second, alpha, beta, tau)
			if err != nil {
				return Check{}, err
			}
			series = append(series, Point{Label: fmt.Sprintf("alpha=%g beta=%.4g tau=%.4g", alpha, beta, tau), X: alpha,
				Predicted: 0, Observed: diff, Tolerance: tol})
		}
	}
	op, f, rel := "GeoMix-I", "F1", "1-alpha = 2 tau beta (the paper's appendix writes alpha = 2 tau beta, "+
		"which contradicts its own previous line)"
	if v.second {
		op, f, rel = "GeoMix-II", "F2", "beta = (1-alpha)/alpha, tau = 1/(2(beta+1)) as in the paper"
	}
	return Check{Name: name, Comparison: Equal, Series: series, Note: fmt.Sprintf(
		"max |%d %s steps - %d gradient steps of %s (graph.Gradient)| with %s, on a synthetic graph "+
			"(N=%d, irregular degrees) with the code's adjacency D^-1/2(A+I)D^-1/2, float64; %s includes the "+
			"degree-correction term sum_u (1 - sum_v e_uv)||h_u||^2, zero when rows of e sum to 1 (without it the "+
			"theorem fails on irregular graphs); tolerance from float64 rounding",
		theorem3Hops, op, theorem3Hops, f, rel, g.NumNodes, f)}.finish(), nil
}

// mixMinusGradientSteps returns max |MixI or MixII(h0) − GD^K(h0)| over all entries, where each GD
// step is H ← H − τ ∇_H F(H; anchor) with anchor H for F1 and h0 for F2 (second).
func mixMinusGradientSteps(backend backends.Backend, adj *mixing.Adjacency, h0 []float64, numF int,
	correction []float64, second bool, alpha, beta, tau float64) (float64, error) {
	src, dst, weight := adj.Inputs()
	n := adj.NumNodes
	out, err := graph.ExecOnce(backend, func(h0, src, dst, weight, correction *graph.Node) *graph.Node {
		a := mixing.NewAdjacencyNodes(n, src, dst, weight)
		var mixed *graph.Node
		if second {
			mixed = mixing.MixII(a, h0, alpha, theorem3Hops)
		} else {
			mixed = mixing.MixI(a, h0, alpha, theorem3Hops)
		}
		h := h0
		for range theorem3Hops {
			anchor := h
			if second {
				anchor = h0
			}
			grad := graph.Gradient(RegularizerF(a, h, anchor, correction, beta), h)[0]
			h = graph.Sub(h, graph.MulScalar(grad, tau))
		}
		return graph.ReduceAllMax(graph.Abs(graph.Sub(mixed, h)))
	}, tensors.FromFlatDataAndDimensions(h0, n, numF), src, dst, weight,
		tensors.FromFlatDataAndDimensions(correction, n, 1))
	if err != nil {
		return 0, fmt.Errorf("comparing mixing with gradient steps: %w", err)
	}
	return tensors.MustCopyFlatData[float64](out)[0], nil
}
