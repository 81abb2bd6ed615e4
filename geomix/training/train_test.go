package training

import (
	"io"
	"math"
	"strings"
	"testing"

	"github.com/geomix-go/geomix/datasets"
	"github.com/geomix-go/geomix/geomix/backbones"
	"github.com/geomix-go/geomix/geomix/internal/ops"
	"github.com/geomix-go/geomix/geomix/methods"
	"github.com/geomix-go/geomix/internal/stats"
	"github.com/geomix-go/geomix/internal/testutil"
	"github.com/gomlx/gomlx/backends"
	"github.com/gomlx/gomlx/pkg/ml/context"
)

func trainTiny(t *testing.T, method string, seed int, extra ...map[string]any) *Result {
	return trainTinyOn(t, testutil.Backend(t), method, seed, extra...)
}

// tinyParams are the hyper-parameters of trainTiny: 2 runs of 12 epochs, small widths, seed.
func tinyParams(seed int) map[string]any {
	return map[string]any{ParamEpochs: 12, ParamRuns: 2, backbones.ParamDropout: 0.5, backbones.ParamHidden: 8, methods.ParamHops: 2,
		methods.ParamAlpha: 0.3, methods.ParamLabelGrad: true, ParamSeed: seed, backbones.ParamUseBN: true}
}

// trainTinyOn trains method on tinyGraph with backend: 2 runs of 12 epochs, small widths, seeded.
func trainTinyOn(t *testing.T, backend backends.Backend, method string, seed int, extra ...map[string]any) *Result {
	ctx := context.New()
	ctx.SetParams(tinyParams(seed))
	for _, params := range extra {
		ctx.SetParams(params)
	}
	res, err := Train(ctx, backend, testutil.TinyGraph(), method, WithProgress(io.Discard))
	if err != nil {
		t.Fatalf("Train(%s): %v", method, err)
	}
	return res
}

// TestTrainSameSeedSameNumbers: two trainings with the same seed give identical losses and
// accuracies at every epoch (dropout, BatchNorm, random pairing and initialisation all seeded);
// another seed gives other losses.
func TestTrainSameSeedSameNumbers(t *testing.T) {
	for _, method := range []string{"geomix1", "geomix3", "randommix", "mixup", "graphmix", "graphmixup"} {
		a, b, other := trainTiny(t, method, 9), trainTiny(t, method, 9), trainTiny(t, method, 10)
		if a.TestAccMean != b.TestAccMean || a.TestAccStd != b.TestAccStd {
			t.Errorf("%s: same seed, different results: %v±%v vs %v±%v", method, a.TestAccMean, a.TestAccStd, b.TestAccMean, b.TestAccStd)
		}
		differs := false
		for r := range a.PerRun {
			for e := range a.PerRun[r].Curve {
				ea, eb := a.PerRun[r].Curve[e], b.PerRun[r].Curve[e]
				if ea.Loss != eb.Loss || ea.ValAcc != eb.ValAcc || ea.TestAcc != eb.TestAcc {
					t.Fatalf("%s run %d epoch %d: same seed, different stats: %+v vs %+v", method, r, e, ea, eb)
				}
				differs = differs || ea.Loss != other.PerRun[r].Curve[e].Loss
			}
		}
		if !differs {
			t.Errorf("%s: seeds 9 and 10 gave identical losses", method)
		}
	}
}

// TestEpochCallback: WithEpochCallback sees every epoch of every run, in order, with the stats
// that end up in the runs' curves.
func TestEpochCallback(t *testing.T) {
	type call struct {
		run   int
		stats EpochStats
	}
	var calls []call
	res, err := Train(checkpointCtx(2, 0.01), testutil.Backend(t), testutil.TinyGraph(), "geomix1", WithProgress(io.Discard),
		WithEpochCallback(func(run int, s EpochStats) { calls = append(calls, call{run, s}) }))
	if err != nil {
		t.Fatal(err)
	}
	var want []call
	for r, rr := range res.PerRun {
		for _, s := range rr.Curve {
			want = append(want, call{r, s})
		}
	}
	if len(want) != 2*10 || len(calls) != len(want) {
		t.Fatalf("%d callbacks for %d curve epochs, want 2 runs × 10 epochs", len(calls), len(want))
	}
	for i := range want {
		if calls[i].run != want[i].run || calls[i].stats.Epoch != want[i].stats.Epoch ||
			calls[i].stats.Loss != want[i].stats.Loss || calls[i].stats.ValAcc != want[i].stats.ValAcc {
			t.Fatalf("callback %d: run %d %+v, want run %d %+v", i, calls[i].run, calls[i].stats, want[i].run, want[i].stats)
		}
	}
}

