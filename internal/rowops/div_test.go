package rowops

import (
	"math"
	"math/rand/v2"
	"testing"

	. "github.com/gomlx/gomlx/pkg/core/graph"
	"github.com/gomlx/gomlx/pkg/core/tensors"
)

// divCases cover rows divided by a column, the rows owned (divided in place) or not, pieces of rows
// by [R, D', 1], special values (NaN payloads, infinities, ±0 on both sides), the gradient of
// GeoMix-III's normalisation, and forms left to simplego (same shapes, a row, float64).
func divCases() []rowCase {
	rng := rand.New(rand.NewPCG(21, 22))
	const rows, cols = 23, 11
	x, c := randomRows[float32](rng, rows*cols), randomRows[float32](rng, rows)
	x[3], c[0] = math.Float32frombits(0x7fc00005), math.Float32frombits(0x7fc00006)
	x[14], c[1] = float32(math.Inf(1)), 0
	x[25], c[2] = 0, float32(math.Copysign(0, -1))
	x[40], c[3] = float32(math.Copysign(0, -1)), float32(math.Inf(-1))
	xt, ct := tensors.FromFlatDataAndDimensions(x, rows, cols), tensors.FromFlatDataAndDimensions(c, rows, 1)
	div := func(in []*Node) *Node { return Div(in[0], in[1]) }
	return []rowCase{
		{"rows [23, 11] by a column [23, 1]", div, []any{xt, ct}},
		{"owned rows", func(in []*Node) *Node { return Div(Add(in[0], in[0]), in[1]) }, []any{xt, ct}},
		{"pieces [23, 3, 5] by [23, 3, 1]", div, []any{random[float32](rng, rows, 3, 5), random[float32](rng, rows, 3, 1)}},
		{"gradient of rows by their sums", func(in []*Node) *Node {
			grads := Gradient(ReduceAllSum(Square(Div(in[0], InsertAxes(ReduceSum(in[0], -1), -1)))), in[0])
			return grads[0]
		}, []any{random[float32](rng, rows, cols)}},
		{"same shapes (simplego's path)", div, []any{xt, random[float32](rng, rows, cols)}},
		{"a row [1, 11] (simplego's path)", div, []any{xt, random[float32](rng, 1, cols)}},
		{"float64 (simplego's path)", div, []any{random[float64](rng, rows, cols), random[float64](rng, rows, 1)}},
	}
}

// TestDivMatchesSimplego checks that every Div case gives bit-identical values with our executor
// and with simplego's.
func TestDivMatchesSimplego(t *testing.T) { matchSimplego(t, divCases()) }
