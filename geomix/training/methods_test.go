package training

import (
	"io"
	"strings"
	"testing"

	"github.com/geomix-go/geomix/datasets"
	"github.com/geomix-go/geomix/geomix/backbones"
	"github.com/geomix-go/geomix/geomix/methods"
	"github.com/geomix-go/geomix/internal/testutil"
	"github.com/gomlx/gomlx/pkg/ml/context"
)

// TestInputDropout: ParamInputDropout changes training (a fresh mask per step, seeded) but the same
// seed still gives the same losses.
func TestInputDropout(t *testing.T) {
	train := func(p float64) *Result {
		ctx := context.New()
		ctx.SetParams(map[string]any{ParamEpochs: 5, backbones.ParamHidden: 8, ParamSeed: 3, methods.ParamInputDropout: p})
		res, err := Train(ctx, testutil.Backend(t), testutil.TinyGraph(), "gcn", WithProgress(io.Discard))
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	clean, a, b := train(0), train(0.5), train(0.5)
	for e := range a.PerRun[0].Curve {
		if a.PerRun[0].Curve[e].Loss != b.PerRun[0].Curve[e].Loss {
			t.Fatalf("epoch %d: same seed, losses %v and %v", e, a.PerRun[0].Curve[e].Loss, b.PerRun[0].Curve[e].Loss)
		}
	}
	if a.PerRun[0].Curve[0].Loss == clean.PerRun[0].Curve[0].Loss {
		t.Error("input dropout 0.5 left the first loss unchanged")
	}
}

// TestDANNNeedsATargetDomain: DANN trains on a graph with extra test sets (the target domain) and
// refuses one without.
func TestDANNNeedsATargetDomain(t *testing.T) {
	ctx := context.New()
	ctx.SetParams(map[string]any{ParamEpochs: 4, ParamRuns: 2, backbones.ParamHidden: 8, ParamLRDecayEvery: 2, ParamLRDecayFactor: 0.5})
	if _, err := Train(ctx, testutil.Backend(t), testutil.TinyGraph(), "dann", WithProgress(io.Discard)); err == nil || !strings.Contains(err.Error(), "extra test sets") {
		t.Errorf("dann without a target domain: %v", err)
	}
	g := testutil.TinyGraph()
	g.ExtraTests = []datasets.NodeSet{{Name: "ood", Nodes: []int32{6, 7, 8, 9, 16, 17}}}
	a, err := Train(ctx, testutil.Backend(t), g, "dann", WithProgress(io.Discard))
	if err != nil {
		t.Fatal(err)
	}
	b, err := Train(ctx, testutil.Backend(t), g, "dann", WithProgress(io.Discard))
	if err != nil {
		t.Fatal(err)
	}
	sameRuns(t, "dann twice", a, b)
}
