package rowops

import (
	"math"
	"math/rand/v2"
	"testing"

	. "github.com/gomlx/gomlx/pkg/core/graph"
	"github.com/gomlx/gomlx/pkg/core/tensors"
)

// scalarCase is a rowCase with the number of scalar broadcasts its graph hands over as scalars.
type scalarCase struct {
	scalars int
	rowCase
}

// scalarCases cover broadcasts of one value taken as a scalar by each kind of op and on either side
// (the gradients of MulScalar and of a division by a norm, Sub and Div with the value on the left,
// ReLU's Max and a comparison, either branch of a Where), in
// float32 and float64, with special values, and an other operand that is itself a broadcast (of a
// row); and the near misses that stay broadcasts: a use by another op (Pow), a broadcast that is also an
// output, and one used on both sides of an op.
func scalarCases() []scalarCase {
	rng := rand.New(rand.NewPCG(17, 18))
	special := randomRows[float32](rng, 40*9)
	special[0], special[1], special[2] = float32(math.NaN()), float32(math.Inf(-1)), float32(math.Copysign(0, -1))
	x := tensors.FromFlatDataAndDimensions(special, 40, 9)
	full := func(in []*Node, v float64) *Node {
		return BroadcastToShape(Scalar(in[0].Graph(), in[0].DType(), v), in[0].Shape())
	}
	return []scalarCase{
		{2, rowCase{"gradient of MulScalar (its scalar and the sum's adjoint)", func(in []*Node) *Node { return Gradient(ReduceAllSum(Square(MulScalar(in[0], 3))), in[0])[0] },
			[]any{x}}},
		{3, rowCase{"value on the left of Sub, Div, Add", func(in []*Node) *Node {
			return Add(Div(full(in, 2), Sub(full(in, 1.5), in[0])), Add(full(in, -7), in[0]))
		}, []any{x}}},
		{1, rowCase{"used by two Muls", func(in []*Node) *Node {
			c := full(in, 0.25)
			return Add(Mul(in[0], c), Mul(c, Square(in[0])))
		}, []any{x}}},
		{2, rowCase{"float64 gradient of a division by the Frobenius norm", func(in []*Node) *Node {
			return Gradient(ReduceAllSum(Div(in[0], Sqrt(ReduceAllSum(Square(in[0]))))), in[0])[0]
		}, []any{random[float64](rng, 30, 4)}}},
		{2, rowCase{"ReLU, Max with zeros, and a comparison", func(in []*Node) *Node {
			return Add(Max(in[0], full(in, 0)), ConvertDType(LessOrEqual(full(in, 0.5), in[0]), in[0].DType()))
		}, []any{x}}},
		{3, rowCase{"Where picking the value on either side (and the zeros compared with)", func(in []*Node) *Node {
			return Add(Where(GreaterThan(in[0], ZerosLike(in[0])), in[0], full(in, -1)), Where(IsNaN(in[0]), full(in, 4), in[0]))
		}, []any{x}}},
		{0, rowCase{"used by Pow: a broadcast", func(in []*Node) *Node { return Pow(Abs(in[0]), full(in, 2)) }, []any{x}}},
		{0, rowCase{"also an output: a broadcast", func(in []*Node) *Node {
			c := full(in, 3)
			return Concatenate([]*Node{Mul(in[0], c), c}, 0)
		}, []any{x}}},
		{0, rowCase{"on both sides of a Mul: a broadcast", func(in []*Node) *Node { c := full(in, 3); return Mul(c, c) }, []any{x}}},
		{1, rowCase{"the other operand a broadcast of a row", func(in []*Node) *Node {
			return Mul(full(in, 3), BroadcastToShape(InsertAxes(ReduceSum(in[0], 0), 0), in[0].Shape()))
		}, []any{x}}},
	}
}

// TestScalarBroadcastsMatchSimplego checks that broadcasts handed over as scalars give simplego's
// values bit for bit.
func TestScalarBroadcastsMatchSimplego(t *testing.T) {
	var cases []rowCase
	for _, c := range scalarCases() {
		cases = append(cases, c.rowCase)
	}
	matchSimplego(t, cases)
}

// TestScalarBroadcasts checks which broadcasts the plan hands over as scalars.
func TestScalarBroadcasts(t *testing.T) {
	for _, c := range scalarCases() {
		if got := countFusions(t, c.fn, c.inputs)[scalarBroadcast]; got != c.scalars {
			t.Errorf("%s: %d broadcasts taken as scalars, want %d", c.name, got, c.scalars)
		}
	}
}