// TestFeatureLayoutsTrainAlike: holding X dense or sparse changes only the order of float sums, so
// both layouts give the same losses to float32 rounding, epoch by epoch, with and without attention
// (without BatchNorm, which would hide a wrong scale).
func TestFeatureLayoutsTrainAlike(t *testing.T) {
	for _, method := range []string{"gcn", "geomix1", "geomix3"} {
		sparse := trainTiny(t, method, 5, map[string]any{backbones.ParamFeatureLayout: "sparse", backbones.ParamUseBN: false})
		dense := trainTiny(t, method, 5, map[string]any{backbones.ParamFeatureLayout: "dense", backbones.ParamUseBN: false})
		for r := range sparse.PerRun {
			for e, s := range sparse.PerRun[r].Curve {
				d := dense.PerRun[r].Curve[e]
				if math.Abs(s.Loss-d.Loss) > 1e-4*math.Max(1, math.Abs(s.Loss)) {
					t.Fatalf("%s run %d epoch %d: loss %.7f sparse, %.7f dense", method, r, e, s.Loss, d.Loss)
				}
			}
		}
	}
}

// TestTrainRejectsBadInput: errors name the problem instead of panicking.
func TestTrainRejectsBadInput(t *testing.T) {
	g := testutil.TinyGraph()
	if _, err := Train(context.New(), testutil.Backend(t), g, "geomix9", WithProgress(io.Discard)); err == nil {
		t.Error("unknown method accepted")
	}
	ctx := context.New()
	ctx.SetParam(backbones.ParamHidden, "wide")
	if _, err := Train(ctx, testutil.Backend(t), g, "gcn", WithProgress(io.Discard)); err == nil {
		t.Error("string hidden width accepted")
	}
	ctx = context.New()
	ctx.SetParam(backbones.ParamFeatureLayout, "csr")
	if _, err := Train(ctx, testutil.Backend(t), g, "gcn", WithProgress(io.Discard)); err == nil || !strings.Contains(err.Error(), `feature_layout = "csr"`) {
		t.Errorf("feature layout \"csr\": got %v, want an error naming the value", err)
	}
	g.Labels[3] = 7
	if _, err := Train(context.New(), testutil.Backend(t), g, "gcn", WithProgress(io.Discard)); err == nil {
		t.Error("label 7 of 3 classes accepted")
	}
	g = testutil.TinyGraph()
	g.ExtraTests = []datasets.NodeSet{{Name: "FR", Nodes: []int32{3, 30}}}
	if _, err := Train(context.New(), testutil.Backend(t), g, "gcn", WithProgress(io.Discard)); err == nil || !strings.Contains(err.Error(), `extra test set FR holds node 30`) {
		t.Errorf("extra test node 30 of 30 nodes: got %v, want an error naming the set and the node", err)
	}
}

// TestExtraTests: accuracies on the graph's extra test sets are taken at each run's selected epoch
// (a copy of the test set gives the test accuracy, run by run) and summarised over runs.
func TestExtraTests(t *testing.T) {
	g := testutil.TinyGraph()
	g.ExtraTests = []datasets.NodeSet{{Name: "test-again", Nodes: g.Splits[0].Test}, {Name: "train-again", Nodes: g.Splits[0].Train}}
	ctx := context.New()
	ctx.SetParams(map[string]any{ParamEpochs: 15, ParamRuns: 3, backbones.ParamHidden: 8, ParamSeed: 4})
	res, err := Train(ctx, testutil.Backend(t), g, "geomix1", WithProgress(io.Discard))
	if err != nil {
		t.Fatal(err)
	}
	var train []float64
	for _, rr := range res.PerRun {
		if rr.ExtraTestAcc["test-again"] != rr.TestAcc {
			t.Errorf("run %d: test-again %v, test %v", rr.Run, rr.ExtraTestAcc["test-again"], rr.TestAcc)
		}
		train = append(train, 100*rr.Curve[rr.BestEpoch].TrainAcc)
	}
	mean, std := stats.MeanStd(train)
	if got := res.ExtraTests["test-again"]; got.Mean != res.TestAccMean || got.Std != res.TestAccStd {
		t.Errorf("test-again %+v, want the test accuracy %v ± %v", got, res.TestAccMean, res.TestAccStd)
	}
	if got := res.ExtraTests["train-again"]; math.Abs(got.Mean-mean) > 1e-9 || math.Abs(got.Std-std) > 1e-9 {
		t.Errorf("train-again %+v, want the train accuracy at the selected epochs %v ± %v", got, mean, std)
	}
}

// TestGCNBaselineTakesPresetFlavour: the "gcn" baseline trains the configured GCN flavour (the
// heterophilic presets' gcnconv), other baselines their own backbone, mixing methods the configured one.
func TestGCNBaselineTakesPresetFlavour(t *testing.T) {
	for _, c := range []struct{ configured, method, want string }{
		{"gcnconv", "gcn", "gcnconv"}, {"gcn", "gcn", "gcn"}, {"gcnconv", "gat", "gat"}, {"gcnconv", "geomix1", "gcnconv"}, {"gat", "gcn", "gcn"},
	} {
		ctx := context.New()
		ctx.SetParams(map[string]any{ParamEpochs: 1, ParamRuns: 1, backbones.ParamHidden: 4, backbones.ParamBackbone: c.configured})
		res, err := Train(ctx, testutil.Backend(t), testutil.TinyGraph(), c.method, WithProgress(io.Discard))
		if err != nil {
			t.Fatalf("%s with backbone %s: %v", c.method, c.configured, err)
		}
		if res.Backbone != c.want {
			t.Errorf("%s with backbone %s configured trained %s, want %s", c.method, c.configured, res.Backbone, c.want)
		}
	}
}

