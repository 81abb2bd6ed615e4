package training_test

import (
	"fmt"
	"io"

	"github.com/geomix-go/geomix/datasets"
	"github.com/geomix-go/geomix/geomix"
	"github.com/geomix-go/geomix/geomix/backbones"
	"github.com/geomix-go/geomix/geomix/methods"
	"github.com/geomix-go/geomix/geomix/training"
	"github.com/gomlx/gomlx/pkg/ml/context"
)

// Train runs any method on any graph with the hyper-parameters set in the context; the same seed
// gives the same numbers.
func ExampleTrain() {
	backend, err := geomix.NewBackend()
	if err != nil {
		panic(err)
	}
	g, err := datasets.Load("synthetic", datasets.Options{Offline: true})
	if err != nil {
		panic(err)
	}
	ctx := context.New()
	ctx.SetParams(map[string]any{training.ParamEpochs: 30, training.ParamSeed: 7, backbones.ParamHidden: 16,
		methods.ParamHops: 2, methods.ParamAlpha: 0.3})
	for _, method := range []string{"gcn", "geomix2"} {
		res, err := training.Train(ctx, backend, g, method, training.WithProgress(io.Discard))
		if err != nil {
			panic(err)
		}
		fmt.Printf("%s: best epoch %d, test accuracy %.1f%%\n", method, res.PerRun[0].BestEpoch, res.TestAccMean)
	}
	// Output:
	// gcn: best epoch 17, test accuracy 61.7%
	// geomix2: best epoch 17, test accuracy 57.6%
}
