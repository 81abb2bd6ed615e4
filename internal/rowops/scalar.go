package rowops

import (
	"github.com/gomlx/gomlx/backends"
	"github.com/gomlx/gomlx/backends/simplego"
	"github.com/gomlx/gomlx/pkg/core/dtypes"
	"github.com/gomlx/gomlx/pkg/core/shapes"
)

// GoMLX's gradients of Mul and Div by a scalar (MulScalar, a Frobenius norm, dropout's 1/(1−p))
// broadcast the scalar to the full shape before multiplying, as do ReLU (Max with zeros), its
// gradient (a comparison with zeros, and Where picking zeros) and other graph builders: an [N, D]
// tensor of one value written and then read again. When every use of such a broadcast is an
// unfused elementwise op that simplego runs with a scalar operand (scalarUse), the broadcast hands
// over the value itself, as a scalar buffer, and the op runs its scalar form (simplego's loop over
// the other operand, or ours), which computes each element with the same operation and operands
// in the same order: the values are the broadcast ones (Mul and Max may keep the other NaN's
// payload, as they swap a scalar to the right).

// planScalars marks scalarBroadcast every broadcast of a single float value that is not an output
// and whose uses all take it as a scalar, once the other fusions are planned (a fused use, or a
// fused other operand, keeps it a broadcast).
func planScalars(all []*simplego.Node, uses []int, users [][]*simplego.Node, out []fusion) {
	for i, n := range all {
		if opType(n) != backends.OpTypeBroadcastInDim || out[i] != notFused || uses[i] != len(users[i]) {
			continue
		}
		operand, shape := nodeShape(nodeInputs(n)[0]), nodeShape(n)
		if operand.Size() != 1 || shape.Size() == 1 || (shape.DType != dtypes.Float32 && shape.DType != dtypes.Float64) {
			continue
		}
		scalar := true
		for _, u := range users[i] {
			scalar = scalar && out[nodeIndex(u)] == notFused && scalarUse(u, n, shape, out)
		}
		if scalar {
			out[i] = scalarBroadcast
		}
	}
}

// scalarUse reports whether op u takes broadcast n (of shape) as a scalar: n is one operand of an
// Add, Sub, Mul, Div, Max, Min or comparison, or one branch of a Where, and every other operand is
// unfused and of the broadcast's shape (so the op's output shape does not come from n).
func scalarUse(u, n *simplego.Node, shape shapes.Shape, out []fusion) bool {
	in := nodeInputs(u)
	first := 0 // the operands n may be
	switch opType(u) {
	case backends.OpTypeAdd, backends.OpTypeSub, backends.OpTypeMul, backends.OpTypeDiv, backends.OpTypeMax, backends.OpTypeMin,
		backends.OpTypeEqual, backends.OpTypeLessThan, backends.OpTypeLessOrEqual, backends.OpTypeGreaterThan, backends.OpTypeGreaterOrEqual:
	case backends.OpTypeWhere:
		first = 1
	default:
		return false
	}
	found := 0
	for j, x := range in {
		if x == n && j >= first {
			found++
			continue
		}
		if x == n || out[nodeIndex(x)] != notFused || nodeShape(x).Size() != shape.Size() {
			return false
		}
	}
	return found == 1
}

// scalarStandIn returns the value a scalarBroadcast broadcasts, as a scalar buffer.
func scalarStandIn(backend *simplego.Backend, node *simplego.Node, inputs []*simplego.Buffer) *simplego.Buffer {
	out := backend.NewBuffer(shapes.Make(nodeShape(node).DType))
	switch v := dataOf(backend, out).(type) {
	case []float32:
		v[0] = dataOf(backend, inputs[0]).([]float32)[0]
	case []float64:
		v[0] = dataOf(backend, inputs[0]).([]float64)[0]
	}
	return out
}
