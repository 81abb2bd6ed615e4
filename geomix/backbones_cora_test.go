package geomix

import (
	"io"
	"testing"

	"github.com/geomix-go/geomix/geomix/backbones"
	"github.com/geomix-go/geomix/geomix/presets"
	"github.com/geomix-go/geomix/geomix/training"
	"github.com/geomix-go/geomix/internal/testutil"
	"github.com/gomlx/gomlx/pkg/ml/context"
)

func TestSGCOnCora(t *testing.T) { trainOnCora(t, "sgc", nil, 77) }

// trainOnCora trains backbone once on Cora with the "gcn" preset row of main_exp/exp/aug_gcn.sh
// (lr 0.1, weight decay 5e-4, dropout 0.5, hidden 16, 300 epochs) plus overrides, and fails when the
// test accuracy at the best validation epoch is below minAcc (percent). Skipped under -short and
// without $GEOMIX_DATA.
func trainOnCora(t *testing.T, backbone string, overrides map[string]any, minAcc float64) {
	if testing.Short() {
		t.Skip("trains on Cora: skipped with -short")
	}
	g := testutil.LoadOrSkip(t, "cora")
	ctx := context.New()
	if _, err := presets.Apply(ctx, "cora", "gcn"); err != nil {
		t.Fatal(err)
	}
	ctx.SetParam(training.ParamRuns, 1)
	ctx.SetParams(overrides)
	res, err := training.Train(ctx, testutil.Backend(t), g, backbone, training.WithProgress(io.Discard))
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%s on Cora: test accuracy %.2f%% (val %.2f%%, best epoch %d)",
		backbone, res.TestAccMean, res.ValAccMean, res.PerRun[0].BestEpoch)
	if res.TestAccMean < minAcc {
		t.Errorf("%s on Cora: test accuracy %.2f%%, want >= %.0f%%", backbone, res.TestAccMean, minAcc)
	}
}

func TestAPPNPOnCora(t *testing.T) { trainOnCora(t, "appnp", nil, 80) }

// TestGATOnCora uses the settings of PyG's GAT example (8 heads of 8 units, lr 0.005, dropout 0.6,
// 200 epochs) instead of the "gcn" row's lr 0.1 and hidden 16, with which GAT peaks by epoch 5.
func TestGATOnCora(t *testing.T) {
	trainOnCora(t, "gat", map[string]any{backbones.ParamHidden: 8, training.ParamLR: 0.005, backbones.ParamDropout: 0.6, training.ParamEpochs: 200}, 78)
}

func TestMLPOnCora(t *testing.T) { trainOnCora(t, "mlp", nil, 50) }

// trainCora trains method on Cora with its preset for one run and checks the test accuracy.
func trainCora(t *testing.T, method string, minAcc float64) {
	if testing.Short() {
		t.Skip("trains on Cora: skipped under -short")
	}
	g := testutil.LoadOrSkip(t, "cora")
	ctx := context.New()
	if _, err := presets.Apply(ctx, "cora", method); err != nil {
		t.Fatal(err)
	}
	ctx.SetParam(training.ParamRuns, 1)
	res, err := Train(ctx, testutil.Backend(t), g, method, WithProgress(io.Discard))
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("cora %s: test %.2f%% (val %.2f%%), %.1f ms/epoch", method, res.TestAccMean, res.ValAccMean, res.EpochMsMedian)
	if res.TestAccMean < minAcc {
		t.Errorf("cora %s: test accuracy %.2f%%, want >= %.0f%%", method, res.TestAccMean, minAcc)
	}
}

func TestCoraGeoMixI(t *testing.T) { trainCora(t, "geomix1", 82) }

func TestCoraGCN(t *testing.T) { trainCora(t, "gcn", 79) }
