package methods

import (
	"fmt"
	"math/rand/v2"

	"github.com/geomix-go/geomix/datasets"
	"github.com/geomix-go/geomix/geomix/backbones"
	"github.com/geomix-go/geomix/geomix/mixing"
	. "github.com/gomlx/gomlx/pkg/core/graph"
	"github.com/gomlx/gomlx/pkg/ml/context"
)

// nodeMixer is a backbone that runs node Mixup's two-stage forward (backbones.GraphConv).
type nodeMixer interface {
	MixupLogits(ctx *context.Context, adj *mixing.AdjacencyNodes, xw, lambda, perm *Node, dims backbones.Dims) *Node
}

// nodeMixup is the node Mixup baseline of Wang et al. (WWW'21, their code's mixup.py): manifold
// mixup of pairs of train nodes inside the GraphConv backbone (backbones.GraphConv.MixupLogits),
// with λ ~ Beta(a, a) drawn every epoch; the loss is λ CE(y) + (1−λ) CE(y[π]) over the train nodes.
type nodeMixup struct {
	beta int
}

// Backbone is GraphConv, the backbone of Wang et al.'s code.
func (*nodeMixup) Backbone(string) string { return "graphconv" }

// Prepare reads ParamMixupBeta and checks the backbone.
func (nm *nodeMixup) Prepare(ctx *context.Context, m *Model, _ *datasets.Graph) error {
	nm.beta = context.GetParamOr(ctx, ParamMixupBeta, 4)
	if nm.beta < 1 {
		return fmt.Errorf("%s = %d: want an integer >= 1", ParamMixupBeta, nm.beta)
	}
	if _, ok := m.Backbone.(nodeMixer); !ok {
		return fmt.Errorf("mixup needs the graphconv backbone, got %T", m.Backbone)
	}
	return nil
}

// Draw draws the partners [N, 1] (a random permutation of the run's train nodes, every other node
// its own partner), then λ.
func (nm *nodeMixup) Draw(r *Run, _ int) Step {
	lambda := float32(betaSymmetric(r.RNG, nm.beta))
	partners := identityPerm(r.Graph.NumNodes)
	for i, p := range r.RNG.Perm(len(r.Train)) {
		partners[r.Train[i]] = r.Train[p]
	}
	return Step{Inputs: []any{indexColumn(partners), lambda}}
}

// Loss is λ CE(y) + (1−λ) CE(y[π]) of the mixed forward over the train nodes.
func (nm *nodeMixup) Loss(ctx *context.Context, _ int, in *Inputs) *Node {
	zs, _ := in.TrainingBlocks(ctx)
	perm, lambda := in.Drawn[0], in.Drawn[1]
	logits := in.Model.Backbone.(nodeMixer).MixupLogits(BackboneContext(ctx), in.Adj, zs[0], lambda, perm, in.Model.Dims)
	lam := ConvertDType(lambda, logits.DType())
	own := SoftCrossEntropy(logits, in.OneHot, in.TrainMask)
	partner := SoftCrossEntropy(logits, Gather(in.OneHot, perm), in.TrainMask)
	return Add(Mul(own, lam), Mul(partner, OneMinus(lam)))
}

// betaSymmetric draws from Beta(a, a) for an integer a >= 1: X / (X + Y) with X, Y ~ Gamma(a, 1),
// each the sum of a standard exponentials.
func betaSymmetric(rng *rand.Rand, a int) float64 {
	gamma := func() float64 {
		s := 0.0
		for range a {
			s += rng.ExpFloat64()
		}
		return s
	}
	x, y := gamma(), gamma()
	return x / (x + y)
}
