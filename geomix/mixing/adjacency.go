package mixing

import (
	"fmt"
	"math"

	"github.com/geomix-go/geomix/datasets"
	"github.com/geomix-go/geomix/geomix/internal/ops"
	"github.com/gomlx/gomlx/pkg/core/graph"
	"github.com/gomlx/gomlx/pkg/core/tensors"
)

// Normalization selects how BuildAdjacency weights the edges e_vu used by the backbone and by mixing.
type Normalization int

const (
	// NormSymmetric is D̃^-1/2 (A+I) D̃^-1/2 with exactly one self-loop of weight 1 per node and the
	// degree counted on the edge target: what the authors' code uses everywhere. Default.
	NormSymmetric Normalization = iota
	// NormRow is D^-1 A without self-loops, the paper's other example of e_vu (Sec. 3.1): each row of
	// a node with neighbours sums to 1; an isolated node has an all-zero row.
	NormRow
	// NormRowSelf is D̃⁻¹ (A+I) with exactly one self-loop per node: the mean over the node and its
	// in-neighbours, GloGNN's normalisation.
	NormRowSelf
)

// String returns "sym", "row" or "rowself".
func (n Normalization) String() string {
	switch n {
	case NormSymmetric:
		return "sym"
	case NormRow:
		return "row"
	case NormRowSelf:
		return "rowself"
	}
	return fmt.Sprintf("Normalization(%d)", int(n))
}

// ParseNormalization maps "sym", "row" or "rowself" to its Normalization.
func ParseNormalization(s string) (Normalization, error) {
	switch s {
	case "sym", "":
		return NormSymmetric, nil
	case "row":
		return NormRow, nil
	case "rowself":
		return NormRowSelf, nil
	}
	return 0, fmt.Errorf("unknown normalization %q: want \"sym\", \"row\" or \"rowself\"", s)
}

// Adjacency is a weighted sparse [N, N] matrix Â on the host, in edge-list form: propagation computes
// out[Dst[e]] += Weight[e] * x[Src[e]] for every entry e.
type Adjacency struct {
	NumNodes int
	Src, Dst []int32
	Weight   []float32
}

// BuildAdjacency normalises the graph's edges (both directions already present, see datasets.Graph)
// as norm says. Self-loops in g, if any, are dropped before NormSymmetric and NormRowSelf add
// exactly one per node.
func BuildAdjacency(g *datasets.Graph, norm Normalization) *Adjacency {
	n := g.NumNodes
	entries := len(g.Src) + n // the edges and at most one self-loop per node
	adj := &Adjacency{NumNodes: n, Src: make([]int32, 0, entries), Dst: make([]int32, 0, entries), Weight: make([]float32, 0, entries)}
	deg := make([]float64, n)
	for i := range g.Src {
		if g.Src[i] != g.Dst[i] {
			deg[g.Dst[i]]++
		}
	}
	// weight is the entry of edge s→d (or of the self-loop v→v) under norm.
	var weight func(s, d int32) float64
	selfLoops := true
	switch norm {
	case NormRow:
		weight, selfLoops = func(_, d int32) float64 { return 1 / deg[d] }, false
	case NormRowSelf:
		weight = func(_, d int32) float64 { return 1 / (deg[d] + 1) }
	default:
		inv := make([]float64, n)
		for v := range deg {
			inv[v] = 1 / math.Sqrt(deg[v]+1)
		}
		weight = func(s, d int32) float64 { return inv[s] * inv[d] }
	}
	add := func(s, d int32) {
		adj.Src = append(adj.Src, s)
		adj.Dst = append(adj.Dst, d)
		adj.Weight = append(adj.Weight, float32(weight(s, d)))
	}
	for i := range g.Src {
		if g.Src[i] != g.Dst[i] {
			add(g.Src[i], g.Dst[i])
		}
	}
	if selfLoops {
		for v := range int32(n) {
			add(v, v)
		}
	}
	return adj
}

// Dense returns Â as a row-major [N, N] slice (for tests and small examples): entry [Dst, Src].
func (a *Adjacency) Dense() []float32 {
	out := make([]float32, a.NumNodes*a.NumNodes)
	for e := range a.Src {
		out[int(a.Dst[e])*a.NumNodes+int(a.Src[e])] += a.Weight[e]
	}
	return out
}

