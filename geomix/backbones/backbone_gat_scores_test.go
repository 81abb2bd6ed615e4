package backbones

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/geomix-go/geomix/internal/testutil"
	. "github.com/gomlx/gomlx/pkg/core/graph"
	"github.com/gomlx/gomlx/pkg/core/tensors"
)

// TestGATScoresKeepTheNumbers: the attention scores through Mul's implicit broadcast of a give the
// values and the gradients (to the messages and to a) of the explicit broadcast GAT was built
// with before, bit for bit, on the executors of the pure-Go backend.
func TestGATScoresKeepTheNumbers(t *testing.T) {
	const n, heads, width = 50, 8, 16
	rng := rand.New(rand.NewPCG(21, 22))
	values := func(size int) []float32 {
		out := make([]float32, size)
		for i := range out {
			out[i] = float32(rng.NormFloat64())
		}
		return out
	}
	h := tensors.FromFlatDataAndDimensions(values(n*heads*width), n, heads, width)
	a := tensors.FromFlatDataAndDimensions(values(heads*width), heads, width)
	v := tensors.FromFlatDataAndDimensions(values(n*heads), n, heads)
	explicit := func(h, a *Node) *Node { return ReduceSum(Mul(h, BroadcastToShape(InsertAxes(a, 0), h.Shape())), -1) }
	run := func(scores func(h, a *Node) *Node) []*tensors.Tensor {
		return MustExecOnceN(testutil.Backend(t), func(h, a, v *Node) []*Node {
			s := scores(h, a)
			return append([]*Node{s}, Gradient(ReduceAllSum(Mul(s, v)), h, a)...)
		}, h, a, v)
	}
	got, want := run(gatScores), run(explicit)
	for i, name := range []string{"scores", "gradient to h", "gradient to a"} {
		g, w := tensors.MustCopyFlatData[float32](got[i]), tensors.MustCopyFlatData[float32](want[i])
		if !slices.EqualFunc(g, w, func(x, y float32) bool { return math.Float32bits(x) == math.Float32bits(y) }) {
			t.Errorf("%s differs from the explicit broadcast's", name)
		}
	}
}
