package rowops

import (
	"cmp"
	"reflect"
	"slices"
	"sync"
	"time"
	_ "unsafe" // go:linkname

	"github.com/gomlx/gomlx/backends"
	"github.com/gomlx/gomlx/backends/simplego"
	"github.com/gomlx/gomlx/pkg/core/shapes"
)

// multiExecutor is simplego's executor signature for ops with several outputs (RNGBitGenerator).
type multiExecutor = func(backend *simplego.Backend, node *simplego.Node, inputs []*simplego.Buffer, inputsOwned []bool) ([]*simplego.Buffer, error)

//go:linkname nodeExecutors github.com/gomlx/gomlx/backends/simplego.nodeExecutors
var nodeExecutors [backends.OpTypeLast]executor

//go:linkname multiOutputsNodeExecutors github.com/gomlx/gomlx/backends/simplego.multiOutputsNodeExecutors
var multiOutputsNodeExecutors [backends.OpTypeLast]multiExecutor

// OpCost is what the ops of the graphs a run executed cost, each op timed on its own.
type OpCost struct {
	// Ops is the number of op executions timed.
	Ops int
	// Work is the sum of every op's time: the run's time one op at a time.
	Work time.Duration
	// Span is, summed over the executed graphs, the most time along one chain of ops where each op
	// needs the one before (a longest path of the graph weighted by the ops' times): no schedule
	// of these ops on any number of cores finishes a graph sooner.
	Span time.Duration
	// ByOp splits Ops and Work by op type.
	ByOp map[backends.OpType]OpTypeCost
	// Heaviest are the HeaviestOps ops (graph nodes, each summed over its executions) with the
	// most time, most first: which products or reductions the time goes to, by their shapes.
	Heaviest []NodeCost
}

// HeaviestOps is how many ops OpCost.Heaviest lists.
const HeaviestOps = 8

// NodeCost is one node of an executed graph: its op, output and input shapes, and its time.
type NodeCost struct {
	Op     backends.OpType
	Shape  shapes.Shape
	Inputs []shapes.Shape
	Work   time.Duration
}

// OpTypeCost is the number and summed time of one type's op executions.
type OpTypeCost struct {
	Count int
	Work  time.Duration
}

// opTimes accumulates the time of every executed node, per graph (builder).
type opTimes struct {
	mu     sync.Mutex
	graphs map[*simplego.Builder]*graphTimes
	byOp   map[backends.OpType]OpTypeCost
}

// graphTimes are a graph's nodes, read while it runs (a finalized executable's builder lets go of
// them), and each one's summed time, by node index.
type graphTimes struct {
	nodes []*simplego.Node
	times []time.Duration
}

// add counts d, one execution of node.
func (t *opTimes) add(node *simplego.Node, d time.Duration) {
	b := (*simplego.Builder)(nodeField(node, "builder").UnsafePointer())
	t.mu.Lock()
	defer t.mu.Unlock()
	g, ok := t.graphs[b]
	if !ok {
		nodes := nodesOf(reflect.ValueOf(b).Elem().FieldByName("nodes"))
		g = &graphTimes{nodes: nodes, times: make([]time.Duration, len(nodes))}
		t.graphs[b] = g
	}
	g.times[nodeIndex(node)] += d
	op := t.byOp[opType(node)]
	op.Count++
	op.Work += d
	t.byOp[opType(node)] = op
}

// ProfileOps runs run with every simplego executor timed (this package's where Install has run)
// and returns the cost of the ops it executed. Give run a backend that executes one op at a time
// (simplego.New("ops_sequential")): with ops side by side, each op's time would include its share
// of the cores. A graph executed
// several times in run counts each node's times summed, its span taken over those sums. The
// executors are swapped for timed ones while run runs, for every simplego backend of the
// process: run nothing else on simplego meanwhile.
func ProfileOps(run func() error) (OpCost, error) {
	times := &opTimes{graphs: map[*simplego.Builder]*graphTimes{}, byOp: map[backends.OpType]OpTypeCost{}}
	single, multi := nodeExecutors, multiOutputsNodeExecutors
	defer func() { nodeExecutors, multiOutputsNodeExecutors = single, multi }()
	for op, exec := range single {
		if exec != nil {
			nodeExecutors[op] = func(backend *simplego.Backend, node *simplego.Node, inputs []*simplego.Buffer, owned []bool) (*simplego.Buffer, error) {
				start := time.Now()
				out, err := exec(backend, node, inputs, owned)
				times.add(node, time.Since(start))
				return out, err
			}
		}
	}
	for op, exec := range multi {
		if exec != nil {
			multiOutputsNodeExecutors[op] = func(backend *simplego.Backend, node *simplego.Node, inputs []*simplego.Buffer, owned []bool) ([]*simplego.Buffer, error) {
				start := time.Now()
				out, err := exec(backend, node, inputs, owned)
				times.add(node, time.Since(start))
				return out, err
			}
		}
	}
	err := run()
	cost := OpCost{ByOp: times.byOp}
	for _, op := range times.byOp {
		cost.Ops += op.Count
		cost.Work += op.Work
	}
	type timed struct {
		node *simplego.Node
		work time.Duration
	}
	var nodes []timed
	for _, g := range times.graphs {
		cost.Span += longestPath(g.nodes, g.times)
		for i, n := range g.nodes {
			if g.times[i] > 0 {
				nodes = append(nodes, timed{n, g.times[i]})
			}
		}
	}
	slices.SortStableFunc(nodes, func(a, b timed) int { return cmp.Compare(b.work, a.work) })
	for _, n := range nodes[:min(HeaviestOps, len(nodes))] {
		c := NodeCost{Op: opType(n.node), Shape: nodeShape(n.node), Work: n.work}
		for _, input := range nodeInputs(n.node) {
			c.Inputs = append(c.Inputs, nodeShape(input))
		}
		cost.Heaviest = append(cost.Heaviest, c)
	}
	return cost, err
}

// longestPath returns the largest sum of times along a chain of nodes, each an input of the next;
// nodes are in a builder's order, every input before its users, times[i] is node i's time.
func longestPath(nodes []*simplego.Node, times []time.Duration) time.Duration {
	finish := make([]time.Duration, len(nodes))
	var longest time.Duration
	for i, n := range nodes {
		var ready time.Duration
		for _, input := range nodeInputs(n) {
			ready = max(ready, finish[nodeIndex(input)])
		}
		finish[i] = ready + times[i]
		longest = max(longest, finish[i])
	}
	return longest
}
