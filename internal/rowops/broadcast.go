package rowops

import (
	_ "unsafe" // go:linkname

	"github.com/gomlx/gomlx/backends"
	"github.com/gomlx/gomlx/backends/simplego"
	"github.com/gomlx/gomlx/pkg/core/dtypes"
)

//go:linkname simplegoAdd github.com/gomlx/gomlx/backends/simplego.execAdd
func simplegoAdd(backend *simplego.Backend, node *simplego.Node, inputs []*simplego.Buffer, inputsOwned []bool) (*simplego.Buffer, error)

//go:linkname simplegoSub github.com/gomlx/gomlx/backends/simplego.execSub
func simplegoSub(backend *simplego.Backend, node *simplego.Node, inputs []*simplego.Buffer, inputsOwned []bool) (*simplego.Buffer, error)

//go:linkname simplegoDiv github.com/gomlx/gomlx/backends/simplego.execDiv
func simplegoDiv(backend *simplego.Backend, node *simplego.Node, inputs []*simplego.Buffer, inputsOwned []bool) (*simplego.Buffer, error)

// rowBroadcast is the Add, Sub and Div executor for float32 operands where one broadcasts over
// the rows of the other [R, D...]: a column [R, 1...] (or [R, D'..., 1...] over pieces of rows:
// log-softmax's maxima, GeoMix-III's attention denominators) or a row [1, D...] repeated over them
// (biases, BatchNorm's statistics). It runs a row at a time, where simplego walks a broadcast
// iterator per element; operands of one shape, or one of them a single value, run in a vector
// kernel eight at a time (dropout's scaling, residual sums), where simplego runs a plain loop.
// Every element is one IEEE operation with the operands in their order, so the results are
// simplego's. Other dtypes and forms go to simplego's executor.
func rowBroadcast(op backends.OpType, fallback executor) executor {
	return func(backend *simplego.Backend, node *simplego.Node, inputs []*simplego.Buffer, inputsOwned []bool) (*simplego.Buffer, error) {
		lhs, rhs := shapeOf(backend, inputs[0]), shapeOf(backend, inputs[1])
		if lhs.DType != dtypes.Float32 {
			return fallback(backend, node, inputs, inputsOwned)
		}
		if elementwiseOperands(backend, inputs) {
			lhsBuf, rhsBuf, output, _, _ := simplegoBinaryOutput(backend, inputs, inputsOwned, nodeShape(node))
			elementwise(arithOps[op], dataOf(backend, output).([]float32), dataOf(backend, lhsBuf).([]float32), dataOf(backend, rhsBuf).([]float32))
			return output, nil
		}
		xi, column, ok := overRows(lhs, rhs)
		if !ok {
			return fallback(backend, node, inputs, inputsOwned)
		}
		x, other := dataOf(backend, inputs[xi]).([]float32), dataOf(backend, inputs[1-xi]).([]float32)
		output := outputFor(backend, node, inputs, inputsOwned, xi)
		out := dataOf(backend, output).([]float32)
		if column {
			applyColumn(op, out, x, other, xi == 1)
			return output, nil
		}
		for r := 0; r < len(out); r += len(other) {
			applyRow(op, out[r:r+len(other)], x[r:r+len(other)], other, xi == 1)
		}
		return output, nil
	}
}

// applyColumn sets row r of out to row r of x op col[r], or col[r] op row r of x when swapped (x is
// the rhs), rows of len(x)/len(col) floats: one loop over all rows per op, where a call per row
// cost more than the arithmetic on rows of a few floats (log-softmax over 3 classes).
func applyColumn(op backends.OpType, out, x, col []float32, swapped bool) {
	w := len(x) / len(col)
	switch {
	case op == backends.OpTypeAdd && !swapped:
		for r, c := range col {
			o := out[r*w : (r+1)*w]
			for i, v := range x[r*w : (r+1)*w] {
				o[i] = v + c
			}
		}
	case op == backends.OpTypeAdd:
		for r, c := range col {
			o := out[r*w : (r+1)*w]
			for i, v := range x[r*w : (r+1)*w] {
				o[i] = c + v
			}
		}
	case op == backends.OpTypeSub && !swapped:
		for r, c := range col {
			o := out[r*w : (r+1)*w]
			for i, v := range x[r*w : (r+1)*w] {
				o[i] = v - c
			}
		}
	case op == backends.OpTypeSub:
		for r, c := range col {
			o := out[r*w : (r+1)*w]
			for i, v := range x[r*w : (r+1)*w] {
				o[i] = c - v
			}
		}
	case !swapped: // Div
		for r, c := range col {
			o := out[r*w : (r+1)*w]
			for i, v := range x[r*w : (r+1)*w] {
				o[i] = v / c
			}
		}
	default:
		for r, c := range col {
			o := out[r*w : (r+1)*w]
			for i, v := range x[r*w : (r+1)*w] {
				o[i] = c / v
			}
		}
	}
}

// applyRow sets out[i] = x[i] op y[i], or y[i] op x[i] when swapped (x is the rhs).
func applyRow(op backends.OpType, out, x, y []float32, swapped bool) {
	if swapped {
		x, y = y, x
	}
	switch op {
	case backends.OpTypeAdd:
		for i, v := range x {
			out[i] = v + y[i]
		}
	case backends.OpTypeSub:
		for i, v := range x {
			out[i] = v - y[i]
		}
	default: // Div
		for i, v := range x {
			out[i] = v / y[i]
		}
	}
}
