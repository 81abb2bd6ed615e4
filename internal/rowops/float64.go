package rowops

import (
	"github.com/gomlx/gomlx/backends/simplego"
	"github.com/gomlx/gomlx/pkg/core/dtypes"
)

// GloGNN's norm layers run their [C, C] algebra in float64: a Newton–Schulz inverse of 60 steps of
// [C, C] products, differentiated by GoMLX's gradient of DotGeneral (a broadcast [C, C, C] of the
// adjoint multiplied by each operand: Mul by a column or by a repeated row), and products of
// [N, C] by [C, C] with C classes, fewer than 8. simplego multiplies float64 through a broadcast
// iterator per element, and the dot products of fewer than 8 terms were a call per output element.
// The executors of this file run both as loops, with simplego's operations in simplego's order.

// mulFloat64 is mul for float64 operands of one shape, one of them a single value, a column
// [R, 1, …] scaling the rows of the other or a row [1, D…] repeated over them: out = lhs · rhs per
// element, each product one rounding, so the values are simplego's. ok is false (nothing done)
// for other forms.
func mulFloat64(backend *simplego.Backend, node *simplego.Node, inputs []*simplego.Buffer, inputsOwned []bool) (output *simplego.Buffer, ok bool) {
	lhsShape, rhsShape := shapeOf(backend, inputs[0]), shapeOf(backend, inputs[1])
	if lhsShape.DType != dtypes.Float64 || rhsShape.DType != dtypes.Float64 {
		return nil, false
	}
	if !lhsShape.Equal(rhsShape) && lhsShape.Size() != 1 && rhsShape.Size() != 1 {
		if _, _, over := overRows(lhsShape, rhsShape); !over {
			return nil, false
		}
	}
	lhs, rhs := dataOf(backend, inputs[0]).([]float64), dataOf(backend, inputs[1]).([]float64)
	output = backend.NewBuffer(nodeShape(node))
	out := dataOf(backend, output).([]float64)
	switch {
	case len(lhs) == len(out) && len(rhs) == len(out):
		for i := range out {
			out[i] = lhs[i] * rhs[i]
		}
	case len(lhs) == len(out): // rhs a single value, a column or a row
		broadcastMul(out, lhs, rhs, lhsShape.Rank() == rhsShape.Rank() && scalesRows(lhsShape, rhsShape), false)
	default:
		broadcastMul(out, rhs, lhs, rhsShape.Rank() == lhsShape.Rank() && scalesRows(rhsShape, lhsShape), true)
	}
	return output, true
}

// broadcastMul sets out = x · y (y · x with swapped) for x of out's size and y a single value, a
// column (one value per row of x, column true) or a row repeated over x's rows.
func broadcastMul(out, x, y []float64, column, swapped bool) {
	width := len(y)
	if column {
		width = len(x) / len(y)
	}
	for i := range out {
		var v float64
		switch {
		case len(y) == 1:
			v = y[0]
		case column:
			v = y[i/width]
		default:
			v = y[i%width]
		}
		if swapped {
			out[i] = v * x[i]
		} else {
			out[i] = x[i] * v
		}
	}
}

// dotShortContraction64 is dotShortContraction for float64: out [batch, m, n] from lhs
// [batch, m, c] and rhs [batch, c, n] (rowsOrder) for c < 8, every output element the sum from +0
// of its c products in k order, each product rounded (simplego's order below 8 products, see
// dotShortContraction).
func dotShortContraction64(d dotDims, lhs, rhs, out []float64) {
	clear(out)
	for b := range d.batch {
		for i := range d.m {
			o := out[(b*d.m+i)*d.n:][:d.n]
			for k, a := range lhs[(b*d.m+i)*d.c:][:d.c] {
				row := rhs[(b*d.c+k)*d.n:][:d.n]
				for j := range o {
					o[j] += float64(a * row[j]) // the conversion rounds the product: never fused into an FMA
				}
			}
		}
	}
}
