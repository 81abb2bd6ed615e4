package rowops

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/gomlx/gomlx/backends/simplego"
	"github.com/gomlx/gomlx/pkg/core/dtypes"
	. "github.com/gomlx/gomlx/pkg/core/graph"
	"github.com/gomlx/gomlx/pkg/core/tensors"
)

// withSimplego runs fn with simplego's own executors of the ops we override, then restores ours.
func withSimplego(fn func()) {
	for _, e := range executors {
		setNodeExecutor(e.op, priorityUser, e.simplego)
	}
	defer func() {
		for _, e := range executors {
			setNodeExecutor(e.op, priorityUser, counted(e.ours))
		}
	}()
	fn()
}

// rowCase is a graph of Gather/ScatterSum ops and its inputs, to run with both executors.
type rowCase struct {
	name   string
	fn     func(inputs []*Node) *Node
	inputs []any
}

// randomRows returns n·width values in [-1, 1) of type T, not exactly representable sums, so any
// change in the order of additions shows.
func randomRows[T float32 | float64](rng *rand.Rand, n int) []T {
	out := make([]T, n)
	for i := range out {
		out[i] = T(rng.Float64()*2 - 1)
	}
	return out
}

// randomIndices returns n indices in [0, rows), with repeats.
func randomIndices[I int32 | int64](rng *rand.Rand, n, rows int) []I {
	out := make([]I, n)
	for i := range out {
		out[i] = I(rng.IntN(rows))
	}
	return out
}

func rowCases() []rowCase {
	rng := rand.New(rand.NewPCG(1, 2))
	const n, e, d = 7, 40, 5
	x32 := tensors.FromFlatDataAndDimensions(randomRows[float32](rng, n*d), n, d)
	x64 := tensors.FromFlatDataAndDimensions(randomRows[float64](rng, n*3*2), n, 3, 2)
	idx32 := tensors.FromFlatDataAndDimensions(randomIndices[int32](rng, e, n), e, 1)
	idx64 := tensors.FromFlatDataAndDimensions(randomIndices[int64](rng, e, n), 4, e/4, 1)
	upd32 := tensors.FromFlatDataAndDimensions(randomRows[float32](rng, e*d), e, d)
	upd64 := tensors.FromFlatDataAndDimensions(randomRows[float64](rng, e*3*2), 4, e/4, 3, 2)
	outOfRange := tensors.FromFlatDataAndDimensions([]int32{-3, 0, 6, 9, 2}, 5, 1)
	return []rowCase{
		{"gather rows float32 by int32", func(in []*Node) *Node { return Gather(in[0], in[1]) }, []any{x32, idx32}},
		{"gather rank-3 rows float64 by int64 [4, 10, 1]", func(in []*Node) *Node { return Gather(in[0], in[1]) }, []any{x64, idx64}},
		{"gather clamps indices", func(in []*Node) *Node { return Gather(in[0], in[1]) }, []any{x32, outOfRange}},
		{"scatter-sum rows float32 by int32", func(in []*Node) *Node { return ScatterSum(in[0], in[1], in[2], false, false) },
			[]any{x32, idx32, upd32}},
		{"scatter-sum rank-3 rows float64 by int64", func(in []*Node) *Node { return ScatterSum(in[0], in[1], in[2], false, false) },
			[]any{x64, idx64, upd64}},
		{"scatter-sum of rows of width 21 float32 (vector kernel and tail)", func(in []*Node) *Node {
			return ScatterSum(in[0], in[1], in[2], false, false)
		}, []any{random[float32](rng, n, 21), idx32, random[float32](rng, e, 21)}},
		{"scatter-sum into an owned operand", func(in []*Node) *Node {
			return ScatterSum(MulScalar(in[0], 2), in[1], in[2], false, false)
		}, []any{x32, idx32, upd32}},
		{"gather of single elements (rows of width 1)", func(in []*Node) *Node {
			return Gather(Reshape(in[0], n*d), Reshape(Slice(in[1], AxisRange(0, 5)), 5, 1))
		}, []any{x32, idx32}},
		{"gather of a column window (simplego's path)", func(in []*Node) *Node {
			return GatherSlices(in[0], []int{0, 1}, ConvertDType(Concatenate([]*Node{Slice(in[1], AxisRange(0, 6)),
				OnesLike(Slice(in[1], AxisRange(0, 6)))}, 1), dtypes.Int32), []int{2, 3}, false)
		}, []any{x32, idx32}},
		{"gradient of a row gather is a row scatter-sum", func(in []*Node) *Node {
			return Gradient(ReduceAllSum(Mul(Gather(in[0], in[1]), Gather(in[0], in[1]))), in[0])[0]
		}, []any{x32, idx32}},
	}
}

