package geomix

import (
	"fmt"

	. "github.com/gomlx/gomlx/pkg/core/graph"
)

// MatMulFastGrad returns a b for a [n, k] and b [k, d], like MatMul, but with the gradient computed
// by two plain products, ∂a = v bᵀ and ∂b = aᵀ v. GoMLX v0.26's generic DotGeneral gradient
// materialises an [n, d, k] broadcast product instead, which on the pure-Go backend made GeoMix-III's
// linear attention ~10x slower than the rest of the epoch.
//
// How: the product is computed on stopped inputs, with the gradients above attached by
// withAdjointGradients.
func MatMulFastGrad(a, b *Node) *Node {
	if a.Rank() != 2 || b.Rank() != 2 || a.Shape().Dim(1) != b.Shape().Dim(0) {
		panic(fmt.Sprintf("MatMulFastGrad: want a [n, k] and b [k, d], got a %s, b %s", a.Shape(), b.Shape()))
	}
	return withAdjointGradients(MatMul(StopGradient(a), StopGradient(b)), []*Node{a, b}, []func(v *Node) *Node{
		func(v *Node) *Node { return MatMul(v, Transpose(b, 0, 1)) },
		func(v *Node) *Node { return MatMul(Transpose(a, 0, 1), v) },
	})
}

// withAdjointGradients returns y, computed without a gradient path of its own, whose gradient with
// respect to inputs[i] is grads[i](v) for the adjoint v of y: a zero-valued scalar built from
// identities on the inputs keeps them on the gradient path, their custom gradients call grads[i]
// with v, which a custom-gradient identity on y captures (reverse mode visits y before its inputs).
func withAdjointGradients(y *Node, inputs []*Node, grads []func(v *Node) *Node) *Node {
	var adjoint *Node
	var zero *Node
	for i, in := range inputs {
		grad := grads[i]
		sum := ReduceAllSum(IdentityWithCustomGradient(in, func(_, _ *Node) *Node { return grad(adjoint) }))
		if zero == nil {
			zero = sum
		} else {
			zero = Add(zero, sum)
		}
	}
	return IdentityWithCustomGradient(Add(y, MulScalar(zero, 0)), func(_, v *Node) *Node {
		adjoint = v
		return v
	})
}
