package backbones

import (
	"fmt"

	"github.com/geomix-go/geomix/geomix/internal/ops"
	"github.com/geomix-go/geomix/geomix/mixing"
	"github.com/gomlx/gomlx/pkg/core/dtypes"
	. "github.com/gomlx/gomlx/pkg/core/graph"
	"github.com/gomlx/gomlx/pkg/core/shapes"
	"github.com/gomlx/gomlx/pkg/ml/context"
	"github.com/gomlx/gomlx/pkg/ml/layers"
	"github.com/gomlx/gomlx/pkg/ml/layers/activations"
)

// Hyper-parameters of GloGNN, read from the context (names as in its code).
const (
	// ParamGloGNNAlpha is α of GloGNN's norm layer (float64, 0).
	ParamGloGNNAlpha = "glognn_alpha"
	// ParamGloGNNBeta is β, the weight of the multi-hop term (float64, 1).
	ParamGloGNNBeta = "glognn_beta"
	// ParamGloGNNGamma is γ, the weight of the initial representation H0 (float64, 0).
	ParamGloGNNGamma = "glognn_gamma"
	// ParamGloGNNDelta is δ, the share of the feature branch against the adjacency branch in the
	// first layer (float64, 0).
	ParamGloGNNDelta = "glognn_delta"
	// ParamGloGNNNormLayers is how many norm layers follow the MLP (int, 2).
	ParamGloGNNNormLayers = "glognn_norm_layers"
	// ParamGloGNNOrders is how many powers Â¹ … Â^orders the norm layer sums (int, 1).
	ParamGloGNNOrders = "glognn_orders"
)

// gloGNNInverseIterations is the number of Newton–Schulz steps that invert the [C, C] matrix a of
// a norm layer (inverseSPD). Each step squares the residual I − X a, which starts at most at
// (κ − 1)/(κ + 1) for κ = ‖a‖∞ / λ, λ the lower bound of a's eigenvalues: 32 steps reach float64
// accuracy (2⁻⁵³) for κ up to 2³² / 18.4 ≈ 2·10⁸, far beyond what the layer produces.
const gloGNNInverseIterations = 32

// GloGNN (Li et al., ICML'22) is its "small-scale" model with norm_func1 and learnable
// order weights: an MLP H0 = dropout(ReLU(δ (X W_1 + b_1) + (1−δ) (Â W_3 + b_3))) W_2 + b_2, whose
// adjacency branch reads every row of Â through W_3 [N, H] (a transductive model), then
// ParamGloGNNNormLayers norm layers with c = 1/(α+β), g = 1−γ:
//
//	G = HᵀH, M = (g⁻² I + c G)⁻¹ G, R = g c H − g c² H M, T = HᵀR,
//	H ← g H T + β Σ_k w_k Â^k R − γ g H0 T + γ H0,
//
// returning H as the logits. Â is the row-normalised adjacency with self-loops (ParamNormalization
// "rowself", which the glognn preset sets). The [C, C] algebra runs in float64 (the reference runs
// everything in float64; here the rest is float32). Linear layers are torch's default U(±1/√in); the
// order weights w start at 1/orders.
type GloGNN struct{}

func init() { Register("glognn", GloGNN{}) }

// InputWidth is ParamHidden.
func (GloGNN) InputWidth(ctx *context.Context, _ Dims) int {
	return context.GetParamOr(ctx, ParamHidden, 64)
}

// InputInitializer is U(±1/√F).
func (GloGNN) InputInitializer(ctx *context.Context, dims Dims) context.VariableInitializer {
	return UniformFanIn(ctx, dims.Features)
}

// Rest runs the MLP and the norm layers from xw = X W_1 [N, H] to logits [N, C].
func (b GloGNN) Rest(ctx *context.Context, adj *mixing.AdjacencyNodes, xw *Node, dims Dims) *Node {
	hidden := b.InputWidth(ctx, dims)
	if xw.Rank() != 2 || xw.Shape().Dim(1) != hidden || xw.Shape().Dim(0) != adj.NumNodes {
		panic(fmt.Sprintf("GloGNN.Rest: want xw [N=%d, %d], got %s", adj.NumNodes, hidden, xw.Shape()))
	}
	g := xw.Graph()
	dtype := xw.DType()
	n := adj.NumNodes
	variable := func(scope, name string, fanIn int, dims ...int) *Node {
		vctx := ctx.In(scope)
		return vctx.WithInitializer(UniformFanIn(vctx, fanIn)).VariableWithShape(name, shapes.Make(dtype, dims...)).ValueGraph(g)
	}
	delta := context.GetParamOr(ctx, ParamGloGNNDelta, 0.0)
	features := ops.AddRow(xw, variable("fc1", "bias", dims.Features, hidden))
	structure := ops.AddRow(mixing.Propagate(adj, variable("fc3", "weight", n, n, hidden)), variable("fc3", "bias", n, hidden))
	h := activations.Relu(Add(MulScalar(features, delta), MulScalar(structure, 1-delta)))
	h = layers.DropoutStatic(ctx, h, context.GetParamOr(ctx, ParamDropout, 0.0))
	h0 := ops.AddRow(ops.MatMulFastGrad(h, variable("fc2", "weight", hidden, hidden, dims.Classes)), variable("fc2", "bias", hidden, dims.Classes))

	orders := context.GetParamOr(ctx, ParamGloGNNOrders, 1)
	normLayers := context.GetParamOr(ctx, ParamGloGNNNormLayers, 2)
	if orders < 1 || normLayers < 0 {
		panic(fmt.Sprintf("GloGNN: want %s >= 1 and %s >= 0, got %d and %d", ParamGloGNNOrders, ParamGloGNNNormLayers, orders, normLayers))
	}
	wctx := ctx.In("orders")
	weights := wctx.WithInitializer(func(g *Graph, s shapes.Shape) *Node {
		return MulScalar(Ones(g, s), 1/float64(orders))
	}).VariableWithShape("weight", shapes.Make(dtype, orders)).ValueGraph(g)
	out := h0
	for range normLayers {
		out = gloGNNNormLayer(ctx, adj, out, h0, weights)
	}
	return out
}

