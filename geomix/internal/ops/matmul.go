package ops

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
// WithAdjointGradients. The gradients name the contracted axes of a and b (contract) instead of
// transposing them first: the backend lays the operands out for the product itself, and an
// explicit transpose would be one more copy (two for ∂a, whose bᵀ it would transpose back).
func MatMulFastGrad(a, b *Node) *Node {
	if a.Rank() != 2 || b.Rank() != 2 || a.Shape().Dim(1) != b.Shape().Dim(0) {
		panic(fmt.Sprintf("MatMulFastGrad: want a [n, k] and b [k, d], got a %s, b %s", a.Shape(), b.Shape()))
	}
	return MatMulFastGradOf(Product(a, b), a, b)
}

// Product returns a b [n, d] for a [n, k] and b [k, d] without a gradient path: the value of
// MatMulFastGrad(a, b), to share between several uses of the same product (MatMulFastGradOf).
// The gradient is stopped at the product, not at a and b: a StopGradient is an Identity, which
// the backend runs as a copy when its input has other uses, as a and b have (their gradients read
// them); the product has none, so its Identity costs nothing (GraphMixup's [E, 64] edge rows were
// copied at every product).
func Product(a, b *Node) *Node { return StopGradient(MatMul(a, b)) }

// MatMulFastGradOf is MatMulFastGrad(a, b) whose value is product, Product(a, b) made once for
// several uses: each use gets MatMulFastGrad's value and its own gradients (the same products,
// added in the same order as for separate MatMulFastGrad calls), without computing a b again.
func MatMulFastGradOf(product, a, b *Node) *Node {
	if product.Rank() != 2 || product.Shape().Dim(0) != a.Shape().Dim(0) || product.Shape().Dim(1) != b.Shape().Dim(1) {
		panic(fmt.Sprintf("MatMulFastGradOf: want the product [n, d] of a [n, k] and b [k, d], got %s of a %s, b %s", product.Shape(), a.Shape(), b.Shape()))
	}
	return WithAdjointGradients(product, []*Node{a, b}, []func(v *Node) *Node{
		func(v *Node) *Node { return contract(v, 1, b, 1) },
		func(v *Node) *Node { return contract(a, 0, v, 0) },
	})
}

// TransposedMatMulFastGrad returns aᵀ b [k, d] for a [n, k] and b [n, d] (their rows contracted,
// GeoMix-III's k̃ᵀ h), with the gradients ∂a = b vᵀ and ∂b = a v, as MatMulFastGrad does for a
// product. It equals MatMulFastGrad(Transpose(a, 0, 1), b) to the bit, without the transposes of
// aᵀ and of its gradient.
func TransposedMatMulFastGrad(a, b *Node) *Node {
	if a.Rank() != 2 || b.Rank() != 2 || a.Shape().Dim(0) != b.Shape().Dim(0) {
		panic(fmt.Sprintf("TransposedMatMulFastGrad: want a [n, k] and b [n, d], got a %s, b %s", a.Shape(), b.Shape()))
	}
	return WithAdjointGradients(StopGradient(contract(a, 0, b, 0)), []*Node{a, b}, []func(v *Node) *Node{
		func(v *Node) *Node { return contract(b, 1, v, 1) },
		func(v *Node) *Node { return contract(a, 1, v, 0) },
	})
}

// contract returns the product of rank-2 x and y over x's axis i and y's axis j: [x's other axis,
// y's other axis].
func contract(x *Node, i int, y *Node, j int) *Node {
	return DotGeneral(x, []int{i}, nil, y, []int{j}, nil)
}

// WithAdjointGradients returns y, computed without a gradient path of its own, whose gradient with
// respect to inputs[i] is grads[i](v) for the adjoint v of y (see AdjointGradients). y + 0·s is y
// to the bit: y is a product, whose sums start at +0 and so hold no −0 that a +0 could flip.
func WithAdjointGradients(y *Node, inputs []*Node, grads []func(v *Node) *Node) *Node {
	anchor, capture := AdjointGradients(inputs, grads)
	return capture(Add(y, MulScalar(anchor, 0)))
}

// AdjointGradients attaches gradients grads[i](v) with respect to inputs[i] to an output y that
// has no gradient path of its own, for the adjoint v of y. It returns a scalar anchor, which y's
// value must depend on (as y + 0·anchor, or a sum started from 0·|anchor|), and capture, which
// wraps y. The anchor is built from identities on the inputs, which keeps them on the gradient
// path; their custom gradients call grads[i] with v, which capture's custom-gradient identity on
// y takes (reverse mode visits y before its inputs). The anchor reads one element of each input
// (a Gather, whose own gradient the custom gradients leave unused, so the backend never runs it),
// not a sum over all of them.
func AdjointGradients(inputs []*Node, grads []func(v *Node) *Node) (anchor *Node, capture func(y *Node) *Node) {
	var adjoint *Node
	for i, in := range inputs {
		grad := grads[i]
		id := IdentityWithCustomGradient(in, func(_, _ *Node) *Node { return grad(adjoint) })
		first := Reshape(Gather(Reshape(id, id.Shape().Size()), Const(id.Graph(), [][]int32{{0}}))) // id's first element, a scalar
		if anchor == nil {
			anchor = first
		} else {
			anchor = Add(anchor, first)
		}
	}
	return anchor, func(y *Node) *Node {
		return IdentityWithCustomGradient(y, func(_, v *Node) *Node {
			adjoint = v
			return v
		})
	}
}
