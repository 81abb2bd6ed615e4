package rowops

import (
	"fmt"
	"math"
	"math/rand/v2"
	"reflect"
	"runtime"
	"sync"
	"testing"

	"github.com/gomlx/gomlx/backends/simplego"
	. "github.com/gomlx/gomlx/pkg/core/graph"
	"github.com/gomlx/gomlx/pkg/core/tensors"
)

// propagate is message passing as geomix writes it: rows src of x weighted by w [E, 1] and summed
// into rows dst of zeros.
func propagate(x, src, dst, w *Node) *Node {
	return ScatterSum(ZerosLike(x), dst, Mul(Gather(x, src), w), false, false)
}

// fuseCase is a rowCase with the number of chains its graph fuses.
type fuseCase struct {
	chains int
	name   string
	fn     func(inputs []*Node) *Node
	inputs []any
}

// fuseCases cover the chain Gather → Mul → ScatterSum fused and its near misses, which are not:
// rows of width 21 (the vector kernel's tail), of width 64 and of width 16 in runs of messages to
// one row (the run kernels), the column on either side, x taken (its last use) or copied (used
// again after the gather, even as the sum's operand), the gradient (the chain backwards), a
// repeated chain, special values (NaN payloads, infinities, −0) and chains whose messages or
// products have another use.
func fuseCases() []fuseCase {
	rng := rand.New(rand.NewPCG(13, 14))
	const n, e, d = 11, 60, 21
	xs, ws := randomRows[float32](rng, n*d), randomRows[float32](rng, e)
	xs[5], ws[7] = math.Float32frombits(0x7fc00011), math.Float32frombits(0x7fc00022)
	xs[30], ws[9] = float32(math.Inf(1)), float32(math.Copysign(0, -1))
	x, w := tensors.FromFlatDataAndDimensions(xs, n, d), tensors.FromFlatDataAndDimensions(ws, e, 1)
	src := tensors.FromFlatDataAndDimensions(randomIndices[int32](rng, e, n), e, 1)
	dst := tensors.FromFlatDataAndDimensions(randomIndices[int32](rng, e, n), e, 1)
	wide, heads := random[float32](rng, n, 64), random[float32](rng, e, 3, 1)
	runs := make([]int32, e) // messages in runs of ten to one row, as X's non-zeros are in X W
	for i := range runs {
		runs[i] = int32(i / 10)
	}
	in := []any{x, src, dst, w}
	// Large enough for scaleAddRows to split their rows among the cores when the chain runs alone:
	// rows of 16 in random order, of 64, of 16 in runs of ten.
	const bigN, bigE = 3001, 30000
	bigSrc := tensors.FromFlatDataAndDimensions(randomIndices[int32](rng, bigE, bigN), bigE, 1)
	bigDst := tensors.FromFlatDataAndDimensions(randomIndices[int32](rng, bigE, bigN), bigE, 1)
	bigRuns := make([]int32, bigE)
	for i := range bigRuns {
		bigRuns[i] = int32(i / 10)
	}
	bigW := tensors.FromFlatDataAndDimensions(randomRows[float32](rng, bigE), bigE, 1)
	return []fuseCase{
		{1, "propagation [11, 21] by 60 messages", func(in []*Node) *Node { return propagate(in[0], in[1], in[2], in[3]) }, in},
		{1, "propagation of width 64", func(in []*Node) *Node { return propagate(in[0], in[1], in[2], in[3]) },
			[]any{wide, src, dst, w}},
		{1, "propagation of width 16 in runs of ten", func(in []*Node) *Node { return propagate(in[0], in[1], in[2], in[3]) },
			[]any{random[float32](rng, n, 16), src, tensors.FromFlatDataAndDimensions(runs, e, 1), w}},
		{1, "propagation [3001, 16] by 30000 messages (large enough to split)", func(in []*Node) *Node { return propagate(in[0], in[1], in[2], in[3]) },
			[]any{random[float32](rng, bigN, 16), bigSrc, bigDst, bigW}},
		{1, "propagation [3001, 64] (large enough to split)", func(in []*Node) *Node { return propagate(in[0], in[1], in[2], in[3]) },
			[]any{random[float32](rng, bigN, 64), bigSrc, bigDst, bigW}},
		{1, "propagation [3001, 16] in runs of ten (large enough to split)", func(in []*Node) *Node { return propagate(in[0], in[1], in[2], in[3]) },
			[]any{random[float32](rng, bigN, 16), bigSrc, tensors.FromFlatDataAndDimensions(bigRuns, bigE, 1), bigW}},
		{1, "column on the left", func(in []*Node) *Node {
			return ScatterSum(ZerosLike(in[0]), in[2], Mul(in[3], Gather(in[0], in[1])), false, false)
		}, in},
		{1, "x taken: the gather is its last use", func(in []*Node) *Node {
			return propagate(MulScalar(in[0], 3), in[1], in[2], in[3])
		}, in},
		{1, "x used after the gather", func(in []*Node) *Node { return Add(propagate(in[0], in[1], in[2], in[3]), in[0]) }, in},
		{1, "x is the sum's operand", func(in []*Node) *Node {
			return ScatterSum(in[0], in[2], Mul(Gather(in[0], in[1]), in[3]), false, false)
		}, in},
		{2, "two hops", func(in []*Node) *Node {
			return propagate(propagate(in[0], in[1], in[2], in[3]), in[1], in[2], in[3])
		}, in},
		{2, "gradient of a propagation", func(in []*Node) *Node {
			return Gradient(ReduceAllSum(Square(propagate(in[0], in[1], in[2], in[3]))), in[0])[0]
		}, in},
		{1, "per-head weights [E, 3, 1] on messages [E, 3, 7]", func(in []*Node) *Node {
			x := Reshape(in[0], n, 3, 7)
			return ScatterSum(ZerosLike(x), in[2], Mul(Gather(x, in[1]), in[4]), false, false)
		}, append(in, heads)},
		{2, "gradient of per-head weights and rows (GAT)", func(in []*Node) *Node {
			x := Reshape(in[0], n, 3, 7)
			out := ScatterSum(ZerosLike(x), in[2], Mul(Gather(x, in[1]), in[4]), false, false)
			grads := Gradient(ReduceAllSum(Square(out)), in[0], in[4])
			return Concatenate([]*Node{Reshape(grads[0], -1), Reshape(grads[1], -1)}, 0)
		}, append(in, heads)},
		{0, "messages used twice (not fused)", func(in []*Node) *Node {
			msgs := Gather(in[0], in[1])
			return Add(ScatterSum(ZerosLike(in[0]), in[2], Mul(msgs, in[3]), false, false), InsertAxes(ReduceSum(msgs, 0), 0))
		}, in},
		{0, "products used twice (not fused)", func(in []*Node) *Node {
			prods := Mul(Gather(in[0], in[1]), in[3])
			return Add(ScatterSum(ZerosLike(in[0]), in[2], prods, false, false), InsertAxes(ReduceSum(prods, 0), 0))
		}, in},
	}
}

