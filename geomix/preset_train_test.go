package geomix

import (
	"os"
	"strings"
	"testing"

	"github.com/geomix-go/geomix/datasets"
	"github.com/geomix-go/geomix/geomix/backbones"
	"github.com/geomix-go/geomix/geomix/methods"
	"github.com/geomix-go/geomix/geomix/training"
	"github.com/geomix-go/geomix/internal/testutil"
	"github.com/gomlx/gomlx/pkg/ml/context"
)

// TrainPreset fills what the caller did not set from the preset, lets the caller's values win, and
// leaves the caller's context untouched.
func TestTrainPresetOverridesAndReadsOnly(t *testing.T) {
	ctx := context.New()
	ctx.SetParam(training.ParamEpochs, 2)
	ctx.SetParam(training.ParamRuns, 1)
	res, err := TrainPreset(ctx, testutil.Backend(t), "synthetic", "gcn", datasets.Options{Offline: true})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(res.Preset, "no preset for synthetic") || res.Params[training.ParamLR] != 0.01 || len(res.PerRun[0].Curve) != 2 {
		t.Errorf("synthetic: preset %q, lr %v, %d epochs; want no preset, the default lr 0.01, 2 epochs",
			res.Preset, res.Params[training.ParamLR], len(res.PerRun[0].Curve))
	}
	if os.Getenv(datasets.EnvData) == "" {
		t.Skipf("$%s is not set: skipping the preset half of the test", datasets.EnvData)
	}
	res, err = TrainPreset(ctx, testutil.Backend(t), "cora", "geomix1", datasets.Options{Offline: true})
	if err != nil {
		t.Fatal(err)
	}
	// Cora's GeoMix-I row: lr 0.1, hidden 16, K 3, α 0.1, 5 runs; epochs and runs come from ctx.
	if res.Params[training.ParamLR] != 0.1 || res.Params[methods.ParamHops] != 3 || res.Params[backbones.ParamHidden] != 16 || res.Runs != 1 || len(res.PerRun[0].Curve) != 2 {
		t.Errorf("cora: lr %v, hops %v, hidden %v, runs %d, %d epochs; want 0.1, 3, 16, 1, 2",
			res.Params[training.ParamLR], res.Params[methods.ParamHops], res.Params[backbones.ParamHidden], res.Runs, len(res.PerRun[0].Curve))
	}
	if _, set := ctx.GetParam(training.ParamLR); set {
		t.Error("TrainPreset wrote the preset into the caller's context")
	}
}
