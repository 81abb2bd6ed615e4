package rowops

import (
	"math"
	"math/rand/v2"
	"testing"

	. "github.com/gomlx/gomlx/pkg/core/graph"
	"github.com/gomlx/gomlx/pkg/core/tensors"
)

// selectCases cover Where with both branches of the output's shape, one or both scalar, values the
// bit select must keep (−0, NaN, infinities), a float64 Where and a scalar condition (both
// simplego's); and Sign of special values, ReLU's gradient and a float64 Sign (simplego's).
func selectCases() []rowCase {
	rng := rand.New(rand.NewPCG(15, 16))
	special := []float32{float32(math.Copysign(0, -1)), float32(math.NaN()), float32(math.Inf(1)), float32(math.Inf(-1)), 1e-40}
	odd := randomRows[float32](rng, 300*7)
	copy(odd, special)
	positive := func(in []*Node) *Node { return GreaterThan(in[0], ZerosLike(in[0])) }
	return []rowCase{
		{"where [300, 7] both branches", func(in []*Node) *Node { return Where(positive(in), in[1], in[2]) },
			[]any{random[float32](rng, 300, 7), tensors.FromFlatDataAndDimensions(odd, 300, 7), random[float32](rng, 300, 7)}},
		{"where [300, 7] scalar false branch (dropout)", func(in []*Node) *Node { return Where(positive(in), in[1], ScalarZero(in[0].Graph(), in[0].DType())) },
			[]any{random[float32](rng, 300, 7), random[float32](rng, 300, 7)}},
		{"where [300, 7] scalar true branch", func(in []*Node) *Node { return Where(positive(in), Scalar(in[0].Graph(), in[0].DType(), -2.5), in[1]) },
			[]any{random[float32](rng, 300, 7), tensors.FromFlatDataAndDimensions(odd, 300, 7)}},
		{"where [300, 7] both scalar", func(in []*Node) *Node {
			return Where(positive(in), Scalar(in[0].Graph(), in[0].DType(), 1), Scalar(in[0].Graph(), in[0].DType(), -1))
		}, []any{random[float32](rng, 300, 7)}},
		{"where float64 (simplego's)", func(in []*Node) *Node { return Where(positive(in), in[1], in[0]) },
			[]any{random[float64](rng, 40, 3), random[float64](rng, 40, 3)}},
		{"sign [300, 7] with −0, NaN, infinities and a denormal", func(in []*Node) *Node { return Sign(in[0]) },
			[]any{tensors.FromFlatDataAndDimensions(odd, 300, 7)}},
		{"ReLU's gradient (two Signs)", func(in []*Node) *Node { return Gradient(ReduceAllSum(Max(in[0], ZerosLike(in[0]))), in[0])[0] },
			[]any{random[float32](rng, 300, 7)}},
		{"sign float64 (simplego's)", func(in []*Node) *Node { return Sign(in[0]) }, []any{random[float64](rng, 40, 3)}},
		{"where with a scalar condition (simplego's)", func(in []*Node) *Node { return Where(GreaterThan(in[1], in[1]), in[0], Neg(in[0])) },
			[]any{random[float32](rng, 40, 3), float32(1)}},
	}
}

// TestWhereAndSignMatchSimplego checks that every Where and Sign case gives the same values with our
// executors and with simplego's.
func TestWhereAndSignMatchSimplego(t *testing.T) { matchSimplego(t, selectCases()) }
