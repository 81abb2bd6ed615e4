package rowops

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	. "github.com/gomlx/gomlx/pkg/core/graph"
	"github.com/gomlx/gomlx/pkg/core/tensors"
)

// broadcastCases cover Add, Sub and Div with a column or a repeated row on either side, rows
// owned (written in place) or not, pieces of rows by [R, D', 1], special values (NaN payloads on
// either side, never both: which of two NaNs an addition keeps is up to the compiler, here and in
// simplego; infinities and ±0 on both sides), equal shapes and a scalar on either side, the
// gradients of log-softmax and of rows divided by their sums, and float64 (simplego's).
func broadcastCases() []rowCase {
	rng := rand.New(rand.NewPCG(21, 22))
	const rows, cols = 23, 11
	x, c, r := randomRows[float32](rng, rows*cols), randomRows[float32](rng, rows), randomRows[float32](rng, cols)
	x[3], c[5], r[6] = math.Float32frombits(0x7fc00005), math.Float32frombits(0x7fc00006), math.Float32frombits(0x7fc00007)
	x[14], c[1], r[4] = float32(math.Inf(1)), 0, float32(math.Inf(1))
	x[25], c[2], r[2] = 0, float32(math.Copysign(0, -1)), 0
	x[40], c[3], r[7] = float32(math.Copysign(0, -1)), float32(math.Inf(-1)), float32(math.Copysign(0, -1))
	xt := tensors.FromFlatDataAndDimensions(x, rows, cols)
	ct, rt := tensors.FromFlatDataAndDimensions(c, rows, 1), tensors.FromFlatDataAndDimensions(r, 1, cols)
	var out []rowCase
	for _, op := range []struct {
		name string
		fn   func(a, b *Node) *Node
	}{{"Add", Add}, {"Sub", Sub}, {"Div", Div}} {
		f := op.fn
		out = append(out,
			rowCase{fmt.Sprintf("%s: rows [23, 11] and a column [23, 1]", op.name), func(in []*Node) *Node { return f(in[0], in[1]) }, []any{xt, ct}},
			rowCase{op.name + ": a column and rows", func(in []*Node) *Node { return f(in[1], in[0]) }, []any{xt, ct}},
			rowCase{op.name + ": owned rows and a row [1, 11]", func(in []*Node) *Node { return f(Add(in[0], in[0]), in[1]) }, []any{xt, rt}},
			rowCase{op.name + ": a row and rows", func(in []*Node) *Node { return f(in[1], in[0]) }, []any{xt, rt}},
			rowCase{op.name + ": pieces [23, 3, 5] and [23, 3, 1]", func(in []*Node) *Node { return f(in[0], in[1]) },
				[]any{random[float32](rng, rows, 3, 5), random[float32](rng, rows, 3, 1)}},
			rowCase{op.name + ": equal shapes", func(in []*Node) *Node { return f(in[0], in[1]) },
				[]any{xt, random[float32](rng, rows, cols)}},
			rowCase{op.name + ": equal shapes, the lhs owned", func(in []*Node) *Node { return f(Add(in[0], in[0]), in[1]) },
				[]any{xt, random[float32](rng, rows, cols)}},
			rowCase{op.name + ": rows and a scalar (dropout's scaling)", func(in []*Node) *Node { return f(in[0], in[1]) },
				[]any{xt, float32(0.7)}},
			rowCase{op.name + ": a scalar and rows", func(in []*Node) *Node { return f(in[1], in[0]) },
				[]any{xt, float32(-1.5)}},
			rowCase{op.name + ": float64 (simplego's path)", func(in []*Node) *Node { return f(in[0], in[1]) },
				[]any{random[float64](rng, rows, cols), random[float64](rng, rows, 1)}},
		)
	}
	return append(out,
		rowCase{"gradient of log-softmax", func(in []*Node) *Node {
			return Gradient(ReduceAllSum(Mul(LogSoftmax(in[0], -1), in[0])), in[0])[0]
		}, []any{random[float32](rng, rows, cols)}},
		rowCase{"gradient of rows by their sums", func(in []*Node) *Node {
			return Gradient(ReduceAllSum(Square(Div(in[0], InsertAxes(ReduceSum(in[0], -1), -1)))), in[0])[0]
		}, []any{random[float32](rng, rows, cols)}},
	)
}

// TestBroadcastRowsMatchSimplego checks that every case gives bit-identical values with our
// executors and with simplego's.
func TestBroadcastRowsMatchSimplego(t *testing.T) { matchSimplego(t, broadcastCases()) }
