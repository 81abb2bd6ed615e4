package ops

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/geomix-go/geomix/internal/testutil"
	. "github.com/gomlx/gomlx/pkg/core/graph"
	"github.com/gomlx/gomlx/pkg/core/tensors"
)

// TestMatMulFastGrad checks value and both gradients against MatMul on a loss Σ (a b)² ⊙ w.
func TestMatMulFastGrad(t *testing.T) {
	a := [][]float64{{1, 2, 3}, {-1, 0.5, 2}}
	b := [][]float64{{0.5, -1}, {2, 1}, {-3, 0.25}}
	w := [][]float64{{1, 2}, {3, -1}}
	run := func(mm func(a, b *Node) *Node) []*tensors.Tensor {
		return MustExecOnceN(testutil.Backend(t), func(a, b, w *Node) []*Node {
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

// TestProductGradientsByContraction checks, bit for bit on random float32 data large enough for
// the backend's blocked kernel, that MatMulFastGrad's gradients (axes contracted in place) are the
// products with explicit transposes, v bᵀ and aᵀ v, and that TransposedMatMulFastGrad(k, h) gives
// the value and gradients of MatMulFastGrad(Transpose(k), h).
func TestProductGradientsByContraction(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 22))
	random := func(rows, cols int) *tensors.Tensor { return normalMatrix(rng, rows, cols) }
	const n, m, d = 1500, 16, 70
	k, h, w := random(n, m), random(n, d), random(m, d)
	bits := func(x *tensors.Tensor) []uint32 {
		v := tensors.MustCopyFlatData[float32](x)
		out := make([]uint32, len(v))
		for i, f := range v {
			out[i] = math.Float32bits(f)
		}
		return out
	}
	got := MustExecOnceN(testutil.Backend(t), func(k, h, w *Node) []*Node {
		loss := func(c *Node) *Node { return ReduceAllSum(Mul(c, w)) } // ∂c = w
		direct := TransposedMatMulFastGrad(k, h)
		viaT := MatMulFastGrad(Transpose(k, 0, 1), h)
		gd, gt := Gradient(loss(direct), k, h), Gradient(loss(viaT), k, h)
		kT := Transpose(k, 0, 1)
		// MatMulFastGrad(kT, h)'s gradients written with explicit transposes: ∂kT = w hᵀ, ∂h = kT ᵀ w.
		explicitKT, explicitH := MatMul(w, Transpose(h, 0, 1)), MatMul(Transpose(kT, 0, 1), w)
		gKT := Gradient(loss(MatMulFastGrad(kT, h)), kT, h)
		return []*Node{direct, viaT, gd[0], gt[0], gd[1], gt[1], gKT[0], explicitKT, gKT[1], explicitH}
	}, k, h, w)
	for i, name := range []string{"value", "∂k", "∂h", "MatMulFastGrad ∂a = v bᵀ", "MatMulFastGrad ∂b = aᵀ v"} {
		if a, b := bits(got[2*i]), bits(got[2*i+1]); !slices.Equal(a, b) {
			t.Errorf("%s: the two computations differ", name)
		}
	}
}

// TestMatMulFastGradOfSharesTheProduct checks, bit for bit on random float32 data, that two uses of
// one product through MatMulFastGradOf give the values and gradients of two MatMulFastGrad calls
// (node Mixup's clean and mixed passes), with a loss that weighs the uses differently.
func TestMatMulFastGradOfSharesTheProduct(t *testing.T) {
	rng := rand.New(rand.NewPCG(23, 24))
	random := func(rows, cols int) *tensors.Tensor { return normalMatrix(rng, rows, cols) }
	const n, k, d = 300, 40, 24
	a, b, w1, w2 := random(n, k), random(k, d), random(n, d), random(n, d)
	got := MustExecOnceN(testutil.Backend(t), func(a, b, w1, w2 *Node) []*Node {
		loss := func(y1, y2 *Node) *Node { return Add(ReduceAllSum(Mul(Square(y1), w1)), ReduceAllSum(Mul(y2, w2))) }
		s1, s2 := MatMulFastGrad(a, b), MatMulFastGrad(a, b)
		p := Product(a, b)
		o1, o2 := MatMulFastGradOf(p, a, b), MatMulFastGradOf(p, a, b)
		gs, go_ := Gradient(loss(s1, s2), a, b), Gradient(loss(o1, o2), a, b)
		return []*Node{s1, o1, s2, o2, gs[0], go_[0], gs[1], go_[1]}
	}, a, b, w1, w2)
	for i, name := range []string{"first use", "second use", "∂a", "∂b"} {
		x, y := tensors.MustCopyFlatData[float32](got[2*i]), tensors.MustCopyFlatData[float32](got[2*i+1])
		if !slices.EqualFunc(x, y, func(p, q float32) bool { return math.Float32bits(p) == math.Float32bits(q) }) {
			t.Errorf("%s: MatMulFastGradOf differs from MatMulFastGrad", name)
		}
	}
}

// normalMatrix returns a [rows, cols] float32 tensor of standard normal values from rng.
func normalMatrix(rng *rand.Rand, rows, cols int) *tensors.Tensor {
	v := make([]float32, rows*cols)
	for i := range v {
		v[i] = float32(rng.NormFloat64())
	}
	return tensors.FromFlatDataAndDimensions(v, rows, cols)
}
