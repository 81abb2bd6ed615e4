package geomix

import (
	"testing"

	. "github.com/gomlx/gomlx/pkg/core/graph"
	"github.com/gomlx/gomlx/pkg/core/tensors"
)

// TestMatMulFastGrad checks value and both gradients against MatMul on a loss Σ (a b)² ⊙ w.
func TestMatMulFastGrad(t *testing.T) {
	a := [][]float64{{1, 2, 3}, {-1, 0.5, 2}}
	b := [][]float64{{0.5, -1}, {2, 1}, {-3, 0.25}}
	w := [][]float64{{1, 2}, {3, -1}}
	run := func(mm func(a, b *Node) *Node) []*tensors.Tensor {
		return MustExecOnceN(testBackend(t), func(a, b, w *Node) []*Node {
			c := mm(a, b)
			loss := ReduceAllSum(Mul(Square(c), w))
			grads := Gradient(loss, a, b)
			return []*Node{c, grads[0], grads[1]}
		}, a, b, w)
	}
	want, got := run(MatMul), run(MatMulFastGrad)
	for i, name := range []string{"value", "grad a", "grad b"} {
		wv, gv := want[i].Value().([][]float64), got[i].Value().([][]float64)
		for r := range wv {
			for c := range wv[r] {
				if d := wv[r][c] - gv[r][c]; d > 1e-12 || d < -1e-12 {
					t.Fatalf("%s[%d][%d]: MatMul %v, MatMulFastGrad %v", name, r, c, wv[r][c], gv[r][c])
				}
			}
		}
	}
	// Hand check of one value: c[0][0] = 1*0.5 + 2*2 + 3*(-3) = -4.5.
	if v := got[0].Value().([][]float64)[0][0]; v != -4.5 {
		t.Fatalf("c[0][0] = %v, want -4.5", v)
	}
}
