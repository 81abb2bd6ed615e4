package rowops

import (
	"reflect"
	_ "unsafe" // go:linkname

	"github.com/gomlx/gomlx/backends/simplego"
	"github.com/gomlx/gomlx/pkg/core/graph"
	"github.com/gomlx/gomlx/pkg/core/shapes"
)

//go:linkname simplegoSlice github.com/gomlx/gomlx/backends/simplego.execSlice
func simplegoSlice(backend *simplego.Backend, node *simplego.Node, inputs []*simplego.Buffer, inputsOwned []bool) (*simplego.Buffer, error)

// slice is the Slice executor: the strided copy of copy.go (whole runs of the last axis where its
// stride is 1: the columns [from, to) of a matrix, backbones.Columns), where simplego walks an index
// iterator per element. Copies change no value.
func slice(backend *simplego.Backend, node *simplego.Node, inputs []*simplego.Buffer, inputsOwned []bool) (*simplego.Buffer, error) {
	operand := shapeOf(backend, inputs[0])
	if !copyable(operand.DType) {
		return simplegoSlice(backend, node, inputs, inputsOwned)
	}
	p := nodeParams(node)
	starts, strides := ints(p, "starts"), ints(p, "strides")
	out := nodeShape(node)
	output := backend.NewBuffer(out)
	if out.Size() == 0 {
		return output, nil
	}
	flat := rowMajorStrides(operand)
	steps := make([]int, operand.Rank())
	from := 0
	for axis := range steps {
		from += starts[axis] * flat[axis]
		steps[axis] = strides[axis] * flat[axis]
	}
	src := reflect.ValueOf(dataOf(backend, inputs[0]))
	copyStrided(dataOf(backend, output), src.Slice(from, src.Len()).Interface(), out.Dimensions, steps)
	return output, nil
}

// gomlxSliceVJP is GoMLX's own gradient of Slice, which sliceVJP replaces where it can.
var gomlxSliceVJP = graph.VJPRegistration[graph.NodeTypeSlice]

// sliceVJP is the gradient of Slice x[starts:limits] (strides 1) without Pad, which simplego does
// not have: the adjoint v with zeros concatenated before and after it on every sliced axis. Pad
// with zeros (GoMLX's gradient) gives the same values: v's copied and +0 elsewhere. Strided slices
// keep GoMLX's gradient.
func sliceVJP(node *graph.Node, vjps []*graph.Node, outputShape shapes.Shape) []*graph.Node {
	v := vjps[0]
	p := reflect.ValueOf(node).Elem().FieldByName("inputs").Elem().Elem()
	starts, limits, strides := ints(p, "starts"), ints(p, "limits"), ints(p, "strides")
	for _, s := range strides {
		if s > 1 {
			return gomlxSliceVJP(node, vjps, outputShape)
		}
	}
	x := node.Inputs()[0]
	grad := v
	for axis := range starts {
		before, after := starts[axis], x.Shape().Dim(axis)-limits[axis]
		if before == 0 && after == 0 {
			continue
		}
		zeros := func(n int) *graph.Node {
			dims := grad.Shape().Clone().Dimensions
			dims[axis] = n
			return graph.Zeros(grad.Graph(), shapes.Make(grad.DType(), dims...))
		}
		parts := []*graph.Node{grad}
		if before > 0 {
			parts = append([]*graph.Node{zeros(before)}, parts...)
		}
		if after > 0 {
			parts = append(parts, zeros(after))
		}
		grad = graph.Concatenate(parts, axis)
	}
	return []*graph.Node{grad}
}
