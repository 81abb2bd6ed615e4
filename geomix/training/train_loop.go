package training

import (
	"errors"
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/geomix-go/geomix/datasets"
	"github.com/geomix-go/geomix/geomix/methods"
	"github.com/geomix-go/geomix/internal/progress"
	"github.com/geomix-go/geomix/internal/stats"
	"github.com/gomlx/gomlx/pkg/core/tensors"
	"github.com/gomlx/gomlx/pkg/ml/context"
)

// run trains all runs and summarises them, from o.checkpoint's run if there is one.
func (t *trainer) run(o trainOptions) (*Result, error) {
	start := time.Now()
	res := &Result{Dataset: t.g.Name, Method: t.method, Backbone: t.backbone, Runs: t.runs, Params: t.params}
	first, earlier := 0, 0.0
	if o.checkpoint != "" {
		h, err := t.resume(o.checkpoint)
		if err != nil {
			return nil, err
		}
		if h != nil {
			first, earlier, res.PerRun = h.NextRun, h.Seconds, h.Runs
			if o.progress != nil {
				fmt.Fprintf(o.progress, "%s/%s: resuming at run %d of %d from %s\n", t.g.Name, t.method, first+1, t.runs, o.checkpoint)
			}
		}
	}
	desc := fmt.Sprintf("%s/%s epochs", t.g.Name, t.method)
	if first > 0 { // count only this call's epochs, so that the ETA holds
		desc += fmt.Sprintf(" of runs %d-%d", first+1, t.runs)
	}
	bar := progress.New(o.progress, int64((t.runs-first)*t.epochs), desc, false)
	defer func() { _ = bar.Finish() }()
	for r := first; r < t.runs; r++ {
		if r > first {
			if err := t.resetForRun(); err != nil {
				return nil, fmt.Errorf("%s/%s run %d: re-initialising the model: %w", t.g.Name, t.method, r, err)
			}
			if o.checkpoint != "" {
				if err := t.saveCheckpoint(o.checkpoint, r, res.PerRun, earlier+time.Since(start).Seconds()); err != nil {
					return nil, fmt.Errorf("%s/%s run %d: %w", t.g.Name, t.method, r, err)
				}
			}
		}
		if StopRequested(o.stop) {
			return nil, t.stopped(o, r, 0)
		}
		rr, err := t.oneRun(r, bar, o)
		var stop *StoppedError
		if errors.As(err, &stop) {
			return nil, t.stopped(o, r, stop.Epoch)
		} else if err != nil {
			return nil, fmt.Errorf("%s/%s run %d: %w", t.g.Name, t.method, r, err)
		}
		res.PerRun = append(res.PerRun, *rr)
	}
	var epochMillis []float64
	for _, rr := range res.PerRun {
		for _, s := range rr.Curve {
			epochMillis = append(epochMillis, s.Millis)
		}
	}
	tests := make([]float64, len(res.PerRun))
	vals := make([]float64, len(res.PerRun))
	for i, rr := range res.PerRun {
		tests[i], vals[i] = rr.TestAcc, rr.ValAcc
	}
	res.TestAccMean, res.TestAccStd = stats.MeanStd(tests)
	if len(t.g.ExtraTests) > 0 {
		res.ExtraTests = make(map[string]MeanStd, len(t.g.ExtraTests))
	}
	for _, set := range t.g.ExtraTests {
		accs := make([]float64, len(res.PerRun))
		for i, rr := range res.PerRun {
			accs[i] = rr.ExtraTestAcc[set.Name]
		}
		m, s := stats.MeanStd(accs)
		res.ExtraTests[set.Name] = MeanStd{Mean: m, Std: s}
	}
	res.ValAccMean, _ = stats.MeanStd(vals)
	res.EpochMsMedian = stats.Median(epochMillis)
	res.SecondsTotal = earlier + time.Since(start).Seconds()
	res.TrainableParams = t.trainableParams()
	return res, nil
}

