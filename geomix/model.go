package geomix

import (
	"fmt"
	"slices"

	. "github.com/gomlx/gomlx/pkg/core/graph"
	"github.com/gomlx/gomlx/pkg/core/shapes"
	"github.com/gomlx/gomlx/pkg/ml/context"
)

// domainAdversary is a backbone with a domain classifier behind gradient reversal (DANNGCN).
type domainAdversary interface {
	Heads(ctx *context.Context, adj *AdjacencyNodes, xw, reverse *Node, dims Dims) (labels, domain *Node)
}

// nodeMixer is a backbone that runs node Mixup's two-stage forward (GraphConv).
type nodeMixer interface {
	MixupLogits(ctx *context.Context, adj *AdjacencyNodes, xw, lambda, perm *Node, dims Dims) *Node
}

// ModelScope is the context scope of the model's variables (input projection, attention, backbone),
// the ones re-initialised at every run.
const ModelScope = "/model"

// model is a backbone with its mixing, built for one graph's dimensions.
type model struct {
	backbone Backbone
	mixing   Mixing
	dims     Dims
	// hyper-parameters read once from the context.
	inputWidth, hops, attnDim     int
	alpha, resWeight, graphWeight float64
	augLambda                     float64
	labelGrad, trainAttention     bool
	inputDropout                  float64
}

// newModel reads the mixing hyper-parameters from ctx and checks them.
func newModel(ctx *context.Context, b Backbone, mixing Mixing, dims Dims) (*model, error) {
	m := &model{backbone: b, mixing: mixing, dims: dims,
		inputWidth:     b.InputWidth(ctx, dims),
		hops:           context.GetParamOr(ctx, ParamHops, paramDefaults[ParamHops].(int)),
		attnDim:        context.GetParamOr(ctx, ParamAttnDim, paramDefaults[ParamAttnDim].(int)),
		alpha:          context.GetParamOr(ctx, ParamAlpha, paramDefaults[ParamAlpha].(float64)),
		resWeight:      context.GetParamOr(ctx, ParamResWeight, paramDefaults[ParamResWeight].(float64)),
		graphWeight:    context.GetParamOr(ctx, ParamGraphWeight, paramDefaults[ParamGraphWeight].(float64)),
		augLambda:      context.GetParamOr(ctx, ParamAugLambda, paramDefaults[ParamAugLambda].(float64)),
		labelGrad:      context.GetParamOr(ctx, ParamLabelGrad, paramDefaults[ParamLabelGrad].(bool)),
		trainAttention: context.GetParamOr(ctx, ParamTrainAttention, paramDefaults[ParamTrainAttention].(bool)),
		inputDropout:   context.GetParamOr(ctx, ParamInputDropout, paramDefaults[ParamInputDropout].(float64)),
	}
	if m.inputDropout < 0 || m.inputDropout >= 1 {
		return nil, fmt.Errorf("%s = %g: want [0, 1)", ParamInputDropout, m.inputDropout)
	}
	if mixing.mixesGraph() && m.hops < 1 {
		return nil, fmt.Errorf("%s = %d: mixing needs at least 1 hop", ParamHops, m.hops)
	}
	if (mixing == MixGeoIII || mixing == MixGeoIIIPaper) && !context.GetParamOr(ctx, ParamUseWeight, true) {
		return nil, fmt.Errorf("%s = false (q = k = h in the input width) is not supported: GeoMix-III runs in the projected width and needs W_q, W_k", ParamUseWeight)
	}
	if _, ok := b.(nodeMixer); mixing == MixNodeMixup && !ok {
		return nil, fmt.Errorf("mixup needs the graphconv backbone, got %T", b)
	}
	if _, ok := b.(fcnBackbone); mixing == MixGraphMix && !ok {
		return nil, fmt.Errorf("graphmix needs the graphmix-gcn backbone, got %T", b)
	}
	if _, ok := b.(domainAdversary); mixing == MixDANN && !ok {
		return nil, fmt.Errorf("dann needs the dann-gcn backbone, got %T", b)
	}
	if m.attnDim < 1 {
		return nil, fmt.Errorf("%s = %d: want >= 1", ParamAttnDim, m.attnDim)
	}
	return m, nil
}

