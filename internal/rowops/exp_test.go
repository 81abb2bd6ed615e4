package rowops

import (
	"math"
	"math/rand/v2"
	"testing"

	. "github.com/gomlx/gomlx/pkg/core/graph"
	"github.com/gomlx/gomlx/pkg/core/tensors"
)

// expBitsStep spaces the float32 bit patterns TestExpMatchesMath tries: 16.7 million of the 2^32,
// every sign, exponent and a spread of mantissas (all 2^32 gave the same bits in a one-off run).
const expBitsStep = 257

// TestExpMatchesMath checks expInto against float32(math.Exp(float64(x))), bit for bit, on
// every expBitsStep-th float32 bit pattern (NaNs, infinities, denormals, values that overflow or
// underflow included), at every offset of the kernel's groups of four.
func TestExpMatchesMath(t *testing.T) {
	const chunk = 1 << 16
	x, out := make([]float32, chunk), make([]float32, chunk)
	bits := uint64(0)
	for bits < 1<<32 {
		n := 0
		for ; n < chunk && bits < 1<<32; n, bits = n+1, bits+expBitsStep {
			x[n] = math.Float32frombits(uint32(bits))
		}
		for offset := range min(4, n) {
			expInto(out[offset:n], x[offset:n])
			for i := offset; i < n; i++ {
				want := float32(math.Exp(float64(x[i])))
				if math.Float32bits(out[i]) != math.Float32bits(want) && !(math.IsNaN(float64(want)) && math.IsNaN(float64(out[i]))) {
					t.Fatalf("exp(%g) (bits %#x) = %g, want %g", x[i], math.Float32bits(x[i]), out[i], want)
				}
			}
		}
	}
}

// TestExpMatchesSimplego checks our Exp executor against simplego's on softmax inputs and on
// values the kernel leaves to math.Exp, and that a float64 Exp still runs (simplego's).
func TestExpMatchesSimplego(t *testing.T) {
	rng := rand.New(rand.NewPCG(17, 18))
	wide := randomRows[float32](rng, 301*7)
	for i := range wide {
		wide[i] *= 1000 // a third of the groups hold a value beyond the kernel's ±700
	}
	matchSimplego(t, []rowCase{
		{"exp [301, 7]", func(in []*Node) *Node { return Exp(in[0]) }, []any{random[float32](rng, 301, 7)}},
		{"exp of values up to ±1000 [301, 7]", func(in []*Node) *Node { return Exp(in[0]) }, []any{tensors.FromFlatDataAndDimensions(wide, 301, 7)}},
		{"softmax [300, 3]", func(in []*Node) *Node { return Softmax(in[0], -1) }, []any{random[float32](rng, 300, 3)}},
		{"exp float64 (simplego's)", func(in []*Node) *Node { return Exp(in[0]) }, []any{random[float64](rng, 40, 3)}},
	})
}
