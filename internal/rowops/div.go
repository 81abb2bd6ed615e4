package rowops

import (
	_ "unsafe" // go:linkname

	"github.com/gomlx/gomlx/backends/simplego"
	"github.com/gomlx/gomlx/pkg/core/dtypes"
)

//go:linkname simplegoDiv github.com/gomlx/gomlx/backends/simplego.execDiv
func simplegoDiv(backend *simplego.Backend, node *simplego.Node, inputs []*simplego.Buffer, inputsOwned []bool) (*simplego.Buffer, error)

// div is the Div executor for float32 rows [R, D...] divided by a column [R, 1...] (or pieces of
// rows by [R, D'..., 1...]), graph.Div's implicit broadcast of GeoMix-III's attention denominators:
// a row at a time, where simplego walks a broadcast iterator per element. Every quotient is one
// IEEE division, so the results are simplego's. Other dtypes and forms go to simplego's executor.
func div(backend *simplego.Backend, node *simplego.Node, inputs []*simplego.Buffer, inputsOwned []bool) (*simplego.Buffer, error) {
	lhsShape, rhsShape := shapeOf(backend, inputs[0]), shapeOf(backend, inputs[1])
	if lhsShape.DType != dtypes.Float32 || !scalesRows(lhsShape, rhsShape) {
		return simplegoDiv(backend, node, inputs, inputsOwned)
	}
	x, c := dataOf(backend, inputs[0]).([]float32), dataOf(backend, inputs[1]).([]float32)
	output := outputFor(backend, node, inputs, inputsOwned, 0)
	out := dataOf(backend, output).([]float32)
	width := len(x) / len(c)
	for r, cr := range c {
		o, xr := out[r*width:(r+1)*width], x[r*width:(r+1)*width]
		for i, v := range xr {
			o[i] = v / cr
		}
	}
	return output, nil
}
