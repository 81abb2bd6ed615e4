package rowops

import (
	"math"
	_ "unsafe" // go:linkname

	"github.com/gomlx/gomlx/backends/simplego"
	"github.com/gomlx/gomlx/pkg/core/dtypes"
)

//go:linkname simplegoWhere github.com/gomlx/gomlx/backends/simplego.execWhere
func simplegoWhere(backend *simplego.Backend, node *simplego.Node, inputs []*simplego.Buffer, inputsOwned []bool) (*simplego.Buffer, error)

//go:linkname simplegoSign github.com/gomlx/gomlx/backends/simplego.execSign
func simplegoSign(backend *simplego.Backend, node *simplego.Node, inputs []*simplego.Buffer, inputsOwned []bool) (*simplego.Buffer, error)

// where is the Where executor for float32 with a condition of the output's shape and each branch
// of that shape or a scalar (dropout's masks and their gradients, GoMLX's gradient of Where): a
// select by bit masks, where simplego branches on every element, and dropout's random conditions
// make half of those branches mispredicted (eight at a time by a vector blend where there is one).
// It picks the same values, so the output is simplego's.
// Other forms and dtypes go to simplego's executor.
func where(backend *simplego.Backend, node *simplego.Node, inputs []*simplego.Buffer, inputsOwned []bool) (*simplego.Buffer, error) {
	out := nodeShape(node)
	cond, onTrue, onFalse := shapeOf(backend, inputs[0]), shapeOf(backend, inputs[1]), shapeOf(backend, inputs[2])
	branch := func(s int) bool { return s == 1 || s == out.Size() }
	if out.DType != dtypes.Float32 || cond.Size() != out.Size() || !branch(onTrue.Size()) || !branch(onFalse.Size()) {
		return simplegoWhere(backend, node, inputs, inputsOwned)
	}
	c := dataOf(backend, inputs[0]).([]bool)
	t, f := dataOf(backend, inputs[1]).([]float32), dataOf(backend, inputs[2]).([]float32)
	var output *simplego.Buffer
	switch {
	case len(t) == len(c):
		output = outputFor(backend, node, inputs, inputsOwned, 1)
	case len(f) == len(c):
		output = outputFor(backend, node, inputs, inputsOwned, 2)
	default:
		output = backend.NewBuffer(out)
	}
	selectBits(dataOf(backend, output).([]float32), c, t, f)
	return output, nil
}

// selectBits sets out[i] to t[i] where c[i], else f[i]; t or f may be a single value, repeated.
// out may be t or f itself: each element is read before it is written. The vector kernel selects
// a prefix, eight at a time.
func selectBits(out []float32, c []bool, t, f []float32) {
	tStep, fStep := min(len(t)-1, 1), min(len(f)-1, 1)
	for i := selectVec(out, c, t, f); i < len(c); i++ {
		ci := c[i]
		var mask uint32 // all ones where c[i]: a conditional move, not a branch
		if ci {
			mask = ^uint32(0)
		}
		tb, fb := math.Float32bits(t[i*tStep]), math.Float32bits(f[i*fStep])
		out[i] = math.Float32frombits(tb&mask | fb&^mask)
	}
}

// sign is the Sign executor for float32: −1 below zero, 1 above, +0 otherwise (±0 and NaN), as
// simplego's, by vector comparisons eight at a time (conditional moves for the rest) where simplego
// branches on every element (GoMLX's gradient of ReLU, NonNegativeIndicator, takes the Sign of the
// activations twice). Other dtypes go to simplego's executor.
func sign(backend *simplego.Backend, node *simplego.Node, inputs []*simplego.Buffer, inputsOwned []bool) (*simplego.Buffer, error) {
	if shapeOf(backend, inputs[0]).DType != dtypes.Float32 {
		return simplegoSign(backend, node, inputs, inputsOwned)
	}
	x := dataOf(backend, inputs[0]).([]float32)
	output := outputFor(backend, node, inputs, inputsOwned, 0)
	out := dataOf(backend, output).([]float32)
	const one, minusOne = 0x3f800000, 0xbf800000 // the bits of 1 and −1
	for i := signVec(out, x); i < len(x); i++ {
		v := x[i]
		var bits uint32
		if v > 0 {
			bits = one
		}
		if v < 0 {
			bits = minusOne
		}
		out[i] = math.Float32frombits(bits)
	}
	return output, nil
}
