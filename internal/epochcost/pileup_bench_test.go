package epochcost

import (
	"testing"

	"github.com/geomix-go/geomix/datasets/pileup"
	"github.com/geomix-go/geomix/geomix"
	"github.com/geomix-go/geomix/geomix/training"
	"github.com/geomix-go/geomix/internal/testutil"
	"github.com/gomlx/gomlx/pkg/ml/context"
)

// BenchmarkPileupBatchEpoch times one training update of each method of the Pileup figure on one
// batch of 5 source events of the gg PU10→PU30 shift (simulated events, the shift's presets; DANN's
// batch also holds 5 target events at PU30): ns/op is one update, and the batch's node count is
// reported as nodes.
func BenchmarkPileupBatchEpoch(b *testing.B) {
	shift, err := pileup.ShiftByName("gg-pu10-pu30")
	if err != nil {
		b.Fatal(err)
	}
	for _, method := range []string{"gcn", "dann", "mixup", "graphmix", "geomix1", "geomix2", "geomix3"} {
		b.Run(method, func(b *testing.B) {
			x, err := pileup.Build(shift, pileup.Options{Seed: 123, Data: pileup.Data{Mode: pileup.Simulated}, DomainBatches: method == "dann"})
			if err != nil {
				b.Fatal(err)
			}
			x.Graph.TrainBatches = x.Graph.TrainBatches[:1]
			preset, err := geomix.PresetFor("pileup-"+shift.Name, method)
			if err != nil {
				b.Fatal(err)
			}
			ctx := context.New()
			ctx.SetParams(preset.Params)
			s, err := training.NewStepper(ctx, testutil.Backend(b), x.Graph, method)
			if err != nil {
				b.Fatal(err)
			}
			if err := s.Step(0); err != nil { // compiles
				b.Fatal(err)
			}
			b.ResetTimer()
			for i := range b.N {
				if err := s.Step(i + 1); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(x.Graph.TrainBatches[0].Graph.NumNodes), "nodes")
		})
	}
}
