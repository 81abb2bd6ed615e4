package training

import (
	"io"
	"slices"
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

// TestEERMTrains: EERM trains two runs on a graph with an out-of-distribution set (outside its
// editors' domain), the same seed giving the same runs, and refuses an adjacency it cannot re-normalise.
func TestEERMTrains(t *testing.T) {
	g := testutil.TinyGraph()
	g.ExtraTests = []datasets.NodeSet{{Name: "ood", Nodes: []int32{26, 27, 28, 29}}}
	ctx := context.New()
	ctx.SetParams(map[string]any{ParamEpochs: 6, ParamRuns: 2, backbones.ParamHidden: 8, backbones.ParamUseBN: true,
		methods.ParamEERMCandidates: 8, methods.ParamEERMBeta: 3.0, methods.ParamEERMEditorLR: 1e-3})
	a, err := Train(ctx, testutil.Backend(t), g, "eerm", WithProgress(io.Discard))
	if err != nil {
		t.Fatal(err)
	}
	b, err := Train(ctx, testutil.Backend(t), g, "eerm", WithProgress(io.Discard))
	if err != nil {
		t.Fatal(err)
	}
	sameRuns(t, "eerm twice", a, b)
	if a.PerRun[0].Curve[0].Loss == a.PerRun[1].Curve[0].Loss {
		t.Error("two runs began with the same loss: the editors or the model were not re-drawn")
	}
	ctx.SetParam(ParamNormalization, "row")
	if _, err := Train(ctx, testutil.Backend(t), g, "eerm", WithProgress(io.Discard)); err == nil || !strings.Contains(err.Error(), "normalization") {
		t.Errorf("eerm with the row normalisation: %v", err)
	}
}

// TestDANNOnBatches: on mini-batches DANN takes each batch's Target nodes as the target domain; a
// batch that is the whole graph with the extra test sets' nodes as Target trains as full-batch DANN
// does, and a batch without Target is refused.
func TestDANNOnBatches(t *testing.T) {
	ctx := context.New()
	ctx.SetParams(map[string]any{ParamEpochs: 4, ParamRuns: 2, backbones.ParamHidden: 8, ParamLRDecayEvery: 2, ParamLRDecayFactor: 0.5})
	target := []int32{6, 7, 8, 9, 16, 17}
	g := testutil.TinyGraph()
	g.ExtraTests = []datasets.NodeSet{{Name: "ood", Nodes: target}}
	full, err := Train(ctx, testutil.Backend(t), g, "dann", WithProgress(io.Discard))
	if err != nil {
		t.Fatal(err)
	}
	g = testutil.TinyGraph()
	train := g.Splits[0].Train
	whole := *g
	var others []int32
	for _, i := range complement(g.NumNodes, train) {
		if !slices.Contains(target, i) {
			others = append(others, i)
		}
	}
	g.TrainBatches = []datasets.TrainBatch{{Graph: &whole, Labelled: train, Augmented: others, Target: target}}
	batched, err := Train(ctx, testutil.Backend(t), g, "dann", WithProgress(io.Discard))
	if err != nil {
		t.Fatal(err)
	}
	sameRuns(t, "dann on one batch = the graph", full, batched)
	g.TrainBatches[0].Target = nil
	if _, err := Train(ctx, testutil.Backend(t), g, "dann", WithProgress(io.Discard)); err == nil || !strings.Contains(err.Error(), "batch 0") {
		t.Errorf("dann on a batch without target nodes: %v", err)
	}
	g.TrainBatches[0].Target = []int32{train[0]}
	if _, err := Train(ctx, testutil.Backend(t), g, "gcn", WithProgress(io.Discard)); err == nil || !strings.Contains(err.Error(), "both a target node and a labelled") {
		t.Errorf("a target node that is labelled: %v", err)
	}
}
