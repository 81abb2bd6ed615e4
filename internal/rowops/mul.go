package rowops

import (
	"slices"
	_ "unsafe" // go:linkname

	"github.com/gomlx/gomlx/backends/simplego"
	"github.com/gomlx/gomlx/pkg/core/dtypes"
	"github.com/gomlx/gomlx/pkg/core/shapes"
)

//go:linkname simplegoMul github.com/gomlx/gomlx/backends/simplego.execMul
func simplegoMul(backend *simplego.Backend, node *simplego.Node, inputs []*simplego.Buffer, inputsOwned []bool) (*simplego.Buffer, error)

// simplegoBinaryOutput is simplego's binaryOperandsAndOutput: the operands of a binary op and its
// output buffer, an owned operand of the output's shape when there is one (then cleared from
// inputs), and whether each operand has a single element.
//
//go:linkname simplegoBinaryOutput github.com/gomlx/gomlx/backends/simplego.binaryOperandsAndOutput
func simplegoBinaryOutput(backend *simplego.Backend, inputs []*simplego.Buffer, inputsOwned []bool, outputShape shapes.Shape) (
	lhs, rhs, output *simplego.Buffer, lhsIsScalarOr1, rhsIsScalarOr1 bool)

// mul is the Mul executor for float32 operands of one shape, one of them a single element, one
// of them a column [R, 1, …] scaling the rows of the other [R, D…] (graph.Mul's implicit broadcast
// of a message weight [E, 1] over messages [E, D]), or one of them a row [1, D…] repeated over the
// rows of the other [R, D…]: the vector kernels of mulVec and scaleRowsVec
// where there are some, loops for the rest. Every product is one rounding, so the results are
// simplego's. Other dtypes and broadcasts go to simplego's executor. The row scaling of a fused
// chain (fuse.go) is deferred to its row sum, and a product that a sum runs (sums.go, dots.go) to
// that sum.
func mul(backend *simplego.Backend, node *simplego.Node, inputs []*simplego.Buffer, inputsOwned []bool) (*simplego.Buffer, error) {
	switch f := fusionOf(node); f {
	case sumOverZ, sumOverP:
		return deferProduct(backend, f, inputs, inputsOwned)
	case dotOfGathers:
		return deferDot(backend, node, inputs)
	}
	if standIn := deferScale(backend, inputs, inputsOwned, borrowed(backend, node)); standIn != nil {
		return standIn, nil
	}
	if output, ok := mulFloat64(backend, node, inputs, inputsOwned); ok { // float64.go
		return output, nil
	}
	lhsShape, rhsShape := shapeOf(backend, inputs[0]), shapeOf(backend, inputs[1])
	if lhsShape.DType != dtypes.Float32 {
		return simplegoMul(backend, node, inputs, inputsOwned)
	}
	if lhsShape.Equal(rhsShape) || lhsShape.Size() == 1 || rhsShape.Size() == 1 {
		lhsBuf, rhsBuf, output, lhsIs1, rhsIs1 := simplegoBinaryOutput(backend, inputs, inputsOwned, nodeShape(node))
		if lhsIs1 && !rhsIs1 {
			lhsBuf, rhsBuf = rhsBuf, lhsBuf
		}
		lhs, rhs, out := dataOf(backend, lhsBuf).([]float32), dataOf(backend, rhsBuf).([]float32), dataOf(backend, output).([]float32)
		if len(rhs) == 1 { // one row scaled by one value
			scaleRows(out, lhs, rhs, len(out))
			return output, nil
		}
		for i := mulVec(out, lhs, rhs); i < len(out); i++ {
			out[i] = lhs[i] * rhs[i]
		}
		return output, nil
	}
	xi, column, ok := overRows(lhsShape, rhsShape)
	if !ok {
		return simplegoMul(backend, node, inputs, inputsOwned)
	}
	xs, other := dataOf(backend, inputs[xi]).([]float32), dataOf(backend, inputs[1-xi]).([]float32)
	output := outputFor(backend, node, inputs, inputsOwned, xi)
	out := dataOf(backend, output).([]float32)
	if column {
		scaleRows(out, xs, other, len(xs)/len(other))
		return output, nil
	}
	for r := 0; r < len(out); r += len(other) {
		o, a, b := out[r:r+len(other)], xs[r:r+len(other)], other
		if xi == 1 {
			a, b = b, a // simplego multiplies lhs · rhs
		}
		for i := mulVec(o, a, b); i < len(o); i++ {
			o[i] = a[i] * b[i]
		}
	}
	return output, nil
}

// overRows reports whether one operand broadcasts over the rows of the other (operand xi): as a
// column that scales them (column true: scalesRows) or as a row repeated over them (repeatsRow).
func overRows(lhs, rhs shapes.Shape) (xi int, column, ok bool) {
	switch {
	case scalesRows(lhs, rhs):
		return 0, true, true
	case scalesRows(rhs, lhs):
		return 1, true, true
	case repeatsRow(lhs, rhs):
		return 0, false, true
	case repeatsRow(rhs, lhs):
		return 1, false, true
	}
	return 0, false, false
}

// repeatsRow reports whether row [1, D...] is one row of x [R, D...] (R > 1), which Mul repeats
// over x's rows (GoMLX's gradient of DotGeneral multiplies by such broadcasts).
func repeatsRow(x, row shapes.Shape) bool {
	return x.Rank() == row.Rank() && x.Rank() >= 1 && row.Dim(0) == 1 && x.Dim(0) > 1 &&
		slices.Equal(x.Dimensions[1:], row.Dimensions[1:])
}

// scalesRows reports whether column, of x's rank, has x's dimensions on its leading axes and 1 on
// the others (at least one), so that x · column scales each row of x by one value.
func scalesRows(x, column shapes.Shape) bool {
	if x.Rank() != column.Rank() || x.Rank() == 0 || column.Size() == x.Size() {
		return false
	}
	lead := true
	for axis, d := range column.Dimensions {
		switch {
		case lead && d == x.Dim(axis):
		case d == 1:
			lead = false
		default:
			return false
		}
	}
	return true
}

// scaleRows sets row r of out to row r of x times scale[r] (rows of width floats; out may be x):
// the vector kernel where there is one, else a loop.
func scaleRows(out, x, scale []float32, width int) {
	if scaleRowsVec(out, x, scale, width) {
		return
	}
	for r, c := range scale {
		for i := r * width; i < (r+1)*width; i++ {
			out[i] = x[i] * c
		}
	}
}

// outputFor returns the buffer an elementwise op of node writes into: inputs[i] itself when the op
// owns it (then cleared from inputs, simplego's convention for a consumed input), else a new
// buffer of node's shape.
func outputFor(backend *simplego.Backend, node *simplego.Node, inputs []*simplego.Buffer, inputsOwned []bool, i int) *simplego.Buffer {
	if inputsOwned[i] {
		buf := inputs[i]
		inputs[i] = nil
		return buf
	}
	return backend.NewBuffer(nodeShape(node))
}