// usesAttention is true for GeoMix-III.
func (m *model) usesAttention() bool { return m.mixing == MixGeoIII || m.mixing == MixGeoIIIPaper }

// project returns the projected blocks Z = [X W_in, X W_q¹, X W_k¹, …] and the layout; with
// withAttention false (evaluation, plain methods) only [X W_in]. In training mode with
// ParamInputDropout p > 0, X is dropout(X): every non-zero dropped with probability p, the others
// scaled by 1/(1−p), one fresh mask per call for all blocks. W_q^t, W_k^t and their biases are
// U(±1/√F), torch's nn.Linear default, and trainable only with ParamTrainAttention.
func (m *model) project(ctx *context.Context, x *Features, withAttention bool) ([]*Node, Projection) {
	g := x.Graph()
	dtype := x.DType()
	f := m.dims.Features
	ictx := ctx.InAbsPath(ModelScope).In("input")
	weights := []*Node{ictx.WithInitializer(m.backbone.InputInitializer(ictx, m.dims)).
		VariableWithShape("weight", shapes.Make(dtype, f, m.inputWidth)).ValueGraph(g)}
	var proj Projection
	if withAttention && m.usesAttention() {
		for t := range m.hops {
			actx := ctx.InAbsPath(ModelScope).In("attention").Inf("hop_%d", t)
			actx = actx.WithInitializer(UniformFanIn(actx, f))
			variable := func(name string, dims ...int) *Node {
				return actx.VariableWithShape(name, shapes.Make(dtype, dims...)).SetTrainable(m.trainAttention).ValueGraph(g)
			}
			weights = append(weights, variable("w_q", f, m.attnDim), variable("w_k", f, m.attnDim))
			proj.QBias = append(proj.QBias, variable("b_q", m.attnDim))
			proj.KBias = append(proj.KBias, variable("b_k", m.attnDim))
		}
	}
	if m.inputDropout > 0 && ctx.IsTraining(g) {
		x = x.Dropout(ctx.InAbsPath(ModelScope).In("input_dropout"), m.inputDropout)
	}
	return x.ProjectBlocks(weights), proj
}

// logits runs the backbone on projected input xw [N, H0].
func (m *model) logits(ctx *context.Context, adj *AdjacencyNodes, xw *Node) *Node {
	return m.backbone.Rest(ctx.InAbsPath(ModelScope).In("backbone"), adj, xw, m.dims)
}

// mix applies the method's mixing to the blocks hs ([N, D_i] each: projected features, labels),
// every block with the same weights, and returns the mixed blocks (GeoMix-III drops its attention
// blocks on the way).
func (m *model) mix(adj *AdjacencyNodes, hs []*Node, perm *Node, proj Projection) []*Node {
	var linear func(h *Node) *Node
	switch m.mixing {
	case MixGeoI:
		linear = func(h *Node) *Node { return MixI(adj, h, m.alpha, m.hops) }
	case MixGeoII:
		linear = func(h *Node) *Node { return MixII(adj, h, m.alpha, m.hops) }
	case MixNoLocality:
		linear = func(h *Node) *Node { return NoLocality(adj, h, m.hops) }
	case MixRandom:
		linear = func(h *Node) *Node { return RandomMix(adj, h, perm, m.alpha, m.hops) }
	case MixGeoIII, MixGeoIIIPaper:
		form := AttentionCode
		if m.mixing == MixGeoIIIPaper {
			form = AttentionPaper
		}
		return MixIII(adj, hs, proj.QueryKey(), MixIIIConfig{Hops: m.hops, ResWeight: m.resWeight, GraphWeight: m.graphWeight, Form: form})
	default:
		panic(fmt.Sprintf("model.mix: no mixing for %d", m.mixing))
	}
	out := make([]*Node, len(hs))
	for i, h := range hs {
		out[i] = linear(h)
	}
	return out
}

