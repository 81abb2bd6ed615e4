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

// MLP is the graph-free baseline (the LINKX/GloGNN MLP): ParamLayers linear layers with
// ParamHidden units, each hidden one followed by ReLU → [BatchNorm if ParamUseBN] → dropout(ParamDropout);
// the last returns logits. It ignores the adjacency. Weights and biases use torch's nn.Linear default
// U(±1/√in).
//
// Difference from LINKX's MLP: there is no dropout on the input features, since the backbone's first
// operation must be the linear X W_in (the trainer computes it on the sparse features).
type MLP struct{}

func init() {
	Register("mlp", MLP{})
}

// InputWidth is the first layer's width: ParamHidden, or C for a single layer.
func (MLP) InputWidth(ctx *context.Context, dims Dims) int { return layerWidths(ctx, dims)[0] }

// InputInitializer is torch's nn.Linear default U(±1/√F).
func (MLP) InputInitializer(ctx *context.Context, dims Dims) context.VariableInitializer {
	return UniformFanIn(ctx, dims.Features)
}

// Rest runs the L linear layers from xw = X W_1 [N, H0] to logits [N, C]; adj is not used.
func (MLP) Rest(ctx *context.Context, _ *mixing.AdjacencyNodes, xw *Node, dims Dims) *Node {
	return mlpLayers(ctx, xw, dims, "MLP")
}

// mlpLayers is the body of MLP and APPNP: from xw = X W_1 [N, H0] to [N, C] through ParamLayers
// linear layers (variables under ctx's "layer_<i>" scopes). who names the caller in shape panics.
func mlpLayers(ctx *context.Context, xw *Node, dims Dims, who string) *Node {
	widths := layerWidths(ctx, dims)
	if xw.Rank() != 2 || xw.Shape().Dim(1) != widths[0] {
		panic(fmt.Sprintf("%s.Rest: want xw [N, %d], got %s", who, widths[0], xw.Shape()))
	}
	dropout := context.GetParamOr(ctx, ParamDropout, 0.0)
	useBN := context.GetParamOr(ctx, ParamUseBN, false)
	g := xw.Graph()
	h := xw
	inWidth := dims.Features
	for i, width := range widths {
		lctx := ctx.Inf("layer_%d", i)
		lctx = lctx.WithInitializer(UniformFanIn(lctx, inWidth))
		if i > 0 {
			w := lctx.VariableWithShape("weight", shapes.Make(h.DType(), inWidth, width))
			h = MatMul(h, w.ValueGraph(g))
		}
		bias := lctx.VariableWithShape("bias", shapes.Make(h.DType(), width))
		h = ops.AddRow(h, bias.ValueGraph(g))
		if i == len(widths)-1 {
			break
		}
		h = activations.Relu(h)
		if useBN {
			h = BatchNorm(lctx.In("batch_norm"), h)
		}
		h = layers.DropoutStatic(lctx, h, dropout)
		inWidth = width
	}
	return h
}
