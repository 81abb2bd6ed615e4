package rowops

import (
	"math"
	"math/rand/v2"
	"testing"

	. "github.com/gomlx/gomlx/pkg/core/graph"
	"github.com/gomlx/gomlx/pkg/core/tensors"
)

// reduceCases sum and take maxima over the first, last, inner and several axes, float32 and
// float64, with sizes whose float sums depend on the order, and a NaN and infinities for max.
func reduceCases() []rowCase {
	rng := rand.New(rand.NewPCG(7, 8))
	special := randomRows[float32](rng, 6*5)
	special[3], special[12], special[20] = float32(math.NaN()), float32(math.Inf(-1)), float32(math.Inf(1))
	return []rowCase{
		{"sum over rows [300, 23] (a bias gradient, a batch mean)", func(in []*Node) *Node { return ReduceSum(in[0], 0) },
			[]any{random[float32](rng, 300, 23)}},
		{"sum over rows [500, 64] (a hidden layer's bias gradient)", func(in []*Node) *Node { return ReduceSum(in[0], 0) },
			[]any{random[float32](rng, 500, 64)}},
		{"sum over rows [90, 5] float64", func(in []*Node) *Node { return ReduceSum(in[0], 0) }, []any{random[float64](rng, 90, 5)}},
		{"sum over rows with NaN and infinities [6, 5]", func(in []*Node) *Node { return ReduceSum(in[0], 0) },
			[]any{tensors.FromFlatDataAndDimensions(special, 6, 5)}},
		{"sum over the last axis [300, 23] (softmax denominators)", func(in []*Node) *Node { return ReduceSum(in[0], 1) },
			[]any{random[float64](rng, 300, 23)}},
		{"sum over an inner axis [4, 50, 6]", func(in []*Node) *Node { return ReduceSum(in[0], 1) }, []any{random[float32](rng, 4, 50, 6)}},
		{"sum over the last axis of [3, 4, 5] (two kept axes)", func(in []*Node) *Node { return ReduceSum(in[0], 2) },
			[]any{random[float64](rng, 3, 4, 5)}},
		{"sum over the last axis of [30, 8, 16] (GAT's attention scores per head)", func(in []*Node) *Node { return ReduceSum(in[0], 2) },
			[]any{random[float32](rng, 30, 8, 16)}},
		{"sum of a vector [37]", func(in []*Node) *Node { return ReduceSum(in[0], 0) }, []any{random[float32](rng, 37)}},
		{"sum over axes 0 and 2 [7, 5, 9]", func(in []*Node) *Node { return ReduceSum(in[0], 0, 2) }, []any{random[float32](rng, 7, 5, 9)}},
		{"sum of everything [40, 33]", func(in []*Node) *Node { return ReduceAllSum(in[0]) }, []any{random[float32](rng, 40, 33)}},
		{"max over the last axis [120, 7]", func(in []*Node) *Node { return ReduceMax(in[0], 1) }, []any{random[float32](rng, 120, 7)}},
		{"max over the last axis [20000, 64], split over the cores", func(in []*Node) *Node { return ReduceMax(in[0], 1) },
			[]any{random[float32](rng, 20000, 64)}},
		{"max over rows [120, 7] float64", func(in []*Node) *Node { return ReduceMax(in[0], 0) }, []any{random[float64](rng, 120, 7)}},
		{"max with NaN and infinities [6, 5]", func(in []*Node) *Node { return ReduceMax(in[0], 1) },
			[]any{tensors.FromFlatDataAndDimensions(special, 6, 5)}},
		{"gradient of a log-softmax [50, 7]", func(in []*Node) *Node {
			return Gradient(ReduceAllSum(Mul(LogSoftmax(in[0]), in[0])), in[0])[0]
		}, []any{random[float32](rng, 50, 7)}},
	}
}

// TestReduceExecutorMatchesSimplego checks that every ReduceSum and ReduceMax case gives
// bit-identical values with our executor and with simplego's.
func TestReduceExecutorMatchesSimplego(t *testing.T) { matchSimplego(t, reduceCases()) }
