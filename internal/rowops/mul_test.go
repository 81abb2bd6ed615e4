package rowops

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/gomlx/gomlx/backends/simplego"
	"github.com/gomlx/gomlx/pkg/core/graph"
	. "github.com/gomlx/gomlx/pkg/core/graph"
	"github.com/gomlx/gomlx/pkg/core/tensors"
)

// mulCases cover products of one shape with a length that is not a multiple of 8 (the vector
// kernels' tail), a scalar on either side, an owned operand, rows scaled by a column, a row
// repeated over rows on either side, a broadcast of inner axes and float64 (simplego's path), and
// special values: NaNs with distinct payloads on both sides, infinities and −0.
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
		{"a row [1, 19] repeated over [37, 19]", func(in []*Node) *Node { return Mul(in[0], in[1]) }, []any{xt, random[float32](rng, 1, 19)}},
		{"a row [1, 5, 3] on the left, repeated over an owned [4, 5, 3]", func(in []*Node) *Node { return Mul(in[1], Add(in[0], in[0])) },
			[]any{random[float32](rng, 4, 5, 3), random[float32](rng, 1, 5, 3)}},
		{"special values in a repeated row", func(in []*Node) *Node { return Mul(Slice(in[1], AxisRange(0, 1)), in[0]) }, []any{xt, yt}},
		{"broadcast of a column [1, 19, 1] over [37, 19, 4] (simplego's path)", func(in []*Node) *Node { return Mul(in[0], in[1]) },
			[]any{random[float32](rng, 37, 19, 4), random[float32](rng, 1, 19, 1)}},
		{"float64", func(in []*Node) *Node { return Mul(in[0], in[1]) }, []any{random[float64](rng, 9, 13), random[float64](rng, 9, 13)}},
	}
}

// TestMulMatchesSimplego checks that every Mul case gives bit-identical values with our executor
// and with simplego's.
func TestMulMatchesSimplego(t *testing.T) { matchSimplego(t, mulCases()) }

// TestMulVJPMatchesGoMLX checks that the gradient of a product with rows scaled by a column (on
// either side, rank 2 and 3) is bit-identical with our Mul gradient and with GoMLX's, also where
// the scaled rows are gathered and summed (GAT's per-head attention weights, whose adjoint reads
// fresh gathers).
func TestMulVJPMatchesGoMLX(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	backend, err := simplego.New("")
	if err != nil {
		t.Fatal(err)
	}
	rows := func(in []*Node) []*Node {
		loss := ReduceAllSum(Add(Square(Mul(in[0], in[1])), Mul(in[3], Mul(in[2], in[0]))))
		return Gradient(loss, in[0], in[2])
	}
	gathered := func(in []*Node) []*Node {
		x := Reshape(in[0], 37, 3, 7)
		msgs := Add(Mul(Gather(x, in[1]), in[3]), Mul(in[4], Gather(x, in[2])))
		out := ScatterSum(ZerosLike(x), in[2], msgs, false, false)
		return Gradient(ReduceAllSum(Square(out)), in[0], in[3], in[4])
	}
	cases := []struct {
		name   string
		grads  func(in []*Node) []*Node
		inputs []any
	}{
		{"rows", rows, []any{random[float32](rng, 37, 19), random[float32](rng, 37, 1), random[float32](rng, 37, 1), random[float32](rng, 37, 19)}},
		{"gathered rows", gathered, []any{random[float32](rng, 37, 21),
			tensors.FromFlatDataAndDimensions(randomIndices[int32](rng, 90, 37), 90, 1),
			tensors.FromFlatDataAndDimensions(randomIndices[int32](rng, 90, 37), 90, 1),
			random[float32](rng, 90, 3, 1), random[float32](rng, 90, 1, 1)}},
	}
	for _, c := range cases {
		got := MustExecOnceN(backend, c.grads, c.inputs...)
		graph.VJPRegistration[graph.NodeTypeMul] = gomlxMulVJP
		want := MustExecOnceN(backend, c.grads, c.inputs...)
		graph.VJPRegistration[graph.NodeTypeMul] = mulVJP
		for i := range got {
			g, w := tensors.MustCopyFlatData[float32](got[i]), tensors.MustCopyFlatData[float32](want[i])
			if !slices.EqualFunc(g, w, func(a, b float32) bool { return math.Float32bits(a) == math.Float32bits(b) }) {
				t.Errorf("%s: gradient %d differs from GoMLX's:\n got %v\nwant %v", c.name, i, got[i], want[i])
			}
		}
	}
}