// trainableParams counts the scalars of the model's trainable variables, frozen ones excluded.
func (t *trainer) trainableParams() int {
	n := 0
	for v := range t.ctx.IterVariables() {
		if scope := v.Scope(); v.Trainable && strings.HasPrefix(scope, methods.ModelScope) && !t.model.Frozen(scope) {
			n += v.Shape().Size()
		}
	}
	return n
}

// ErrStopped is what a *StoppedError wraps: Train was stopped through WithStop.
var ErrStopped = errors.New("training stopped")

// StoppedError is Train's error when it stopped through WithStop: where it stopped and what its
// checkpoint keeps.
type StoppedError struct {
	// Dataset and Method name the training.
	Dataset, Method string
	// Run is the 0-based run in progress, of Runs; Epoch counts the epochs of Run it finished.
	Run, Runs, Epoch int
	// Checkpoint is the WithCheckpoint file ("" for none); Kept counts the finished runs it holds.
	Checkpoint string
	Kept       int
}

// Error says where the training stopped, what was kept and how it resumes.
func (e *StoppedError) Error() string {
	where := fmt.Sprintf("%s/%s stopped in run %d of %d after %d epoch(s)", e.Dataset, e.Method, e.Run+1, e.Runs, e.Epoch)
	switch {
	case e.Checkpoint == "":
		return where + ": no checkpoint, nothing kept"
	case e.Kept == 0:
		return where + ": no run finished, nothing kept in " + e.Checkpoint
	}
	return fmt.Sprintf("%s: %s keeps %d finished run(s); the same training resumes at run %d", where, e.Checkpoint, e.Kept, e.Kept+1)
}

// Unwrap returns ErrStopped.
func (e *StoppedError) Unwrap() error { return ErrStopped }

// StopRequested reports whether stop (see WithStop) is closed; never for nil.
func StopRequested(stop <-chan struct{}) bool {
	select {
	case <-stop:
		return true
	default:
		return false
	}
}

// stopped is the StoppedError of t stopped in run r after epoch epochs: a checkpoint, written at
// the start of every run after the first or resumed from, holds the r runs before it.
func (t *trainer) stopped(o trainOptions, r, epoch int) *StoppedError {
	e := &StoppedError{Dataset: t.g.Name, Method: t.method, Run: r, Runs: t.runs, Epoch: epoch, Checkpoint: o.checkpoint}
	if o.checkpoint != "" {
		e.Kept = r
	}
	return e
}

// resetForRun re-initialises the model (and Adam's state with ParamResetAdam) before runs after the
// first; frozen attention weights keep their first values.
func (t *trainer) resetForRun() error {
	for v := range t.ctx.IterVariables() {
		scope := v.Scope()
		inModel := strings.HasPrefix(scope, methods.ModelScope)
		if (inModel && !t.model.Frozen(scope)) || (t.resetAdam && strings.HasPrefix(scope, AdamScope)) {
			if err := v.Reset(); err != nil {
				return err
			}
		}
	}
	return t.ctx.InitializeVariables(t.backend, nil)
}

// oneRun trains run r from the current (fresh) parameters and returns its curve and selected epoch.
//
// A step evaluates the parameters and then applies the next update, so epoch e's evaluation (after
// update e) usually comes from the step that applies update e+1, sharing its input projection and
// what both passes propagate alike (GCN's first layer, SGC's hops: see mixing.PropagateShared).
// Where epoch e's evaluation may end the run (the last epoch, or patience about to run out) it comes
// from an evaluation-only call, so no update runs that the authors' loop would not run: Adam's state
// carries into the next run. The numbers are those of update-then-evaluate, epoch by epoch. With
// TrainBatches (oneRunBatches) every epoch updates on each batch and then evaluates.
func (t *trainer) oneRun(r int, bar progress.Bar, o trainOptions) (*RunResult, error) {
	sel := t.newSelection(r)
	if t.batches != nil {
		return t.oneRunBatches(sel, bar, o)
	}
	b := t.batchOf(t.main, sel.split.Train, complement(t.g.NumNodes, sel.split.Train))
	begin := time.Now()
	loss, _, err := t.step(0, b, true)
	if err != nil {
		return nil, err
	}
	for epoch := range t.epochs {
		var pred []int32
		var nextLoss float64
		updatedNext := epoch+1 < t.epochs && !(t.patience > 0 && sel.sinceBest+1 >= t.patience)
		if updatedNext {
			nextLoss, pred, err = t.step(epoch+1, b, true)
		} else {
			pred, err = t.evaluate(epoch)
		}
		if err != nil {
			return nil, err
		}
		if stop, err := t.observe(sel, epoch, loss, pred, begin, bar, o); err != nil {
			return nil, err
		} else if stop {
			break
		}
		b.run.ValAcc = append(b.run.ValAcc, sel.rr.Curve[len(sel.rr.Curve)-1].ValAcc)
		begin = time.Now()
		if updatedNext {
			loss = nextLoss
		} else if epoch+1 < t.epochs {
			if loss, _, err = t.step(epoch+1, b, true); err != nil {
				return nil, err
			}
		}
	}
	return sel.done(o), nil
}

