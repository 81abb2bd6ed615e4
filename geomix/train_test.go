package geomix

import (
	"io"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/geomix-go/geomix/datasets"
	"github.com/gomlx/gomlx/backends"
	"github.com/gomlx/gomlx/pkg/ml/context"
)

// tinyGraph is a 30-node ring with chords, 3 classes by position, 5 sparse features, one split.
func tinyGraph() *datasets.Graph {
	const n, f = 30, 5
	rng := rand.New(rand.NewPCG(3, 4))
	g := &datasets.Graph{Name: "tiny", NumNodes: n, NumClasses: 3, Labels: make([]int32, n)}
	feat := &datasets.CSR{NumRows: n, NumCols: f, RowPtr: []int64{0}}
	for i := range n {
		g.Labels[i] = int32(i * 3 / n)
		j, k := (i+1)%n, (i+7)%n
		g.Src, g.Dst = append(g.Src, int32(i), int32(j), int32(i), int32(k)), append(g.Dst, int32(j), int32(i), int32(k), int32(i))
		for col := range f {
			if rng.Float64() < 0.5 || col == int(g.Labels[i]) {
				feat.ColIdx, feat.Values = append(feat.ColIdx, int32(col)), append(feat.Values, float32(rng.Float64()))
			}
		}
		feat.RowPtr = append(feat.RowPtr, int64(len(feat.ColIdx)))
	}
	g.Features = feat
	g.Splits = []datasets.Split{{Train: []int32{0, 1, 10, 11, 20, 21}, Val: []int32{2, 3, 12, 13, 22, 23}, Test: []int32{4, 5, 14, 15, 24, 25}}}
	return g
}

func trainTiny(t *testing.T, method string, seed int, extra ...map[string]any) *Result {
	return trainTinyOn(t, testBackend(t), method, seed, extra...)
}

// trainTinyOn trains method on tinyGraph with backend: 2 runs of 12 epochs, small widths, seeded.
func trainTinyOn(t *testing.T, backend backends.Backend, method string, seed int, extra ...map[string]any) *Result {
	ctx := context.New()
	ctx.SetParams(map[string]any{ParamEpochs: 12, ParamRuns: 2, ParamDropout: 0.5, ParamHidden: 8, ParamHops: 2,
		ParamAlpha: 0.3, ParamLabelGrad: true, ParamSeed: seed, ParamUseBN: true})
	for _, params := range extra {
		ctx.SetParams(params)
	}
	res, err := Train(ctx, backend, tinyGraph(), method, WithProgress(io.Discard))
	if err != nil {
		t.Fatalf("Train(%s): %v", method, err)
	}
	return res
}

