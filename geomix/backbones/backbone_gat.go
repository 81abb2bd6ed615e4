package backbones

import (
	"fmt"

	"github.com/geomix-go/geomix/geomix/internal/ops"
	"github.com/geomix-go/geomix/geomix/mixing"
	"github.com/gomlx/gomlx/pkg/core/dtypes"
	. "github.com/gomlx/gomlx/pkg/core/graph"
	"github.com/gomlx/gomlx/pkg/core/shapes"
	"github.com/gomlx/gomlx/pkg/ml/context"
	"github.com/gomlx/gomlx/pkg/ml/context/initializers"
	"github.com/gomlx/gomlx/pkg/ml/layers"
	"github.com/gomlx/gomlx/pkg/ml/layers/activations"
)

// Hyper-parameters of GAT, read from the context.
const (
	// ParamGATHeads is the number of attention heads of GAT's hidden layers, whose outputs are
	// concatenated: a hidden layer is ParamGATHeads × ParamHidden wide (int, 8).
	ParamGATHeads = "gat_heads"
	// ParamGATOutHeads is the number of attention heads of GAT's last layer, whose outputs are
	// averaged into the C logits (int, 1, LINKX's out_heads default).
	ParamGATOutHeads = "gat_out_heads"
)

// gatNegativeSlope is the LeakyReLU slope of the attention scores (PyG's GATConv default).
const gatNegativeSlope = 0.2

// GAT is the graph attention network (Veličković et al., 2018) as the LINKX/GloGNN baselines build
// it from PyG's GATConv: ParamLayers attention layers; hidden ones have ParamGATHeads
// heads of ParamHidden units each (PyG's hidden_channels per head), concatenated, followed by
// [BatchNorm if ParamUseBN] → ELU → dropout(ParamDropout); the last has ParamGATOutHeads heads of C
// units, averaged. Each layer computes, per head, h = x W, the scores
// e_ij = LeakyReLU_0.2(a_src·h_j + a_dst·h_i) for every edge j→i plus one self-loop per node (the
// adjacency's own self-loops are replaced, its weights ignored), α_ij = softmax of e_ij over the
// edges into i, out_i = Σ_j α_ij h_j, then adds a bias. W, a_src and a_dst are Glorot-uniform and
// the bias starts at zero, as in PyG.
//
// Differences from the GAT paper's Cora setup: no dropout on the input features (the first operation
// must be the linear X W_in) and none on the attention coefficients (PyG's and LINKX's default).
type GAT struct{}

func init() {
	Register("gat", GAT{})
}

// gatLayer is the shape of one GAT layer: heads × width units, concatenated or averaged.
type gatLayer struct {
	heads, width int
	concat       bool
}

// projWidth is the width of the layer's projection h = x W: heads × width.
func (l gatLayer) projWidth() int { return l.heads * l.width }

// outWidth is the layer's output width: heads × width when concatenated, else width.
func (l gatLayer) outWidth() int {
	if l.concat {
		return l.heads * l.width
	}
	return l.width
}

// gatLayers returns the shapes of the L layers read from ctx.
func gatLayers(ctx *context.Context, dims Dims) []gatLayer {
	numLayers := context.GetParamOr(ctx, ParamLayers, 2)
	hidden := context.GetParamOr(ctx, ParamHidden, 64)
	heads := context.GetParamOr(ctx, ParamGATHeads, 8)
	outHeads := context.GetParamOr(ctx, ParamGATOutHeads, 1)
	if numLayers < 1 || hidden < 1 || heads < 1 || outHeads < 1 {
		panic(fmt.Sprintf("GAT: want %s, %s, %s and %s >= 1, got %d, %d, %d and %d",
			ParamLayers, ParamHidden, ParamGATHeads, ParamGATOutHeads, numLayers, hidden, heads, outHeads))
	}
	out := make([]gatLayer, numLayers)
	for i := range out {
		out[i] = gatLayer{heads: heads, width: hidden, concat: true}
	}
	out[numLayers-1] = gatLayer{heads: outHeads, width: dims.Classes}
	return out
}

// InputWidth is the first layer's projection width: ParamGATHeads × ParamHidden, or
// ParamGATOutHeads × C for a single layer.
func (GAT) InputWidth(ctx *context.Context, dims Dims) int {
	return gatLayers(ctx, dims)[0].projWidth()
}

// InputInitializer is Glorot-uniform, like GATConv's linear map.
func (GAT) InputInitializer(ctx *context.Context, _ Dims) context.VariableInitializer {
	return GlorotUniform(ctx)
}

// Rest runs the L attention layers from xw = X W_1 [N, H0] to logits [N, C].
func (GAT) Rest(ctx *context.Context, adj *mixing.AdjacencyNodes, xw *Node, dims Dims) *Node {
	shape := gatLayers(ctx, dims)
	if xw.Rank() != 2 || xw.Shape().Dim(0) != adj.NumNodes || xw.Shape().Dim(1) != shape[0].projWidth() {
		panic(fmt.Sprintf("GAT.Rest: want xw [N=%d, %d], got %s", adj.NumNodes, shape[0].projWidth(), xw.Shape()))
	}
	dropout := context.GetParamOr(ctx, ParamDropout, 0.0)
	useBN := context.GetParamOr(ctx, ParamUseBN, false)
	g := xw.Graph()
	edges := newGATEdges(adj, xw.DType())
	h := xw
	for i, l := range shape {
		lctx := ctx.Inf("layer_%d", i)
		if i > 0 {
			w := lctx.WithInitializer(GlorotUniform(lctx)).
				VariableWithShape("weight", shapes.Make(h.DType(), h.Shape().Dim(1), l.projWidth()))
			h = MatMul(h, w.ValueGraph(g))
		}
		h = gatConv(lctx, edges, h, l)
		if i == len(shape)-1 {
			break
		}
		if useBN {
			h = BatchNorm(lctx.In("batch_norm"), h)
		}
		h = elu(h)
		h = layers.DropoutStatic(lctx, h, dropout)
	}
	return h
}

