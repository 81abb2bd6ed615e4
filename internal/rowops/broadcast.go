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
// iterator per element; every element is one IEEE operation with the operands in their order, so
// the results are simplego's. Other dtypes and forms (scalars and equal shapes, which simplego
// runs as plain loops) go to simplego's executor.
func rowBroadcast(op backends.OpType, fallback executor) executor {
	return func(backend *simplego.Backend, node *simplego.Node, inputs []*simplego.Buffer, inputsOwned []bool) (*simplego.Buffer, error) {
		lhs, rhs := shapeOf(backend, inputs[0]), shapeOf(backend, inputs[1])
		if lhs.DType != dtypes.Float32 {
			return fallback(backend, node, inputs, inputsOwned)
		}
		xi, column, ok := overRows(lhs, rhs)
		if !ok {
			return fallback(backend, node, inputs, inputsOwned)
		}
		x, other := dataOf(backend, inputs[xi]).([]float32), dataOf(backend, inputs[1-xi]).([]float32)
		output := outputFor(backend, node, inputs, inputsOwned, xi)
		out := dataOf(backend, output).([]float32)
		if column {
			width := len(x) / len(other)
			for r, c := range other {
				applyScalar(op, out[r*width:(r+1)*width], x[r*width:(r+1)*width], c, xi == 1)
			}
			return output, nil
		}
		for r := 0; r < len(out); r += len(other) {
			applyRow(op, out[r:r+len(other)], x[r:r+len(other)], other, xi == 1)
		}
		return output, nil
	}
}

// applyScalar sets out[i] = x[i] op c, or c op x[i] when swapped (x is the rhs).
func applyScalar(op backends.OpType, out, x []float32, c float32, swapped bool) {
	switch {
	case op == backends.OpTypeAdd && !swapped:
		for i, v := range x {
			out[i] = v + c
		}
	case op == backends.OpTypeAdd:
		for i, v := range x {
			out[i] = c + v
		}
	case op == backends.OpTypeSub && !swapped:
		for i, v := range x {
			out[i] = v - c
		}
	case op == backends.OpTypeSub:
		for i, v := range x {
			out[i] = c - v
		}
	case !swapped: // Div
		for i, v := range x {
			out[i] = v / c
		}
	default:
		for i, v := range x {
			out[i] = c / v
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
