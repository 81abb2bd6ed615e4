package rowops

import (
	"math"
	"slices"
	"testing"

	"github.com/gomlx/gomlx/backends"
	"github.com/gomlx/gomlx/backends/simplego"
	"github.com/gomlx/gomlx/pkg/core/dtypes"
	. "github.com/gomlx/gomlx/pkg/core/graph"
	"github.com/gomlx/gomlx/pkg/core/shapes"
	"github.com/gomlx/gomlx/pkg/core/tensors"
)

// TestRNGBitGeneratorMatchesSimplego draws random bits three times in a row, each from the state
// the one before left (float32 values, as dropout draws them, of sizes that end half-way through
// a 64-bit word, and a split state of whole words), with our executor and simplego's, and compares
// the values and the generator's words of the new states bit for bit.
func TestRNGBitGeneratorMatchesSimplego(t *testing.T) {
	backend, err := simplego.New("")
	if err != nil {
		t.Fatal(err)
	}
	seed, err := RNGStateFromSeed(42)
	if err != nil {
		t.Fatal(err)
	}
	draw := func(in []*Node) []*Node {
		state, uniform := RandomUniform(in[0], shapes.Make(dtypes.Float32, 301, 7)) // 8428 bytes: half a word left
		state, more := RandomUniform(state, shapes.Make(dtypes.Float32, 5))
		state, split := RNGStateSplit(state)
		return []*Node{state, uniform, more, split}
	}
	run := func() []*tensors.Tensor { return MustExecOnceN(backend, draw, seed) }
	got := run()
	saved := multiOutputsNodeExecutors[backends.OpTypeRNGBitGenerator]
	multiOutputsNodeExecutors[backends.OpTypeRNGBitGenerator] = simplegoRNGBitGenerator
	want := run()
	multiOutputsNodeExecutors[backends.OpTypeRNGBitGenerator] = saved
	for _, i := range []int{0, 3} {
		if g, w := tensors.MustCopyFlatData[uint64](got[i])[:2], tensors.MustCopyFlatData[uint64](want[i])[:2]; !slices.Equal(g, w) {
			t.Errorf("output %d, a state: generator words %v, simplego %v", i, g, w)
		}
	}
	for i, name := range map[int]string{1: "uniform [301, 7]", 2: "uniform [5]"} {
		g, w := tensors.MustCopyFlatData[float32](got[i]), tensors.MustCopyFlatData[float32](want[i])
		if !slices.EqualFunc(g, w, func(a, b float32) bool { return math.Float32bits(a) == math.Float32bits(b) }) {
			t.Errorf("%s differ from simplego's:\n got %v\nwant %v", name, got[i], want[i])
		}
	}
}
