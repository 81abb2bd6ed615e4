package training

import (
	"io"
	"testing"

	"github.com/geomix-go/geomix/geomix/backbones"
	"github.com/geomix-go/geomix/geomix/methods"
	"github.com/geomix-go/geomix/internal/testutil"
	"github.com/gomlx/gomlx/pkg/ml/context"
)

// TestLoopMatchesUpdateThenEvaluate: the training loop, whose steps evaluate the previous update
// inside the next one (and evaluate alone where a run may stop), gives at every epoch the loss and
// accuracies of the plain loop "update, then evaluate", over two runs (Adam carried across them) and
// with early stopping.
func TestLoopMatchesUpdateThenEvaluate(t *testing.T) {
	for _, method := range []string{"gcn", "geomix1", "geomix3"} {
		newTiny := func() *trainer {
			ctx := context.New()
			ctx.SetParams(map[string]any{ParamEpochs: 25, ParamRuns: 2, ParamPatience: 4, backbones.ParamDropout: 0.5, backbones.ParamHidden: 8,
				methods.ParamHops: 2, methods.ParamAlpha: 0.3, methods.ParamLabelGrad: true, ParamSeed: 5, ParamLR: 0.05})
			tr, err := newTrainer(ctx, testutil.Backend(t), testutil.TinyGraph(), method, false)
			if err != nil {
				t.Fatal(err)
			}
			return tr
		}
		res, err := newTiny().run(trainOptions{progress: io.Discard})
		if err != nil {
			t.Fatal(err)
		}
		plain := newTiny()
		stopped := false
		for r, rr := range res.PerRun {
			if r > 0 {
				if err := plain.resetForRun(); err != nil {
					t.Fatal(err)
				}
			}
			split := plain.g.Splits[0]
			b := plain.batchOf(plain.main, split.Train, complement(plain.g.NumNodes, split.Train))
			stopped = stopped || len(rr.Curve) < plain.epochs
			for e, got := range rr.Curve {
				loss, _, err := plain.step(e, b, true)
				if err != nil {
					t.Fatal(err)
				}
				pred, err := plain.evaluate(e)
				if err != nil {
					t.Fatal(err)
				}
				if val, test := accuracy(pred, plain.g.Labels, split.Val), accuracy(pred, plain.g.Labels, split.Test); got.Loss != loss || got.ValAcc != val || got.TestAcc != test {
					t.Fatalf("%s run %d epoch %d: loop gave loss %v val %v test %v, update-then-evaluate %v %v %v",
						method, r, e, got.Loss, got.ValAcc, got.TestAcc, loss, val, test)
				}
			}
		}
		if !stopped {
			t.Errorf("%s: no run stopped early; the test wants the patience path covered", method)
		}
	}
}

// TestRepresentations: WithRepresentations hands over, once per run, logits [N, C] whose argmax
// gives the run's reported test accuracy at its selected epoch, and asking for them changes no
// number of the training (GCN, GeoMix-I and GraphMix, whose FCN steps return them too).
func TestRepresentations(t *testing.T) {
	for _, method := range []string{"gcn", "geomix1", "graphmix"} {
		ctx := context.New()
		ctx.SetParams(map[string]any{ParamEpochs: 20, ParamRuns: 2, backbones.ParamHidden: 8, methods.ParamHops: 2, methods.ParamAlpha: 0.3, ParamSeed: 5, ParamLR: 0.05, backbones.ParamDropout: 0.3})
		g := testutil.TinyGraph()
		plain, err := Train(ctx, testutil.Backend(t), g, method, WithProgress(io.Discard))
		if err != nil {
			t.Fatal(err)
		}
		var calls []int
		res, err := Train(ctx, testutil.Backend(t), g, method, WithProgress(io.Discard), WithRepresentations(func(run, epoch int, logits [][]float32) {
			calls = append(calls, run)
			rr := plain.PerRun[run]
			if epoch != rr.BestEpoch || len(logits) != g.NumNodes || len(logits[0]) != g.NumClasses {
				t.Errorf("%s run %d: logits [%d, %d] at epoch %d, want [%d, %d] at the selected epoch %d", method, run, len(logits), len(logits[0]), epoch, g.NumNodes, g.NumClasses, rr.BestEpoch)
				return
			}
			pred := make([]int32, len(logits))
			for i, row := range logits {
				for c, v := range row {
					if v > row[pred[i]] {
						pred[i] = int32(c)
					}
				}
			}
			if acc := 100 * accuracy(pred, g.Labels, g.Splits[0].Test); acc != rr.TestAcc {
				t.Errorf("%s run %d: the logits' test accuracy %v, the run reports %v", method, run, acc, rr.TestAcc)
			}
		}))
		if err != nil {
			t.Fatal(err)
		}
		if len(calls) != 2 || calls[0] != 0 || calls[1] != 1 {
			t.Errorf("%s: representations of runs %v, want [0 1]", method, calls)
		}
		for r := range res.PerRun {
			if a, b := res.PerRun[r], plain.PerRun[r]; a.TestAcc != b.TestAcc || a.BestEpoch != b.BestEpoch || a.Curve[len(a.Curve)-1].Loss != b.Curve[len(b.Curve)-1].Loss {
				t.Errorf("%s run %d: with representations %+v, without %+v", method, r, a, b)
			}
		}
	}
}
