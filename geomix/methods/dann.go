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
// the target domain from the other nodes. The target domain is the graph's extra test sets in
// full-batch training, each mini-batch's Target nodes on a graph with TrainBatches.
type dann struct {
	reversal float64
	// targets holds, per graph an update trains on (the graph itself, or each TrainBatch's), the
	// [N, 1] 0/1 mask of its target-domain nodes.
	targets map[*datasets.Graph]*tensors.Tensor
}

// Backbone is the GCN with label and domain heads.
func (*dann) Backbone(string) string { return "dann-gcn" }

// Prepare reads ParamDANNReversal, checks the backbone and takes the target domain: every
// TrainBatch's Target nodes when g has TrainBatches, else g's extra test sets.
func (d *dann) Prepare(ctx *context.Context, m *Model, g *datasets.Graph) error {
	d.reversal = context.GetParamOr(ctx, ParamDANNReversal, 0.2)
	if _, ok := m.Backbone.(domainAdversary); !ok {
		return fmt.Errorf("dann needs the dann-gcn backbone, got %T", m.Backbone)
	}
	d.targets = map[*datasets.Graph]*tensors.Tensor{}
	if len(g.TrainBatches) > 0 {
		for i, tb := range g.TrainBatches {
			if len(tb.Target) == 0 {
				return fmt.Errorf("dann on mini-batches needs target-domain nodes in every batch (datasets.TrainBatch.Target, e.g. pileup.Options.DomainBatches); batch %d of %q has none", i, g.Name)
			}
			d.targets[tb.Graph] = NodeMask(tb.Graph.NumNodes, tb.Target)
		}
		return nil
	}
	if len(g.ExtraTests) == 0 {
		return fmt.Errorf("dann needs a graph with extra test sets as its target domain (e.g. twitch-ood); %q has none", g.Name)
	}
	var targetNodes []int32
	for _, set := range g.ExtraTests {
		targetNodes = append(targetNodes, set.Nodes...)
	}
	d.targets[g] = NodeMask(g.NumNodes, targetNodes)
	return nil
}

// Draw gives the reversal coefficient, ramping up linearly over the run and capped (StruRW's
// alphatimes 1), and the target mask of the graph the update trains on.
func (d *dann) Draw(r *Run, epoch int) Step {
	lambda := float32(min(float64(epoch+1)/float64(r.Epochs), d.reversal))
	target, ok := d.targets[r.Graph]
	if !ok {
		panic(fmt.Sprintf("dann: update on graph %q, which Prepare did not see (neither the graph trained on nor one of its TrainBatches)", r.Graph.Name))
	}
	return Step{Inputs: []any{lambda, target}}
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