// gloGNNNormLayer is one norm layer on h, h0 [N, C] with the order weights w [orders].
func gloGNNNormLayer(ctx *context.Context, adj *mixing.AdjacencyNodes, h, h0, w *Node) *Node {
	alpha := context.GetParamOr(ctx, ParamGloGNNAlpha, 0.0)
	beta := context.GetParamOr(ctx, ParamGloGNNBeta, 1.0)
	gamma := context.GetParamOr(ctx, ParamGloGNNGamma, 0.0)
	if alpha+beta <= 0 || gamma >= 1 {
		panic(fmt.Sprintf("GloGNN: want %s + %s > 0 and %s < 1, got %g, %g, %g", ParamGloGNNAlpha, ParamGloGNNBeta, ParamGloGNNGamma, alpha, beta, gamma))
	}
	c, gg := 1/(alpha+beta), 1-gamma
	dtype := h.DType()
	h64 := ConvertDType(h, dtypes.Float64)
	numClasses := h.Shape().Dim(1)
	gram := ops.MatMulFastGrad(Transpose(h64, 0, 1), h64) // [C, C]
	eye := DiagonalWithValue(Scalar(h.Graph(), dtypes.Float64, 1), numClasses)
	// a = I/(1−γ)² + c HᵀH: its eigenvalues are at least 1/(1−γ)², HᵀH being positive semi-definite.
	m := ops.MatMulFastGrad(inverseSPD(Add(MulScalar(eye, 1/(gg*gg)), MulScalar(gram, c)), 1/(gg*gg), gloGNNInverseIterations), gram)
	r64 := Sub(MulScalar(h64, gg*c), MulScalar(ops.MatMulFastGrad(h64, m), gg*c*c)) // [N, C]
	t := ConvertDType(ops.MatMulFastGrad(Transpose(h64, 0, 1), r64), dtype)         // [C, C]
	r := ConvertDType(r64, dtype)
	var hops *Node
	power := r
	for k := range w.Shape().Dim(0) {
		power = mixing.Propagate(adj, power)
		term := Mul(power, Reshape(Gather(w, Const(h.Graph(), [][]int32{{int32(k)}})))) // w_k as a scalar
		if hops == nil {
			hops = term
		} else {
			hops = Add(hops, term)
		}
	}
	out := Add(MulScalar(ops.MatMulFastGrad(h, t), gg), MulScalar(hops, beta))
	if gamma != 0 {
		out = Add(Sub(out, MulScalar(ops.MatMulFastGrad(h0, t), gamma*gg)), MulScalar(h0, gamma))
	}
	return out
}

// inverseSPD returns a⁻¹ for a symmetric positive-definite a [C, C] whose eigenvalues are at least
// lower > 0: the forward pass is inverseNewtonSchulz, the gradient the inverse's own, ∂a = −a⁻ᵀ v a⁻ᵀ
// for the adjoint v (two products, instead of differentiating every Newton–Schulz step).
func inverseSPD(a *Node, lower float64, iterations int) *Node {
	inv := inverseNewtonSchulz(StopGradient(a), lower, iterations)
	return ops.WithAdjointGradients(inv, []*Node{a}, []func(v *Node) *Node{func(v *Node) *Node {
		invT := Transpose(inv, 0, 1)
		return Neg(MatMul(MatMul(invT, v), invT))
	}})
}

// inverseNewtonSchulz returns a⁻¹ for a symmetric positive-definite a [C, C] whose eigenvalues are at
// least lower > 0, by Newton–Schulz steps X ← X (2I − a X) from X₀ = 2 / (lower + ‖a‖∞) I, using
// only products. ‖a‖∞ bounds the largest eigenvalue, so the residual I − X₀ a starts at most at
// (κ − 1)/(κ + 1), κ = ‖a‖∞ / lower, and each step squares it.
func inverseNewtonSchulz(a *Node, lower float64, iterations int) *Node {
	if a.Rank() != 2 || a.Shape().Dim(0) != a.Shape().Dim(1) {
		panic(fmt.Sprintf("inverseNewtonSchulz: want a square [C, C], got %s", a.Shape()))
	}
	if lower <= 0 {
		panic(fmt.Sprintf("inverseNewtonSchulz: want a lower bound of the eigenvalues > 0, got %g", lower))
	}
	n := a.Shape().Dim(0)
	norm := ReduceAllMax(ReduceSum(Abs(a), -1)) // ‖a‖∞ ≥ the largest eigenvalue
	eye := DiagonalWithValue(Scalar(a.Graph(), a.DType(), 1), n)
	x := Mul(eye, Div(Scalar(a.Graph(), a.DType(), 2), AddScalar(norm, lower)))
	twoI := DiagonalWithValue(Scalar(a.Graph(), a.DType(), 2), n)
	for range iterations {
		x = MatMul(x, Sub(twoI, MatMul(a, x)))
	}
	return x
}
