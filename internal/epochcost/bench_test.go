package epochcost

import (
	"testing"

	"github.com/geomix-go/geomix/datasets"
	"github.com/geomix-go/geomix/internal/testutil"
	"github.com/gomlx/gomlx/pkg/ml/context"
)

// benchmarkSideBySide times training epochs (an evaluation and an update: one step, as in
// training) of methods on dataset with their presets, as `reproduce bench` does
// (TimeEpochsPresets): b.N rounds of one epoch per method, each round starting one method later.
// Per method it reports the median ms per epoch (<method>_ms/epoch), the median over the rounds
// of its epoch over GCN's of the same round (<method>_x_gcn) and the peak Go heap over b.N untimed
// epochs of its trainer alone (<method>_MiB); ns/op is GCN's median epoch. Run it with
// -benchtime Nx (N rounds). A method with a GAT backbone brings the reference GCN of its total
// width (gcn@W_ms/epoch, ...) and its ratio to it (<method>_x_gcn_same_width).
func benchmarkSideBySide(b *testing.B, dataset string, methods []string) {
	testutil.LoadOrSkip(b, dataset)
	data := datasets.Options{Offline: true}
	timings, err := TimeEpochsPresets(context.New(), testutil.Backend(b), dataset, methods, data, b.N)
	if err != nil {
		b.Fatal(err)
	}
	for _, t := range timings {
		b.ReportMetric(t.MillisPerEpoch, t.Label()+"_ms/epoch")
		b.ReportMetric(t.PeakHeapMiB, t.Label()+"_MiB")
		if t.Label() == "gcn" {
			b.ReportMetric(t.MillisPerEpoch*1e6, "ns/op")
		} else {
			b.ReportMetric(t.RatioToGCN, t.Label()+"_x_gcn")
		}
		if t.RatioToSameWidthGCN > 0 {
			b.ReportMetric(t.RatioToSameWidthGCN, t.Label()+"_x_gcn_same_width")
		}
	}
}

// BenchmarkEpoch times GCN and GeoMix-I/II/III side by side on Cora, PubMed and Physics (the
// target for GeoMix is at most 1.5x GCN's epoch).
func BenchmarkEpoch(b *testing.B) {
	for _, dataset := range []string{"cora", "pubmed", "physics"} {
		b.Run(dataset, func(b *testing.B) { benchmarkSideBySide(b, dataset, []string{"gcn", "geomix1", "geomix2", "geomix3"}) })
	}
}

// BenchmarkBackboneEpoch times plain training epochs (update + evaluation) of each backbone side
// by side on Cora with its preset (GeoMix-I's row: hidden 16; GAT: 8 heads of 16, also against
// a GCN of hidden 128).
func BenchmarkBackboneEpoch(b *testing.B) {
	b.Run("cora", func(b *testing.B) { benchmarkSideBySide(b, "cora", []string{"gcn", "gat", "sgc", "appnp", "mlp"}) })
}

// BenchmarkBaselineEpoch times GCN, GAT (with the GCN of its total width) and GloGNN side by side
// on Cora, PubMed, CS and Physics (the target: each baseline's epoch at most 3x GCN's, GAT's
// against the GCN of its width).
func BenchmarkBaselineEpoch(b *testing.B) {
	for _, dataset := range []string{"cora", "pubmed", "cs", "physics"} {
		b.Run(dataset, func(b *testing.B) { benchmarkSideBySide(b, dataset, []string{"gcn", "gat", "glognn"}) })
	}
}