// TestFusedChainsMatchSimplego checks that the fused chains give simplego's values bit for bit, on
// three cores (a large chain running alone splits its rows among them; TestScaleAddRowsSplit
// always splits), and that no stand-in outlives its execution.
func TestFusedChainsMatchSimplego(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(3))
	matchSimplego(t, fusedRowCases())
	noStandInsLeft(t, &deferred)
}

// TestScaleAddRowsSplit checks scaleAddRows split among three cores (run alone, as when no other
// op is in progress) against one range of all rows, bit for bit, with the vector kernels and the
// portable loops: rows of 16 and 64 in random order and in runs of ten, pieces of 8.
func TestScaleAddRowsSplit(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(3))
	rng := rand.New(rand.NewPCG(41, 42))
	const rows, e = 3001, 30000
	runs := make([]int32, e)
	for i := range runs {
		runs[i] = int32(i / 10)
	}
	for _, c := range []struct {
		width, sub int
		dst        []int32
	}{{16, 16, randomIndices[int32](rng, e, rows)}, {64, 64, randomIndices[int32](rng, e, rows)}, {16, 16, runs}, {64, 8, runs}} {
		x, scale := randomRows[float32](rng, rows*c.width), randomRows[float32](rng, e*c.width/c.sub)
		src := randomIndices[int32](rng, e, rows)
		for _, portable := range []bool{false, true} {
			want, got := make([]float32, rows*c.width), make([]float32, rows*c.width)
			run := func() {
				scaleAddRowRange(want, x, scale, src, c.dst, c.width, c.sub, 0)
				if !alone() {
					t.Fatal("another executor is running: scaleAddRows would not split")
				}
				scaleAddRows(got, x, scale, src, c.dst, c.width, c.sub)
			}
			if portable {
				withPortableLoops(run)
			} else {
				run()
			}
			for i := range want {
				if math.Float32bits(got[i]) != math.Float32bits(want[i]) {
					t.Fatalf("width %d, pieces of %d, portable %v: element %d is %v split, %v whole", c.width, c.sub, portable, i, got[i], want[i])
				}
			}
		}
	}
}

