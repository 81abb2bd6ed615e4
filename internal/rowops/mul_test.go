package rowops

import (
	"math"
	"math/rand/v2"
	"testing"

	. "github.com/gomlx/gomlx/pkg/core/graph"
	"github.com/gomlx/gomlx/pkg/core/tensors"
)

// mulCases cover products of one shape with a length that is not a multiple of 8 (the vector
// kernels' tail), a scalar on either side, an owned operand, rows scaled by a column, a row
// broadcast and float64 (simplego's path), and special values: NaNs with distinct payloads on
// both sides, infinities and −0.
func mulCases() []rowCase {
	rng := rand.New(rand.NewPCG(5, 6))
	const rows, cols = 37, 19
	x, y := randomRows[float32](rng, rows*cols), randomRows[float32](rng, rows*cols)
	x[3], y[3] = math.Float32frombits(0x7fc00001), math.Float32frombits(0x7fc00002)
	x[10], y[11] = math.Float32frombits(0xffc00003), float32(math.Inf(1))
	x[12], y[12] = float32(math.Inf(-1)), 0
	x[700], y[701] = float32(math.Copysign(0, -1)), float32(math.Copysign(0, -1))
	xt, yt := tensors.FromFlatDataAndDimensions(x, rows, cols), tensors.FromFlatDataAndDimensions(y, rows, cols)
	column := random[float32](rng, rows, 1)
	return []rowCase{
		{"same shapes [37, 19]", func(in []*Node) *Node { return Mul(in[0], in[1]) }, []any{xt, yt}},
		{"scalar on the right", func(in []*Node) *Node { return MulScalar(in[0], 1.7) }, []any{xt}},
		{"scalar on the left", func(in []*Node) *Node { return Mul(Scalar(in[0].Graph(), in[0].DType(), -0.3), in[0]) }, []any{xt}},
		{"owned operand", func(in []*Node) *Node { return Mul(Add(in[0], in[1]), in[1]) }, []any{xt, yt}},
		{"rows scaled by a column [37, 1]", func(in []*Node) *Node { return Mul(in[0], in[1]) }, []any{xt, column}},
		{"a column [37, 1] scaling an owned operand's rows", func(in []*Node) *Node { return Mul(in[1], Add(in[0], in[0])) }, []any{xt, column}},
		{"rank 3: [4, 5, 3] by [4, 1, 1]", func(in []*Node) *Node { return Mul(in[0], in[1]) },
			[]any{random[float32](rng, 4, 5, 3), random[float32](rng, 4, 1, 1)}},
		{"broadcast of a row [1, 19] (simplego's path)", func(in []*Node) *Node { return Mul(in[0], in[1]) }, []any{xt, random[float32](rng, 1, 19)}},
		{"float64", func(in []*Node) *Node { return Mul(in[0], in[1]) }, []any{random[float64](rng, 9, 13), random[float64](rng, 9, 13)}},
	}
}

// TestMulMatchesSimplego checks that every Mul case gives bit-identical values with our executor
// and with simplego's.
func TestMulMatchesSimplego(t *testing.T) { matchSimplego(t, mulCases()) }
