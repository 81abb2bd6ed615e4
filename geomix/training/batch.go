package training

import (
	"github.com/geomix-go/geomix/datasets"
	"github.com/geomix-go/geomix/geomix/backbones"
	"github.com/geomix-go/geomix/geomix/methods"
	"github.com/geomix-go/geomix/geomix/mixing"
	"github.com/gomlx/gomlx/pkg/core/dtypes"
	"github.com/gomlx/gomlx/pkg/core/shapes"
	"github.com/gomlx/gomlx/pkg/core/tensors"
)

// execKey names an update executor: the kind of update and whether it evaluates first.
type execKey struct {
	kind     int
	withEval bool
}

// graphInputs are the host tensors of one graph: args are every executor's first arguments (the
// normalised adjacency's src, dst and weight [E, 1], then X's FeatureInputs), oneHot its labels
// [N, C].
type graphInputs struct {
	g      *datasets.Graph
	args   []any
	oneHot *tensors.Tensor
}

// graphInputs uploads g with the trainer's normalisation and feature layout.
func (t *trainer) graphInputs(g *datasets.Graph) *graphInputs {
	src, dst, w := mixing.BuildAdjacency(g, t.adjNorm).Inputs()
	in := &graphInputs{g: g, args: []any{src, dst, w}}
	for _, x := range backbones.FeatureInputs(g.Features, t.dense) {
		in.args = append(in.args, x)
	}
	in.oneHot = tensors.FromShape(shapes.Make(dtypes.Float32, g.NumNodes, g.NumClasses))
	tensors.MustMutableFlatData(in.oneHot, func(flat []float32) {
		for i, y := range g.Labels {
			flat[i*g.NumClasses+int(y)] = 1
		}
	})
	return in
}

// batch is a graph updates run on with its nodes of the two losses: the graph trained on with a
// run's split (train nodes; every other node augmented), or one of its TrainBatches.
type batch struct {
	in *graphInputs
	// trainMask and augMask are the [N, 1] masks of the supervised and augmentation losses.
	trainMask, augMask *tensors.Tensor
	// run is what the method's draws see.
	run methods.Run
}

// newBatch returns the batch of nodes train (supervised) and augmented on the graph of in.
func (t *trainer) batchOf(in *graphInputs, train, augmented []int32) *batch {
	n := in.g.NumNodes
	return &batch{in: in, trainMask: methods.NodeMask(n, train), augMask: methods.NodeMask(n, augmented),
		run: methods.Run{RNG: t.rng, Graph: in.g, Train: train, Others: complement(n, train), Epochs: t.epochs}}
}

// newBatch uploads one of the graph's TrainBatches.
func (t *trainer) newBatch(tb datasets.TrainBatch) *batch {
	return t.batchOf(t.graphInputs(tb.Graph), tb.Labelled, tb.Augmented)
}

// args are the update's arguments before the method's draws.
func (b *batch) args() []any {
	return append(append(make([]any, 0, len(b.in.args)+3), b.in.args...), b.in.oneHot, b.trainMask, b.augMask)
}
