package rowops

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	. "github.com/gomlx/gomlx/pkg/core/graph"
	"github.com/gomlx/gomlx/pkg/core/tensors"
)

// sumCase is a rowCase with the number of products its graph sums fused.
type sumCase struct {
	sums   int
	name   string
	fn     func(inputs []*Node) *Node
	inputs []any
}

// matMulGrads returns the gradients of Σ (a b)² ⊙ w with respect to a and b, flattened side by
// side: GoMLX's DotGeneral gradient, a product summed over each axis.
func matMulGrads(in []*Node) *Node {
	grads := Gradient(ReduceAllSum(Mul(Square(MatMul(in[0], in[1])), in[2])), in[0], in[1])
	return Concatenate([]*Node{Reshape(grads[0], -1), Reshape(grads[1], -1)}, 0)
}

// broadcastProduct is V = v [P, 1, Z] repeated over Q, times other, summed over axis: the form of
// GoMLX's DotGeneral gradient; rightV puts V on the right of the Mul.
func broadcastProduct(v, other *Node, q, axis int, rightV bool) *Node {
	vv := BroadcastToDims(v, v.Shape().Dim(0), q, v.Shape().Dim(2))
	if rightV {
		return ReduceSum(Mul(other, vv), axis)
	}
	return ReduceSum(Mul(vv, other), axis)
}

// sumCases cover the products summed fused and their near misses: matrix-product gradients whose
// widths exercise the 64- and 8-column kernels and the loop's tail, each form alone with V on
// either side, sums of no terms, special values (a NaN payload, infinities, −0), and broadcasts
// with another use or products summed over another axis.
func sumCases() []sumCase {
	rng := rand.New(rand.NewPCG(17, 18))
	var out []sumCase
	for _, s := range [][3]int{{7, 5, 3}, {9, 13, 8}, {6, 64, 11}, {5, 70, 130}, {1, 72, 9}, {33, 129, 65}} {
		n, k, d := s[0], s[1], s[2]
		out = append(out, sumCase{2, fmt.Sprintf("gradient of [%d, %d] · [%d, %d]", n, k, k, d), matMulGrads,
			[]any{random[float32](rng, n, k), random[float32](rng, k, d), random[float32](rng, n, d)}})
	}
	const p, q, z = 6, 9, 75
	v, y, c := random[float32](rng, p, 1, z), random[float32](rng, 1, q, z), random[float32](rng, p, q, 1)
	data := tensors.MustCopyFlatData[float32](v)
	data[4], data[80], data[151] = math.Float32frombits(0x7fc00033), float32(math.Inf(-1)), float32(math.Copysign(0, -1))
	special := tensors.FromFlatDataAndDimensions(data, p, 1, z)
	overZ := func(in []*Node) *Node { return broadcastProduct(in[0], in[1], q, 2, false) }
	overP := func(in []*Node) *Node { return broadcastProduct(in[0], in[1], q, 0, false) }
	return append(out,
		sumCase{1, "V times rows over Z", overZ, []any{v, y}},
		sumCase{1, "rows times V over Z", func(in []*Node) *Node { return broadcastProduct(in[0], in[1], q, 2, true) }, []any{v, y}},
		sumCase{1, "V times a column over P", overP, []any{v, c}},
		sumCase{1, "a column times V over P", func(in []*Node) *Node { return broadcastProduct(in[0], in[1], q, 0, true) }, []any{v, c}},
		sumCase{1, "special values over Z", overZ, []any{special, y}},
		sumCase{1, "special values over P", overP, []any{special, c}},
		sumCase{1, "no terms over Z", overZ, []any{random[float32](rng, p, 1, 0), random[float32](rng, 1, q, 0)}},
		sumCase{1, "no terms over P", overP, []any{random[float32](rng, 0, 1, z), random[float32](rng, 0, q, 1)}},
		sumCase{0, "broadcast used again (not fused)", func(in []*Node) *Node {
			vv := BroadcastToDims(in[0], p, q, z)
			return Add(ReduceSum(Mul(vv, in[1]), 2), ReduceSum(vv, 2))
		}, []any{v, y}},
		sumCase{0, "product used again (not fused)", func(in []*Node) *Node {
			prod := Mul(BroadcastToDims(in[0], p, q, z), in[1])
			return Add(ReduceSum(prod, 2), ReduceSum(prod, 2))
		}, []any{v, y}},
		sumCase{0, "summed over another axis (not fused)", func(in []*Node) *Node { return broadcastProduct(in[0], in[1], q, 1, false) },
			[]any{v, y}},
	)
}

// TestProductSumsMatchSimplego checks that the fused sums give simplego's values bit for bit, and
// that no stand-in outlives its execution.
func TestProductSumsMatchSimplego(t *testing.T) {
	matchSimplego(t, asRowCases(sumCases()))
	noStandInsLeft(t, &broadcasts, &products)
}

// TestSummedProducts checks which products the plan sums fused, and that their broadcast (one
// per case) is deferred with them.
func TestSummedProducts(t *testing.T) {
	for _, c := range sumCases() {
		counts := countFusions(t, c.fn, c.inputs)
		if got := counts[sumOverZ] + counts[sumOverP]; got != c.sums {
			t.Errorf("%s: %d products summed fused, want %d", c.name, got, c.sums)
		}
		if got, want := counts[broadcastSummed], min(c.sums, 1); got != want {
			t.Errorf("%s: %d broadcasts deferred, want %d", c.name, got, want)
		}
	}
}

// asRowCases returns cases as rowCases, for matchSimplego.
func asRowCases(cases []sumCase) []rowCase {
	var out []rowCase
	for _, c := range cases {
		out = append(out, rowCase{c.name, c.fn, c.inputs})
	}
	return out
}