// gatEdges are the edges GAT attends over: the adjacency's entries followed by one self-loop per
// node. src and dst are [E+N, 1] indices; mask [E+N, 1] is 0 on the adjacency's own self-loops
// (which the appended ones replace, as PyG's remove_self_loops + add_self_loops) and 1 elsewhere.
type gatEdges struct {
	numNodes       int
	src, dst, mask *Node
}

// newGATEdges builds the attention edges of adj, with mask in dtype.
func newGATEdges(adj *mixing.AdjacencyNodes, dtype dtypes.DType) gatEdges {
	g := adj.Src.Graph()
	n := adj.NumNodes
	loops := Iota(g, shapes.Make(adj.Src.DType(), n, 1), 0)
	keep := ConvertDType(NotEqual(adj.Src, adj.Dst), dtype)
	return gatEdges{numNodes: n,
		src:  Concatenate([]*Node{adj.Src, loops}, 0),
		dst:  Concatenate([]*Node{adj.Dst, loops}, 0),
		mask: Concatenate([]*Node{keep, Ones(g, shapes.Make(dtype, n, 1))}, 0)}
}

// gatAttention returns the attention coefficients α [E+N, heads] of every edge j→i from the per-node
// scores scoreSrc = a_src·h and scoreDst = a_dst·h [N, heads]: the softmax of
// LeakyReLU(scoreSrc[j] + scoreDst[i]) over the (unmasked) edges into i, so they sum to 1 per node
// and head. The softmax subtracts a per-target maximum found with ScatterMax (started from the node's
// self-loop score, so no infinities appear) under StopGradient: softmax is shift-invariant, so the
// gradient is exact, as in PyG's softmax.
func gatAttention(edges gatEdges, scoreSrc, scoreDst *Node) *Node {
	if scoreSrc.Rank() != 2 || scoreSrc.Shape().Dim(0) != edges.numNodes || !scoreSrc.Shape().Equal(scoreDst.Shape()) {
		panic(fmt.Sprintf("gatAttention: want scoreSrc, scoreDst [N=%d, heads], got %s and %s", edges.numNodes, scoreSrc.Shape(), scoreDst.Shape()))
	}
	scores := activations.LeakyReluWithAlpha(Add(Gather(scoreSrc, edges.src), Gather(scoreDst, edges.dst)), gatNegativeSlope)
	self := activations.LeakyReluWithAlpha(Add(scoreSrc, scoreDst), gatNegativeSlope)
	maxInto := ScatterMax(StopGradient(self), edges.dst, StopGradient(scores), false, false)
	weights := Mul(Exp(Sub(scores, Gather(maxInto, edges.dst))), edges.mask)
	total := ScatterSum(ZerosLike(self), edges.dst, weights, false, false)
	return Div(weights, Gather(total, edges.dst))
}

// gatConv is one attention layer on the projection h = x W [N, heads × width]: it returns
// [N, heads × width] (concat) or [N, width] (mean over heads), plus the bias.
func gatConv(ctx *context.Context, edges gatEdges, h *Node, l gatLayer) *Node {
	if h.Rank() != 2 || h.Shape().Dim(0) != edges.numNodes || h.Shape().Dim(1) != l.projWidth() {
		panic(fmt.Sprintf("gatConv: want h [N=%d, heads×width=%d], got %s", edges.numNodes, l.projWidth(), h.Shape()))
	}
	g := h.Graph()
	perHead := Reshape(h, edges.numNodes, l.heads, l.width)
	attention := func(name string) *Node {
		a := ctx.WithInitializer(GlorotUniform(ctx)).VariableWithShape(name, shapes.Make(h.DType(), l.heads, l.width))
		return gatScores(perHead, a.ValueGraph(g))
	}
	alpha := gatAttention(edges, attention("att_src"), attention("att_dst"))
	// The weights [E+N, heads, 1] scale the messages [E+N, heads, width] through Mul's implicit
	// broadcast: internal/rowops runs the gather, the scaling and the sum as one fused pass.
	msgs := Mul(Gather(perHead, edges.src), InsertAxes(alpha, -1))
	out := ScatterSum(ZerosLike(perHead), edges.dst, msgs, false, false)
	if l.concat {
		out = Reshape(out, edges.numNodes, l.projWidth())
	} else {
		out = ReduceMean(out, 1)
	}
	bias := ctx.WithInitializer(initializers.Zero).VariableWithShape("bias", shapes.Make(h.DType(), l.outWidth()))
	return ops.AddRow(out, bias.ValueGraph(g))
}

// gatScores returns a·h per node and head, [N, heads], for the messages perHead [N, heads, width]
// and an attention vector a [heads, width] per head: Σ_k h[n, head, k] · a[head, k], summed along
// width. Mul repeats a [1, heads, width] over the nodes itself (GoMLX's implicit broadcast), which
// internal/rowops runs in place, without the [N, heads, width] copy of an explicit broadcast; the
// products and sums are the same.
func gatScores(perHead, a *Node) *Node {
	return ReduceSum(Mul(perHead, InsertAxes(a, 0)), -1)
}

// elu is ELU(x) = x for x > 0, eˣ − 1 otherwise. The exponential only sees min(x, 0), so no
// infinity reaches the gradient; Exp − 1 stands in for Expm1, which has no gradient in GoMLX v0.26.
func elu(x *Node) *Node {
	return Where(GreaterThan(x, ZerosLike(x)), x, AddScalar(Exp(MinScalar(x, 0)), -1))
}
