package backbones

import (
	"math"
	"testing"

	"github.com/geomix-go/geomix/geomix/mixing"
	"github.com/geomix-go/geomix/internal/testutil"
	. "github.com/gomlx/gomlx/pkg/core/graph"
	"gonum.org/v1/gonum/mat"
)

// TestInverseSPD: the product-only inverse matches a direct inverse, also for a matrix of
// condition number 1e6, and its gradient (∂a = −a⁻ᵀ w a⁻ᵀ for Σ w ⊙ a⁻¹) matches the formula and
// the gradient through 60 differentiated Newton–Schulz steps from X₀ = a / ‖a‖∞², the layer's
// earlier inverse, to float64 tolerance.
func TestInverseSPD(t *testing.T) {
	w := []float64{0.3, -1, 2, 0.5, 1, -0.7, 1.5, 0.2, -0.4}
	// stepsFromNorm is the earlier inverse: 60 Newton–Schulz steps from a / ‖a‖∞², differentiated.
	stepsFromNorm := func(a *Node) *Node {
		norm := ReduceAllMax(ReduceSum(Abs(a), -1))
		x := Div(a, Square(norm))
		twoI := DiagonalWithValue(Scalar(a.Graph(), a.DType(), 2), 3)
		for range 60 {
			x = MatMul(x, Sub(twoI, MatMul(a, x)))
		}
		return x
	}
	for _, a := range [][]float64{
		{4, 1, 0.5, 1, 3, 0.2, 0.5, 0.2, 2},
		{1e6, 10, 0, 10, 1, 0.1, 0, 0.1, 2},
	} {
		var eig mat.EigenSym
		if !eig.Factorize(mat.NewSymDense(3, a), false) {
			t.Fatal("eigenvalues of", a)
		}
		lower := eig.Values(nil)[0] / 2
		valueAndGrad := func(inverse func(a *Node) *Node) ([][]float64, [][]float64) {
			out, err := ExecOnce(testutil.Backend(t), func(x, w *Node) *Node {
				inv := inverse(Reshape(x, 3, 3))
				grad := Gradient(ReduceAllSum(Mul(inv, Reshape(w, 3, 3))), x)[0]
				return Concatenate([]*Node{Reshape(inv, 9), Reshape(grad, 9)}, 0)
			}, a, w)
			if err != nil {
				t.Fatal(err)
			}
			v := out.Value().([]float64)
			return [][]float64{v[0:3], v[3:6], v[6:9]}, [][]float64{v[9:12], v[12:15], v[15:18]}
		}
		got, gotGrad := valueAndGrad(func(x *Node) *Node { return inverseSPD(x, lower, gloGNNInverseIterations) })
		old, oldGrad := valueAndGrad(stepsFromNorm)
		var want, wantGrad, tmp mat.Dense
		if err := want.Inverse(mat.NewDense(3, 3, a)); err != nil {
			t.Fatal(err)
		}
		tmp.Mul(want.T(), mat.NewDense(3, 3, w))
		wantGrad.Mul(&tmp, want.T())
		wantGrad.Scale(-1, &wantGrad)
		for i := range 3 {
			for j := range 3 {
				close := func(x, y float64) bool { return math.Abs(x-y) <= 1e-9*math.Max(1, math.Abs(y)) }
				if w := want.At(i, j); !close(got[i][j], w) || !close(old[i][j], w) {
					t.Fatalf("inverse of %v: [%d][%d] = %v (60 steps from the norm: %v), want %v", a, i, j, got[i][j], old[i][j], w)
				}
				if w := wantGrad.At(i, j); !close(gotGrad[i][j], w) || !close(oldGrad[i][j], w) {
					t.Fatalf("gradient at %v: [%d][%d] = %v (60 steps from the norm: %v), want %v", a, i, j, gotGrad[i][j], oldGrad[i][j], w)
				}
			}
		}
	}
}