// loss is the training objective of one step (SPEC §2.6) on the training projection's blocks zs, proj (from
// project with withAttention), one-hot labels [N, C] and the train mask [N, 1] (1 on train nodes):
// pseudo-labels softmax(f(X)) in train mode (gradient only with ParamLabelGrad), train rows
// overwritten by the truth, features and labels mixed, then CE over train nodes of f(X_mix) +
// λ · soft-CE over every non-train node. Without mixing it is the plain CE of f(X). perm [N, 1] is
// RandomMix's pairing or node Mixup's partner of every node; lambda (a scalar) is node Mixup's
// mixing weight, whose loss is λ CE(y) + (1−λ) CE(y[π]) over the train nodes (SPEC §6.2), or DANN's
// gradient reversal coefficient, whose loss adds the domain classifier's cross-entropy on the other
// nodes (domain 0) and the target nodes (domain 1, target [N, 1] is 1 there), each a mean.
func (m *model) loss(ctx *context.Context, zs []*Node, proj Projection, adj *AdjacencyNodes, oneHot, trainMask, perm, lambda, target *Node) *Node {
	xw := zs[0]
	switch m.mixing {
	case MixNone, MixGraphMix: // GraphMix's GCN step; its FCN step is graphMixFCNLoss
		return SoftCrossEntropy(m.logits(ctx, adj, xw), oneHot, trainMask)
	case MixDANN:
		labels, domain := m.backbone.(domainAdversary).Heads(ctx.InAbsPath(ModelScope).In("backbone"), adj, xw, lambda, m.dims)
		target = ConvertDType(target, domain.DType())
		softplus := func(x *Node) *Node { return Add(Max(x, ZerosLike(x)), Log(OnePlus(Exp(Neg(Abs(x)))))) }
		maskedMean := func(x, mask *Node) *Node {
			return Div(ReduceAllSum(Mul(x, mask)), Max(ReduceAllSum(mask), OnesLike(ReduceAllSum(mask))))
		}
		// −log(1 − σ(d)) = softplus(d) on the source, −log σ(d) = softplus(−d) on the target.
		domainLoss := Add(maskedMean(softplus(domain), OneMinus(target)), maskedMean(softplus(Neg(domain)), target))
		return Add(SoftCrossEntropy(labels, oneHot, trainMask), domainLoss)
	case MixNodeMixup:
		logits := m.backbone.(nodeMixer).MixupLogits(ctx.InAbsPath(ModelScope).In("backbone"), adj, xw, lambda, perm, m.dims)
		lam := ConvertDType(lambda, logits.DType())
		own := SoftCrossEntropy(logits, oneHot, trainMask)
		partner := SoftCrossEntropy(logits, Gather(oneHot, perm), trainMask)
		return Add(Mul(own, lam), Mul(partner, OneMinus(lam)))
	}
	pseudo := Softmax(m.logits(ctx, adj, xw), -1)
	if !m.labelGrad {
		pseudo = StopGradient(pseudo)
	}
	y0 := Add(Mul(oneHot, trainMask), Mul(pseudo, OneMinus(trainMask)))
	mixed := m.mix(adj, append(slices.Clone(zs), y0), perm, proj)
	logits := m.logits(ctx, adj, mixed[0])
	yMix := mixed[len(mixed)-1]
	loss := SoftCrossEntropy(logits, oneHot, trainMask)
	if m.augLambda != 0 {
		loss = Add(loss, MulScalar(SoftCrossEntropy(logits, yMix, OneMinus(trainMask)), m.augLambda))
	}
	return loss
}

// SoftCrossEntropy is mean over the masked rows of −Σ_c y_c log softmax(logits)_c, for logits and
// targets y [N, C] and mask [N, 1] of 0/1 weights. With one-hot y it is the usual cross-entropy.
func SoftCrossEntropy(logits, y, mask *Node) *Node {
	if !logits.Shape().Equal(y.Shape()) || mask.Rank() != 2 || mask.Shape().Dim(0) != logits.Shape().Dim(0) || mask.Shape().Dim(1) != 1 {
		panic(fmt.Sprintf("SoftCrossEntropy: want logits, y [N, C] and mask [N, 1], got %s, %s, %s", logits.Shape(), y.Shape(), mask.Shape()))
	}
	perRow := Neg(ReduceSum(Mul(y, LogSoftmax(logits, -1)), -1)) // [N]
	m := Reshape(mask, mask.Shape().Dim(0))
	return Div(ReduceAllSum(Mul(perRow, m)), Max(ReduceAllSum(m), OnesLike(ReduceAllSum(m))))
}
