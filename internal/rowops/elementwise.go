package rowops

import (
	_ "unsafe" // go:linkname

	"github.com/gomlx/gomlx/backends"
	"github.com/gomlx/gomlx/backends/simplego"
	"github.com/gomlx/gomlx/pkg/core/dtypes"
)

//go:linkname simplegoMax github.com/gomlx/gomlx/backends/simplego.execMax
func simplegoMax(backend *simplego.Backend, node *simplego.Node, inputs []*simplego.Buffer, inputsOwned []bool) (*simplego.Buffer, error)

//go:linkname simplegoMin github.com/gomlx/gomlx/backends/simplego.execMin
func simplegoMin(backend *simplego.Backend, node *simplego.Node, inputs []*simplego.Buffer, inputsOwned []bool) (*simplego.Buffer, error)

//go:linkname simplegoAbs github.com/gomlx/gomlx/backends/simplego.execAbs
func simplegoAbs(backend *simplego.Backend, node *simplego.Node, inputs []*simplego.Buffer, inputsOwned []bool) (*simplego.Buffer, error)

//go:linkname simplegoLessOrEqual github.com/gomlx/gomlx/backends/simplego.execLessOrEqual
func simplegoLessOrEqual(backend *simplego.Backend, node *simplego.Node, inputs []*simplego.Buffer, inputsOwned []bool) (*simplego.Buffer, error)

//go:linkname simplegoConvertDType github.com/gomlx/gomlx/backends/simplego.execConvertDType
func simplegoConvertDType(backend *simplego.Backend, node *simplego.Node, inputs []*simplego.Buffer, inputsOwned []bool) (*simplego.Buffer, error)

// The executors of this file, and rowBroadcast for operands of one shape or a single value (with
// elementwise), run the element-wise ops of dropout and ReLU (GoMLX's RandomUniform turns random
// bits into floats, Dropout compares them with the rate and scales, ReLU is a Max with 0) in
// vector kernels eight at a time, where simplego runs a plain loop over [N, D] (about 1 ns per
// element; a tenth of a PubMed epoch together). Each gives simplego's values bit for bit; other
// dtypes and forms go to simplego's executors.

// elementwiseOperands reports whether lhs and rhs are float32 of one shape, or one of them a
// single value.
func elementwiseOperands(backend *simplego.Backend, inputs []*simplego.Buffer) bool {
	lhs, rhs := shapeOf(backend, inputs[0]), shapeOf(backend, inputs[1])
	return lhs.DType == dtypes.Float32 && rhs.DType == dtypes.Float32 &&
		(lhs.Equal(rhs) || lhs.Size() == 1 || rhs.Size() == 1)
}

// arithOp names the operations of the arithmetic vector kernel.
type arithOp int

const (
	arithAdd arithOp = iota
	arithSub
	arithDiv
)

// arithOps maps rowBroadcast's ops to the kernel's.
var arithOps = map[backends.OpType]arithOp{backends.OpTypeAdd: arithAdd, backends.OpTypeSub: arithSub, backends.OpTypeDiv: arithDiv}

// elementwise sets out[i] = a[i] op b[i], a or b a single value repeated where it has one
// element: the vector kernel for a prefix, a loop for the rest. out may be a or b.
func elementwise(op arithOp, out, a, b []float32) {
	aStep, bStep := min(len(a)-1, 1), min(len(b)-1, 1)
	for i := arithVec(op, out, a, b); i < len(out); i++ {
		x, y := a[i*aStep], b[i*bStep]
		switch op {
		case arithAdd:
			out[i] = x + y
		case arithSub:
			out[i] = x - y
		default:
			out[i] = x / y
		}
	}
}

// minMax returns the Max (isMax) or Min executor for float32 operands of one shape or one of
// them a single value: Go's max and min, as simplego's, with the vector kernel for a prefix.
func minMax(isMax bool, fallback executor) executor {
	return func(backend *simplego.Backend, node *simplego.Node, inputs []*simplego.Buffer, inputsOwned []bool) (*simplego.Buffer, error) {
		if !elementwiseOperands(backend, inputs) {
			return fallback(backend, node, inputs, inputsOwned)
		}
		lhsBuf, rhsBuf, output, _, _ := simplegoBinaryOutput(backend, inputs, inputsOwned, nodeShape(node))
		a, b, out := dataOf(backend, lhsBuf).([]float32), dataOf(backend, rhsBuf).([]float32), dataOf(backend, output).([]float32)
		aStep, bStep := min(len(a)-1, 1), min(len(b)-1, 1)
		for i := minMaxVec(isMax, out, a, b); i < len(out); i++ {
			if isMax {
				out[i] = max(a[i*aStep], b[i*bStep])
			} else {
				out[i] = min(a[i*aStep], b[i*bStep])
			}
		}
		return output, nil
	}
}

// lessOrEqual is the LessOrEqual executor for float32 operands of one shape or one of them a
// single value (Dropout's comparison of random values with the rate).
func lessOrEqual(backend *simplego.Backend, node *simplego.Node, inputs []*simplego.Buffer, inputsOwned []bool) (*simplego.Buffer, error) {
	if !elementwiseOperands(backend, inputs) {
		return simplegoLessOrEqual(backend, node, inputs, inputsOwned)
	}
	a, b := dataOf(backend, inputs[0]).([]float32), dataOf(backend, inputs[1]).([]float32)
	output := backend.NewBuffer(nodeShape(node))
	out := dataOf(backend, output).([]bool)
	aStep, bStep := min(len(a)-1, 1), min(len(b)-1, 1)
	for i := lessEqVec(out, a, b); i < len(out); i++ {
		out[i] = a[i*aStep] <= b[i*bStep]
	}
	return output, nil
}

// abs is the Abs executor for float32: −x where x < 0, else x (−0 and NaNs kept), as simplego's.
func abs(backend *simplego.Backend, node *simplego.Node, inputs []*simplego.Buffer, inputsOwned []bool) (*simplego.Buffer, error) {
	if shapeOf(backend, inputs[0]).DType != dtypes.Float32 {
		return simplegoAbs(backend, node, inputs, inputsOwned)
	}
	x := dataOf(backend, inputs[0]).([]float32)
	output := outputFor(backend, node, inputs, inputsOwned, 0)
	out := dataOf(backend, output).([]float32)
	for i := absVec(out, x); i < len(x); i++ {
		if v := x[i]; v < 0 {
			out[i] = -v
		} else {
			out[i] = v
		}
	}
	return output, nil
}

// convertDType is the ConvertDType executor from uint32 to float32 (RandomUniform's random bits):
// float32(x), correctly rounded, as simplego's.
func convertDType(backend *simplego.Backend, node *simplego.Node, inputs []*simplego.Buffer, inputsOwned []bool) (*simplego.Buffer, error) {
	if shapeOf(backend, inputs[0]).DType != dtypes.Uint32 || nodeShape(node).DType != dtypes.Float32 {
		return simplegoConvertDType(backend, node, inputs, inputsOwned)
	}
	x := dataOf(backend, inputs[0]).([]uint32)
	output := backend.NewBuffer(nodeShape(node))
	out := dataOf(backend, output).([]float32)
	for i := uint32ToFloat32Vec(out, x); i < len(x); i++ {
		out[i] = float32(x[i])
	}
	return output, nil
}
