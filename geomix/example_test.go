package geomix_test

import (
	"fmt"
	"io"

	"github.com/geomix-go/geomix/datasets"
	"github.com/geomix-go/geomix/geomix"
	"github.com/geomix-go/geomix/geomix/training"
	"github.com/gomlx/gomlx/pkg/ml/context"
)

// TrainPreset trains a method on a data set by name with the authors' script settings; the
// embedded synthetic data set has no preset and trains with the reference's defaults.
func ExampleTrainPreset() {
	backend, err := geomix.NewBackend()
	if err != nil {
		panic(err)
	}
	ctx := context.New()
	ctx.SetParam(training.ParamEpochs, 20)
	ctx.SetParam(training.ParamRuns, 2)
	res, err := geomix.TrainPreset(ctx, backend, "synthetic", "geomix1", datasets.Options{Offline: true}, geomix.WithProgress(io.Discard))
	if err != nil {
		panic(err)
	}
	fmt.Printf("%s %s: %d runs, test accuracy %.1f%%\n", res.Dataset, res.Method, res.Runs, res.TestAccMean)
	// Output:
	// synthetic geomix1: 2 runs, test accuracy 70.7%
}

// Mix applies GeoMix-I to node values on a graph: on the path 0-1-2, one hop with α = 0.5 moves
// half of each node's value towards its normalised neighbourhood average.
func ExampleMix() {
	backend, err := geomix.NewBackend()
	if err != nil {
		panic(err)
	}
	path := &datasets.Graph{Name: "path", NumNodes: 3, Src: []int32{0, 1, 1, 2}, Dst: []int32{1, 0, 2, 1}}
	x := [][]float32{{1, 0}, {0, 0}, {0, 1}}
	mixed, err := geomix.Mix(backend, path, x, "geomix1", 0.5, 1)
	if err != nil {
		panic(err)
	}
	for _, row := range mixed {
		fmt.Printf("%.3f\n", row)
	}
	// Output:
	// [0.750 0.000]
	// [0.204 0.204]
	// [0.000 0.750]
}