// oneRunBatches trains run r on the graph's TrainBatches: every epoch one update per batch, in
// order (the loss is their mean), then an evaluation of the graph.
func (t *trainer) oneRunBatches(sel *selection, bar progress.Bar, o trainOptions) (*RunResult, error) {
	for epoch := range t.epochs {
		begin := time.Now()
		loss := 0.0
		for _, b := range t.batches {
			l, _, err := t.step(epoch, b, false)
			if err != nil {
				return nil, err
			}
			loss += l / float64(len(t.batches))
		}
		pred, err := t.evaluate(epoch)
		if err != nil {
			return nil, err
		}
		if stop, err := t.observe(sel, epoch, loss, pred, begin, bar, o); err != nil {
			return nil, err
		} else if stop {
			break
		}
	}
	return sel.done(o), nil
}

// selection follows a run's best validation epoch.
type selection struct {
	run        int
	split      datasets.Split
	rr         *RunResult
	sinceBest  int
	bestVal    float64
	bestLogits *tensors.Tensor // the selected epoch's, with withLogits
}

// newSelection starts run r on its split, r mod the number of splits.
func (t *trainer) newSelection(r int) *selection {
	splitIdx := r % len(t.g.Splits)
	return &selection{run: r, split: t.g.Splits[splitIdx], rr: &RunResult{Run: r, Split: splitIdx, BestEpoch: -1}, bestVal: -1}
}

// observe records epoch's loss and prediction pred [N] (evaluated after its update), keeps the
// epoch when its validation accuracy is the best so far, and reports whether the run stops
// (patience run out); a stop requested through WithStop is a *StoppedError.
func (t *trainer) observe(sel *selection, epoch int, loss float64, pred []int32, begin time.Time, bar progress.Bar, o trainOptions) (bool, error) {
	split := sel.split
	s := EpochStats{Epoch: epoch, Loss: loss, TrainAcc: accuracy(pred, t.g.Labels, split.Train),
		ValAcc: accuracy(pred, t.g.Labels, split.Val), TestAcc: accuracy(pred, t.g.Labels, split.Test),
		Millis: float64(time.Since(begin).Microseconds()) / 1000}
	rr := sel.rr
	rr.Curve = append(rr.Curve, s)
	if s.ValAcc > sel.bestVal || (t.selectLast && s.ValAcc == sel.bestVal) {
		sel.bestVal = s.ValAcc
		rr.BestEpoch, rr.ValAcc, rr.TestAcc = epoch, 100*s.ValAcc, 100*s.TestAcc
		rr.ExtraTestAcc = t.extraTestAcc(pred)
		sel.bestLogits = t.logits
		sel.sinceBest = 0
	} else {
		sel.sinceBest++
	}
	if o.onEpoch != nil {
		o.onEpoch(sel.run, s)
	}
	_ = bar.Add(1)
	if StopRequested(o.stop) {
		return false, &StoppedError{Epoch: epoch + 1}
	}
	if t.patience > 0 && sel.sinceBest >= t.patience {
		_ = bar.Add(t.epochs - epoch - 1)
		return true, nil
	}
	return false, nil
}

