package rowops

import (
	"math"
	"math/rand/v2"
	"testing"

	. "github.com/gomlx/gomlx/pkg/core/graph"
	"github.com/gomlx/gomlx/pkg/core/tensors"
)

// random returns a tensor of dims with values in [-1, 1) of type T.
func random[T float32 | float64](rng *rand.Rand, dims ...int) *tensors.Tensor {
	n := 1
	for _, d := range dims {
		n *= d
	}
	return tensors.FromFlatDataAndDimensions(randomRows[T](rng, n), dims...)
}

// dotCases cover both of simplego's kernels (its blocked one from 16·32² output elements on), a
// contracting size that is not a multiple of 8 in each (the blocked kernel's tail group also
// with special values and a batch axis), one longer than dotChunk, transposed
// operands, a batch axis, two contracting axes given out of order, weight gradients and
// contractions long enough to be taken in chunks.
func dotCases() []rowCase {
	rng := rand.New(rand.NewPCG(3, 4))
	matmul := func(in []*Node) *Node { return MatMul(in[0], in[1]) }
	contractFirst := func(in []*Node) *Node { return DotGeneral(in[0], []int{0}, nil, in[1], []int{0}, nil) }
	return []rowCase{
		{"small kernel [5, 13] x [13, 7] float32", matmul, []any{random[float32](rng, 5, 13), random[float32](rng, 13, 7)}},
		{"small kernel [20, 203] x [203, 30] float64 (chunks of 64, tail)", matmul, []any{random[float64](rng, 20, 203), random[float64](rng, 203, 30)}},
		{"small kernel [100, 101] x [101, 150] float32 (the most output elements before the blocked kernel)", matmul,
			[]any{random[float32](rng, 100, 101), random[float32](rng, 101, 150)}},
		{"blocked kernel [300, 16] x [16, 70] float32 (attention's width)", matmul, []any{random[float32](rng, 300, 16), random[float32](rng, 16, 70)}},
		{"blocked kernel [300, 13] x [13, 70] float32 (tail group)", matmul, []any{random[float32](rng, 300, 13), random[float32](rng, 13, 70)}},
		{"blocked kernel [303, 50] x [50, 50] float32 (DANN's width: a tail group of 2, partial row tiles and column blocks)", matmul,
			[]any{random[float32](rng, 303, 50), random[float32](rng, 50, 50)}},
		{"blocked kernel's tail group of −0, NaN and infinities [301, 10] x [10, 60]", matmul,
			[]any{tensors.FromFlatDataAndDimensions(specialRows(rng, 301*10), 301, 10), random[float32](rng, 10, 60)}},
		{"blocked kernel with a batch axis and a tail group [2, 130, 21] x [2, 21, 70]",
			func(in []*Node) *Node { return DotGeneral(in[0], []int{2}, []int{0}, in[1], []int{1}, []int{0}) },
			[]any{random[float32](rng, 2, 130, 21), random[float32](rng, 2, 21, 70)}},
		{"blocked kernel in chunks of the contraction [40, 1030] x [1030, 520] float32 (three chunks, a tail group)", matmul,
			[]any{random[float32](rng, 40, 1030), random[float32](rng, 1030, 520)}},
		{"blocked kernel [150, 1100] x [1100, 120] float64 (chunks, tail, split over cores)", matmul,
			[]any{random[float64](rng, 150, 1100), random[float64](rng, 1100, 120)}},
		{"blocked kernel [150, 1101] x [1101, 120] float32", matmul, []any{random[float32](rng, 150, 1101), random[float32](rng, 1101, 120)}},
		{"kᵀh: [1000, 16] and [1000, 40] contracted on axis 0", contractFirst, []any{random[float32](rng, 1000, 16), random[float32](rng, 1000, 40)}},
		{"kᵀh blocked: [700, 130] and [700, 140] contracted on axis 0", contractFirst, []any{random[float32](rng, 700, 130), random[float32](rng, 700, 140)}},
		{"leading contraction in chunks, small kernel's tail: [2100, 42] and [2100, 260] (edge rows and columns)", contractFirst,
			[]any{random[float32](rng, 2100, 42), random[float32](rng, 2100, 260)}},
		{"leading contraction in chunks, blocked kernel's tail: [2013, 70] and [2013, 260]", contractFirst,
			[]any{random[float32](rng, 2013, 70), random[float32](rng, 2013, 260)}},
		{"leading contraction of −0, NaN and infinities from 32 rows on [300, 33] and [300, 20]", contractFirst,
			[]any{tensors.FromFlatDataAndDimensions(specialRows(rng, 300*33), 300, 33), random[float32](rng, 300, 20)}},
		{"kᵀh with a small kernel's tail: [1003, 16] and [1003, 40] contracted on axis 0", contractFirst,
			[]any{random[float32](rng, 1003, 16), random[float32](rng, 1003, 40)}},
		{"weight gradient split over cores: [2003, 32] and [2003, 40] contracted on axis 0", contractFirst,
			[]any{random[float32](rng, 2003, 32), random[float32](rng, 2003, 40)}},
		{"leading contraction of −0, NaN and infinities [300, 9] and [300, 20]", contractFirst,
			[]any{tensors.FromFlatDataAndDimensions(specialRows(rng, 300*9), 300, 9), random[float32](rng, 300, 20)}},
		{"kᵀ1-like narrow rhs [1003, 16] and [1003, 3] (the product of rows)", contractFirst,
			[]any{random[float32](rng, 1003, 16), random[float32](rng, 1003, 3)}},
		{"narrow rhs [16403, 16] and [16403, 3] (roles swapped, small kernel's tail)", contractFirst,
			[]any{random[float32](rng, 16403, 16), random[float32](rng, 16403, 3)}},
		{"narrow rhs [115, 2400] and [115, 7] (roles swapped, blocked kernel's tail)", contractFirst,
			[]any{random[float32](rng, 115, 2400), random[float32](rng, 115, 7)}},
		{"kᵀh float64 [1003, 16] and [1003, 40] (the product of rows)", contractFirst,
			[]any{random[float64](rng, 1003, 16), random[float64](rng, 1003, 40)}},
		{"batch axis [3, 9, 21] x [3, 21, 11]", func(in []*Node) *Node { return DotGeneral(in[0], []int{2}, []int{0}, in[1], []int{1}, []int{0}) },
			[]any{random[float32](rng, 3, 9, 21), random[float32](rng, 3, 21, 11)}},
		{"two contracting axes out of order [6, 5, 4] x [4, 5, 7]", func(in []*Node) *Node {
			return DotGeneral(in[0], []int{2, 1}, nil, in[1], []int{0, 1}, nil)
		}, []any{random[float64](rng, 6, 5, 4), random[float64](rng, 4, 5, 7)}},
		{"einsum vm,um->vu [200, 16] [150, 16]", func(in []*Node) *Node { return Einsum("vm,um->vu", in[0], in[1]) },
			[]any{random[float32](rng, 200, 16), random[float32](rng, 150, 16)}},
		{"weight gradient of a [400, 37] x [37, 64] product", func(in []*Node) *Node {
			return Gradient(ReduceAllSum(Square(MatMul(in[0], in[1]))), in[1])[0]
		}, []any{random[float32](rng, 400, 37), random[float32](rng, 37, 64)}},
		// below 8 products, the rows of rhs scaled and summed (dotShortContraction).
		{"short contraction, small kernel [5, 3] x [3, 7]", matmul, []any{random[float32](rng, 5, 3), random[float32](rng, 3, 7)}},
		{"short contraction, blocked kernel [2000, 3] x [3, 16] (a label block's gradient)", matmul,
			[]any{random[float32](rng, 2000, 3), random[float32](rng, 3, 16)}},
		{"outer product [700, 1] x [1, 40]", matmul, []any{random[float32](rng, 700, 1), random[float32](rng, 1, 40)}},
		{"short contraction [16, 3] x [3, 3000], lhs contracted on axis 0", func(in []*Node) *Node {
			return DotGeneral(in[0], []int{0}, nil, in[1], []int{0}, nil)
		}, []any{random[float32](rng, 3, 16), random[float32](rng, 3, 3000)}},
		{"short contraction, batch axis [3, 9, 5] x [3, 5, 11]", func(in []*Node) *Node { return DotGeneral(in[0], []int{2}, []int{0}, in[1], []int{1}, []int{0}) },
			[]any{random[float32](rng, 3, 9, 5), random[float32](rng, 3, 5, 11)}},
		{"short contraction, two contracting axes out of order [600, 2, 3] x [3, 2, 70]", func(in []*Node) *Node {
			return DotGeneral(in[0], []int{2, 1}, nil, in[1], []int{0, 1}, nil)
		}, []any{random[float32](rng, 600, 2, 3), random[float32](rng, 3, 2, 70)}},
		{"short contraction of −0 and +0 products [900, 3] x [3, 20]", matmul,
			[]any{tensors.FromFlatDataAndDimensions(negativeZeros(900*3), 900, 3), random[float32](rng, 3, 20)}},
	}
}

// specialRows returns n random float32 with −0, NaN, infinities and zeros spread among them.
func specialRows(rng *rand.Rand, n int) []float32 {
	out := randomRows[float32](rng, n)
	special := []float32{float32(math.Copysign(0, -1)), float32(math.NaN()), float32(math.Inf(1)), float32(math.Inf(-1)), 0}
	for i := 0; i < n; i += 7 {
		out[i] = special[(i/7)%len(special)]
	}
	return out
}

// negativeZeros returns n float32 −0.
func negativeZeros(n int) []float32 {
	out := make([]float32, n)
	for i := range out {
		out[i] = float32(math.Copysign(0, -1))
	}
	return out
}

// TestDotGeneralMatchesSimplego checks that every DotGeneral case gives bit-identical values with
// our executor and with simplego's.
func TestDotGeneralMatchesSimplego(t *testing.T) { matchSimplego(t, dotCases()) }
