package rowops

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/gomlx/gomlx/pkg/core/dtypes"
	. "github.com/gomlx/gomlx/pkg/core/graph"
	"github.com/gomlx/gomlx/pkg/core/tensors"
	"github.com/gomlx/gomlx/pkg/ml/layers/activations"
)

// compareCases cover GreaterOrEqual and GreaterThan of one shape and by a single value on either
// side, sizes that are not a multiple of the kernel's 8, NaNs, infinities and zeros of both signs,
// LeakyReLU with its gradient (GAT's attention scores), and Equal of int32 [R, 1] and [1, C] in
// either order (OneHot) and of other forms (simplego's).
func compareCases() []rowCase {
	rng := rand.New(rand.NewPCG(11, 12))
	special := random[float32](rng, 5, 7)
	v := tensors.MustCopyFlatData[float32](special)
	v[0], v[3], v[8], v[13], v[21] = float32(math.NaN()), float32(math.Inf(1)), float32(math.Inf(-1)), float32(math.Copysign(0, -1)), 0
	special = tensors.FromFlatDataAndDimensions(v, 5, 7)
	a, b := random[float32](rng, 13, 9), random[float32](rng, 13, 9)
	var cases []rowCase
	for _, op := range []struct {
		name string
		fn   func(x, y *Node) *Node
	}{{"greater-or-equal", GreaterOrEqual}, {"greater-than", GreaterThan}} {
		cases = append(cases,
			rowCase{op.name + " of one shape [13, 9]", func(in []*Node) *Node { return op.fn(in[0], in[1]) }, []any{a, b}},
			rowCase{op.name + " than 0 with NaN, infinities and signed zeros", func(in []*Node) *Node { return op.fn(in[0], ScalarZero(in[0].Graph(), in[0].DType())) },
				[]any{special}},
			rowCase{op.name + " of 0 than x", func(in []*Node) *Node { return op.fn(ScalarZero(in[0].Graph(), in[0].DType()), in[0]) }, []any{special}},
			rowCase{op.name + " of NaNs and zeros of one shape", func(in []*Node) *Node { return op.fn(in[0], Neg(in[0])) }, []any{special}})
	}
	labels := tensors.FromFlatDataAndDimensions(randomIndices[int32](rng, 41, 9), 41, 1)
	candidates := tensors.FromFlatDataAndDimensions(randomIndices[int32](rng, 7, 9), 1, 7)
	return append(cases, rowCase{"LeakyReLU and its gradient", func(in []*Node) *Node {
		return Gradient(ReduceAllSum(Mul(activations.LeakyReluWithAlpha(in[0], 0.2), in[1])), in[0])[0]
	}, []any{a, b}},
		rowCase{"equal int32 [41, 1] and [1, 7]", func(in []*Node) *Node { return Equal(in[0], in[1]) }, []any{labels, candidates}},
		rowCase{"equal int32 [1, 7] and [41, 1]", func(in []*Node) *Node { return Equal(in[1], in[0]) }, []any{labels, candidates}},
		rowCase{"one-hot of int32 [41, 1] labels", func(in []*Node) *Node { return OneHot(Squeeze(in[0], -1), 9, dtypes.Float32) }, []any{labels}},
		rowCase{"equal float32 of one shape (simplego's)", func(in []*Node) *Node { return Equal(in[0], Round(in[1])) }, []any{special, special}})
}

// TestCompareExecutorsMatchSimplego checks that every case gives bit-identical values with our
// executors and with simplego's.
func TestCompareExecutorsMatchSimplego(t *testing.T) { matchSimplego(t, compareCases()) }
