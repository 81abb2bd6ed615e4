package epochcost

import (
	"fmt"
	"runtime"
	"slices"
	"time"

	"github.com/geomix-go/geomix/datasets"
	"github.com/geomix-go/geomix/geomix/presets"
	"github.com/geomix-go/geomix/geomix/training"
	"github.com/geomix-go/geomix/internal/stats"
	"github.com/gomlx/gomlx/backends"
	"github.com/gomlx/gomlx/pkg/ml/context"
)

// EpochTiming is the measured cost of one method's training epoch on one data set: one step, as in
// training (the evaluation of the current parameters, then the update).
type EpochTiming struct {
	// Dataset and Method name the timed cell (datasets and geomix names).
	Dataset string `json:"dataset"`
	Method  string `json:"method"`
	// Hidden is set on a reference GCN's timing: its hidden width, the total width (heads ×
	// hidden) of WidthOf, a method with a GAT backbone, whose epoch it is compared with.
	Hidden  int    `json:"hidden,omitempty"`
	WidthOf string `json:"width_of,omitempty"`
	// Epochs is how many epochs were timed, after one untimed warm-up epoch that compiles.
	Epochs int `json:"epochs"`
	// MillisPerEpoch is the median of the timed epochs, MillisIQR their interquartile range.
	MillisPerEpoch float64 `json:"ms_per_epoch"`
	MillisIQR      float64 `json:"ms_iqr"`
	// RatioToGCN is the median over rounds of this method's epoch over GCN's epoch of the same
	// round, when GCN was timed beside it (0 otherwise, and for GCN itself).
	RatioToGCN float64 `json:"ratio_to_gcn,omitempty"`
	// RatioToSameWidthGCN is, for a method with a GAT backbone, the median over rounds of its
	// epoch over the epoch of the same round of the reference GCN of its total width (0 for
	// other methods).
	RatioToSameWidthGCN float64 `json:"ratio_to_same_width_gcn,omitempty"`
	// PeakHeapMiB is the largest Go heap (which holds the pure-Go backend's buffers) seen during as
	// many epochs again, untimed and run after the timing with this method's trainer alone, built
	// anew after a collection (so other methods' trainers do not count), sampled every millisecond
	// (sampling slows epochs by up to a tenth, hence not while timing); dead objects not yet
	// collected count.
	PeakHeapMiB float64 `json:"peak_heap_mib"`
	// SetupSeconds covers building the trainer, compiling and the warm-up epoch.
	SetupSeconds float64 `json:"setup_seconds"`
}

// TimeEpochsPresets times epochs training epochs of each of methods on dataset with their presets,
// ctx's hyper-parameters overriding them as in TrainPreset, on the first split. The methods'
// trainers are built first, then timed in rounds of one epoch each, a round starting one method
// later than the one before, so that the machine's slow spells fall on every method alike; with
// "gcn" among methods, each timing's RatioToGCN pairs its epochs with GCN's of the same rounds.
// Methods with a GAT backbone bring a reference GCN of their total width (heads × hidden), timed
// in the same rounds, after the methods' timings (Hidden set), and their RatioToSameWidthGCN.
func TimeEpochsPresets(ctx *context.Context, backend backends.Backend, dataset string, methods []string, data datasets.Options, epochs int) ([]*EpochTiming, error) {
	if epochs < 1 {
		return nil, fmt.Errorf("timing %d epochs: want at least 1", epochs)
	}
	cells, timers, seconds, err := cellTimers(ctx, backend, dataset, methods, data)
	if err != nil {
		return nil, err
	}
	timings := make([]*EpochTiming, len(cells))
	for i, c := range cells {
		timings[i] = &EpochTiming{Dataset: dataset, Method: c.method, Hidden: c.hidden, WidthOf: c.widthOf, Epochs: epochs, SetupSeconds: seconds[i]}
	}
	millis := make([][]float64, len(cells)) // [cell][round]
	err = inRounds(len(cells), epochs, func(i, round int) error {
		start := time.Now()
		if err := timers[i].step(round + 1); err != nil {
			return fmt.Errorf("%s/%s: %w", dataset, cells[i].label(), err)
		}
		millis[i] = append(millis[i], float64(time.Since(start).Microseconds())/1000)
		return nil
	})
	if err != nil {
		return nil, err
	}
	gcn := slices.Index(methods, "gcn")
	for i, t := range timings {
		t.MillisPerEpoch, t.MillisIQR = medianIQR(millis[i])
		if gcn >= 0 && i != gcn {
			t.RatioToGCN = pairedRatio(millis[i], millis[gcn])
		}
		t.RatioToSameWidthGCN = sameWidthRatio(cells, timers, millis, i)
	}
	timers = nil // the memory pass below measures each trainer alone
	for i, t := range timings {
		peak, err := presetPeakHeap(cellContext(ctx, cells[i]), backend, dataset, t.Method, data, epochs)
		if err != nil {
			return nil, fmt.Errorf("%s/%s: %w", dataset, cells[i].label(), err)
		}
		t.PeakHeapMiB = float64(peak) / (1 << 20)
	}
	return timings, nil
}

