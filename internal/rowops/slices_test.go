package rowops

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/gomlx/gomlx/backends/simplego"
	. "github.com/gomlx/gomlx/pkg/core/graph"
	"github.com/gomlx/gomlx/pkg/core/tensors"
)

// sliceMathCases cover column slices (the vector copy), a slice of every axis of rank 3, a strided
// slice, slices whose elements are one run (a column [N, 1], whole rows), int32, and Tanh,
// Logistic, Log and Pow on special values (NaNs with payloads, infinities, ±0, negatives), by a
// scalar or of one shape, on a tensor large enough to be split over the cores, and in float64
// (simplego's path).
func sliceMathCases() []rowCase {
	rng := rand.New(rand.NewPCG(11, 12))
	const rows, cols = 37, 19
	x := randomRows[float32](rng, rows*cols)
	x[3], x[10] = math.Float32frombits(0x7fc00001), math.Float32frombits(0xffc00003)
	x[11], x[12] = float32(math.Inf(1)), float32(math.Inf(-1))
	x[13], x[14] = float32(math.Copysign(0, -1)), 40
	xt := tensors.FromFlatDataAndDimensions(x, rows, cols)
	idx := tensors.FromFlatDataAndDimensions(randomIndices[int32](rng, 6*8, 100), 6, 8)
	return []rowCase{
		{"columns [3, 11) of [37, 19]", func(in []*Node) *Node { return Slice(in[0], AxisRange(), AxisRange(3, 11)) }, []any{xt}},
		{"rows and columns of [37, 19]", func(in []*Node) *Node { return Slice(in[0], AxisRange(5, 30), AxisRange(0, 18)) }, []any{xt}},
		{"every axis of [4, 5, 6]", func(in []*Node) *Node { return Slice(in[0], AxisRange(1, 3), AxisRange(2, 5), AxisRange(1, 4)) },
			[]any{random[float32](rng, 4, 5, 6)}},
		{"strided [37, 19]", func(in []*Node) *Node { return Slice(in[0], AxisRange(1, 30).Stride(3), AxisRange(0, 19).Stride(2)) }, []any{xt}},
		{"int32 columns", func(in []*Node) *Node { return Slice(in[0], AxisRange(), AxisRange(2, 7)) }, []any{idx}},
		{"rows [1, 301) of a column [301, 1] (one run)", func(in []*Node) *Node { return Slice(in[0], AxisRange(1, 301)) },
			[]any{random[float32](rng, 301, 1)}},
		{"whole rows [5, 30) of [37, 19] (one run)", func(in []*Node) *Node { return Slice(in[0], AxisRange(5, 30)) }, []any{xt}},
		{"rows of [6, 1, 4, 1] (axes of one element)", func(in []*Node) *Node { return Slice(in[0], AxisRange(2, 5)) },
			[]any{random[float32](rng, 6, 1, 4, 1)}},
		{"log with special values", func(in []*Node) *Node { return Log(in[0]) }, []any{xt}},
		{"log of [300, 256], split over the cores", func(in []*Node) *Node { return Log(Abs(in[0])) }, []any{random[float32](rng, 300, 256)}},
		{"log float64", func(in []*Node) *Node { return Log(Abs(in[0])) }, []any{random[float64](rng, 9, 13)}},
		{"tanh with special values", func(in []*Node) *Node { return Tanh(in[0]) }, []any{xt}},
		{"tanh of an owned operand", func(in []*Node) *Node { return Tanh(MulScalar(in[0], 3)) }, []any{xt}},
		{"tanh of [300, 256], split over the cores", func(in []*Node) *Node { return Tanh(in[0]) }, []any{random[float32](rng, 300, 256)}},
		{"tanh float64", func(in []*Node) *Node { return Tanh(in[0]) }, []any{random[float64](rng, 9, 13)}},
		{"logistic with special values", func(in []*Node) *Node { return Logistic(MulScalar(in[0], 20)) }, []any{xt}},
		{"logistic of [300, 256], split over the cores", func(in []*Node) *Node { return Logistic(MulScalar(in[0], 30)) }, []any{random[float32](rng, 300, 256)}},
		{"logistic float64", func(in []*Node) *Node { return Logistic(in[0]) }, []any{random[float64](rng, 9, 13)}},
		{"pow by a scalar, special values", func(in []*Node) *Node { return Pow(in[0], Scalar(in[0].Graph(), in[0].DType(), 10)) }, []any{xt}},
		{"pow of a scalar", func(in []*Node) *Node { return Pow(Scalar(in[0].Graph(), in[0].DType(), 1.5), in[0]) }, []any{xt}},
		{"pow of one shape, an owned operand", func(in []*Node) *Node { return Pow(Abs(in[0]), in[1]) }, []any{xt, random[float32](rng, rows, cols)}},
		{"pow of [300, 256], split over the cores", func(in []*Node) *Node { return Pow(Abs(in[0]), Scalar(in[0].Graph(), in[0].DType(), 0.3)) }, []any{random[float32](rng, 300, 256)}},
		{"pow float64", func(in []*Node) *Node { return Pow(in[0], in[1]) }, []any{random[float64](rng, 9, 13), random[float64](rng, 9, 13)}},
	}
}

// TestSliceTanhLogisticPowMatchSimplego checks that the Slice, Tanh, Logistic, Log and Pow
// executors give simplego's values bit for bit.
func TestSliceTanhLogisticPowMatchSimplego(t *testing.T) { matchSimplego(t, sliceMathCases()) }

// TestSliceGradient checks the Pad-free gradient of Slice (sliceVJP) by hand: the gradient of
// Σ Slice(x) ⊙ w with respect to x is w (−0 included) inside the slice and +0 outside, as Pad with
// zeros gives it, for a slice of the columns and one of both axes.
func TestSliceGradient(t *testing.T) {
	backend, err := simplego.New("")
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(13, 14))
	const rows, cols = 6, 9
	x := random[float32](rng, rows, cols)
	for _, c := range []struct{ r0, r1, c0, c1 int }{{0, rows, 2, 7}, {1, 4, 0, 5}} {
		w := randomRows[float32](rng, (c.r1-c.r0)*(c.c1-c.c0))
		w[0] = float32(math.Copysign(0, -1))
		wt := tensors.FromFlatDataAndDimensions(w, c.r1-c.r0, c.c1-c.c0)
		got := MustExecOnceN(backend, func(x, w *Node) *Node {
			return Gradient(ReduceAllSum(Mul(Slice(x, AxisRange(c.r0, c.r1), AxisRange(c.c0, c.c1)), w)), x)[0]
		}, x, wt)[0]
		grad := tensors.MustCopyFlatData[float32](got)
		for i := range rows {
			for j := range cols {
				want := float32(0)
				if i >= c.r0 && i < c.r1 && j >= c.c0 && j < c.c1 {
					want = w[(i-c.r0)*(c.c1-c.c0)+j-c.c0]
				}
				if g := grad[i*cols+j]; math.Float32bits(g) != math.Float32bits(want) {
					t.Fatalf("slice %v: ∂x[%d][%d] = %v, want %v", c, i, j, g, want)
				}
			}
		}
	}
}
