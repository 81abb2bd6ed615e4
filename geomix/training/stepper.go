package training

import (
	"github.com/geomix-go/geomix/datasets"
	"github.com/gomlx/gomlx/backends"
	"github.com/gomlx/gomlx/pkg/ml/context"
)

// Stepper runs single training epochs of one method on the first split of a graph, exactly as
// Train's loop runs them (an evaluation of the current parameters, then an update), without runs,
// selection or progress: what benchmarks and profilers time.
type Stepper struct {
	t       *trainer
	batches []*batch
	// withEval is true for full-batch training, whose step evaluates too.
	withEval bool
}

// NewStepper builds method's trainer for g with ctx's hyper-parameters, as Train does, ready to
// step on the first split (or g's TrainBatches); nothing is compiled until the first Step.
func NewStepper(ctx *context.Context, backend backends.Backend, g *datasets.Graph, method string) (*Stepper, error) {
	t, err := newTrainer(ctx, backend, g, method, false)
	if err != nil {
		return nil, err
	}
	if t.batches != nil {
		return &Stepper{t: t, batches: t.batches}, nil
	}
	split := g.Splits[0]
	return &Stepper{t: t, batches: []*batch{t.batchOf(t.main, split.Train, complement(g.NumNodes, split.Train))}, withEval: true}, nil
}

// Step runs training epoch number epoch (0-based; the first call compiles): one step (evaluation,
// then update) on the graph, or one update per TrainBatch.
func (s *Stepper) Step(epoch int) error {
	for _, b := range s.batches {
		if _, _, err := s.t.step(epoch, b, s.withEval); err != nil {
			return err
		}
	}
	return nil
}
