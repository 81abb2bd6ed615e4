package backbones

import (
	"fmt"
	"math"

	"github.com/geomix-go/geomix/geomix/internal/ops"
	"github.com/geomix-go/geomix/geomix/mixing"
	. "github.com/gomlx/gomlx/pkg/core/graph"
	"github.com/gomlx/gomlx/pkg/core/shapes"
	"github.com/gomlx/gomlx/pkg/ml/context"
	"github.com/gomlx/gomlx/pkg/ml/layers"
	"github.com/gomlx/gomlx/pkg/ml/layers/activations"
)

// GraphMixupHeads is K, the number of semantic relations (disentangled heads) of GraphMixup's
// encoder: its code's nhead default and the GeoMix paper's appendix setting K = 4.
const GraphMixupHeads = 4

// GraphMixup is the network of GraphMixup (Wu et al., ECML-PKDD'22; its code's src/models.py,
// SEM_En + SEM_Classifier + Decoder): a semantic feature encoder of GraphMixupHeads heads, a
// SAGE-style classifier, and the edge predictor (decoder) that connects synthetic nodes. With
// ParamHidden H (divisible by 2K):
//
//	h = X W                                     [N, H]  (edge-scoring features)
//	e^k_ij = σ(a_k · [h_i ‖ h_j]) on each edge j→i (no self-loops)
//	z_i = dropout(ReLU(‖_k Σ_j e^k_ij X_j W_k)) [N, H]  (the embedding; W_k [F, H/K])
//	logits = Linear(dropout(ReLU([z_i ‖ Σ_j z_j / (deg_i + 1)] W_s)))  (the classifier)
//	edge probability of nodes u, v = σ((z_u W_d) · (z_v W_d))  (the decoder)
//
// The edges are the trainer's adjacency read as binary (its code's dense 0/1 adjacency): train it
// with ParamNormalization "row" (no self-loops; the graphmixup preset sets it). Its input projection
// X W_in is [X W | X W_1 … X W_K], 2H wide; W, W_k and a_k are Xavier-uniform with gain 1.414, W_s
// normal(0, 1), the output weight normal(0, 0.05), as its code initialises them. Each head also
// builds a descriptor (a 2-layer tanh GCN over the soft adjacency on h without gradient, averaged
// over the nodes) whose classifier feeds the semantic loss (SemanticLoss).
type GraphMixup struct{}

func init() { Register("graphmixup", GraphMixup{}) }

// graphMixupHidden returns ParamHidden, checked to be a positive multiple of 2K.
func graphMixupHidden(ctx *context.Context) int {
	h := context.GetParamOr(ctx, ParamHidden, 128)
	if h < 2*GraphMixupHeads || h%(2*GraphMixupHeads) != 0 {
		panic(fmt.Sprintf("GraphMixup: %s = %d, want a positive multiple of %d (2 × %d heads)", ParamHidden, h, 2*GraphMixupHeads, GraphMixupHeads))
	}
	return h
}

// InputWidth is 2 × ParamHidden: [X W | X W_1 … X W_K].
func (GraphMixup) InputWidth(ctx *context.Context, _ Dims) int { return 2 * graphMixupHidden(ctx) }

// InputInitializer is Xavier-uniform with gain 1.414 per block: U(±1.414 √(6 / (F + H))) for W and
// U(±1.414 √(6 / (F + H/K))) for each W_k.
func (GraphMixup) InputInitializer(ctx *context.Context, dims Dims) context.VariableInitializer {
	h := graphMixupHidden(ctx)
	return func(g *Graph, shape shapes.Shape) *Node {
		if shape.Rank() != 2 || shape.Dim(1) != 2*h {
			panic(fmt.Sprintf("GraphMixup.InputInitializer: want [F, %d], got %s", 2*h, shape))
		}
		limits := make([]float64, 2*h)
		for j := range limits {
			fanOut := h
			if j >= h {
				fanOut = h / GraphMixupHeads
			}
			limits[j] = 1.414 * math.Sqrt(6/float64(shape.Dim(0)+fanOut))
		}
		u := AddScalar(MulScalar(ctx.RandomUniform(g, shape), 2), -1)
		return Mul(u, ConvertDType(Const(g, [][]float64{limits}), shape.DType))
	}
}

// Rest is the classifier on the original graph: logits [N, C] of the embedding of xw [N, 2H].
func (b GraphMixup) Rest(ctx *context.Context, adj *mixing.AdjacencyNodes, xw *Node, dims Dims) *Node {
	z, _ := b.Encode(ctx, adj, xw, dims)
	nbrSum, deg := b.NeighbourSum(adj, z)
	return b.Classify(ctx, z, nbrSum, deg, dims)
}

