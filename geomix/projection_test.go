package geomix

import (
	"math/rand/v2"
	"testing"

	. "github.com/gomlx/gomlx/pkg/core/graph"
)

// TestProjectGradientByHand: X W and its gradient with respect to W, ∂ Σ (X W ⊙ R) / ∂W = Xᵀ R, match
// the hand-computed products for X held sparse and dense (Adam would hide a wrongly scaled gradient
// in training).
func TestProjectGradientByHand(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 8))
	const n, f, h = 7, 6, 3
	x, w, r := randomMatrix(rng, n, f, 0.5), randomMatrix(rng, f, h, 0), randomMatrix(rng, n, h, 0)
	rows, cols, vals := nonZeros(x)
	wantY, wantG := make([]float64, 0, n*h), make([]float64, 0, f*h)
	for i := range n {
		for c := range h {
			s := 0.0
			for j := range f {
				s += x[i][j] * w[j][c]
			}
			wantY = append(wantY, s)
		}
	}
	for j := range f {
		for c := range h {
			s := 0.0
			for i := range n {
				s += x[i][j] * r[i][c]
			}
			wantG = append(wantG, s)
		}
	}
	for _, dense := range []bool{false, true} {
		out := MustExecOnceN(testBackend(t), func(in []*Node) []*Node {
			features := NewFeatures(n, f, in[0:3])
			if dense {
				features = NewFeatures(n, f, []*Node{in[3], Transpose(in[3], 0, 1)})
			}
			y := features.Project(in[4])
			return []*Node{y, Gradient(ReduceAllSum(Mul(y, in[5])), in[4])[0]}
		}, rows, cols, vals, x, w, r)
		layout := map[bool]string{false: "sparse", true: "dense"}[dense]
		assertNear(t, layout+" X W", flatRows(out[0].Value().([][]float64)), wantY, 1e-12)
		assertNear(t, layout+" Xᵀ R", flatRows(out[1].Value().([][]float64)), wantG, 1e-12)
	}
}
