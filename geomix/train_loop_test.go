package geomix

import (
	"io"
	"testing"

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
			ctx.SetParams(map[string]any{ParamEpochs: 25, ParamRuns: 2, ParamPatience: 4, ParamDropout: 0.5, ParamHidden: 8,
				ParamHops: 2, ParamAlpha: 0.3, ParamLabelGrad: true, ParamSeed: 5, ParamLR: 0.05})
			tr, err := newTrainer(ctx, testBackend(t), tinyGraph(), method)
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
			mask := nodeMask(plain.g.NumNodes, split.Train)
			stopped = stopped || len(rr.Curve) < plain.epochs
			for e, got := range rr.Curve {
				loss, _, err := plain.step(e, mask)
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
