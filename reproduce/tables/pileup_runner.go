package tables

import (
	"fmt"
	"io"
	"math"
	"strings"

	"github.com/geomix-go/geomix/datasets/pileup"
	"github.com/geomix-go/geomix/geomix"
	"github.com/geomix-go/geomix/geomix/training"
	"github.com/geomix-go/geomix/internal/stats"
	"github.com/gomlx/gomlx/backends"
	"github.com/gomlx/gomlx/pkg/ml/context"
)

// PileupCell is what a figure-pileup point records beside its Result: each run's metrics on the
// target test neutrals at its selected epoch, the majority-class baseline and the events' origin.
type PileupCell struct {
	// Runs holds every run's metrics, in run order: [Runs].
	Runs []PileupRun `json:"runs"`
	// MajorityAcc is the accuracy of predicting the test neutrals' most frequent class for all of
	// them, in percent (the same for every run: the events and split are built once per cell).
	MajorityAcc float64 `json:"majority_acc"`
	// TestNeutrals is the number of test neutrals the metrics are over.
	TestNeutrals int `json:"test_neutrals"`
	// Simulated is true when the events come from this toolkit's simulator, not the Zenodo files;
	// SourceFile and TargetFile name the files read (pileup.Sample.String).
	Simulated  bool   `json:"simulated"`
	SourceFile string `json:"source_file"`
	TargetFile string `json:"target_file"`
}

// PileupRun is one run's metrics on the target test neutrals at its selected epoch.
type PileupRun struct {
	Run int `json:"run"`
	// Acc is the accuracy over all test neutrals (the reference's metric), BalancedAcc the mean of
	// the per-class recalls, both in percent; AUC is the ROC AUC of P(LV), in [0, 1].
	Acc         float64 `json:"acc"`
	BalancedAcc float64 `json:"balanced_acc"`
	AUC         float64 `json:"auc"`
}

// PileupRunner trains one figure-pileup point and returns its Result with c.Runs runs and its
// PileupCell.
type PileupRunner func(c Cell) (*geomix.Result, *PileupCell, error)

// PileupQuickEpochs is the number of epochs of a quick Pileup point: fewer than QuickEpochs, so
// that a quick sweep of the seven methods (node Mixup's 3 × 256-unit GraphConv is about 90 times
// GCN's update here) runs in CI time. Quick numbers are NOT comparable with the paper's.
const PileupQuickEpochs = 10

// PileupPrefix starts the preset name of every Pileup shift: "pileup-" + pileup.Shift.Name.
const PileupPrefix = "pileup-"

// PileupShift returns the shift of a Pileup preset name, e.g. "pileup-gg-pu10-pu30".
func PileupShift(dataset string) (pileup.Shift, error) {
	if !strings.HasPrefix(dataset, PileupPrefix) {
		return pileup.Shift{}, fmt.Errorf("tables: %q is not a Pileup shift, expected %s<shift>", dataset, PileupPrefix)
	}
	return pileup.ShiftByName(strings.TrimPrefix(dataset, PileupPrefix))
}

// PileupCells returns figure-pileup's runner: the shift's events built once per cell from the
// preset's seed (pileup.Build, files from data; DANN's batches carry paired target events,
// pileup.Options.DomainBatches), then geomix.Train with the preset for (c.Dataset, c.Method), c's
// runs and Params, and PileupQuickEpochs epochs when quick, on backend. Each run's metrics come from the
// logits at its selected epoch (geomix.WithRepresentations). Progress goes to out (nil: discarded).
// Cells are independent and may train concurrently.
func PileupCells(backend backends.Backend, data pileup.Data, out io.Writer) PileupRunner {
	if out == nil {
		out = io.Discard
	}
	if data.Progress == nil {
		data.Progress = out
	}
	return func(c Cell) (*geomix.Result, *PileupCell, error) {
		shift, err := PileupShift(c.Dataset)
		if err != nil {
			return nil, nil, err
		}
		preset, err := geomix.PresetFor(c.Dataset, c.Method)
		if err != nil {
			return nil, nil, err
		}
		ctx := context.New()
		ctx.SetParams(preset.Params)
		ctx.SetParam(training.ParamRuns, c.Runs)
		for k, v := range c.Params {
			ctx.SetParam(k, v)
		}
		if c.Quick {
			ctx.SetParam(training.ParamEpochs, PileupQuickEpochs)
		}
		seed := context.GetParamOr(ctx, training.ParamSeed, 0)
		x, err := pileup.Build(shift, pileup.Options{Seed: uint64(seed), Data: data, DomainBatches: c.Method == "dann"})
		if err != nil {
			return nil, nil, err
		}
		labels, test := x.Graph.Labels, x.Graph.Splits[0].Test
		cell := &PileupCell{MajorityAcc: 100 * pileup.MajorityAccuracy(labels, test), TestNeutrals: len(test),
			Simulated: x.SourceSample.Simulated || x.TargetSample.Simulated, SourceFile: x.SourceSample.String(), TargetFile: x.TargetSample.String()}
		scored := func(run, _ int, logits [][]float32) {
			pred, score := PredictLV(logits)
			cell.Runs = append(cell.Runs, PileupRun{Run: run, Acc: 100 * pileup.Accuracy(pred, labels, test),
				BalancedAcc: 100 * pileup.BalancedAccuracy(pred, labels, test), AUC: pileup.AUC(score, labels, test)})
		}
		res, err := geomix.Train(ctx, backend, x.Graph, c.Method, geomix.WithProgress(out), geomix.WithRepresentations(scored))
		if err != nil {
			return nil, nil, err
		}
		res.Preset, res.DataNotes = preset.Source, x.Graph.Notes
		return res, cell, nil
	}
}

// PredictLV returns the predicted class (argmax, the first on ties) and P(LV) = softmax(logits)[:, 1]
// of two-class logits [N, 2].
func PredictLV(logits [][]float32) (pred []int32, lv []float32) {
	pred, lv = make([]int32, len(logits)), make([]float32, len(logits))
	for i, l := range logits {
		if l[pileup.LabelLV] > l[pileup.LabelPU] {
			pred[i] = pileup.LabelLV
		}
		lv[i] = float32(1 / (1 + math.Exp(float64(l[pileup.LabelPU]-l[pileup.LabelLV]))))
	}
	return pred, lv
}

// String is the cell's metrics in key=value form, means over runs: "bal=61.20 auc=0.664 runs=5".
func (c *PileupCell) String() string {
	var bal, auc []float64
	for _, r := range c.Runs {
		bal, auc = append(bal, r.BalancedAcc), append(auc, r.AUC)
	}
	b, _ := stats.MeanStd(bal)
	a, _ := stats.MeanStd(auc)
	return fmt.Sprintf("bal=%.2f auc=%.3f runs=%d", b, a, len(c.Runs))
}