// TestFusedChainsOneOpAtATime checks the same on a backend running one op at a time, where chains
// hold the inputs no op uses before their sum by reference (borrowable), and which inputs those
// are: the propagation's x, indices and column, but not an x the sum itself adds to.
func TestFusedChainsOneOpAtATime(t *testing.T) {
	matchSimplegoOn(t, "ops_sequential", fusedRowCases())
	noStandInsLeft(t, &deferred)
	for _, c := range fuseCases() {
		var want uint8
		switch c.name {
		case "propagation [11, 21] by 60 messages":
			want = 0b11
		case "x is the sum's operand":
			want = 0b10
		default:
			continue
		}
		if got := chainBorrows(t, c.fn, c.inputs); got != want {
			t.Errorf("%s: the gather may hold inputs %02b by reference, want %02b", c.name, got, want)
		}
	}
}

// chainBorrows compiles fn on parameters shaped as inputs and returns the borrowable inputs of its
// first chain's gather.
func chainBorrows(t *testing.T, fn func([]*Node) *Node, inputs []any) uint8 {
	t.Helper()
	b := compiledBuilder(t, fn, inputs)
	p := fusions(b)
	for i, f := range p.fusion {
		if f == chainStart {
			return p.borrow[i]
		}
	}
	t.Fatal("no chain fused")
	return 0
}

// noStandInsLeft fails for every stand-in still registered in maps after the executions.
func noStandInsLeft(t *testing.T, maps ...*sync.Map) {
	t.Helper()
	for _, m := range maps {
		m.Range(func(k, _ any) bool {
			t.Errorf("stand-in %p left after execution", k)
			return true
		})
	}
}

// TestChainStarts checks which gathers the plan fuses: the propagation's, both of two hops, the
// forward and the backward chain of a gradient, and none whose messages or products have other
// uses.
func TestChainStarts(t *testing.T) {
	for _, c := range fuseCases() {
		if got := countFusions(t, c.fn, c.inputs)[chainStart]; got != c.chains {
			t.Errorf("%s: %d chains fused, want %d", c.name, got, c.chains)
		}
	}
}

// countFusions compiles fn on parameters shaped as inputs and counts its nodes by fusion.
func countFusions(t *testing.T, fn func([]*Node) *Node, inputs []any) map[fusion]int {
	t.Helper()
	counts := map[fusion]int{}
	for _, f := range fusions(compiledBuilder(t, fn, inputs)).fusion {
		counts[f]++
	}
	return counts
}

// compiledBuilder compiles fn on parameters shaped as inputs and returns its simplego builder.
func compiledBuilder(t *testing.T, fn func([]*Node) *Node, inputs []any) *simplego.Builder {
	t.Helper()
	backend, err := simplego.New("")
	if err != nil {
		t.Fatal(err)
	}
	g := NewGraph(backend, "fusions")
	params := make([]*Node, len(inputs))
	for i, v := range inputs {
		params[i] = Parameter(g, fmt.Sprintf("in%d", i), v.(*tensors.Tensor).Shape())
	}
	g.Compile(fn(params))
	return (*simplego.Builder)(reflect.ValueOf(g).Elem().FieldByName("builder").Elem().UnsafePointer())
}

// fusedRowCases returns fuseCases as rowCases, for matchSimplego.
func fusedRowCases() []rowCase {
	var out []rowCase
	for _, c := range fuseCases() {
		out = append(out, rowCase{c.name, c.fn, c.inputs})
	}
	return out
}
