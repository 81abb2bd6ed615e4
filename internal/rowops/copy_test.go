package rowops

import (
	"math"
	"math/rand/v2"
	"testing"

	. "github.com/gomlx/gomlx/pkg/core/graph"
	"github.com/gomlx/gomlx/pkg/core/tensors"
)

// copyCases cover transposes of rank 2 to 4 and broadcasts along leading, trailing, inner and all
// axes, in float32, float64 and int32, of zeros too (+0 is cleared, −0 copied).
func copyCases() []rowCase {
	rng := rand.New(rand.NewPCG(5, 6))
	ints := make([]int32, 2*3*4*5)
	for i := range ints {
		ints[i] = int32(rng.IntN(1000))
	}
	x4 := tensors.FromFlatDataAndDimensions(ints, 2, 3, 4, 5)
	transposeAll := func(perm ...int) func(in []*Node) *Node {
		return func(in []*Node) *Node { return TransposeAllDims(in[0], perm...) }
	}
	return []rowCase{
		{"transpose [37, 16] float32", func(in []*Node) *Node { return Transpose(in[0], 0, 1) }, []any{random[float32](rng, 37, 16)}},
		{"transpose rank 3 (2, 0, 1) float64", transposeAll(2, 0, 1), []any{random[float64](rng, 4, 6, 9)}},
		{"transpose rank 4 (3, 1, 0, 2) int32", transposeAll(3, 1, 0, 2), []any{x4}},
		{"transpose rank 4 keeping the last axis (1, 0, 2, 3)", transposeAll(1, 0, 2, 3), []any{random[float32](rng, 3, 5, 2, 7)}},
		// from 32 × 32 elements on, transposes are copied in tiles, split over the cores from 2^20.
		{"tiled transpose [70, 45] float32", func(in []*Node) *Node { return Transpose(in[0], 0, 1) }, []any{random[float32](rng, 70, 45)}},
		{"tiled transpose rank 3 (2, 0, 1) float64", transposeAll(2, 0, 1), []any{random[float64](rng, 40, 6, 9)}},
		{"tiled transpose rank 3 (0, 2, 1), planes along the leading axis", transposeAll(0, 2, 1), []any{random[float32](rng, 3, 50, 40)}},
		{"tiled transpose rank 4 (3, 1, 0, 2)", transposeAll(3, 1, 0, 2), []any{random[float32](rng, 6, 5, 8, 7)}},
		{"tiled transpose [1100, 1000] over the cores", func(in []*Node) *Node { return Transpose(in[0], 0, 1) }, []any{random[float32](rng, 1100, 1000)}},
		{"broadcast [40, 1] to [40, 23] (edge weights)", func(in []*Node) *Node { return BroadcastToDims(in[0], 40, 23) },
			[]any{random[float32](rng, 40, 1)}},
		{"broadcast [23] to [40, 23] (a bias)", func(in []*Node) *Node { return ExpandAndBroadcast(in[0], []int{40, 23}, []int{0}) },
			[]any{random[float64](rng, 23)}},
		{"broadcast a scalar to [6, 7]", func(in []*Node) *Node { return BroadcastToDims(in[0], 6, 7) }, []any{float32(2.5)}},
		{"broadcast a scalar to [301, 7] (filled by doubling copies)", func(in []*Node) *Node { return BroadcastToDims(in[0], 301, 7) },
			[]any{float64(-1.25)}},
		{"broadcast [1, 1] to [300, 16] (one value, cleared)", func(in []*Node) *Node { return BroadcastToDims(in[0], 300, 16) },
			[]any{tensors.FromFlatDataAndDimensions([]float32{0}, 1, 1)}},
		{"broadcast [3, 1, 5] to [3, 4, 5] (inner axis)", func(in []*Node) *Node { return BroadcastToDims(in[0], 3, 4, 5) },
			[]any{random[float32](rng, 3, 1, 5)}},
		{"broadcast [4, 5] to [2, 4, 3, 5] (new leading and inner axes)", func(in []*Node) *Node {
			return ExpandAndBroadcast(in[0], []int{2, 4, 3, 5}, []int{0, 2})
		}, []any{random[float32](rng, 4, 5)}},
		{"zeros like [50, 9] float32 (cleared)", func(in []*Node) *Node { return ZerosLike(in[0]) }, []any{random[float32](rng, 50, 9)}},
		{"zeros like [50, 9] float64 and int32", func(in []*Node) *Node {
			return Concatenate([]*Node{ZerosLike(in[0]), ConvertDType(ZerosLike(in[1]), in[0].DType())}, 0)
		}, []any{random[float64](rng, 50, 9), tensors.FromFlatDataAndDimensions(make([]int32, 9), 1, 9)}},
		{"broadcast −0 to [6, 7] (keeps its sign)", func(in []*Node) *Node { return BroadcastToDims(in[0], 6, 7) },
			[]any{float32(math.Copysign(0, -1))}},
	}
}

// TestCopyExecutorsMatchSimplego checks that every Transpose and BroadcastInDim case gives the
// same values with our executors and with simplego's.
func TestCopyExecutorsMatchSimplego(t *testing.T) { matchSimplego(t, copyCases()) }
