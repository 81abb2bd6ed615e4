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
// How: the product is computed on stopped inputs; a zero-valued scalar built from identities on a
// and b keeps them on the gradient path, and those identities' custom gradients return the products
// above using the adjoint v of the output, captured by a custom-gradient identity on the output
// (reverse-mode visits the output before its inputs).
func MatMulFastGrad(a, b *Node) *Node {
	if a.Rank() != 2 || b.Rank() != 2 || a.Shape().Dim(1) != b.Shape().Dim(0) {
		panic(fmt.Sprintf("MatMulFastGrad: want a [n, k] and b [k, d], got a %s, b %s", a.Shape(), b.Shape()))
	}
	var adjoint *Node
	gradA := IdentityWithCustomGradient(a, func(_, _ *Node) *Node { return MatMul(adjoint, Transpose(b, 0, 1)) })
	gradB := IdentityWithCustomGradient(b, func(_, _ *Node) *Node { return MatMul(Transpose(a, 0, 1), adjoint) })
	zero := MulScalar(Add(ReduceAllSum(gradA), ReduceAllSum(gradB)), 0)
	c := Add(MatMul(StopGradient(a), StopGradient(b)), zero)
	return IdentityWithCustomGradient(c, func(_, v *Node) *Node {
		adjoint = v
		return v
	})
}
