package rowops

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/gomlx/gomlx/backends/simplego"
	. "github.com/gomlx/gomlx/pkg/core/graph"
	"github.com/gomlx/gomlx/pkg/core/tensors"
)

// scatterMaxCases cover float32 and float64 rows, int32 and int64 indices, rank-3 rows, rows of
// width 1 (GAT's single output head), NaNs, infinities and zeros of both signs in operand and
// updates, repeated targets, an owned operand and the gradient path GAT takes (the maximum under
// StopGradient, then gathered back).
func scatterMaxCases() []rowCase {
	rng := rand.New(rand.NewPCG(5, 6))
	const n, e = 9, 60
	scatterMax := func(in []*Node) *Node { return ScatterMax(in[0], in[1], in[2], false, false) }
	special := func(x *tensors.Tensor) *tensors.Tensor { // NaN, ±Inf and ±0 among the values
		v := tensors.MustCopyFlatData[float32](x)
		nan := math.Float32frombits(0x7fc00001)
		for i, s := range []float32{nan, float32(math.Inf(1)), float32(math.Inf(-1)), float32(math.Copysign(0, -1)), 0, nan} {
			v[i*7%len(v)] = s
		}
		return tensors.FromFlatDataAndDimensions(v, x.Shape().Dimensions...)
	}
	idx32 := tensors.FromFlatDataAndDimensions(randomIndices[int32](rng, e, n), e, 1)
	idx64 := tensors.FromFlatDataAndDimensions(randomIndices[int64](rng, e, n), 3, e/3, 1)
	return []rowCase{
		{"scatter-max rows float32 by int32", scatterMax, []any{random[float32](rng, n, 8), idx32, random[float32](rng, e, 8)}},
		{"scatter-max rank-3 rows float64 by int64 [3, 20, 1]", scatterMax,
			[]any{random[float64](rng, n, 2, 3), idx64, random[float64](rng, 3, e/3, 2, 3)}},
		{"scatter-max rows of width 1", scatterMax, []any{random[float32](rng, n, 1), idx32, random[float32](rng, e, 1)}},
		{"scatter-max with NaN, infinities and signed zeros", scatterMax,
			[]any{special(random[float32](rng, n, 8)), idx32, special(random[float32](rng, e, 8))}},
		{"scatter-max into an owned operand", func(in []*Node) *Node {
			return ScatterMax(MulScalar(in[0], 2), in[1], in[2], false, false)
		}, []any{random[float32](rng, n, 8), idx32, random[float32](rng, e, 8)}},
		{"softmax shift of GAT's attention, with its gradient", func(in []*Node) *Node {
			self, scores, idx := in[0], in[2], in[1]
			top := ScatterMax(StopGradient(self), idx, StopGradient(scores), false, false)
			shifted := Exp(Sub(scores, Gather(top, idx)))
			return Gradient(ReduceAllSum(Mul(shifted, shifted)), scores)[0]
		}, []any{random[float32](rng, n, 8), idx32, random[float32](rng, e, 8)}},
	}
}

// TestScatterMaxMatchesSimplego checks that every case gives bit-identical values with our
// executor and with simplego's.
func TestScatterMaxMatchesSimplego(t *testing.T) { matchSimplego(t, scatterMaxCases()) }

// TestScatterMaxByHand checks one row scatter-max against hand-computed values, including an
// out-of-range index, which is skipped (simplego's own executor panics on it).
func TestScatterMaxByHand(t *testing.T) {
	backend, err := simplego.New("")
	if err != nil {
		t.Fatal(err)
	}
	got := MustExecOnce(backend, func(x, idx, upd *Node) *Node { return ScatterMax(x, idx, upd, false, false) },
		[][]float32{{1, 1}, {2, 2}, {3, 3}}, [][]int32{{2}, {0}, {2}, {-1}}, [][]float32{{10, -20}, {0, 5}, {-100, 200}, {70, 70}})
	want := [][]float32{{1, 5}, {2, 2}, {10, 200}}
	if v := got.Value().([][]float32); !slices.EqualFunc(v, want, slices.Equal) {
		t.Fatalf("ScatterMax = %v, want %v", v, want)
	}
}

// BenchmarkScatterMax times GAT's per-target maximum of the attention scores on Cora's sizes
// (2,708 nodes, 13,264 messages plus a self-loop per node, 8 heads), with our executor and
// simplego's.
func BenchmarkScatterMax(b *testing.B) {
	rng := rand.New(rand.NewPCG(7, 8))
	const n, e, heads = 2708, 13264 + 2708, 8
	benchmarkAgainstSimplego(b, []benchCase{{
		name:   "ScatterMax(self [N, 8], dst [E, 1], scores [E, 8])",
		fn:     func(in []*Node) *Node { return ScatterMax(in[0], in[1], in[2], false, false) },
		inputs: []*tensors.Tensor{random[float32](rng, n, heads), tensors.FromFlatDataAndDimensions(randomIndices[int32](rng, e, n), e, 1), random[float32](rng, e, heads)},
	}})
}
