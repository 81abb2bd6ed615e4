package rowops

import (
	"cmp"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"

	"github.com/gomlx/gomlx/backends"
	"github.com/gomlx/gomlx/backends/simplego"
	. "github.com/gomlx/gomlx/pkg/core/graph"
)

// TestProfileOps times a chain of ops, whose span is its whole work, and two branches side by
// side, whose span is shorter than their work, and checks that the executors are restored.
func TestProfileOps(t *testing.T) {
	backend, err := simplego.New("ops_sequential")
	if err != nil {
		t.Fatal(err)
	}
	x := random[float32](rand.New(rand.NewPCG(3, 4)), 512, 512)
	before := make([]uintptr, len(nodeExecutors))
	for op, exec := range nodeExecutors {
		before[op] = reflect.ValueOf(exec).Pointer()
	}
	profile := func(fn func(x *Node) *Node) OpCost {
		cost, err := ProfileOps(func() error {
			MustExecOnce(backend, fn, x)
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		return cost
	}
	chain := profile(func(x *Node) *Node { return Exp(Neg(Exp(x))) })
	if chain.Ops != 3 || chain.Work <= 0 || chain.Span != chain.Work {
		t.Errorf("chain exp(-exp(x)): %d ops, work %s, span %s; want 3 ops and span = work > 0", chain.Ops, chain.Work, chain.Span)
	}
	if len(chain.Heaviest) != 3 || !slices.IsSortedFunc(chain.Heaviest, func(a, b NodeCost) int { return cmp.Compare(b.Work, a.Work) }) {
		t.Errorf("chain exp(-exp(x)): heaviest ops %v; want its 3 ops, most time first", chain.Heaviest)
	}
	for _, n := range chain.Heaviest {
		if n.Shape.String() != "(Float32)[512 512]" || len(n.Inputs) != 1 || n.Inputs[0].String() != "(Float32)[512 512]" {
			t.Errorf("chain exp(-exp(x)): heaviest op %s %s <- %v; want [512 512] <- one [512 512]", n.Op, n.Shape, n.Inputs)
		}
	}
	branches := profile(func(x *Node) *Node { return Add(Exp(x), Exp(Neg(x))) })
	if branches.Ops != 4 || branches.Span <= 0 || branches.Span >= branches.Work {
		t.Errorf("branches exp(x) + exp(-x): %d ops, work %s, span %s; want 4 ops and 0 < span < work", branches.Ops, branches.Work, branches.Span)
	}
	if exp := branches.ByOp[backends.OpTypeExp]; exp.Count != 2 || branches.ByOp[backends.OpTypeAdd].Count != 1 || len(branches.ByOp) != 3 {
		t.Errorf("branches exp(x) + exp(-x) by op: %v; want Exp twice, Neg and Add once", branches.ByOp)
	}
	for op, exec := range nodeExecutors {
		if reflect.ValueOf(exec).Pointer() != before[op] {
			t.Errorf("the executor of %s was not restored", backends.OpType(op))
		}
	}
}