// Encode returns the embedding z [N, H] of xw = [X W | X W_1 … X W_K] [N, 2H] and the semantic loss
// (a scalar, SemanticLoss of the heads' descriptors).
func (b GraphMixup) Encode(ctx *context.Context, adj *mixing.AdjacencyNodes, xw *Node, dims Dims) (z, semantic *Node) {
	hidden := graphMixupHidden(ctx)
	if xw.Rank() != 2 || xw.Shape().Dim(1) != 2*hidden || xw.Shape().Dim(0) != adj.NumNodes {
		panic(fmt.Sprintf("GraphMixup.Encode: want xw [N=%d, 2×%d], got %s", adj.NumNodes, hidden, xw.Shape()))
	}
	g, dtype := xw.Graph(), xw.DType()
	ectx := ctx.In("encoder")
	h := Columns(xw, 0, hidden)
	width := hidden / GraphMixupHeads
	outs := make([]*Node, GraphMixupHeads)
	descriptors := make([]*Node, GraphMixupHeads)
	for k := range GraphMixupHeads {
		kctx := ectx.Inf("head_%d", k)
		attn := kctx.WithInitializer(xavier(kctx, 1.414)).VariableWithShape("attention", shapes.Make(dtype, 2*hidden, 1)).ValueGraph(g)
		aT := Transpose(attn, 0, 1) // [1, 2H]: rows through Columns, whose gradient needs no Pad
		aDst, aSrc := Transpose(Columns(aT, 0, hidden), 0, 1), Transpose(Columns(aT, hidden, 2*hidden), 0, 1)
		scores := edgeScores(h, aDst, aSrc, adj)
		outs[k] = ScatterSum(ZerosLike(Columns(xw, 0, width)), adj.Dst, Mul(Gather(Columns(xw, hidden+k*width, hidden+(k+1)*width), adj.Src), scores), false, false)
		descriptors[k] = b.descriptor(kctx, adj, StopGradient(h), scores, hidden)
	}
	z = layers.DropoutStatic(ectx, activations.Relu(Concatenate(outs, -1)), context.GetParamOr(ctx, ParamDropout, 0.0))
	return z, b.semanticLoss(ectx, Concatenate(descriptors, 0))
}

// edgeScores are one head's edge weights e_ij = σ(a · [h_i ‖ h_j]) = σ(h_i a_dst + h_j a_src) [E, 1]
// for every edge j→i (i is Dst, j is Src), from h [N, H] and a_dst, a_src [H, 1]. Each node's two
// halves h a_dst, h a_src [N, 1] are computed once and read at the edges' ends: the same values as
// the products of the gathered rows [E, H], whose gradients contract E rows where these contract
// N (ScatterSum of the edges' adjoints first).
func edgeScores(h, aDst, aSrc *Node, adj *mixing.AdjacencyNodes) *Node {
	return Sigmoid(Add(Gather(ops.MatMulFastGrad(h, aDst), adj.Dst), Gather(ops.MatMulFastGrad(h, aSrc), adj.Src)))
}

// descriptor is one head's descriptor [1, H]: the node mean of tanh(Â_k tanh(Â_k h W_1 + b_1) W_2
// + b_2) over the head's soft adjacency Â_k (edge weights scores [E, 1]); W_1 [H, H/2], W_2 [H/2, H]
// and biases U(±1/√out), its code's GraphConvolution.
func (GraphMixup) descriptor(ctx *context.Context, adj *mixing.AdjacencyNodes, h, scores *Node, hidden int) *Node {
	conv := func(name string, x *Node, out int) *Node {
		cctx := ctx.In(name)
		cctx = cctx.WithInitializer(UniformFanIn(cctx, out))
		w := cctx.VariableWithShape("weight", shapes.Make(x.DType(), x.Shape().Dim(1), out)).ValueGraph(x.Graph())
		bias := cctx.VariableWithShape("bias", shapes.Make(x.DType(), out)).ValueGraph(x.Graph())
		xw := ops.MatMulFastGrad(x, w)
		agg := ScatterSum(ZerosLike(xw), adj.Dst, Mul(Gather(xw, adj.Src), scores), false, false)
		return Tanh(ops.AddRow(agg, bias))
	}
	d := conv("descriptor_1", conv("descriptor_0", h, hidden/2), hidden)
	return InsertAxes(ReduceMean(d, 0), 0)
}

// semanticLoss is the mean cosine similarity of every pair of rows of p = descriptors W_c [K, K]
// (W_c [H, K] normal(0, 1), without bias): its code's compute_semantic_loss with graph_mode 1,
// which pushes the heads apart.
func (GraphMixup) semanticLoss(ctx *context.Context, descriptors *Node) *Node {
	g, dtype := descriptors.Graph(), descriptors.DType()
	cctx := ctx.In("semantic_classifier")
	cctx = cctx.WithInitializer(normalInit(cctx, 1))
	w := cctx.VariableWithShape("weight", shapes.Make(dtype, descriptors.Shape().Dim(1), GraphMixupHeads)).ValueGraph(g)
	p := L2NormalizeWithEpsilon(ops.MatMulFastGrad(descriptors, w), 1e-8, -1)
	cos := MatMul(p, Transpose(p, 0, 1)) // [K, K]
	upper := make([][]float32, GraphMixupHeads)
	for i := range upper {
		upper[i] = make([]float32, GraphMixupHeads)
		for j := i + 1; j < GraphMixupHeads; j++ {
			upper[i][j] = 1
		}
	}
	pairs := float64(GraphMixupHeads * (GraphMixupHeads - 1) / 2)
	return MulScalar(ReduceAllSum(Mul(cos, ConvertDType(Const(g, upper), dtype))), 1/pairs)
}