// AdjacencyNodes is an Adjacency inside a computation graph: Src and Dst are [E, 1] int32 index
// nodes (the form Gather and ScatterSum take) and Weight is [E, 1] in the features' dtype.
type AdjacencyNodes struct {
	NumNodes         int
	Src, Dst, Weight *graph.Node
	// built holds the backbones' propagations built so far in this graph (see PropagateShared).
	built map[propagation]*graph.Node
}

// propagation identifies a backbone's Â (x + bias) in a graph; bias is nil for Â x.
type propagation struct{ x, bias *graph.Node }

// Inputs returns the tensors an executor must be fed for AdjacencyNodes, in the order
// NewAdjacencyNodes expects them: src [E, 1], dst [E, 1] (int32) and weight [E, 1] (float32).
func (a *Adjacency) Inputs() (src, dst, weight *tensors.Tensor) {
	e := len(a.Src)
	return tensors.FromFlatDataAndDimensions(a.Src, e, 1), tensors.FromFlatDataAndDimensions(a.Dst, e, 1),
		tensors.FromFlatDataAndDimensions(a.Weight, e, 1)
}

// NewAdjacencyNodes wraps graph nodes holding an Adjacency over numNodes nodes: src and dst are
// [E, 1] integer indices, weight is [E, 1] float. It panics with the shapes when they disagree.
func NewAdjacencyNodes(numNodes int, src, dst, weight *graph.Node) *AdjacencyNodes {
	if src.Rank() != 2 || src.Shape().Dim(1) != 1 || !src.Shape().Equal(dst.Shape()) ||
		weight.Rank() != 2 || weight.Shape().Dim(0) != src.Shape().Dim(0) || weight.Shape().Dim(1) != 1 {
		panic(fmt.Sprintf("NewAdjacencyNodes: want src, dst [E, 1] ints and weight [E, 1], got src %s, dst %s, weight %s",
			src.Shape(), dst.Shape(), weight.Shape()))
	}
	return &AdjacencyNodes{NumNodes: numNodes, Src: src, Dst: dst, Weight: weight}
}

// Propagate returns Â x for x [N, D]: out[v] = Σ_e Weight[e] x[Src[e]] over entries with Dst[e] = v,
// computed as Gather + ScatterSum (linear in |E|·D). The messages [E, D] are scaled by Weight
// [E, 1] through Mul's implicit broadcast, which internal/rowops runs as a row scaling.
func Propagate(adj *AdjacencyNodes, x *graph.Node) *graph.Node {
	if x.Rank() != 2 || x.Shape().Dim(0) != adj.NumNodes {
		panic(fmt.Sprintf("Propagate: want x [N=%d, D], got %s", adj.NumNodes, x.Shape()))
	}
	gathered := graph.Gather(x, adj.Src) // [E, D]
	msgs := graph.Mul(gathered, graph.ConvertDType(adj.Weight, x.DType()))
	return graph.ScatterSum(graph.ZerosLike(x), adj.Dst, msgs, false, false)
}

// PropagateShared is a backbone's propagation Â (h + bias) of its input h [N, D] (bias [D] or nil
// for Â h), built once per graph: a step's evaluation pass and its training passes on the same
// input (GCN's first layer, SGC's hops) share it, computed once. Only backbones share: mixing
// keeps its own propagations, so that the gradients it adds up keep their order.
func PropagateShared(adj *AdjacencyNodes, h, bias *graph.Node) *graph.Node {
	p := propagation{x: h, bias: bias}
	if out, ok := adj.built[p]; ok && ops.ShareBackbonePropagations {
		return out
	}
	if adj.built == nil {
		adj.built = make(map[propagation]*graph.Node)
	}
	in := h
	if bias != nil {
		in = ops.AddRow(h, bias)
	}
	out := Propagate(adj, in)
	adj.built[p] = out
	return out
}

// PropagateK applies Propagate k times: Â^k x.
func PropagateK(adj *AdjacencyNodes, x *graph.Node, k int) *graph.Node {
	for range k {
		x = Propagate(adj, x)
	}
	return x
}
