package backbones

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/geomix-go/geomix/internal/testutil"
	. "github.com/gomlx/gomlx/pkg/core/graph"
	"github.com/gomlx/gomlx/pkg/core/tensors"
	"github.com/gomlx/gomlx/pkg/ml/context"
)

// TestProjectGradientByHand: X W and its gradient with respect to W, ∂ Σ (X W ⊙ R) / ∂W = Xᵀ R, match
// the hand-computed products for X held sparse and dense (Adam would hide a wrongly scaled gradient
// in training).
func TestProjectGradientByHand(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 8))
	const n, f, h = 7, 6, 3
	x, w, r := testutil.RandomMatrix(rng, n, f, 0.5), testutil.RandomMatrix(rng, f, h, 0), testutil.RandomMatrix(rng, n, h, 0)
	rows, cols, vals := testutil.NonZeros(x)
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
	tRows, tCols, tVals, perm := transposed(rows, cols, vals)
	for _, layout := range []string{"sparse", "sparse with Xᵀ", "dense"} {
		out := MustExecOnceN(testutil.Backend(t), func(in []*Node) []*Node {
			var features *Features
			switch layout {
			case "sparse":
				features = NewFeatures(n, f, in[0:3])
			case "sparse with Xᵀ":
				features = NewFeatures(n, f, append(in[0:3:3], in[6:10]...))
			default:
				features = NewFeatures(n, f, []*Node{in[3], Transpose(in[3], 0, 1)})
			}
			y := features.Project(in[4])
			return []*Node{y, Gradient(ReduceAllSum(Mul(y, in[5])), in[4])[0]}
		}, rows, cols, vals, x, w, r, tRows, tCols, tVals, perm)
		testutil.AssertNear(t, layout+" X W", testutil.FlatRows(out[0].Value().([][]float64)), wantY, 1e-12)
		testutil.AssertNear(t, layout+" Xᵀ R", testutil.FlatRows(out[1].Value().([][]float64)), wantG, 1e-12)
	}
}

// transposed returns Xᵀ's non-zeros and the permutation for X's (rows, cols, vals), as
// FeatureInputs makes them.
func transposed(rows, cols [][]int32, vals [][]float64) (tRows, tCols [][]int32, tVals [][]float64, perm [][]int32) {
	flatCols := make([]int32, len(cols))
	for e, c := range cols {
		flatCols[e] = c[0]
	}
	for _, e := range transposeOrder(flatCols) {
		tRows, tCols, tVals, perm = append(tRows, cols[e]), append(tCols, rows[e]), append(tVals, vals[e]), append(perm, []int32{e})
	}
	return tRows, tCols, tVals, perm
}

// TestTransposedGradientIsTheAutomaticOne: with Xᵀ's non-zeros (FeatureInputs' seven tensors) the
// projection X W and its weight gradient are bit for bit those of the automatic gradient over X's
// non-zeros, at the widths of the message kernels (one at a time, runs of 16 and of 64), with and
// without dropout on X.
func TestTransposedGradientIsTheAutomaticOne(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 9))
	const n, f = 60, 40
	m := randomCSR(rng, n, f, 0.3)
	inputs := FeatureInputs(m, false)
	for _, h := range []int{5, 16, 64} {
		for _, p := range []float64{0, 0.5} {
			ctx := context.New()
			args := []any{tensors.FromValue(randomFloat32(rng, f, h)), tensors.FromValue(randomFloat32(rng, n, h))}
			for _, x := range inputs {
				args = append(args, x)
			}
			out := context.MustExecOnceN(testutil.Backend(t), ctx, func(ctx *context.Context, in []*Node) []*Node {
				ctx.SetTraining(in[0].Graph(), true)
				x := NewFeatures(n, f, in[2:])
				if p > 0 {
					x = x.Dropout(ctx, p)
				}
				automatic := &Features{NumRows: n, NumCols: f, Rows: x.Rows, Cols: x.Cols, Values: x.Values}
				var outs []*Node
				for _, features := range []*Features{x, automatic} {
					y := features.Project(in[0])
					outs = append(outs, y, Gradient(ReduceAllSum(Mul(y, in[1])), in[0])[0])
				}
				return outs
			}, args...)
			for i, what := range []string{"X W", "Xᵀ R"} {
				got, want := out[i].Value().([][]float32), out[i+2].Value().([][]float32)
				for r := range got {
					for c := range got[r] {
						if math.Float32bits(got[r][c]) != math.Float32bits(want[r][c]) {
							t.Fatalf("width %d, dropout %g: %s[%d, %d] is %v with Xᵀ's non-zeros, %v with the automatic gradient", h, p, what, r, c, got[r][c], want[r][c])
						}
					}
				}
			}
		}
	}
}

// randomFloat32 returns a rows × cols matrix of values in [−1, 1).
func randomFloat32(rng *rand.Rand, rows, cols int) [][]float32 {
	out := make([][]float32, rows)
	for i := range out {
		out[i] = make([]float32, cols)
		for j := range out[i] {
			out[i][j] = float32(rng.Float64()*2 - 1)
		}
	}
	return out
}