// NeighbourSum returns Σ_{j→i} z_j [N, H] and the in-degree [N, 1] of every node over the
// adjacency's edges read as binary.
func (GraphMixup) NeighbourSum(adj *mixing.AdjacencyNodes, z *Node) (sum, degree *Node) {
	sum = ScatterSum(ZerosLike(z), adj.Dst, Gather(z, adj.Src), false, false)
	ones := OnesLike(ConvertDType(adj.Weight, z.DType()))
	degree = ScatterSum(Zeros(z.Graph(), shapes.Make(z.DType(), adj.NumNodes, 1)), adj.Dst, ones, false, false)
	return sum, degree
}

// Classify is the classifier on embeddings z [M, H] whose neighbours sum to nbrSum [M, H] with
// total edge weight degree [M, 1]: Linear(dropout(ReLU([z ‖ nbrSum / (degree + 1)] W_s))) [M, C],
// its code's SEM_Classifier (SageConv without bias, then a linear layer).
func (GraphMixup) Classify(ctx *context.Context, z, nbrSum, degree *Node, dims Dims) *Node {
	hidden := graphMixupHidden(ctx)
	if z.Rank() != 2 || z.Shape().Dim(1) != hidden || !nbrSum.Shape().Equal(z.Shape()) || degree.Rank() != 2 || degree.Shape().Dim(0) != z.Shape().Dim(0) || degree.Shape().Dim(1) != 1 {
		panic(fmt.Sprintf("GraphMixup.Classify: want z, nbrSum [M, %d] and degree [M, 1], got %s, %s, %s", hidden, z.Shape(), nbrSum.Shape(), degree.Shape()))
	}
	g, dtype := z.Graph(), z.DType()
	cctx := ctx.In("classifier")
	sctx := cctx.In("sage").WithInitializer(normalInit(cctx, 1))
	ws := sctx.VariableWithShape("weight", shapes.Make(dtype, 2*hidden, hidden)).ValueGraph(g)
	nbr := Div(nbrSum, AddScalar(degree, 1))
	h := ops.MatMulFastGrad(Concatenate([]*Node{z, nbr}, -1), ws)
	h = layers.DropoutStatic(cctx, activations.Relu(h), context.GetParamOr(ctx, ParamDropout, 0.0))
	octx := cctx.In("output")
	w := octx.WithInitializer(normalInit(octx, 0.05)).VariableWithShape("weight", shapes.Make(dtype, hidden, dims.Classes)).ValueGraph(g)
	bias := octx.WithInitializer(UniformFanIn(octx, hidden)).VariableWithShape("bias", shapes.Make(dtype, dims.Classes)).ValueGraph(g)
	return ops.AddRow(ops.MatMulFastGrad(h, w), bias)
}

// DecoderProjection is z W_d [M, H], the decoder's side of the edge predictor: nodes u and v are
// connected with probability σ(c_u · c_v) for c = DecoderProjection(z). W_d [H, H] is U(±1/√H).
func (GraphMixup) DecoderProjection(ctx *context.Context, z *Node) *Node {
	dctx := ctx.In("decoder")
	dctx = dctx.WithInitializer(UniformFanIn(dctx, z.Shape().Dim(1)))
	w := dctx.VariableWithShape("weight", shapes.Make(z.DType(), z.Shape().Dim(1), z.Shape().Dim(1))).ValueGraph(z.Graph())
	return ops.MatMulFastGrad(z, w)
}

// ContextHead is a linear layer of the self-supervised context tasks from x [M, H] to out
// outputs with bias, torch's default init U(±1/√H), under scope name ("local_path",
// "global_path").
func (GraphMixup) ContextHead(ctx *context.Context, name string, x *Node, out int) *Node {
	hctx := ctx.In(name)
	hctx = hctx.WithInitializer(UniformFanIn(hctx, x.Shape().Dim(1)))
	w := hctx.VariableWithShape("weight", shapes.Make(x.DType(), x.Shape().Dim(1), out)).ValueGraph(x.Graph())
	bias := hctx.VariableWithShape("bias", shapes.Make(x.DType(), out)).ValueGraph(x.Graph())
	return ops.AddRow(ops.MatMulFastGrad(x, w), bias)
}

// xavier initialises a [in, out] weight with U(±gain √(6 / (in + out))), torch's xavier_uniform_.
func xavier(ctx *context.Context, gain float64) context.VariableInitializer {
	return func(g *Graph, shape shapes.Shape) *Node {
		limit := gain * math.Sqrt(6/float64(shape.Dim(0)+shape.Dim(1)))
		return AddScalar(MulScalar(ctx.RandomUniform(g, shape), 2*limit), -limit)
	}
}

// normalInit initialises any shape with normal(0, std).
func normalInit(ctx *context.Context, std float64) context.VariableInitializer {
	return func(g *Graph, shape shapes.Shape) *Node { return MulScalar(ctx.RandomNormal(g, shape), std) }
}