// done hands the selected epoch's logits to the representations callback and returns the run.
func (sel *selection) done(o trainOptions) *RunResult {
	if o.representations != nil && sel.bestLogits != nil {
		o.representations(sel.run, sel.rr.BestEpoch, sel.bestLogits.Value().([][]float32))
	}
	return sel.rr
}

// step applies training update number epoch on batch b, whose loss it returns; with withEval it
// first evaluates the current parameters on b's graph (pred [N] is their argmax prediction). The
// method draws the update's kind and inputs, and the kind's executor runs it.
func (t *trainer) step(epoch int, b *batch, withEval bool) (loss float64, pred []int32, err error) {
	st := t.mth.Draw(&b.run, epoch)
	key := execKey{kind: st.Kind, withEval: withEval}
	exec, ok := t.execs[key]
	if !ok {
		if exec, err = t.newStepExec(st.Kind, withEval); err != nil {
			return 0, nil, err
		}
		t.execs[key] = exec
	}
	what := "training step"
	if st.Kind != 0 {
		what = fmt.Sprintf("training step of kind %d", st.Kind)
	}
	return t.result(epoch, what, exec, append(b.args(), st.Inputs...))
}

// result runs a step executor on args and returns its loss and prediction; what names the step
// in errors.
func (t *trainer) result(epoch int, what string, exec *context.Exec, args []any) (loss float64, pred []int32, err error) {
	out, err := exec.Exec(args...)
	if err != nil {
		return 0, nil, fmt.Errorf("epoch %d, %s: %w", epoch, what, err)
	}
	if t.loader != nil { // the step created every variable: were they all in the checkpoint?
		err, t.loader = t.loader.check(), nil
		t.ctx.SetLoader(nil)
		if err != nil {
			return 0, nil, err
		}
	}
	loss = float64(tensors.ToScalar[float32](out[0]))
	if math.IsNaN(loss) || math.IsInf(loss, 0) {
		return 0, nil, fmt.Errorf("epoch %d: loss is %v (try a lower %s)", epoch, loss, ParamLR)
	}
	return loss, t.keepLogits(out[1:]), nil
}

// evaluate returns the current parameters' argmax prediction [N], after update number epoch.
func (t *trainer) evaluate(epoch int) ([]int32, error) {
	out, err := t.evalExec.Exec(t.main.args...)
	if err != nil {
		return nil, fmt.Errorf("epoch %d, evaluation: %w", epoch, err)
	}
	return t.keepLogits(out), nil
}

// keepLogits returns the prediction of an executor's evaluation outputs (pred, then the logits
// with withLogits) and keeps the logits in t.logits.
func (t *trainer) keepLogits(eval []*tensors.Tensor) []int32 {
	if len(eval) == 0 { // an update without evaluation
		return nil
	}
	if t.withLogits {
		t.logits = eval[1]
	}
	return eval[0].Value().([]int32)
}

// extraTestAcc returns pred's accuracy in percent on each of the graph's extra test sets, or nil.
func (t *trainer) extraTestAcc(pred []int32) map[string]float64 {
	if len(t.g.ExtraTests) == 0 {
		return nil
	}
	acc := make(map[string]float64, len(t.g.ExtraTests))
	for _, set := range t.g.ExtraTests {
		acc[set.Name] = 100 * accuracy(pred, t.g.Labels, set.Nodes)
	}
	return acc
}

// complement returns the nodes of [0, n) not in nodes, in order.
func complement(n int, nodes []int32) []int32 {
	in := make([]bool, n)
	for _, v := range nodes {
		in[v] = true
	}
	var out []int32
	for v := range int32(n) {
		if !in[v] {
			out = append(out, v)
		}
	}
	return out
}

// accuracy is the fraction of nodes whose prediction equals their label.
func accuracy(pred, labels, nodes []int32) float64 {
	if len(nodes) == 0 {
		return 0
	}
	hit := 0
	for _, v := range nodes {
		if pred[v] == labels[v] {
			hit++
		}
	}
	return float64(hit) / float64(len(nodes))
}
