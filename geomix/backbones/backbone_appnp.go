package backbones

import (
	"fmt"

	"github.com/geomix-go/geomix/geomix/mixing"
	. "github.com/gomlx/gomlx/pkg/core/graph"
	"github.com/gomlx/gomlx/pkg/ml/context"
)

// Hyper-parameters of APPNP's propagation, read from the context.
const (
	// ParamAPPNPHops is K, the number of personalised-PageRank steps of APPNP (int, 10).
	ParamAPPNPHops = "appnp_hops"
	// ParamAPPNPAlpha is APPNP's teleport probability α (float64, 0.1).
	ParamAPPNPAlpha = "appnp_alpha"
)

// APPNP (Gasteiger et al., 2019) predicts with the MLP backbone's layers (ParamLayers,
// ParamHidden, ReLU → [BN] → dropout) and then propagates the logits h0 [N, C] K = ParamAPPNPHops
// times: h ← (1−α) Â h + α h0 with α = ParamAPPNPAlpha, like PyG's APPNP layer on the symmetric
// normalised adjacency with self-loops (the trainer's default ParamNormalization).
//
// Differences: GloGNN's APPNP uses a 3-layer MLP with BN (set ParamLayers = 3, ParamUseBN = true);
// LINKX's drops out the input features, which the linear-first backbone contract cannot do.
type APPNP struct{}

func init() {
	Register("appnp", APPNP{})
}

// InputWidth is the MLP's first width: ParamHidden, or C for a single layer.
func (APPNP) InputWidth(ctx *context.Context, dims Dims) int { return layerWidths(ctx, dims)[0] }

// InputInitializer is torch's nn.Linear default U(±1/√F).
func (APPNP) InputInitializer(ctx *context.Context, dims Dims) context.VariableInitializer {
	return UniformFanIn(ctx, dims.Features)
}

// Rest maps xw = X W_1 [N, H0] through the MLP to h0 [N, C] and propagates it K times.
func (APPNP) Rest(ctx *context.Context, adj *mixing.AdjacencyNodes, xw *Node, dims Dims) *Node {
	hops := context.GetParamOr(ctx, ParamAPPNPHops, 10)
	alpha := context.GetParamOr(ctx, ParamAPPNPAlpha, 0.1)
	if hops < 0 || alpha < 0 || alpha > 1 {
		panic(fmt.Sprintf("APPNP: want %s >= 0 and %s in [0, 1], got %d and %g", ParamAPPNPHops, ParamAPPNPAlpha, hops, alpha))
	}
	h0 := mlpLayers(ctx, xw, dims, "APPNP")
	teleport := MulScalar(h0, alpha)
	h := h0
	for range hops {
		h = Add(MulScalar(mixing.Propagate(adj, h), 1-alpha), teleport)
	}
	return h
}
