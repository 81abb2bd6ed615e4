package backbones

import (
	"fmt"

	"github.com/geomix-go/geomix/geomix/internal/ops"
	"github.com/geomix-go/geomix/geomix/mixing"
	. "github.com/gomlx/gomlx/pkg/core/graph"
	"github.com/gomlx/gomlx/pkg/core/shapes"
	"github.com/gomlx/gomlx/pkg/ml/context"
)

// ParamSGCHops is K, the number of propagation steps of SGC (int, 2).
const ParamSGCHops = "sgc_hops"

// SGC is PyG's SGConv (Wu et al., 2019): logits = Â^K X W + b, one linear layer with K =
// ParamSGCHops. Since Â^K X W = Â^K (X W), the input projection W_in [F, C] is W and Rest
// propagates xw K times, then adds b. W and b use PyG Linear's default U(±1/√F). ParamHidden,
// ParamLayers, ParamDropout and ParamUseBN do not apply.
type SGC struct{}

func init() {
	Register("sgc", SGC{})
}

// InputWidth is C: SGC's only weight maps the features to the logits.
func (SGC) InputWidth(_ *context.Context, dims Dims) int { return dims.Classes }

// InputInitializer is PyG Linear's default U(±1/√F).
func (SGC) InputInitializer(ctx *context.Context, dims Dims) context.VariableInitializer {
	return UniformFanIn(ctx, dims.Features)
}

// Rest returns Â^K xw + b [N, C] for xw = X W [N, C].
func (SGC) Rest(ctx *context.Context, adj *mixing.AdjacencyNodes, xw *Node, dims Dims) *Node {
	if xw.Rank() != 2 || xw.Shape().Dim(1) != dims.Classes {
		panic(fmt.Sprintf("SGC.Rest: want xw [N, C=%d], got %s", dims.Classes, xw.Shape()))
	}
	hops := context.GetParamOr(ctx, ParamSGCHops, 2)
	if hops < 0 {
		panic(fmt.Sprintf("SGC: %s must be >= 0, got %d", ParamSGCHops, hops))
	}
	bias := ctx.WithInitializer(UniformFanIn(ctx, dims.Features)).
		VariableWithShape("bias", shapes.Make(xw.DType(), dims.Classes)).ValueGraph(xw.Graph())
	h := xw
	for range hops {
		h = mixing.PropagateShared(adj, h, nil)
	}
	return ops.AddRow(h, bias)
}
