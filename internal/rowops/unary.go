package rowops

import (
	"math"
	_ "unsafe" // go:linkname

	"github.com/gomlx/gomlx/backends/simplego"
	"github.com/gomlx/gomlx/pkg/core/dtypes"
)

//go:linkname simplegoTanh github.com/gomlx/gomlx/backends/simplego.execTanh
func simplegoTanh(backend *simplego.Backend, node *simplego.Node, inputs []*simplego.Buffer, inputsOwned []bool) (*simplego.Buffer, error)

//go:linkname simplegoLogistic github.com/gomlx/gomlx/backends/simplego.execLogistic
func simplegoLogistic(backend *simplego.Backend, node *simplego.Node, inputs []*simplego.Buffer, inputsOwned []bool) (*simplego.Buffer, error)

//go:linkname simplegoPow github.com/gomlx/gomlx/backends/simplego.execPow
func simplegoPow(backend *simplego.Backend, node *simplego.Node, inputs []*simplego.Buffer, inputsOwned []bool) (*simplego.Buffer, error)

//go:linkname simplegoLog github.com/gomlx/gomlx/backends/simplego.execLog
func simplegoLog(backend *simplego.Backend, node *simplego.Node, inputs []*simplego.Buffer, inputsOwned []bool) (*simplego.Buffer, error)

// The executors of this file run simplego's float32 Tanh, Logistic, Log and Pow, each element
// computed by the same expression as simplego's (through float64 and math's functions), with the
// elements split over the cores: about 5-40 ns per element on one core; GraphMixup's descriptors
// and edge predictor run 2 million per epoch on Cora, GraphMix's sharpened pseudo-labels Pow,
// EERM's Gumbel draws Log (5 × 1.4 million on Twitch). Other dtypes and forms go to simplego's
// executors.

// tanh is the Tanh executor: float32(math.Tanh(float64(x))).
func tanh(backend *simplego.Backend, node *simplego.Node, inputs []*simplego.Buffer, inputsOwned []bool) (*simplego.Buffer, error) {
	return unaryParallel(backend, node, inputs, inputsOwned, simplegoTanh, func(out, in []float32) {
		for i, x := range in {
			out[i] = float32(math.Tanh(float64(x)))
		}
	})
}

// logistic is the Logistic executor: 1 / (1 + e^−x) for x >= 0, else e^x / (1 + e^x), in float64.
func logistic(backend *simplego.Backend, node *simplego.Node, inputs []*simplego.Buffer, inputsOwned []bool) (*simplego.Buffer, error) {
	return unaryParallel(backend, node, inputs, inputsOwned, simplegoLogistic, func(out, in []float32) {
		for i, x := range in {
			if x >= 0 {
				out[i] = float32(1.0 / (1.0 + math.Exp(-float64(x))))
			} else {
				e := math.Exp(float64(x))
				out[i] = float32(e / (1.0 + e))
			}
		}
	})
}

// naturalLog is the Log executor: float32(math.Log(float64(x))).
func naturalLog(backend *simplego.Backend, node *simplego.Node, inputs []*simplego.Buffer, inputsOwned []bool) (*simplego.Buffer, error) {
	return unaryParallel(backend, node, inputs, inputsOwned, simplegoLog, func(out, in []float32) {
		for i, x := range in {
			out[i] = float32(math.Log(float64(x)))
		}
	})
}

// unaryParallel runs kernel (out[i] from in[i] alone) over a float32 operand, in one range per core
// when it is large, into the operand's buffer when the op owns it; other dtypes go to fallback.
func unaryParallel(backend *simplego.Backend, node *simplego.Node, inputs []*simplego.Buffer, inputsOwned []bool,
	fallback executor, kernel func(out, in []float32)) (*simplego.Buffer, error) {
	if shapeOf(backend, inputs[0]).DType != dtypes.Float32 {
		return fallback(backend, node, inputs, inputsOwned)
	}
	in := dataOf(backend, inputs[0]).([]float32)
	output := outputFor(backend, node, inputs, inputsOwned, 0)
	out := dataOf(backend, output).([]float32)
	inParallel(len(in), 16*len(in), func(from, to int) { kernel(out[from:to], in[from:to]) })
	return output, nil
}

// pow is the Pow executor for float32 operands of one shape or one of them a single value:
// float32(math.Pow(float64(x), float64(y))), as simplego's.
func pow(backend *simplego.Backend, node *simplego.Node, inputs []*simplego.Buffer, inputsOwned []bool) (*simplego.Buffer, error) {
	if !elementwiseOperands(backend, inputs) {
		return simplegoPow(backend, node, inputs, inputsOwned)
	}
	lhsBuf, rhsBuf, output, _, _ := simplegoBinaryOutput(backend, inputs, inputsOwned, nodeShape(node))
	a, b, out := dataOf(backend, lhsBuf).([]float32), dataOf(backend, rhsBuf).([]float32), dataOf(backend, output).([]float32)
	aStep, bStep := min(len(a)-1, 1), min(len(b)-1, 1)
	inParallel(len(out), 64*len(out), func(from, to int) {
		for i := from; i < to; i++ {
			out[i] = float32(math.Pow(float64(a[i*aStep]), float64(b[i*bStep])))
		}
	})
	return output, nil
}
