package geomix_test

import (
	"fmt"

	"github.com/geomix-go/geomix/datasets"
	"github.com/geomix-go/geomix/geomix"
	"github.com/gomlx/gomlx/pkg/ml/context"
)

// Example_cora is the README's "Using the library" program (a test in package reproduce keeps the
// two identical): GeoMix-I on Cora with the authors' script settings, one hyper-parameter changed.
// It needs the data (compiled, not run, by go test).
func Example_cora() {
	backend, err := geomix.NewBackend() // pure Go: no GPU, no C library
	if err != nil {
		panic(err)
	}
	ctx := context.New()
	ctx.SetParam("runs", 2) // any preset value can be overridden; see geomix.ParamNames()
	// Cora from $GEOMIX_DATA (downloaded and verified if missing), the preset of the
	// authors' run script for (cora, geomix1), then the training protocol of their code.
	res, err := geomix.TrainPreset(ctx, backend, "cora", "geomix1", datasets.Options{})
	if err != nil {
		panic(err)
	}
	fmt.Printf("%s %s: test %.2f ± %.2f%% over %d runs\n",
		res.Dataset, res.Method, res.TestAccMean, res.TestAccStd, res.Runs)
}
