package backbones

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/geomix-go/geomix/datasets"
	"github.com/geomix-go/geomix/internal/testutil"
	. "github.com/gomlx/gomlx/pkg/core/graph"
	"github.com/gomlx/gomlx/pkg/core/tensors"
)

// randomCSR returns an [n, f] matrix with each entry non-zero with probability density.
func randomCSR(rng *rand.Rand, n, f int, density float64) *datasets.CSR {
	m := &datasets.CSR{NumRows: n, NumCols: f, RowPtr: make([]int64, n+1)}
	for i := range n {
		for j := range f {
			if rng.Float64() < density {
				m.ColIdx, m.Values = append(m.ColIdx, int32(j)), append(m.Values, float32(rng.Float64()))
			}
		}
		m.RowPtr[i+1] = int64(len(m.ColIdx))
	}
	return m
}

// BenchmarkProjection measures X W and its gradient with respect to W (one training step's
// projection) for X [2000, 1000] at several densities, held sparse and dense, W [1000, 64]. It
// reports ns per non-zero and output column (sparse) or per entry of X and output column (dense):
// their ratio is the density from which the dense layout pays (DenseFeatureDensity).
func BenchmarkProjection(b *testing.B) {
	const n, f, h = 2000, 1000, 64
	rng := rand.New(rand.NewPCG(3, 4))
	w := make([]float32, f*h)
	for i := range w {
		w[i] = float32(rng.Float64() - 0.5)
	}
	for _, density := range []float64{0.02, 0.1, 0.3} {
		m := randomCSR(rng, n, f, density)
		for _, dense := range []bool{false, true} {
			layout := map[bool]string{false: "sparse", true: "dense"}[dense]
			b.Run(fmt.Sprintf("density=%.2f/%s", density, layout), func(b *testing.B) {
				inputs := FeatureInputs(m, dense)
				exec := MustNewExec(testutil.Backend(b), func(in []*Node) []*Node {
					x := NewFeatures(n, f, in[1:])
					y := x.Project(in[0])
					return []*Node{Gradient(ReduceAllSum(Square(y)), in[0])[0]}
				})
				args := []any{tensors.FromFlatDataAndDimensions(w, f, h)}
				for _, x := range inputs {
					args = append(args, x)
				}
				exec.MustExec(args...) // compile
				b.ResetTimer()
				for range b.N {
					exec.MustExec(args...)
				}
				per := float64(b.Elapsed().Nanoseconds()) / float64(b.N) / float64(h)
				if dense {
					b.ReportMetric(per/float64(n*f), "ns/entry/col")
				} else {
					b.ReportMetric(per/float64(m.NNZ()), "ns/nnz/col")
				}
			})
		}
	}
}
