package geomix

import (
	"fmt"
	"runtime"
	"runtime/metrics"
	"time"

	"github.com/geomix-go/geomix/datasets"
	"github.com/gomlx/gomlx/backends"
	"github.com/gomlx/gomlx/pkg/core/tensors"
	"github.com/gomlx/gomlx/pkg/ml/context"
)

// EpochTiming is the measured cost of one method's training epoch on one data set: one step, as in
// training (the evaluation of the current parameters, then the update).
type EpochTiming struct {
	Dataset string `json:"dataset"`
	Method  string `json:"method"`
	// Epochs is how many epochs were timed, after one untimed warm-up epoch that compiles.
	Epochs         int     `json:"epochs"`
	MillisPerEpoch float64 `json:"ms_per_epoch"`
	// PeakHeapMiB is the largest Go heap (which holds the pure-Go backend's buffers) seen during as
	// many epochs again, run after the timed ones and sampled every millisecond (sampling slows
	// epochs by up to a tenth, so the timed epochs run without it), dead objects not yet collected
	// included; the heap is collected before the setup, so earlier timings in the same process do
	// not count.
	PeakHeapMiB float64 `json:"peak_heap_mib"`
	// SetupSeconds covers building the trainer, compiling and the warm-up epoch.
	SetupSeconds float64 `json:"setup_seconds"`
}

// TimeEpochsPreset loads dataset and times epochs training epochs of method with its preset, ctx's
// hyper-parameters overriding it as in TrainPreset, on the first split.
func TimeEpochsPreset(ctx *context.Context, backend backends.Backend, dataset, method string, data datasets.Options, epochs int) (*EpochTiming, error) {
	if epochs < 1 {
		return nil, fmt.Errorf("timing %d epochs: want at least 1", epochs)
	}
	merged, g, _, err := presetAndGraph(ctx, dataset, method, data)
	if err != nil {
		return nil, err
	}
	// Free what earlier timings left (dead buffers and the backend's buffer pools, which two
	// collections empty), so that the peak below is this method's own.
	runtime.GC()
	runtime.GC()
	start := time.Now()
	e, err := newEpochTimer(merged, backend, g, method)
	if err != nil {
		return nil, err
	}
	timing := &EpochTiming{Dataset: dataset, Method: method, Epochs: epochs, SetupSeconds: time.Since(start).Seconds()}
	start = time.Now()
	for i := range epochs {
		if err := e.step(i + 1); err != nil {
			return nil, err
		}
	}
	timing.MillisPerEpoch = float64(time.Since(start).Microseconds()) / 1000 / float64(epochs)
	peak, err := e.peakHeap(epochs+1, epochs)
	if err != nil {
		return nil, err
	}
	timing.PeakHeapMiB = float64(peak) / (1 << 20)
	return timing, nil
}

// epochTimer is a trainer ready to repeat training epochs on the first split, warmed up (compiled).
type epochTimer struct {
	tr   *trainer
	mask *tensors.Tensor
}

// newEpochTimer builds method's trainer for g with ctx's hyper-parameters and runs one warm-up epoch.
func newEpochTimer(ctx *context.Context, backend backends.Backend, g *datasets.Graph, method string) (*epochTimer, error) {
	tr, err := newTrainer(ctx, backend, g, method, false)
	if err != nil {
		return nil, err
	}
	split := g.Splits[0]
	tr.runTrain, tr.runOthers = split.Train, complement(g.NumNodes, split.Train)
	e := &epochTimer{tr: tr, mask: nodeMask(g.NumNodes, split.Train)}
	return e, e.step(0)
}

// step runs training epoch number epoch.
func (e *epochTimer) step(epoch int) error {
	_, _, err := e.tr.step(epoch, e.mask)
	return err
}

// peakHeap runs epochs epochs numbered from first on, sampling the heap, and returns its peak in bytes.
func (e *epochTimer) peakHeap(first, epochs int) (uint64, error) {
	peak := samplePeakHeap()
	for i := range epochs {
		if err := e.step(first + i); err != nil {
			peak()
			return 0, err
		}
	}
	return peak(), nil
}

// samplePeakHeap samples the Go heap every millisecond until the returned function is called,
// which returns the largest live-and-unswept heap object bytes seen.
func samplePeakHeap() func() uint64 {
	done := make(chan struct{})
	result := make(chan uint64)
	go func() {
		var peak uint64
		sample := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}} // no stop-the-world
		ticker := time.NewTicker(time.Millisecond)
		defer ticker.Stop()
		for {
			metrics.Read(sample)
			peak = max(peak, sample[0].Value.Uint64())
			select {
			case <-done:
				result <- peak
				return
			case <-ticker.C:
			}
		}
	}()
	return func() uint64 {
		close(done)
		return <-result
	}
}
