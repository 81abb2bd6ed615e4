package rowops

import (
	"math"
	_ "unsafe" // go:linkname

	"github.com/gomlx/gomlx/backends/simplego"
	"github.com/gomlx/gomlx/pkg/core/dtypes"
)

//go:linkname simplegoExp github.com/gomlx/gomlx/backends/simplego.execExp
func simplegoExp(backend *simplego.Backend, node *simplego.Node, inputs []*simplego.Buffer, inputsOwned []bool) (*simplego.Buffer, error)

// exp is the Exp executor for float32: float32(math.Exp(float64(x))) per element, as simplego's,
// with math.Exp's own amd64 kernel run on four elements at once (exp_amd64.s) where every element
// of the four is at most 700 in magnitude, and math.Exp for the others (softmax and log-softmax
// over a few classes take about 8 ns per element one at a time). Other dtypes go to simplego's
// executor.
func exp(backend *simplego.Backend, node *simplego.Node, inputs []*simplego.Buffer, inputsOwned []bool) (*simplego.Buffer, error) {
	if shapeOf(backend, inputs[0]).DType != dtypes.Float32 {
		return simplegoExp(backend, node, inputs, inputsOwned)
	}
	x := dataOf(backend, inputs[0]).([]float32)
	output := outputFor(backend, node, inputs, inputsOwned, 0)
	expInto(dataOf(backend, output).([]float32), x)
	return output, nil
}

// expInto sets out[i] = float32(math.Exp(float64(x[i]))); out may be x.
func expInto(out, x []float32) {
	for i := 0; i < len(out); {
		i += expVec(out[i:], x[i:])
		for end := min(i+4, len(out)); i < end; i++ { // a group the kernel did not take, or the tail
			out[i] = float32(math.Exp(float64(x[i])))
		}
	}
}
