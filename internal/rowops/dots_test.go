package rowops

import (
	"math"
	"math/rand/v2"
	"testing"

	. "github.com/gomlx/gomlx/pkg/core/graph"
	"github.com/gomlx/gomlx/pkg/core/tensors"
)

// gatheredDot is the dot per message and piece of rows i of a and rows j of b, summed over axis.
func gatheredDot(a, i, b, j *Node, axis int) *Node {
	return ReduceSum(Mul(Gather(a, i), Gather(b, j)), axis)
}

// gatheredDotCases cover the dots of gathers run fused and their near misses: pieces in fours, in
// fours and one more, one piece per row, indices out of range (clamped as Gather does), special
// values (a NaN payload, infinities, −0), GAT's attention-weight gradient, and a gather used
// again, one gather on both sides, or a sum over another axis.
func gatheredDotCases() []sumCase {
	rng := rand.New(rand.NewPCG(19, 20))
	const n, m, e = 13, 9, 70
	a, b := random[float32](rng, n, 8, 5), random[float32](rng, m, 8, 5)
	data := tensors.MustCopyFlatData[float32](a)
	data[3], data[50], data[77] = math.Float32frombits(0x7fc00044), float32(math.Inf(1)), float32(math.Copysign(0, -1))
	special := tensors.FromFlatDataAndDimensions(data, n, 8, 5)
	iData, jData := randomIndices[int32](rng, e, n), randomIndices[int32](rng, e, m)
	iData[5], jData[6] = -2, int32(m+3)
	i, j := tensors.FromFlatDataAndDimensions(iData, e, 1), tensors.FromFlatDataAndDimensions(jData, e, 1)
	in := []any{a, i, b, j}
	pieces := func(dims ...int) func(in []*Node) *Node {
		return func(in []*Node) *Node {
			x, y := Reshape(in[0], append([]int{n}, dims...)...), Reshape(in[2], append([]int{m}, dims...)...)
			return gatheredDot(x, in[1], y, in[3], len(dims))
		}
	}
	var gat fuseCase
	for _, c := range fuseCases() {
		if c.name == "gradient of per-head weights and rows (GAT)" {
			gat = c
		}
	}
	return []sumCase{
		{1, "8 pieces of 5", pieces(8, 5), in},
		{1, "5 pieces of 8", pieces(5, 8), in},
		{1, "1 piece of 40", pieces(40), in},
		{1, "special values", pieces(8, 5), []any{special, i, b, j}},
		{1, gat.name, gat.fn, gat.inputs},
		{0, "a gather used again (not fused)", func(in []*Node) *Node {
			g := Gather(in[0], in[1])
			return Add(ReduceSum(Mul(g, Gather(in[2], in[3])), 2), ReduceSum(g, 2))
		}, in},
		{0, "one gather on both sides (not fused)", func(in []*Node) *Node {
			g := Gather(in[0], in[1])
			return ReduceSum(Mul(g, g), 2)
		}, in},
		{0, "summed over another axis (not fused)", func(in []*Node) *Node { return gatheredDot(in[0], in[1], in[2], in[3], 1) }, in},
	}
}

// TestGatheredDotsMatchSimplego checks that the fused dots give simplego's values bit for bit, and
// that no stand-in outlives its execution.
func TestGatheredDotsMatchSimplego(t *testing.T) {
	matchSimplego(t, asRowCases(gatheredDotCases()))
	noStandInsLeft(t, &deferred, &products)
}

// TestGatheredDots checks which Muls the plan runs as dots of gathers, with both gathers deferred.
func TestGatheredDots(t *testing.T) {
	for _, c := range gatheredDotCases() {
		counts := countFusions(t, c.fn, c.inputs)
		if counts[dotOfGathers] != c.sums || counts[dotGathered] != 2*c.sums {
			t.Errorf("%s: %d dots of %d gathers fused, want %d of %d", c.name, counts[dotOfGathers], counts[dotGathered], c.sums, 2*c.sums)
		}
	}
}
