package methods

import (
	"fmt"
	"slices"

	"github.com/geomix-go/geomix/datasets"
	"github.com/geomix-go/geomix/geomix/mixing"
	. "github.com/gomlx/gomlx/pkg/core/graph"
	"github.com/gomlx/gomlx/pkg/ml/context"
)

// geoMixVariant is the mixing a geoMix method applies.
type geoMixVariant int

const (
	// geoMixI is GeoMix-I (mixing.MixI).
	geoMixI geoMixVariant = iota
	// geoMixII is GeoMix-II (mixing.MixII).
	geoMixII
	// geoMixIII is GeoMix-III as the authors' code computes it (mixing.MixIII, AttentionCode).
	geoMixIII
	// geoMixIIIPaper is GeoMix-III as the paper writes it (mixing.MixIII, AttentionPaper).
	geoMixIIIPaper
	// randomMix is the "Random Mix" ablation (mixing.RandomMix).
	randomMix
	// noLocality is the "w/o Locality" ablation (mixing.NoLocality).
	noLocality
)

// geoMix is GeoMix's training step (the loss of the paper's Section 3.2; augTrain.update in the authors' src/main_exp/trainer.py):
// pseudo-labels softmax(f(X)) in train mode (with gradient only with ParamLabelGrad), train rows
// overwritten by the truth; features and labels mixed over the graph in K hops; then the
// cross-entropy over the train nodes of f(X_mix) plus λ times the soft cross-entropy against the
// mixed labels over every other node (Inputs.AugMask; a mini-batch's augmented nodes with
// datasets.TrainBatch).
type geoMix struct {
	variant                       geoMixVariant
	hops                          int
	alpha, resWeight, graphWeight float64
	augLambda                     float64
	labelGrad                     bool
}

// Backbone is the configured backbone.
func (gm *geoMix) Backbone(configured string) string { return configured }

// Prepare reads the mixing's hyper-parameters and, for GeoMix-III, adds the attention projections
// to the model.
func (gm *geoMix) Prepare(ctx *context.Context, m *Model, _ *datasets.Graph) error {
	gm.hops = context.GetParamOr(ctx, ParamHops, 1)
	gm.alpha = context.GetParamOr(ctx, ParamAlpha, 0.0)
	gm.resWeight = context.GetParamOr(ctx, ParamResWeight, 0.5)
	gm.graphWeight = context.GetParamOr(ctx, ParamGraphWeight, 0.8)
	gm.augLambda = context.GetParamOr(ctx, ParamAugLambda, 1.0)
	gm.labelGrad = context.GetParamOr(ctx, ParamLabelGrad, false)
	if gm.hops < 1 {
		return fmt.Errorf("%s = %d: mixing needs at least 1 hop", ParamHops, gm.hops)
	}
	if gm.variant == geoMixIII || gm.variant == geoMixIIIPaper {
		if !context.GetParamOr(ctx, ParamUseWeight, true) {
			return fmt.Errorf("%s = false (q = k = h in the input width) is not supported: GeoMix-III runs in the projected width and needs W_q, W_k", ParamUseWeight)
		}
		attnDim := context.GetParamOr(ctx, ParamAttnDim, 16)
		if attnDim < 1 {
			return fmt.Errorf("%s = %d: want >= 1", ParamAttnDim, attnDim)
		}
		m.addAttention(gm.hops, attnDim, context.GetParamOr(ctx, ParamTrainAttention, true))
	}
	return nil
}

// Draw draws Random Mix's pairing [N, 1] of every node with a random one; the others draw nothing.
func (gm *geoMix) Draw(r *Run, _ int) Step {
	if gm.variant != randomMix {
		return Step{}
	}
	perm := make([]int32, r.Graph.NumNodes)
	for i, p := range r.RNG.Perm(r.Graph.NumNodes) {
		perm[i] = int32(p)
	}
	return Step{Inputs: []any{indexColumn(perm)}}
}

// Loss is GeoMix's training objective (see geoMix).
func (gm *geoMix) Loss(ctx *context.Context, _ int, in *Inputs) *Node {
	zs, proj := in.TrainingBlocks(ctx)
	m, adj, oneHot, trainMask := in.Model, in.Adj, in.OneHot, in.TrainMask
	pseudo := Softmax(m.Logits(ctx, adj, zs[0]), -1)
	if !gm.labelGrad {
		pseudo = StopGradient(pseudo)
	}
	y0 := Add(Mul(oneHot, trainMask), Mul(pseudo, OneMinus(trainMask)))
	mixed := gm.mix(adj, append(slices.Clone(zs), y0), in.Drawn, proj)
	logits := m.Logits(ctx, adj, mixed[0])
	yMix := mixed[len(mixed)-1]
	loss := SoftCrossEntropy(logits, oneHot, trainMask)
	if gm.augLambda != 0 {
		loss = Add(loss, MulScalar(SoftCrossEntropy(logits, yMix, in.AugMask), gm.augLambda))
	}
	return loss
}

// mix applies the variant's mixing to the blocks hs ([N, D_i] each: projected features, labels),
// every block with the same weights, and returns the mixed blocks (GeoMix-III drops its attention
// blocks on the way). drawn holds Random Mix's pairing.
func (gm *geoMix) mix(adj *mixing.AdjacencyNodes, hs []*Node, drawn []*Node, proj Projection) []*Node {
	var linear func(h *Node) *Node
	switch gm.variant {
	case geoMixI:
		linear = func(h *Node) *Node { return mixing.MixI(adj, h, gm.alpha, gm.hops) }
	case geoMixII:
		linear = func(h *Node) *Node { return mixing.MixII(adj, h, gm.alpha, gm.hops) }
	case noLocality:
		linear = func(h *Node) *Node { return mixing.NoLocality(adj, h, gm.hops) }
	case randomMix:
		linear = func(h *Node) *Node { return mixing.RandomMix(adj, h, drawn[0], gm.alpha, gm.hops) }
	case geoMixIII, geoMixIIIPaper:
		form := mixing.AttentionCode
		if gm.variant == geoMixIIIPaper {
			form = mixing.AttentionPaper
		}
		return mixing.MixIII(adj, hs, proj.QueryKey(), mixing.MixIIIConfig{Hops: gm.hops, ResWeight: gm.resWeight, GraphWeight: gm.graphWeight, Form: form})
	default:
		panic(fmt.Sprintf("geoMix.mix: no mixing for variant %d", gm.variant))
	}
	out := make([]*Node, len(hs))
	for i, h := range hs {
		out[i] = linear(h)
	}
	return out
}
