package geomix

import (
	"testing"

	"github.com/gomlx/gomlx/pkg/ml/context"
)

// benchmarkEpoch measures one training epoch (update + evaluation) of method on dataset with its
// preset, after one warm-up epoch that compiles both executors. It reports ms/epoch.
func benchmarkEpoch(b *testing.B, dataset, method string) {
	g := loadOrSkip(b, dataset)
	ctx := context.New()
	if _, err := ApplyPreset(ctx, dataset, method); err != nil {
		b.Fatal(err)
	}
	tr, err := newTrainer(ctx, testBackend(b), g, method)
	if err != nil {
		b.Fatal(err)
	}
	split := g.Splits[0]
	mask := tr.trainMask(split)
	if _, err := tr.epoch(0, mask, split); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := tr.epoch(i+1, mask, split); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Milliseconds())/float64(b.N), "ms/epoch")
}

func BenchmarkEpoch(b *testing.B) {
	for _, dataset := range []string{"cora", "pubmed", "physics"} {
		for _, method := range []string{"gcn", "geomix1", "geomix2", "geomix3"} {
			b.Run(dataset+"/"+method, func(b *testing.B) { benchmarkEpoch(b, dataset, method) })
		}
	}
}