// TestSharedPropagationsKeepTheNumbers: sharing the backbones' propagations between a step's
// evaluation and training passes (mixing.PropagateShared) gives the losses and accuracies of building them
// apart, bit for bit, at every epoch: on both GCN flavours, plain, with the mixings whose
// gradients meet the shared input (GeoMix-I with label_grad, GeoMix-III), and on SGC.
func TestSharedPropagationsKeepTheNumbers(t *testing.T) {
	for _, backbone := range []string{"gcn", "gcnconv", "sgc"} {
		for _, method := range []string{"gcn", "geomix1", "geomix3"} {
			extra := map[string]any{backbones.ParamBackbone: backbone, backbones.ParamUseBN: false, methods.ParamGraphWeight: 0.8, methods.ParamResWeight: 0.5}
			if method == "gcn" && backbone == "sgc" {
				method = "sgc"
			}
			shared := trainTiny(t, method, 3, extra)
			ops.ShareBackbonePropagations = false
			apart := trainTiny(t, method, 3, extra)
			ops.ShareBackbonePropagations = true
			for r := range shared.PerRun {
				for e, got := range shared.PerRun[r].Curve {
					want := apart.PerRun[r].Curve[e]
					if got.Loss != want.Loss || got.ValAcc != want.ValAcc || got.TestAcc != want.TestAcc {
						t.Fatalf("%s on %s, run %d epoch %d: shared gave loss %v val %v test %v, apart %v %v %v",
							method, backbone, r, e, got.Loss, got.ValAcc, got.TestAcc, want.Loss, want.ValAcc, want.TestAcc)
					}
				}
			}
		}
	}
}

// TestTrainRejectsInvalidGraphs: Train checks the graph's invariants first and names the first
// violation: a one-directional edge, a self-loop.
func TestTrainRejectsInvalidGraphs(t *testing.T) {
	for _, c := range []struct {
		what     string
		src, dst []int32
		want     string
	}{
		{"one direction", []int32{0, 1, 1}, []int32{1, 0, 2}, "has no reverse edge 2->1"},
		{"self-loop", []int32{0, 1, 1}, []int32{1, 0, 1}, "is a self-loop"},
	} {
		g := testutil.TinyGraph()
		g.Src, g.Dst = c.src, c.dst
		if _, err := Train(context.New(), testutil.Backend(t), g, "gcn", WithProgress(io.Discard)); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: got %v, want an error containing %q", c.what, err, c.want)
		}
	}
}

// TestTrainBatches: with TrainBatches every epoch makes one update per batch on the batch's own
// graph and evaluates the whole graph; a batch that is the whole graph with its split trains as
// full-batch training does, epoch by epoch (same losses and accuracies).
func TestTrainBatches(t *testing.T) {
	full := trainTiny(t, "geomix1", 4)
	g := testutil.TinyGraph()
	split := g.Splits[0]
	whole := *g
	g.TrainBatches = []datasets.TrainBatch{{Graph: &whole, Labelled: split.Train, Augmented: complement(g.NumNodes, split.Train)}}
	ctx := context.New()
	ctx.SetParams(tinyParams(4))
	batched, err := Train(ctx, testutil.Backend(t), g, "geomix1", WithProgress(io.Discard))
	if err != nil {
		t.Fatal(err)
	}
	sameRuns(t, "one batch = the graph", full, batched)
	g.TrainBatches[0].Labelled = []int32{0, 40}
	if _, err := Train(ctx, testutil.Backend(t), g, "geomix1", WithProgress(io.Discard)); err == nil || !strings.Contains(err.Error(), "train batch 0's labelled set") {
		t.Errorf("a batch node out of range: got %v, want an error naming the batch's set", err)
	}
}

// TestTrainableParams: a 2-layer GCN without BatchNorm counts its two weight matrices and biases,
// F×H + H + H×C + C, and frozen or optimizer variables are left out.
func TestTrainableParams(t *testing.T) {
	g := testutil.TinyGraph()
	f, c := g.Features.NumCols, g.NumClasses
	for _, h := range []int{8, 16} {
		res := trainTiny(t, "gcn", 1, map[string]any{backbones.ParamHidden: h, backbones.ParamUseBN: false, ParamRuns: 1})
		if want := f*h + h + h*c + c; res.TrainableParams != want {
			t.Errorf("gcn hidden %d: %d trainable parameters, want F×H + H + H×C + C = %d (F %d, C %d)", h, res.TrainableParams, want, f, c)
		}
	}
}
