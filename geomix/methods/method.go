package methods

import (
	"math/rand/v2"

	"github.com/geomix-go/geomix/datasets"
	"github.com/geomix-go/geomix/geomix/backbones"
	"github.com/geomix-go/geomix/geomix/mixing"
	. "github.com/gomlx/gomlx/pkg/core/graph"
	"github.com/gomlx/gomlx/pkg/ml/context"
)

// Method is one training objective: GeoMix-I/II/III and their ablations, or a baseline. The
// trainer (package training) builds every update from the method's Loss and feeds it the host-side
// inputs of Draw, so it has no branch per method; a new method is a new file with a type that
// implements Method, plus its line in the registry (registry.go).
//
// A Method value belongs to one training: the registry makes a new one per call of New.
type Method interface {
	// Backbone names the backbone (see backbones.Names) the method trains, given the configured
	// one (backbones.ParamBackbone): the GeoMix methods take the configured backbone, a baseline
	// brings its own.
	Backbone(configured string) string
	// Prepare reads the method's hyper-parameters from ctx and checks them, the model and the
	// graph, before any computation graph is built; it may configure the model (GeoMix-III adds
	// its attention projections).
	Prepare(ctx *context.Context, m *Model, g *datasets.Graph) error
	// Draw makes the host-side choices of update number epoch of run r: which loss (Step.Kind)
	// and its inputs (Step.Inputs, e.g. a permutation [N, 1] or a mixing weight), drawn from r.RNG
	// in a fixed order so that a seed gives the same updates.
	Draw(r *Run, epoch int) Step
	// Loss builds the scalar loss of an update of the given kind from in, in training mode; the
	// trainer differentiates it and applies Adam.
	Loss(ctx *context.Context, kind int, in *Inputs) *Node
}

// Run is what Draw may read of the run in progress.
type Run struct {
	// RNG is the training's seeded host RNG, shared by all runs.
	RNG *rand.Rand
	// Graph is the graph trained on.
	Graph *datasets.Graph
	// Train are the run's train nodes, Others every other node, both sorted.
	Train, Others []int32
	// Epochs is the number of epochs of a run (training.ParamEpochs).
	Epochs int
	// ValAcc are the validation accuracies (fractions) of the run's epochs evaluated so far, in
	// order: at update number e of full-batch training, those of epochs 0 … e−2 (epoch e−1 is
	// evaluated in the same step). GraphMixup's Q-learning reads them.
	ValAcc []float64
}

// Step is one update's choice: Kind selects the loss (0 for the method's usual update; a method
// with several kinds of update, like GraphMix, numbers the others from 1), Inputs are fed to the
// computation graph as Inputs.Drawn, in order. Every update of a kind must draw inputs of the
// same shapes.
type Step struct {
	Kind   int
	Inputs []any
}

// Inputs are the graph-side values a Loss is built from.
type Inputs struct {
	// Model is the model trained: the input projection and the backbone.
	Model *Model
	// X is the feature matrix [N, F].
	X *backbones.Features
	// Adj is the normalised adjacency.
	Adj *mixing.AdjacencyNodes
	// OneHot are the labels one-hot [N, C]; TrainMask is [N, 1], 1 on the nodes of the supervised
	// loss (the run's train nodes); AugMask is [N, 1], 1 on the nodes of GeoMix's augmentation loss
	// (every other node, or a mini-batch's augmented nodes, see datasets.TrainBatch).
	OneHot, TrainMask, AugMask *Node
	// Drawn are the Step's Inputs, in order.
	Drawn []*Node

	// blocks and proj are the evaluation pass's projection (with the attention blocks), reused by
	// the update when it has no input dropout.
	blocks []*Node
	proj   Projection
}

// NewInputs returns the inputs of a loss, given the evaluation pass's projected blocks and
// projection (Model.Project with attention) of the same step.
func NewInputs(m *Model, x *backbones.Features, adj *mixing.AdjacencyNodes, oneHot, trainMask, augMask *Node, drawn, blocks []*Node, proj Projection) *Inputs {
	return &Inputs{Model: m, X: x, Adj: adj, OneHot: oneHot, TrainMask: trainMask, AugMask: augMask, Drawn: drawn, blocks: blocks, proj: proj}
}

// TrainingBlocks returns the projected blocks [X W_in, (X W_q, X W_k per hop)] the update trains
// on: the evaluation pass's when the model has no input dropout, else a new projection of
// dropout(X) (ParamInputDropout).
func (in *Inputs) TrainingBlocks(ctx *context.Context) ([]*Node, Projection) {
	if in.Model.inputDropout > 0 {
		return in.Model.Project(ctx, in.X, true)
	}
	return in.blocks, in.proj
}