// TestRowExecutorsMatchSimplego checks that every case gives bit-identical values with our
// executors and with simplego's.
func TestRowExecutorsMatchSimplego(t *testing.T) { matchSimplego(t, rowCases()) }

// matchSimplego runs every case with our executors and with simplego's and fails where the values
// are not bit-identical (NaN payloads and the sign of zero included).
func matchSimplego(t *testing.T, cases []rowCase) { t.Helper(); matchSimplegoOn(t, "", cases) }

// matchSimplegoOn is matchSimplego on a simplego backend of the given configuration.
func matchSimplegoOn(t *testing.T, config string, cases []rowCase) {
	t.Helper()
	backend, err := simplego.New(config)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range cases {
		exec := func() *tensors.Tensor {
			return MustExecOnceN(backend, func(in []*Node) []*Node { return []*Node{c.fn(in)} }, c.inputs...)[0]
		}
		got := exec()
		var want *tensors.Tensor
		withSimplego(func() { want = exec() })
		if !got.Shape().Equal(want.Shape()) {
			t.Fatalf("%s: shape %s, simplego %s", c.name, got.Shape(), want.Shape())
		}
		var same bool
		switch got.DType() {
		case dtypes.Float32:
			same = slices.EqualFunc(tensors.MustCopyFlatData[float32](got), tensors.MustCopyFlatData[float32](want),
				func(a, b float32) bool { return math.Float32bits(a) == math.Float32bits(b) })
		case dtypes.Float64:
			same = slices.EqualFunc(tensors.MustCopyFlatData[float64](got), tensors.MustCopyFlatData[float64](want),
				func(a, b float64) bool { return math.Float64bits(a) == math.Float64bits(b) })
		case dtypes.Int32:
			same = slices.Equal(tensors.MustCopyFlatData[int32](got), tensors.MustCopyFlatData[int32](want))
		case dtypes.Bool:
			same = slices.Equal(tensors.MustCopyFlatData[bool](got), tensors.MustCopyFlatData[bool](want))
		}
		if !same {
			t.Errorf("%s: values differ from simplego's:\n got %v\nwant %v", c.name, got, want)
		}
	}
}

// TestScatterSumByHand checks one row scatter-sum against hand-computed values, including an
// out-of-range index, which is skipped. simplego's own executor panics on that index, so the test
// also shows that Install (TestMain) registered ours.
func TestScatterSumByHand(t *testing.T) {
	backend, err := simplego.New("")
	if err != nil {
		t.Fatal(err)
	}
	got := MustExecOnce(backend, func(x, idx, upd *Node) *Node { return ScatterSum(x, idx, upd, false, false) },
		[][]float32{{1, 1}, {2, 2}, {3, 3}}, [][]int32{{2}, {0}, {2}, {5}}, [][]float32{{10, 20}, {1, 2}, {100, 200}, {7, 7}})
	want := [][]float32{{2, 3}, {2, 2}, {113, 223}}
	if v := got.Value().([][]float32); !slices.EqualFunc(v, want, slices.Equal) {
		t.Fatalf("ScatterSum = %v, want %v", v, want)
	}
}
