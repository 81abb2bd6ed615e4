package rowops

import (
	_ "unsafe" // go:linkname

	"github.com/gomlx/gomlx/backends/simplego"
	"github.com/gomlx/gomlx/pkg/core/dtypes"
)

//go:linkname simplegoGreaterOrEqual github.com/gomlx/gomlx/backends/simplego.execGreaterOrEqual
func simplegoGreaterOrEqual(backend *simplego.Backend, node *simplego.Node, inputs []*simplego.Buffer, inputsOwned []bool) (*simplego.Buffer, error)

//go:linkname simplegoGreaterThan github.com/gomlx/gomlx/backends/simplego.execGreaterThan
func simplegoGreaterThan(backend *simplego.Backend, node *simplego.Node, inputs []*simplego.Buffer, inputsOwned []bool) (*simplego.Buffer, error)

//go:linkname simplegoEqual github.com/gomlx/gomlx/backends/simplego.execEqual
func simplegoEqual(backend *simplego.Backend, node *simplego.Node, inputs []*simplego.Buffer, inputsOwned []bool) (*simplego.Buffer, error)

// equal is the Equal executor for int32 operands [R, 1] and [1, C], in either order:
// out[i, j] = a[i] == b[j], a row at a time, where simplego walks a broadcast iterator per element
// (OneHot compares indices with an iota: EERM's editors' [21272, 1] picks with [1, 64] candidates,
// 17 ns per element). Other forms go to simplego's.
func equal(backend *simplego.Backend, node *simplego.Node, inputs []*simplego.Buffer, inputsOwned []bool) (*simplego.Buffer, error) {
	column, row := inputs[0], inputs[1]
	if s := shapeOf(backend, column); s.Rank() == 2 && s.Dim(0) == 1 {
		column, row = row, column // equality is symmetric
	}
	cs, rs := shapeOf(backend, column), shapeOf(backend, row)
	if cs.DType != dtypes.Int32 || rs.DType != dtypes.Int32 || cs.Rank() != 2 || rs.Rank() != 2 || cs.Dim(1) != 1 || rs.Dim(0) != 1 {
		return simplegoEqual(backend, node, inputs, inputsOwned)
	}
	a, b := dataOf(backend, column).([]int32), dataOf(backend, row).([]int32)
	output := backend.NewBuffer(nodeShape(node))
	out := dataOf(backend, output).([]bool)
	for i, x := range a {
		for j, y := range b {
			out[i*len(b)+j] = x == y
		}
	}
	return output, nil
}

// greaterOrEqual is the GreaterOrEqual executor for float32 operands of one shape or one of them a
// single value (LeakyReLU's and its gradient's x ≥ 0, GAT's attention scores): a ≥ b is b ≤ a,
// the same IEEE comparison (false with a NaN), so lessOrEqual's vector kernel runs it with the
// operands swapped.
func greaterOrEqual(backend *simplego.Backend, node *simplego.Node, inputs []*simplego.Buffer, inputsOwned []bool) (*simplego.Buffer, error) {
	if !elementwiseOperands(backend, inputs) {
		return simplegoGreaterOrEqual(backend, node, inputs, inputsOwned)
	}
	a, b := dataOf(backend, inputs[0]).([]float32), dataOf(backend, inputs[1]).([]float32)
	output := backend.NewBuffer(nodeShape(node))
	out := dataOf(backend, output).([]bool)
	aStep, bStep := min(len(a)-1, 1), min(len(b)-1, 1)
	for i := lessEqVec(out, b, a); i < len(out); i++ {
		out[i] = b[i*bStep] <= a[i*aStep]
	}
	return output, nil
}

// greaterThan is the GreaterThan executor for float32 operands of one shape or one of them a
// single value (ELU's x > 0 in GAT): one loop without simplego's per-element broadcast checks.
func greaterThan(backend *simplego.Backend, node *simplego.Node, inputs []*simplego.Buffer, inputsOwned []bool) (*simplego.Buffer, error) {
	if !elementwiseOperands(backend, inputs) {
		return simplegoGreaterThan(backend, node, inputs, inputsOwned)
	}
	a, b := dataOf(backend, inputs[0]).([]float32), dataOf(backend, inputs[1]).([]float32)
	output := backend.NewBuffer(nodeShape(node))
	out := dataOf(backend, output).([]bool)
	switch {
	case len(b) == 1 && len(a) == len(out):
		for i, x := range a {
			out[i] = x > b[0]
		}
	case len(a) == 1 && len(b) == len(out):
		for i, y := range b {
			out[i] = a[0] > y
		}
	default:
		for i := range out {
			out[i] = a[i] > b[i]
		}
	}
	return output, nil
}
