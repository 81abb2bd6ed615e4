package geomix

import (
	"testing"

	"github.com/gomlx/gomlx/pkg/ml/context"
)

// benchmarkEpoch measures one training epoch (an evaluation and an update: one step, as in
// training) of method on dataset with its preset, after one warm-up step that compiles it. It reports ms/epoch and, after the
// data set's GCN benchmark ran, the ratio to it (x_gcn; the target is <= 1.5), and the peak Go heap
// during as many untimed epochs after them (peak_heap_MiB; see EpochTiming.PeakHeapMiB).
func benchmarkEpoch(b *testing.B, dataset, method string) {
	g := loadOrSkip(b, dataset)
	ctx := context.New()
	if _, err := ApplyPreset(ctx, dataset, method); err != nil {
		b.Fatal(err)
	}
	e, err := newEpochTimer(ctx, testBackend(b), g, method)
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if err := e.step(i + 1); err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	ms := float64(b.Elapsed().Microseconds()) / 1000 / float64(b.N)
	peak, err := e.peakHeap(b.N+1, b.N)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportMetric(ms, "ms/epoch")
	b.ReportMetric(float64(peak)/(1<<20), "peak_heap_MiB")
	if method == "gcn" {
		gcnMillis[dataset] = ms
	} else if base, ok := gcnMillis[dataset]; ok {
		b.ReportMetric(ms/base, "x_gcn")
	}
}

// gcnMillis holds each data set's GCN ms/epoch from BenchmarkEpoch, to report GeoMix/GCN ratios.
var gcnMillis = map[string]float64{}

func BenchmarkEpoch(b *testing.B) {
	for _, dataset := range []string{"cora", "pubmed", "physics"} {
		for _, method := range []string{"gcn", "geomix1", "geomix2", "geomix3"} {
			b.Run(dataset+"/"+method, func(b *testing.B) { benchmarkEpoch(b, dataset, method) })
		}
	}
}
