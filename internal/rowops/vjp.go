package rowops

import (
	"github.com/gomlx/gomlx/pkg/core/graph"
	"github.com/gomlx/gomlx/pkg/core/shapes"
)

// gomlxMulVJP is GoMLX's own gradient of Mul, which mulVJP wraps.
var gomlxMulVJP = graph.VJPRegistration[graph.NodeTypeMul]

func init() { graph.VJPRegistration[graph.NodeTypeMul] = mulVJP }

// mulVJP is GoMLX's gradient of Mul, except where one operand is a column [R, 1, …] scaling the
// rows of the other, x [R, D…] (message weights): x's adjoint is then v · column through Mul's
// implicit broadcast, which the Mul executor runs as a row scaling, where GoMLX broadcasts the
// column to [R, D…] first. The products are the same; the [R, D…] copy of the column is not made
// (the backend skips the broadcast GoMLX's gradient built, now unused).
func mulVJP(node *graph.Node, v []*graph.Node, outputShape shapes.Shape) []*graph.Node {
	vjps := gomlxMulVJP(node, v, outputShape)
	in := node.Inputs()
	for i := range 2 {
		x, column := in[i], in[1-i]
		if x.Shape().Equal(node.Shape()) && scalesRows(x.Shape(), column.Shape()) {
			vjps[i] = graph.Mul(v[0], column)
		}
	}
	return vjps
}