// inRounds calls measure(i, round) for method indices i < methods, in epochs rounds of one call
// per method, each round starting one method later than the one before, so that the machine's
// slow spells fall on every method alike. It stops at the first error.
func inRounds(methods, epochs int, measure func(i, round int) error) error {
	for round := range epochs {
		for k := range methods {
			if err := measure((round+k)%methods, round); err != nil {
				return err
			}
		}
	}
	return nil
}

// pairedRatio is the median over rounds r of xs[r] / gcn[r]: a method's measure over GCN's of the
// same round.
func pairedRatio(xs, gcn []float64) float64 {
	ratios := make([]float64, len(xs))
	for r := range ratios {
		ratios[r] = xs[r] / gcn[r]
	}
	return stats.Median(ratios)
}

// newPresetEpochTimer loads dataset for method's preset and builds its epoch timer.
func newPresetEpochTimer(ctx *context.Context, backend backends.Backend, dataset, method string, data datasets.Options) (*epochTimer, error) {
	merged, g, _, err := presets.Load(ctx, dataset, method, data)
	if err != nil {
		return nil, err
	}
	width, err := gatWidth(merged, method)
	if err != nil {
		return nil, err
	}
	timer, err := newEpochTimer(merged, backend, g, method)
	if err != nil {
		return nil, err
	}
	timer.gatWidth = width
	return timer, nil
}

// presetPeakHeap collects the heap (dead buffers and the backend's buffer pools, which two
// collections empty), builds method's trainer anew and returns the peak heap in bytes over epochs
// epochs.
func presetPeakHeap(ctx *context.Context, backend backends.Backend, dataset, method string, data datasets.Options, epochs int) (uint64, error) {
	runtime.GC()
	runtime.GC()
	timer, err := newPresetEpochTimer(ctx, backend, dataset, method, data)
	if err != nil {
		return 0, err
	}
	return timer.peakHeap(1, epochs)
}

// medianIQR returns the median of xs (as median does) and their interquartile range (quartiles
// interpolated linearly between order statistics).
func medianIQR(xs []float64) (float64, float64) {
	s := slices.Sorted(slices.Values(xs))
	quartile := func(p float64) float64 {
		pos := p * float64(len(s)-1)
		lo := int(pos)
		if lo+1 >= len(s) {
			return s[lo]
		}
		return s[lo] + (pos-float64(lo))*(s[lo+1]-s[lo])
	}
	return stats.Median(xs), quartile(0.75) - quartile(0.25)
}

// epochTimer is a trainer ready to repeat training epochs on the first split, warmed up (compiled).
type epochTimer struct {
	stepper *training.Stepper
	// gatWidth is the total width of the method's GAT backbone (gatWidth), 0 for other backbones.
	gatWidth int
}

// newEpochTimer builds method's trainer for g with ctx's hyper-parameters and runs one warm-up epoch.
func newEpochTimer(ctx *context.Context, backend backends.Backend, g *datasets.Graph, method string) (*epochTimer, error) {
	s, err := training.NewStepper(ctx, backend, g, method)
	if err != nil {
		return nil, err
	}
	e := &epochTimer{stepper: s}
	return e, e.step(0)
}

// step runs training epoch number epoch.
func (e *epochTimer) step(epoch int) error { return e.stepper.Step(epoch) }

// peakHeap runs epochs epochs numbered from first on, sampling the heap, and returns its peak in bytes.
func (e *epochTimer) peakHeap(first, epochs int) (uint64, error) {
	peak := SamplePeakHeap()
	for i := range epochs {
		if err := e.step(first + i); err != nil {
			peak()
			return 0, err
		}
	}
	return peak(), nil
}
