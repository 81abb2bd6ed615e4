package methods

import (
	"fmt"

	"github.com/geomix-go/geomix/datasets"
	"github.com/geomix-go/geomix/geomix/backbones"
	"github.com/geomix-go/geomix/geomix/mixing"
	. "github.com/gomlx/gomlx/pkg/core/graph"
	"github.com/gomlx/gomlx/pkg/core/tensors"
	"github.com/gomlx/gomlx/pkg/ml/context"
)

// domainAdversary is a backbone with a domain classifier behind gradient reversal
// (backbones.DANNGCN).
type domainAdversary interface {
	Heads(ctx *context.Context, adj *mixing.AdjacencyNodes, xw, reverse *Node, dims backbones.Dims) (labels, domain *Node)
}

// dann is the domain-adversarial baseline (DANN with a GCN encoder, StruRW's template): the
// cross-entropy on the train nodes plus a domain classifier, behind gradient reversal, telling
// the graph's extra test sets (the target domain) from the other nodes.
type dann struct {
	reversal float64
	// target is the [N, 1] 0/1 mask of the extra test sets' nodes.
	target *tensors.Tensor
}

// Backbone is the GCN with label and domain heads.
func (*dann) Backbone(string) string { return "dann-gcn" }

// Prepare reads ParamDANNReversal, checks the backbone and takes the graph's extra test sets as the
// target domain.
func (d *dann) Prepare(ctx *context.Context, m *Model, g *datasets.Graph) error {
	d.reversal = context.GetParamOr(ctx, ParamDANNReversal, 0.2)
	if _, ok := m.Backbone.(domainAdversary); !ok {
		return fmt.Errorf("dann needs the dann-gcn backbone, got %T", m.Backbone)
	}
	if len(g.ExtraTests) == 0 {
		return fmt.Errorf("dann needs a graph with extra test sets as its target domain (e.g. twitch-ood); %q has none", g.Name)
	}
	var targetNodes []int32
	for _, set := range g.ExtraTests {
		targetNodes = append(targetNodes, set.Nodes...)
	}
	d.target = NodeMask(g.NumNodes, targetNodes)
	return nil
}

// Draw gives the reversal coefficient, ramping up linearly over the run and capped (StruRW's
// alphatimes 1), and the target mask.
func (d *dann) Draw(r *Run, epoch int) Step {
	lambda := float32(min(float64(epoch+1)/float64(r.Epochs), d.reversal))
	return Step{Inputs: []any{lambda, d.target}}
}

// Loss adds to the label cross-entropy the domain classifier's cross-entropy on the other nodes
// (domain 0) and the target nodes (domain 1), each a mean.
func (d *dann) Loss(ctx *context.Context, _ int, in *Inputs) *Node {
	zs, _ := in.TrainingBlocks(ctx)
	lambda, target := in.Drawn[0], in.Drawn[1]
	labels, domain := in.Model.Backbone.(domainAdversary).Heads(BackboneContext(ctx), in.Adj, zs[0], lambda, in.Model.Dims)
	target = ConvertDType(target, domain.DType())
	softplus := func(x *Node) *Node { return Add(Max(x, ZerosLike(x)), Log(OnePlus(Exp(Neg(Abs(x)))))) }
	maskedMean := func(x, mask *Node) *Node {
		return Div(ReduceAllSum(Mul(x, mask)), Max(ReduceAllSum(mask), OnesLike(ReduceAllSum(mask))))
	}
	// −log(1 − σ(d)) = softplus(d) on the source, −log σ(d) = softplus(−d) on the target.
	domainLoss := Add(maskedMean(softplus(domain), OneMinus(target)), maskedMean(softplus(Neg(domain)), target))
	return Add(SoftCrossEntropy(labels, in.OneHot, in.TrainMask), domainLoss)
}
