package rowops

import (
	"math"
	"math/rand/v2"
	"testing"

	. "github.com/gomlx/gomlx/pkg/core/graph"
	"github.com/gomlx/gomlx/pkg/core/tensors"
)

// float64Cases cover float64 Mul of one shape, by a single value, by a column and by a repeated
// row on either side, with NaNs, infinities and signed zeros; float64 DotGeneral with fewer than 8
// products per element in simplego's small and blocked kernels, contracted on either axis, with a
// batch axis and special values; and the gradient of a Newton–Schulz inverse as GloGNN's norm
// layer builds it.
func float64Cases() []rowCase {
	rng := rand.New(rand.NewPCG(13, 14))
	special := random[float64](rng, 7, 7)
	v := tensors.MustCopyFlatData[float64](special)
	v[0], v[5], v[11], v[20], v[33] = math.NaN(), math.Inf(1), math.Inf(-1), math.Copysign(0, -1), 0
	special = tensors.FromFlatDataAndDimensions(v, 7, 7)
	mul := func(in []*Node) *Node { return Mul(in[0], in[1]) }
	matmul := func(in []*Node) *Node { return MatMul(in[0], in[1]) }
	cube := random[float64](rng, 7, 7, 7)
	return []rowCase{
		{"mul of one shape [7, 7, 7]", mul, []any{cube, random[float64](rng, 7, 7, 7)}},
		{"mul by a column [7, 7, 1]", mul, []any{cube, random[float64](rng, 7, 7, 1)}},
		{"mul of a column [7, 7, 1] by [7, 7, 7]", mul, []any{random[float64](rng, 7, 7, 1), cube}},
		{"mul by a repeated row [1, 7, 7]", mul, []any{cube, random[float64](rng, 1, 7, 7)}},
		{"mul of a repeated row [1, 7, 7] by [7, 7, 7]", mul, []any{random[float64](rng, 1, 7, 7), cube}},
		{"mul by a single value", func(in []*Node) *Node { return MulScalar(in[0], 0.3) }, []any{special}},
		{"mul of a single value", func(in []*Node) *Node { return Mul(Scalar(in[0].Graph(), in[0].DType(), -2.5), in[0]) }, []any{special}},
		{"mul with NaN, infinities and signed zeros", func(in []*Node) *Node { return Mul(in[0], Transpose(in[0], 0, 1)) }, []any{special}},
		{"product [7, 7] x [7, 7] with special values (small kernel)", matmul, []any{special, random[float64](rng, 7, 7)}},
		{"product [300, 5] x [5, 200] (blocked kernel)", matmul, []any{random[float64](rng, 300, 5), random[float64](rng, 5, 200)}},
		{"[7, 7] by [2708, 7] contracted on the last axes", func(in []*Node) *Node { return DotGeneral(in[0], []int{1}, nil, in[1], []int{1}, nil) },
			[]any{random[float64](rng, 7, 7), random[float64](rng, 2708, 7)}},
		{"[600, 7] and [600, 6] contracted on axis 0 (a gradient's hᵀ v)", func(in []*Node) *Node { return DotGeneral(in[0], []int{0}, nil, in[1], []int{0}, nil) },
			[]any{random[float64](rng, 600, 7), random[float64](rng, 600, 6)}},
		{"batch axis [3, 9, 5] x [3, 5, 11]", func(in []*Node) *Node { return DotGeneral(in[0], []int{2}, []int{0}, in[1], []int{1}, []int{0}) },
			[]any{random[float64](rng, 3, 9, 5), random[float64](rng, 3, 5, 11)}},
		{"gradient of a Newton–Schulz inverse of aᵀa [40, 7]", func(in []*Node) *Node {
			a := MatMul(Transpose(in[0], 0, 1), in[0])
			x := DivScalar(a, 1000)
			twoI := DiagonalWithValue(Scalar(a.Graph(), a.DType(), 2), 7)
			for range 6 {
				x = MatMul(x, Sub(twoI, MatMul(a, x)))
			}
			return Gradient(ReduceAllSum(Mul(x, in[1])), in[0])[0]
		}, []any{random[float64](rng, 40, 7), random[float64](rng, 7, 7)}},
	}
}

// TestFloat64ExecutorsMatchSimplego checks that every case gives bit-identical values with our
// executors and with simplego's.
func TestFloat64ExecutorsMatchSimplego(t *testing.T) { matchSimplego(t, float64Cases()) }
