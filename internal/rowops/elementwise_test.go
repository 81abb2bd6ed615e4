package rowops

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/gomlx/gomlx/pkg/core/dtypes"
	. "github.com/gomlx/gomlx/pkg/core/graph"
	"github.com/gomlx/gomlx/pkg/core/tensors"
)

// elementwiseCases cover Max and Min of equal shapes and with a scalar on either side, ReLU, and
// LessOrEqual, Abs and ConvertDType from uint32, on values the kernels must treat as Go does:
// NaN payloads on either side and on both, ±0 against ±0, infinities, denormals; and a float64
// form of each (simplego's).
func elementwiseCases() []rowCase {
	rng := rand.New(rand.NewPCG(23, 24))
	const rows, cols = 29, 7 // 203 elements: 25 groups of eight and a tail
	negZero, nan1, nan2 := float32(math.Copysign(0, -1)), math.Float32frombits(0x7fc00011), math.Float32frombits(0xffc00022)
	a, b := randomRows[float32](rng, rows*cols), randomRows[float32](rng, rows*cols)
	specialA := []float32{negZero, 0, negZero, 0, nan1, 1, nan1, float32(math.Inf(1)), float32(math.Inf(-1)), 1e-40, -1e-40, 3}
	specialB := []float32{0, negZero, negZero, 0, 2, nan2, nan2, float32(math.Inf(-1)), 5, -1e-40, 1e-40, 3}
	copy(a, specialA)
	copy(b, specialB)
	copy(a[100:], specialB) // inside a later group too
	copy(b[100:], specialA)
	at, bt := tensors.FromFlatDataAndDimensions(a, rows, cols), tensors.FromFlatDataAndDimensions(b, rows, cols)
	bits := make([]uint32, rows*cols)
	for i := range bits {
		bits[i] = rng.Uint32()
	}
	copy(bits, []uint32{0, 1, 1<<24 + 1, 1<<24 + 3, 1<<25 + 2, 1<<25 + 6, math.MaxUint32, 1 << 31, 0xffffff80, 0xffffff7f, 0x7fffffc0})
	ut := tensors.FromFlatDataAndDimensions(bits, rows, cols)
	var out []rowCase
	for _, op := range []struct {
		name string
		fn   func(x, y *Node) *Node
	}{{"Max", Max}, {"Min", Min}, {"LessOrEqual", LessOrEqual}} {
		f := op.fn
		out = append(out,
			rowCase{op.name + ": equal shapes", func(in []*Node) *Node { return f(in[0], in[1]) }, []any{at, bt}},
			rowCase{op.name + ": equal shapes, swapped", func(in []*Node) *Node { return f(in[1], in[0]) }, []any{at, bt}},
			rowCase{op.name + ": the lhs owned", func(in []*Node) *Node { return f(Neg(in[0]), in[1]) }, []any{at, bt}},
			rowCase{op.name + ": a scalar rhs", func(in []*Node) *Node { return f(in[0], in[1]) }, []any{at, float32(0.25)}},
			rowCase{op.name + ": a scalar lhs", func(in []*Node) *Node { return f(in[1], in[0]) }, []any{at, float32(-0.25)}},
			rowCase{op.name + ": a −0 scalar", func(in []*Node) *Node { return f(in[0], in[1]) }, []any{at, negZero}},
			rowCase{op.name + ": a NaN scalar", func(in []*Node) *Node { return f(in[1], in[0]) }, []any{at, nan2}},
			rowCase{op.name + ": float64 (simplego's)", func(in []*Node) *Node { return f(in[0], in[1]) },
				[]any{random[float64](rng, rows, cols), random[float64](rng, rows, cols)}},
		)
	}
	return append(out,
		rowCase{"ReLU, Max with broadcast zeros", func(in []*Node) *Node { return Max(in[0], ZerosLike(in[0])) }, []any{at}},
		rowCase{"ReLU's gradient", func(in []*Node) *Node { return Gradient(ReduceAllSum(Max(in[0], ZerosLike(in[0]))), in[0])[0] }, []any{at}},
		rowCase{"Abs", func(in []*Node) *Node { return Abs(in[0]) }, []any{at}},
		rowCase{"Abs float64 (simplego's)", func(in []*Node) *Node { return Abs(in[0]) }, []any{random[float64](rng, rows, cols)}},
		rowCase{"ConvertDType uint32 to float32", func(in []*Node) *Node { return ConvertDType(in[0], dtypes.Float32) }, []any{ut}},
		rowCase{"ConvertDType uint32 to float64 (simplego's)", func(in []*Node) *Node { return ConvertDType(in[0], dtypes.Float64) }, []any{ut}},
		rowCase{"ConvertDType float32 to float64 (simplego's)", func(in []*Node) *Node { return ConvertDType(in[0], dtypes.Float64) }, []any{at}},
	)
}

// TestElementwiseMatchSimplego checks that every case gives simplego's values bit for bit.
func TestElementwiseMatchSimplego(t *testing.T) { matchSimplego(t, elementwiseCases()) }