// TestGloGNNByHand runs GloGNN with one norm layer, two orders and every term active (α, β, γ, δ)
// on the 4-cycle with set weights, in evaluation mode, and compares it with the formulas computed
// with gonum.
func TestGloGNNByHand(t *testing.T) {
	const alpha, beta, gamma, delta = 1.0, 2.0, 0.5, 0.25
	ctx := testutil.NewContext(t, map[string]any{ParamHidden: 2, ParamGloGNNAlpha: alpha, ParamGloGNNBeta: beta, ParamGloGNNGamma: gamma,
		ParamGloGNNDelta: delta, ParamGloGNNNormLayers: 1, ParamGloGNNOrders: 2})
	b1, w3, b3 := []float32{0.1, -0.2}, [][]float32{{1, 0}, {0, 1}, {0.5, -1}, {-0.5, 2}}, []float32{0.3, 0}
	w2, b2, orders := [][]float32{{1, -1}, {0.5, 2}}, []float32{0, 0.5}, []float32{0.7, 0.4}
	ctx.In("fc1").VariableWithValue("bias", b1)
	ctx.In("fc3").VariableWithValue("weight", w3)
	ctx.In("fc3").VariableWithValue("bias", b3)
	ctx.In("fc2").VariableWithValue("weight", w2)
	ctx.In("fc2").VariableWithValue("bias", b2)
	ctx.In("orders").VariableWithValue("weight", orders)
	xw := [][]float32{{1, 2}, {-1, 0.5}, {0, 1}, {2, -1}}
	adj := mixing.BuildAdjacency(cycle4(), mixing.NormRowSelf)
	got := runRest(t, ctx, GloGNN{}, adj, xw, Dims{Features: 3, Classes: 2}, false)

	dense := func(rows [][]float32) *mat.Dense {
		m := mat.NewDense(len(rows), len(rows[0]), nil)
		for i, r := range rows {
			for j, v := range r {
				m.Set(i, j, float64(v))
			}
		}
		return m
	}
	ahat := mat.NewDense(4, 4, testutil.To64(adj.Dense()))
	var structure, h, h0 mat.Dense
	structure.Mul(ahat, dense(w3))
	h.Apply(func(i, j int, v float64) float64 {
		f := float64(xw[i][j]) + float64(b1[j])
		return math.Max(delta*f+(1-delta)*(v+float64(b3[j])), 0)
	}, &structure)
	h0.Mul(&h, dense(w2))
	h0.Apply(func(_, j int, v float64) float64 { return v + float64(b2[j]) }, &h0)

	c, g := 1/(alpha+beta), 1-gamma
	var gram, a, ainv, m, hm, r, tt, s1, s2, out mat.Dense
	gram.Mul(h0.T(), &h0)
	a.Scale(c, &gram)
	for i := range 2 {
		a.Set(i, i, a.At(i, i)+1/(g*g))
	}
	if err := ainv.Inverse(&a); err != nil {
		t.Fatal(err)
	}
	m.Mul(&ainv, &gram)
	hm.Mul(&h0, &m)
	r.Apply(func(i, j int, v float64) float64 { return g*c*h0.At(i, j) - g*c*c*v }, &hm)
	tt.Mul(h0.T(), &r)
	s1.Mul(ahat, &r)
	s2.Mul(ahat, &s1)
	var ht, h0t mat.Dense
	ht.Mul(&h0, &tt)
	h0t.Mul(&h0, &tt) // the layer's H is H0 in the first norm layer
	out.Apply(func(i, j int, _ float64) float64 {
		hops := float64(orders[0])*s1.At(i, j) + float64(orders[1])*s2.At(i, j)
		return g*ht.At(i, j) + beta*hops - gamma*g*h0t.At(i, j) + gamma*h0.At(i, j)
	}, &ht)
	for i := range 4 {
		for j := range 2 {
			if w := out.At(i, j); math.Abs(float64(got[i][j])-w) > 1e-4*math.Max(1, math.Abs(w)) {
				t.Errorf("logits[%d][%d] = %v, want %v", i, j, got[i][j], w)
			}
		}
	}
}
