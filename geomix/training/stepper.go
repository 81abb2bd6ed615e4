package training

import (
	"github.com/geomix-go/geomix/datasets"
	"github.com/geomix-go/geomix/geomix/methods"
	"github.com/gomlx/gomlx/backends"
	"github.com/gomlx/gomlx/pkg/core/tensors"
	"github.com/gomlx/gomlx/pkg/ml/context"
)

// Stepper runs single training epochs of one method on the first split of a graph, exactly as
// Train's loop runs them (an evaluation of the current parameters, then an update), without runs,
// selection or progress: what benchmarks and profilers time.
type Stepper struct {
	t    *trainer
	mask *tensors.Tensor
}

// NewStepper builds method's trainer for g with ctx's hyper-parameters, as Train does, ready to
// step on the first split; nothing is compiled until the first Step.
func NewStepper(ctx *context.Context, backend backends.Backend, g *datasets.Graph, method string) (*Stepper, error) {
	t, err := newTrainer(ctx, backend, g, method, false)
	if err != nil {
		return nil, err
	}
	split := g.Splits[0]
	t.current = methods.Run{RNG: t.rng, Graph: g, Train: split.Train, Others: complement(g.NumNodes, split.Train), Epochs: t.epochs}
	return &Stepper{t: t, mask: methods.NodeMask(g.NumNodes, split.Train)}, nil
}

// Step runs training epoch number epoch (0-based; the first call compiles).
func (s *Stepper) Step(epoch int) error {
	_, _, err := s.t.step(epoch, s.mask)
	return err
}
