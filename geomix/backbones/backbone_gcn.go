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

// GCN is the backbone of the authors' code: ParamLayers graph convolutions with ParamHidden units,
// each hidden one followed by [BatchNorm if ParamUseBN] → ReLU → dropout(ParamDropout); the last
// returns logits. There is no input dropout. Weights are Glorot-uniform.
//
// BiasAfter false is main_exp/twitch's GCNLayer: Â (h W + b), b ~ U(±1/√in).
// BiasAfter true is PyG's GCNConv used by the hetero code: Â h W + b, b = 0 at init.
//
// BatchNorm is torch's BatchNorm1d (see BatchNorm).
type GCN struct {
	BiasAfter bool
}

func init() {
	Register("gcn", GCN{})
	Register("gcnconv", GCN{BiasAfter: true})
}

// layerWidths returns the output width of each of the L layers.
func layerWidths(ctx *context.Context, dims Dims) []int {
	numLayers := context.GetParamOr(ctx, ParamLayers, 2)
	hidden := context.GetParamOr(ctx, ParamHidden, 64)
	if numLayers < 1 {
		panic(fmt.Sprintf("GCN: %s must be >= 1, got %d", ParamLayers, numLayers))
	}
	widths := make([]int, numLayers)
	for i := range widths {
		widths[i] = hidden
	}
	widths[numLayers-1] = dims.Classes
	return widths
}

// InputWidth is the first layer's width: ParamHidden, or C for a single layer.
func (GCN) InputWidth(ctx *context.Context, dims Dims) int { return layerWidths(ctx, dims)[0] }

// InputInitializer is Glorot-uniform.
func (GCN) InputInitializer(ctx *context.Context, _ Dims) context.VariableInitializer {
	return GlorotUniform(ctx)
}

// Rest runs the L layers from xw = X W_1 [N, H0] to logits [N, C].
func (b GCN) Rest(ctx *context.Context, adj *mixing.AdjacencyNodes, xw *Node, dims Dims) *Node {
	widths := layerWidths(ctx, dims)
	if xw.Rank() != 2 || xw.Shape().Dim(1) != widths[0] {
		panic(fmt.Sprintf("GCN.Rest: want xw [N, %d], got %s", widths[0], xw.Shape()))
	}
	dropout := context.GetParamOr(ctx, ParamDropout, 0.0)
	useBN := context.GetParamOr(ctx, ParamUseBN, false)
	g := xw.Graph()
	h := xw
	inWidth := dims.Features
	for i, width := range widths {
		lctx := ctx.Inf("layer_%d", i)
		if i > 0 {
			w := lctx.WithInitializer(GlorotUniform(lctx)).VariableWithShape("weight", shapes.Make(h.DType(), inWidth, width))
			h = ops.MatMulFastGrad(h, w.ValueGraph(g))
		}
		biasInit := UniformFanIn(lctx, inWidth)
		if b.BiasAfter {
			biasInit = initializers.Zero
		}
		bias := lctx.WithInitializer(biasInit).VariableWithShape("bias", shapes.Make(h.DType(), width)).ValueGraph(g)
		if b.BiasAfter {
			h = ops.AddRow(mixing.PropagateShared(adj, h, nil), bias)
		} else {
			h = mixing.PropagateShared(adj, h, bias)
		}
		if i == len(widths)-1 {
			break
		}
		if useBN {
			h = BatchNorm(lctx.In("batch_norm"), h)
		}
		h = activations.Relu(h)
		h = layers.DropoutStatic(lctx, h, dropout)
		inWidth = width
	}
	return h
}