// TestTrainSameSeedSameNumbers: two trainings with the same seed give identical losses and
// accuracies at every epoch (dropout, BatchNorm, random pairing and initialisation all seeded);
// another seed gives other losses.
func TestTrainSameSeedSameNumbers(t *testing.T) {
	for _, method := range []string{"geomix1", "geomix3", "randommix", "mixup", "graphmix"} {
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
	res, err := Train(checkpointCtx(2, 0.01), testBackend(t), tinyGraph(), "geomix1", WithProgress(io.Discard),
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
		sparse := trainTiny(t, method, 5, map[string]any{ParamFeatureLayout: "sparse", ParamUseBN: false})
		dense := trainTiny(t, method, 5, map[string]any{ParamFeatureLayout: "dense", ParamUseBN: false})
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
	g := tinyGraph()
	if _, err := Train(context.New(), testBackend(t), g, "geomix9", WithProgress(io.Discard)); err == nil {
		t.Error("unknown method accepted")
	}
	ctx := context.New()
	ctx.SetParam(ParamHidden, "wide")
	if _, err := Train(ctx, testBackend(t), g, "gcn", WithProgress(io.Discard)); err == nil {
		t.Error("string hidden width accepted")
	}
	ctx = context.New()
	ctx.SetParam(ParamFeatureLayout, "csr")
	if _, err := Train(ctx, testBackend(t), g, "gcn", WithProgress(io.Discard)); err == nil || !strings.Contains(err.Error(), `feature_layout = "csr"`) {
		t.Errorf("feature layout \"csr\": got %v, want an error naming the value", err)
	}
	g.Labels[3] = 7
	if _, err := Train(context.New(), testBackend(t), g, "gcn", WithProgress(io.Discard)); err == nil {
		t.Error("label 7 of 3 classes accepted")
	}
	g = tinyGraph()
	g.ExtraTests = []datasets.NodeSet{{Name: "FR", Nodes: []int32{3, 30}}}
	if _, err := Train(context.New(), testBackend(t), g, "gcn", WithProgress(io.Discard)); err == nil || !strings.Contains(err.Error(), `extra test set "FR" holds node 30`) {
		t.Errorf("extra test node 30 of 30 nodes: got %v, want an error naming the set and the node", err)
	}
}

// TestExtraTests: accuracies on the graph's extra test sets are taken at each run's selected epoch
// (a copy of the test set gives the test accuracy, run by run) and summarised over runs.
func TestExtraTests(t *testing.T) {
	g := tinyGraph()
	g.ExtraTests = []datasets.NodeSet{{Name: "test-again", Nodes: g.Splits[0].Test}, {Name: "train-again", Nodes: g.Splits[0].Train}}
	ctx := context.New()
	ctx.SetParams(map[string]any{ParamEpochs: 15, ParamRuns: 3, ParamHidden: 8, ParamSeed: 4})
	res, err := Train(ctx, testBackend(t), g, "geomix1", WithProgress(io.Discard))
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
	mean, std := meanStd(train)
	if got := res.ExtraTests["test-again"]; got.Mean != res.TestAccMean || got.Std != res.TestAccStd {
		t.Errorf("test-again %+v, want the test accuracy %v ± %v", got, res.TestAccMean, res.TestAccStd)
	}
	if got := res.ExtraTests["train-again"]; math.Abs(got.Mean-mean) > 1e-9 || math.Abs(got.Std-std) > 1e-9 {
		t.Errorf("train-again %+v, want the train accuracy at the selected epochs %v ± %v", got, mean, std)
	}
}

// TestPresetCora checks one preset row against SPEC §5.2 (Cora GeoMix-III).
func TestPresetCora(t *testing.T) {
	p, err := PresetFor("cora", "geomix3")
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]any{ParamLR: 0.1, ParamHidden: 16, ParamWeightDecay: 5e-4, ParamDropout: 0.5, ParamHops: 2,
		ParamResWeight: 0.1, ParamGraphWeight: 0.8, ParamLabelGrad: true, ParamRuns: 5, ParamEpochs: 300}
	for k, v := range want {
		if p.Params[k] != v {
			t.Errorf("cora/geomix3 %s = %v, want %v", k, p.Params[k], v)
		}
	}
	if err := checkParamTypes(p.Params); err != nil {
		t.Error(err)
	}
}

// TestPresetResetAdam: Adam's state carries across runs for GeoMix on main_exp and hetero data
// (SPEC §0.11) and is re-created for the plain baselines and on Twitch.
func TestPresetResetAdam(t *testing.T) {
	for _, c := range []struct {
		dataset, method string
		want            bool
	}{{"cora", "geomix1", false}, {"chameleon", "geomix3", false}, {"cora", "gcn", true}, {"chameleon", "gat", true}, {"twitch-ood", "geomix1", true}} {
		p, err := PresetFor(c.dataset, c.method)
		if err != nil {
			t.Fatal(err)
		}
		if got, _ := p.Params[ParamResetAdam].(bool); got != c.want {
			t.Errorf("%s/%s: reset_adam %v, want %v", c.dataset, c.method, got, c.want)
		}
	}
}

// trainCora trains method on Cora with its preset for one run and checks the test accuracy.
func trainCora(t *testing.T, method string, minAcc float64) {
	if testing.Short() {
		t.Skip("trains on Cora: skipped under -short")
	}
	g := loadOrSkip(t, "cora")
	ctx := context.New()
	if _, err := ApplyPreset(ctx, "cora", method); err != nil {
		t.Fatal(err)
	}
	ctx.SetParam(ParamRuns, 1)
	res, err := Train(ctx, testBackend(t), g, method, WithProgress(io.Discard))
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("cora %s: test %.2f%% (val %.2f%%), %.1f ms/epoch", method, res.TestAccMean, res.ValAccMean, res.EpochMsMedian)
	if res.TestAccMean < minAcc {
		t.Errorf("cora %s: test accuracy %.2f%%, want >= %.0f%%", method, res.TestAccMean, minAcc)
	}
}

// TestPresetBaselines: Mixup, GraphMix and GloGNN take their code's model settings and the data
// set's protocol (epochs aside, patience included).
func TestPresetBaselines(t *testing.T) {
	for _, c := range []struct {
		dataset, method string
		want            map[string]any
	}{
		{"cora", "mixup", map[string]any{ParamHidden: 256, ParamLayers: 3, ParamLR: 1e-3, ParamWeightDecay: 0.0, ParamNormalization: "row", ParamEpochs: 300}},
		{"cora", "graphmix", map[string]any{ParamGraphMixGamma: 10.0, ParamInputDropout: 0.5, ParamEpochs: 2000, ParamSelectLast: true, ParamHidden: 16}},
		{"pubmed", "graphmix", map[string]any{ParamGraphMixGamma: 1.0}},
		{"chameleon", "graphmix", map[string]any{ParamPatience: 200, ParamEpochs: 2000}},
		{"squirrel", "glognn", map[string]any{ParamGloGNNDelta: 1.0, ParamDropout: 0.8, ParamNormalization: "rowself", ParamPatience: 200}},
		{"twitch-ood", "dann", map[string]any{ParamHidden: 50, ParamLR: 0.007, ParamLRDecayEvery: 50, ParamLRDecayFactor: 0.8, ParamEpochs: 300}},
		{"citeseer", "glognn", map[string]any{ParamGloGNNAlpha: 77.0, ParamGloGNNBeta: 1000.0, ParamGloGNNOrders: 6, ParamHidden: 64}},
	} {
		p, err := PresetFor(c.dataset, c.method)
		if err != nil {
			t.Fatal(err)
		}
		for k, want := range c.want {
			if got := p.Params[k]; got != want {
				t.Errorf("%s/%s: %s = %v, want %v", c.dataset, c.method, k, got, want)
			}
		}
		if _, _, err := ParseMethod(c.method); err != nil {
			t.Error(err)
		}
	}
}

func TestCoraGeoMixI(t *testing.T) { trainCora(t, "geomix1", 82) }

func TestCoraGCN(t *testing.T) { trainCora(t, "gcn", 79) }

// TestGCNBaselineTakesPresetFlavour: the "gcn" baseline trains the configured GCN flavour (the
// heterophilic presets' gcnconv), other baselines their own backbone, mixing methods the configured one.
func TestGCNBaselineTakesPresetFlavour(t *testing.T) {
	for _, c := range []struct{ configured, method, want string }{
		{"gcnconv", "gcn", "gcnconv"}, {"gcn", "gcn", "gcn"}, {"gcnconv", "gat", "gat"}, {"gcnconv", "geomix1", "gcnconv"}, {"gat", "gcn", "gcn"},
	} {
		ctx := context.New()
		ctx.SetParams(map[string]any{ParamEpochs: 1, ParamRuns: 1, ParamHidden: 4, ParamBackbone: c.configured})
		res, err := Train(ctx, testBackend(t), tinyGraph(), c.method, WithProgress(io.Discard))
		if err != nil {
			t.Fatalf("%s with backbone %s: %v", c.method, c.configured, err)
		}
		if res.Backbone != c.want {
			t.Errorf("%s with backbone %s configured trained %s, want %s", c.method, c.configured, res.Backbone, c.want)
		}
	}
}

// TestSharedPropagationsKeepTheNumbers: sharing the backbones' propagations between a step's
// evaluation and training passes (backboneProp) gives the losses and accuracies of building them
// apart, bit for bit, at every epoch: on both GCN flavours, plain, with the mixings whose
// gradients meet the shared input (GeoMix-I with label_grad, GeoMix-III), and on SGC.
func TestSharedPropagationsKeepTheNumbers(t *testing.T) {
	for _, backbone := range []string{"gcn", "gcnconv", "sgc"} {
		for _, method := range []string{"gcn", "geomix1", "geomix3"} {
			extra := map[string]any{ParamBackbone: backbone, ParamUseBN: false, ParamGraphWeight: 0.8, ParamResWeight: 0.5}
			if method == "gcn" && backbone == "sgc" {
				method = "sgc"
			}
			shared := trainTiny(t, method, 3, extra)
			shareBackboneProps = false
			apart := trainTiny(t, method, 3, extra)
			shareBackboneProps = true
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
