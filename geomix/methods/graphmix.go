package methods

import (
	"fmt"
	"math"

	"math/rand/v2"

	"github.com/geomix-go/geomix/datasets"
	"github.com/geomix-go/geomix/geomix/backbones"

	. "github.com/gomlx/gomlx/pkg/core/graph"
	"github.com/gomlx/gomlx/pkg/ml/context"
)

// GraphMix's fixed settings (its code).
const (
	// graphMixPseudoPasses is how many train-mode GCN passes are averaged into pseudo-labels.
	graphMixPseudoPasses = 10
	// graphMixTemperature sharpens the averaged pseudo-labels: p^(1/T) / Σ p^(1/T).
	graphMixTemperature = 0.1
	// graphMixRampStart and graphMixRampLength shape w(t) (see graphMixWeight).
	graphMixRampStart, graphMixRampLength = 500, 500
)

// fcnBackbone is a backbone with a parameter-shared FCN (backbones.GraphMixGCN).
type fcnBackbone interface {
	FCNHidden(ctx *context.Context, xw *Node, dims backbones.Dims) *Node
	FCNOutput(ctx *context.Context, h *Node, dims backbones.Dims) *Node
}

// graphMix is the GraphMix baseline of Verma et al. (AAAI'21, their code's semisupervised/codes):
// every epoch, with probability 1/2, either a GCN step (cross-entropy on the train nodes) or a
// manifold-mixup step of the parameter-shared FCN against sharpened pseudo-labels (fcnLoss).
type graphMix struct {
	gamma float64
}

// graphMixFCNStep is the Step.Kind of GraphMix's FCN step.
const graphMixFCNStep = 1

// Backbone is the GCN of GraphMix's code.
func (*graphMix) Backbone(string) string { return "graphmix-gcn" }

// Prepare reads ParamGraphMixGamma and checks the backbone.
func (gm *graphMix) Prepare(ctx *context.Context, m *Model, _ *datasets.Graph) error {
	gm.gamma = context.GetParamOr(ctx, ParamGraphMixGamma, 1.0)
	if _, ok := m.Backbone.(fcnBackbone); !ok {
		return fmt.Errorf("graphmix needs the graphmix-gcn backbone, got %T", m.Backbone)
	}
	return nil
}

// Draw chooses the FCN step with probability 1/2 and then draws its inputs (graphMixDraws.args).
func (gm *graphMix) Draw(r *Run, epoch int) Step {
	if r.RNG.Float64() < 0.5 {
		return Step{Kind: graphMixFCNStep, Inputs: drawGraphMix(r.RNG, r.Train, r.Others, gm.gamma, epoch).args()}
	}
	return Step{}
}

// Loss is the GCN step's cross-entropy on the train nodes, or the FCN step's loss (fcnLoss).
func (gm *graphMix) Loss(ctx *context.Context, kind int, in *Inputs) *Node {
	if kind == graphMixFCNStep {
		return fcnLoss(ctx, in)
	}
	zs, _ := in.TrainingBlocks(ctx)
	return SoftCrossEntropy(in.Model.Logits(ctx, in.Adj, zs[0]), in.OneHot, in.TrainMask)
}

// graphMixWeight is w(t) = γ exp(−5 (1 − clip((t − 500) / 500, 0, 1))²), the weight of the
// unsupervised loss at epoch t (about 0.0067 γ before epoch 500, γ from epoch 1000).
func graphMixWeight(gamma float64, epoch int) float64 {
	r := min(max(float64(epoch-graphMixRampStart)/graphMixRampLength, 0), 1)
	return gamma * math.Exp(-5*(1-r)*(1-r))
}

// graphMixDraws are the host-side random choices of one FCN step: the train nodes [T, 1] with their
// permuted partners and λ ~ Beta(1, 1), T non-train nodes sampled with replacement with their
// permuted partners and another λ, and the unsupervised weight w(t).
type graphMixDraws struct {
	train, trainPartner []int32
	lambdaSup           float32
	unlab, unlabPartner []int32
	lambdaUnsup         float32
	weight              float32
}

