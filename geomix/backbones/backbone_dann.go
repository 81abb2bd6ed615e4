package backbones

import (
	"fmt"

	"github.com/geomix-go/geomix/geomix/internal/ops"
	"github.com/geomix-go/geomix/geomix/mixing"
	. "github.com/gomlx/gomlx/pkg/core/graph"
	"github.com/gomlx/gomlx/pkg/core/shapes"
	"github.com/gomlx/gomlx/pkg/ml/context"
	"github.com/gomlx/gomlx/pkg/ml/context/initializers"
	"github.com/gomlx/gomlx/pkg/ml/layers"
	"github.com/gomlx/gomlx/pkg/ml/layers/activations"
)

// DANNGCN is the domain-adversarial GNN of StruRW's DANN template: an encoder of two
// PyG GCNConv layers of ParamHidden units (Â h W + b, Glorot weights, zero biases), each followed by
// ReLU and dropout(ParamDropout), then a label classifier and a domain classifier, both two-layer
// MLPs with ParamHidden hidden units (torch's default U(±1/√in) initialisation). Rest returns the
// label classifier's logits; Heads also returns the domain classifier's logit [N, 1] computed
// through a gradient reversal layer.
type DANNGCN struct{}

func init() { Register("dann-gcn", DANNGCN{}) }

// InputWidth is ParamHidden.
func (DANNGCN) InputWidth(ctx *context.Context, _ Dims) int {
	return context.GetParamOr(ctx, ParamHidden, 50)
}

// InputInitializer is Glorot-uniform.
func (DANNGCN) InputInitializer(ctx *context.Context, _ Dims) context.VariableInitializer {
	return GlorotUniform(ctx)
}

// Rest returns the label classifier's logits [N, C] on the encoding of xw = X W_1 [N, H].
func (b DANNGCN) Rest(ctx *context.Context, adj *mixing.AdjacencyNodes, xw *Node, dims Dims) *Node {
	return b.mlp(ctx.In("label"), b.encode(ctx, adj, xw), dims.Classes)
}

// Heads returns the label logits [N, C] and the domain logit [N, 1]; the domain classifier reads
// the encoding through a gradient reversal layer whose backward pass multiplies by −reverse (a
// scalar), so minimising the domain loss trains the encoder to confuse the domains.
func (b DANNGCN) Heads(ctx *context.Context, adj *mixing.AdjacencyNodes, xw, reverse *Node, dims Dims) (labels, domain *Node) {
	if reverse.Rank() != 0 {
		panic(fmt.Sprintf("DANNGCN.Heads: want a scalar reverse coefficient, got %s", reverse.Shape()))
	}
	enc := b.encode(ctx, adj, xw)
	coef := ConvertDType(reverse, enc.DType())
	reversed := IdentityWithCustomGradient(enc, func(_, v *Node) *Node { return Neg(Mul(v, coef)) })
	return b.mlp(ctx.In("label"), enc, dims.Classes), b.mlp(ctx.In("domain"), reversed, 1)
}

// encode runs the two GCNConv layers on xw [N, H].
func (b DANNGCN) encode(ctx *context.Context, adj *mixing.AdjacencyNodes, xw *Node) *Node {
	hidden := b.InputWidth(ctx, Dims{})
	if xw.Rank() != 2 || xw.Shape().Dim(1) != hidden {
		panic(fmt.Sprintf("DANNGCN: want xw [N, %d], got %s", hidden, xw.Shape()))
	}
	dropout := context.GetParamOr(ctx, ParamDropout, 0.0)
	g := xw.Graph()
	h := xw
	for i := range 2 {
		lctx := ctx.Inf("encoder_%d", i)
		if i > 0 {
			w := lctx.WithInitializer(GlorotUniform(lctx)).VariableWithShape("weight", shapes.Make(h.DType(), hidden, hidden))
			h = ops.MatMulFastGrad(h, w.ValueGraph(g))
		}
		bias := lctx.WithInitializer(initializers.Zero).VariableWithShape("bias", shapes.Make(h.DType(), hidden)).ValueGraph(g)
		h = ops.AddRow(mixing.Propagate(adj, h), bias)
		h = layers.DropoutStatic(lctx, activations.Relu(h), dropout)
	}
	return h
}

// mlp is Linear(H, H) → ReLU → Linear(H, out) on h [N, H].
func (b DANNGCN) mlp(ctx *context.Context, h *Node, out int) *Node {
	g := h.Graph()
	in := h.Shape().Dim(1)
	for i, width := range []int{in, out} {
		lctx := ctx.Inf("layer_%d", i)
		lctx = lctx.WithInitializer(UniformFanIn(lctx, h.Shape().Dim(1)))
		w := lctx.VariableWithShape("weight", shapes.Make(h.DType(), h.Shape().Dim(1), width)).ValueGraph(g)
		bias := lctx.VariableWithShape("bias", shapes.Make(h.DType(), width)).ValueGraph(g)
		h = ops.AddRow(ops.MatMulFastGrad(h, w), bias)
		if i == 0 {
			h = activations.Relu(h)
		}
	}
	return h
}
