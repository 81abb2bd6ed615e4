package rowops

import (
	"reflect"
	_ "unsafe" // go:linkname

	"github.com/gomlx/gomlx/pkg/core/graph"
	"github.com/gomlx/gomlx/pkg/core/shapes"
)

// gomlxMulVJP is GoMLX's own gradient of Mul, which mulVJP wraps.
var gomlxMulVJP = graph.VJPRegistration[graph.NodeTypeMul]

// mulVJP is GoMLX's gradient of Mul, except where one operand is a column [R, 1, …] scaling the
// rows of the other, x [R, D…] (message weights):
//   - x's adjoint is v · column through Mul's implicit broadcast, which the Mul executor runs as a
//     row scaling, where GoMLX broadcasts the column to [R, D…] first (the backend skips the
//     broadcast GoMLX's gradient built, now unused);
//   - when x or v is a Gather, the column's adjoint (Σ v · x over the scaled axes) reads fresh
//     copies of those gathers, so that the message gather and v each keep the single use that
//     lets their chains run fused (fuse.go): GAT's attention weights need that adjoint.
//
// The products and sums are GoMLX's, in its order.
func mulVJP(node *graph.Node, v []*graph.Node, outputShape shapes.Shape) []*graph.Node {
	vjps := gomlxMulVJP(node, v, outputShape)
	in := node.Inputs()
	for i := range 2 {
		x, column := in[i], in[1-i]
		if !x.Shape().Equal(node.Shape()) || !scalesRows(x.Shape(), column.Shape()) {
			continue
		}
		vjps[i] = graph.Mul(v[0], column)
		if x.Type() == graph.NodeTypeGather || v[0].Type() == graph.NodeTypeGather {
			operands := []*graph.Node{regather(x), column}
			if i == 1 {
				operands[0], operands[1] = column, operands[0]
			}
			vjps[1-i] = gomlxMulVJP(graph.Mul(operands[0], operands[1]), []*graph.Node{regather(v[0])}, outputShape)[1-i]
		}
	}
	return vjps
}

//go:linkname backendGather github.com/gomlx/gomlx/pkg/core/graph.backendGather
func backendGather(operand, startIndices *graph.Node, indexVectorAxis int, offsetOutputAxes, collapsedSliceAxes, startIndexMap,
	sliceSizes []int, indicesAreSorted bool) *graph.Node

// regather returns a new Gather node of the Gather node g's operands and parameters (GoMLX's
// unexported nodeInputsGather), or g itself when it is not a Gather.
func regather(g *graph.Node) *graph.Node {
	if g.Type() != graph.NodeTypeGather {
		return g
	}
	p := reflect.ValueOf(g).Elem().FieldByName("inputs").Elem().Elem()
	return backendGather(g.Inputs()[0], g.Inputs()[1], int(p.FieldByName("indexVectorAxis").Int()), ints(p, "offsetOutputAxes"),
		ints(p, "collapsedSliceAxes"), ints(p, "startIndexMap"), ints(p, "sliceSizes"), p.FieldByName("indicesAreSorted").Bool())
}