// drawGraphMix draws an FCN step's choices from rng for the train nodes, sampling the unlabelled
// ones from others (every non-train node).
func drawGraphMix(rng *rand.Rand, train, others []int32, gamma float64, epoch int) graphMixDraws {
	d := graphMixDraws{train: train, weight: float32(graphMixWeight(gamma, epoch))}
	d.trainPartner = make([]int32, len(train))
	for i, p := range rng.Perm(len(train)) {
		d.trainPartner[i] = train[p]
	}
	d.lambdaSup = float32(rng.Float64())
	d.unlab = make([]int32, len(train))
	for i := range d.unlab {
		d.unlab[i] = others[rng.IntN(len(others))]
	}
	d.unlabPartner = make([]int32, len(train))
	for i, p := range rng.Perm(len(train)) {
		d.unlabPartner[i] = d.unlab[p]
	}
	d.lambdaUnsup = float32(rng.Float64())
	return d
}

// args returns the draws as executor arguments, in fcnLoss's order.
func (d graphMixDraws) args() []any {
	return []any{indexColumn(d.train), indexColumn(d.trainPartner), d.lambdaSup, indexColumn(d.unlab),
		indexColumn(d.unlabPartner), d.lambdaUnsup, d.weight}
}

// fcnLoss is GraphMix's FCN step (its code's semisupervised/codes/trainer.py): pseudo-labels are the average softmax of
// graphMixPseudoPasses train-mode GCN passes (each with its own input dropout), sharpened with
// graphMixTemperature, without gradient, the truth on train nodes; then on the FCN's hidden layer
// the train rows are mixed with their partners (λ_s) and the sampled non-train rows with theirs
// (λ_u), each through a fresh input dropout, and the loss is BCE(softmax, mixed one-hot targets) +
// w · BCE(softmax, mixed pseudo-labels). d holds the draws as nodes: train, trainPartner, unlab,
// unlabPartner [T, 1]; lambdaSup, lambdaUnsup, weight scalars, in.Drawn.
func fcnLoss(ctx *context.Context, in *Inputs) *Node {
	m, adj, oneHot, trainMask, d := in.Model, in.Adj, in.OneHot, in.TrainMask, in.Drawn
	b := m.Backbone.(fcnBackbone)
	bctx := BackboneContext(ctx)
	project := func() *Node { zs, _ := m.Project(ctx, in.X, false); return zs[0] }
	var sum *Node
	for range graphMixPseudoPasses {
		p := Softmax(m.Backbone.Rest(bctx, adj, project(), m.Dims), -1)
		if sum == nil {
			sum = p
		} else {
			sum = Add(sum, p)
		}
	}
	sharp := Pow(MulScalar(sum, 1.0/graphMixPseudoPasses), Scalar(sum.Graph(), sum.DType(), 1/graphMixTemperature))
	sharp = Div(sharp, InsertAxes(ReduceSum(sharp, -1), -1))
	targets := StopGradient(Add(Mul(oneHot, trainMask), Mul(sharp, OneMinus(trainMask))))
	mixedLoss := func(rows, partners, lambda, y *Node) *Node {
		h := b.FCNHidden(bctx, project(), m.Dims)
		lam := ConvertDType(lambda, h.DType())
		mix := func(a, c *Node) *Node { return Add(Mul(a, lam), Mul(c, OneMinus(lam))) }
		logits := b.FCNOutput(bctx, mix(Gather(h, rows), Gather(h, partners)), m.Dims)
		return binaryCrossEntropy(Softmax(logits, -1), mix(Gather(y, rows), Gather(y, partners)))
	}
	sup := mixedLoss(d[0], d[1], d[2], oneHot)
	unsup := mixedLoss(d[3], d[4], d[5], targets)
	return Add(sup, Mul(ConvertDType(d[6], sup.DType()), unsup))
}

// binaryCrossEntropy is torch's BCELoss(p, y): the mean over all elements of
// −[y log p + (1−y) log(1−p)], for p, y [M, C]; probabilities are clamped to [1e-30, 1 − 1e-7]
// (torch clamps the logarithm at −100).
func binaryCrossEntropy(p, y *Node) *Node {
	p = Min(Max(p, Scalar(p.Graph(), p.DType(), 1e-30)), Scalar(p.Graph(), p.DType(), 1-1e-7))
	return Neg(ReduceAllMean(Add(Mul(y, Log(p)), Mul(OneMinus(y), Log(OneMinus(p))))))
}
