package training_test

import (
	"io"
	"os"
	"reflect"
	"runtime"
	"testing"

	"github.com/geomix-go/geomix/datasets"
	"github.com/geomix-go/geomix/geomix"
	"github.com/geomix-go/geomix/geomix/presets"
	"github.com/geomix-go/geomix/geomix/training"
	"github.com/geomix-go/geomix/internal/testutil"
	"github.com/gomlx/gomlx/backends"
	"github.com/gomlx/gomlx/backends/simplego"
	"github.com/gomlx/gomlx/pkg/core/graph"
	"github.com/gomlx/gomlx/pkg/ml/context"
)

// TestParallelOpsMatchSequential: NewBackend's backend, which runs independent ops at once, trains
// to the same loss and accuracies at every epoch as simplego running one op at a time, on the tiny
// graph for every kind of model and, with $GEOMIX_DATA, on Cora with GeoMix-I and GeoMix-III's
// presets (their feature and label blocks mix side by side).
func TestParallelOpsMatchSequential(t *testing.T) {
	sequential, err := simplego.New("ops_sequential")
	if err != nil {
		t.Fatal(err)
	}
	defer sequential.Finalize()
	parallel, err := geomix.NewBackend()
	if err != nil {
		t.Fatal(err)
	}
	defer parallel.Finalize()
	var cora *datasets.Graph // nil: the tiny graph
	train := func(backend backends.Backend, method string) *training.Result {
		if cora == nil {
			return training.TrainTinyOn(t, backend, method, 9)
		}
		ctx := context.New()
		if _, err := presets.Apply(ctx, "cora", method); err != nil {
			t.Fatal(err)
		}
		ctx.SetParams(map[string]any{training.ParamRuns: 1, training.ParamEpochs: 40})
		res, err := training.Train(ctx, backend, cora, method, training.WithProgress(io.Discard))
		if err != nil {
			t.Fatalf("training.Train(cora, %s): %v", method, err)
		}
		return res
	}
	compare := func(method string) {
		a, b := train(sequential, method), train(parallel, method)
		for r := range a.PerRun {
			for e := range a.PerRun[r].Curve {
				ea, eb := a.PerRun[r].Curve[e], b.PerRun[r].Curve[e]
				if ea.Loss != eb.Loss || ea.TrainAcc != eb.TrainAcc || ea.ValAcc != eb.ValAcc || ea.TestAcc != eb.TestAcc {
					t.Fatalf("%s (cora %v) run %d epoch %d: sequential %+v, parallel %+v", method, cora != nil, r, e, ea, eb)
				}
			}
		}
	}
	for _, method := range []string{"gcn", "gat", "geomix1", "geomix2", "geomix3", "randommix", "mixup", "graphmix", "glognn"} {
		compare(method)
	}
	if testing.Short() {
		return
	}
	cora = testutil.LoadOrSkip(t, "cora")
	for _, method := range []string{"geomix1", "geomix3"} {
		compare(method)
	}
}

// TestNewBackendInstallsRowOps: NewBackend's pure-Go backend comes with internal/rowops installed,
// seen from outside the package in GoMLX's registered gradient of Mul.
func TestNewBackendInstallsRowOps(t *testing.T) {
	if os.Getenv("GOMLX_BACKEND") != "" {
		t.Skip("$GOMLX_BACKEND is set: NewBackend does not make the pure-Go backend")
	}
	backend, err := geomix.NewBackend()
	if err != nil {
		t.Fatal(err)
	}
	defer backend.Finalize()
	const want = "github.com/geomix-go/geomix/internal/rowops.mulVJP"
	if got := runtime.FuncForPC(reflect.ValueOf(graph.VJPRegistration[graph.NodeTypeMul]).Pointer()).Name(); got != want {
		t.Errorf("after NewBackend, the gradient of Mul is %s; want %s", got, want)
	}
}
