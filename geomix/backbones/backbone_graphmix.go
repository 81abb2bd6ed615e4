package backbones

import (
	"fmt"

	"github.com/geomix-go/geomix/geomix/internal/ops"
	"github.com/geomix-go/geomix/geomix/mixing"
	. "github.com/gomlx/gomlx/pkg/core/graph"
	"github.com/gomlx/gomlx/pkg/core/shapes"
	"github.com/gomlx/gomlx/pkg/ml/context"
	"github.com/gomlx/gomlx/pkg/ml/layers"
	"github.com/gomlx/gomlx/pkg/ml/layers/activations"
)

// GraphMixGCN is the GCN of GraphMix's code (Verma et al., AAAI'21): Â ReLU(Â X W_1) W_2
// without biases, weights U(±1/√out), dropout ParamDropout on the hidden layer (the input
// dropout, ParamInputDropout, is applied by the trainer to X). Its parameter-shared FCN is the same
// weights without Â: FCNHidden then FCNOutput.
type GraphMixGCN struct{}

func init() { Register("graphmix-gcn", GraphMixGCN{}) }

// InputWidth is ParamHidden.
func (GraphMixGCN) InputWidth(ctx *context.Context, _ Dims) int {
	return context.GetParamOr(ctx, ParamHidden, 16)
}

// InputInitializer is U(±1/√H), GraphMix's GraphConvolution.reset_parameters.
func (b GraphMixGCN) InputInitializer(ctx *context.Context, dims Dims) context.VariableInitializer {
	return UniformFanIn(ctx, b.InputWidth(ctx, dims))
}

// Rest is the GCN on xw = X W_1 [N, H]: logits Â dropout(ReLU(Â xw)) W_2 [N, C].
func (b GraphMixGCN) Rest(ctx *context.Context, adj *mixing.AdjacencyNodes, xw *Node, dims Dims) *Node {
	b.check(ctx, xw, dims, "Rest")
	h := layers.DropoutStatic(ctx, activations.Relu(mixing.Propagate(adj, xw)), context.GetParamOr(ctx, ParamDropout, 0.0))
	return mixing.Propagate(adj, b.output(ctx, h, dims))
}

// FCNHidden is the FCN's hidden layer on xw = X W_1 [N, H]: dropout(ReLU(xw)).
func (b GraphMixGCN) FCNHidden(ctx *context.Context, xw *Node, dims Dims) *Node {
	b.check(ctx, xw, dims, "FCNHidden")
	return layers.DropoutStatic(ctx, activations.Relu(xw), context.GetParamOr(ctx, ParamDropout, 0.0))
}

// FCNOutput is the FCN's output layer on hidden rows h [M, H]: h W_2 [M, C].
func (b GraphMixGCN) FCNOutput(ctx *context.Context, h *Node, dims Dims) *Node {
	return b.output(ctx, h, dims)
}

// output multiplies h [M, H] by W_2 [H, C].
func (b GraphMixGCN) output(ctx *context.Context, h *Node, dims Dims) *Node {
	octx := ctx.In("layer_1")
	octx = octx.WithInitializer(UniformFanIn(octx, dims.Classes))
	w := octx.VariableWithShape("weight", shapes.Make(h.DType(), h.Shape().Dim(1), dims.Classes)).ValueGraph(h.Graph())
	return ops.MatMulFastGrad(h, w)
}

// check panics unless xw is [N, ParamHidden].
func (b GraphMixGCN) check(ctx *context.Context, xw *Node, dims Dims, who string) {
	if hidden := b.InputWidth(ctx, dims); xw.Rank() != 2 || xw.Shape().Dim(1) != hidden {
		panic(fmt.Sprintf("GraphMixGCN.%s: want xw [N, %d], got %s", who, hidden, xw.Shape()))
	}
}
