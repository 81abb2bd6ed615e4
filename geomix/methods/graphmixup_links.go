package methods

import (
	"fmt"
	"slices"

	"github.com/geomix-go/geomix/datasets"
	"github.com/geomix-go/geomix/geomix/internal/ops"
	. "github.com/gomlx/gomlx/pkg/core/graph"
	"github.com/gomlx/gomlx/pkg/core/shapes"
	"github.com/gomlx/gomlx/pkg/core/tensors"
)

// GraphMixup's edge predictor between its synthetic nodes and the graph: the synthetic node mixed
// from train node t and its partner p is linked to every neighbour u of t or of p (each once) with
// weight e_tu = σ(ĉ_t · c_u), ĉ and c the decoder projections of the synthetic and of the graph's
// nodes. Its code multiplies the dense [T, N] probabilities by the parents' 0/1 adjacency rows; the
// same sums run over the parents' neighbour lists, [T, 2D] for D the most neighbours of a train
// node, which is where the training spends its time when T is large (20News: T = 1000, N = 9607,
// D = 50). linkLayout picks the lists where 2D ≤ N / 8 (at least 8 times fewer products), the
// dense rows otherwise (Squirrel's and Chameleon's train nodes have hundreds of neighbours). The two
// agree to float32 rounding (TestSyntheticLinksLayoutsAgree).

// listRatio is the least N / 2D for which the links run over neighbour lists.
const listRatio = 8

// synthLinks are the sums over the synthetic nodes' edges that the classifier reads.
type synthLinks struct {
	toNodes, nodeDegree  *Node // Σ_t e_tu ŝ_t [N, H] and Σ_t e_tu [N, 1], for the synthetic rows ŝ
	toSynth, synthDegree *Node // Σ_u e_tu z_u [T, H] and Σ_u e_tu [T, 1]
}

// linkLayout is how a training lays out its train nodes' neighbours for the links: width D > 0 for
// lists [T, D], 0 for dense rows [T, N].
type linkLayout struct{ width int }

// newLinkLayout picks the layout for graph g (neighbour lists nbrs) from the train nodes of all its
// splits: lists of width D, the most neighbours of a train node, where 2D ≤ N / listRatio.
func newLinkLayout(g *datasets.Graph, nbrs [][]int32) linkLayout {
	d := 1
	for _, s := range g.Splits {
		for _, v := range s.Train {
			d = max(d, len(nbrs[v]))
		}
	}
	if 2*d*listRatio > g.NumNodes {
		return linkLayout{}
	}
	return linkLayout{width: d}
}

// inputs returns the layout's inputs for train nodes train: dense, their adjacency rows [T, N]
// (float32, 0/1); lists, their neighbours [T, D] (int32, padded with node 0) and the padding mask
// [T, D] (float32, 1 for a neighbour). A train node with more than D neighbours widens the lists
// (the graph is built again for the new shapes).
func (l *linkLayout) inputs(nbrs [][]int32, train []int32, n int) []any {
	if l.width == 0 {
		rows := make([][]float32, len(train))
		for p, v := range train {
			rows[p] = make([]float32, n)
			for _, u := range nbrs[v] {
				rows[p][u] = 1
			}
		}
		return []any{tensors.FromValue(rows)}
	}
	lists := make([][]int32, len(train))
	for p, v := range train {
		lists[p] = slices.Compact(slices.Sorted(slices.Values(nbrs[v])))
		l.width = max(l.width, len(lists[p]))
	}
	idx, mask := make([][]int32, len(train)), make([][]float32, len(train))
	for p, list := range lists {
		idx[p], mask[p] = make([]int32, l.width), make([]float32, l.width)
		copy(idx[p], list)
		for j := range list {
			mask[p][j] = 1
		}
	}
	return []any{tensors.FromValue(idx), tensors.FromValue(mask)}
}

// links computes the synthetic nodes' links from their decoder projections cSynth [T, H], the
// graph's c [N, H], the embedding z [N, H], the synthetic rows synth [T, H], each synthetic node's
// partner [T, 1] (a position among the T train nodes), active [T, 1] (0 for a train node that
// spawns no synthetic node) and the layout's inputs (linkLayout.inputs).
func links(cSynth, c, z, synth, partner, active *Node, layout []*Node) synthLinks {
	switch len(layout) {
	case 1:
		return denseLinks(cSynth, c, z, synth, partner, active, ConvertDType(layout[0], z.DType()))
	case 2:
		return listLinks(cSynth, c, z, synth, partner, active, layout[0], ConvertDType(layout[1], z.DType()))
	}
	panic(fmt.Sprintf("GraphMixup links: want 1 layout input (rows [T, N]) or 2 (lists [T, D], mask [T, D]), got %d", len(layout)))
}

// denseLinks are the links over the parents' adjacency rows trainAdj [T, N], as its code computes
// them: e = σ(ĉ cᵀ) ⊙ min(A_t + A_p, 1) ⊙ active [T, N].
func denseLinks(cSynth, c, z, synth, partner, active, trainAdj *Node) synthLinks {
	parents := Min(Add(trainAdj, Gather(trainAdj, partner)), OnesLike(trainAdj))
	edges := Mul(Mul(Sigmoid(ops.MatMulFastGrad(cSynth, Transpose(c, 0, 1))), parents), active)
	return synthLinks{
		toNodes: ops.TransposedMatMulFastGrad(edges, synth), nodeDegree: InsertAxes(ReduceSum(edges, 0), -1),
		toSynth: ops.MatMulFastGrad(edges, z), synthDegree: InsertAxes(ReduceSum(edges, 1), -1),
	}
}

// listLinks are the links over the parents' neighbour lists: each train node's own neighbours
// [T, D] (mask [T, D]) and its partner's that are not among them, [T, 2D] candidates in all.
func listLinks(cSynth, c, z, synth, partner, active, nbrs, mask *Node) synthLinks {
	t, d := nbrs.Shape().Dim(0), nbrs.Shape().Dim(1)
	n, h, dtype := c.Shape().Dim(0), c.Shape().Dim(1), c.DType()
	if !cSynth.Shape().Equal(synth.Shape()) || cSynth.Shape().Dim(0) != t || !mask.Shape().Equal(shapes.Make(dtype, t, d)) {
		panic(fmt.Sprintf("GraphMixup listLinks: want cSynth, synth [T=%d, H] and mask [T, D=%d], got %s, %s, %s", t, d, cSynth.Shape(), synth.Shape(), mask.Shape()))
	}
	theirs, theirMask := Gather(nbrs, partner), Gather(mask, partner) // [T, D]
	// 1 where the partner's neighbour is one of t's own: min(A_t + A_p, 1) counts it once.
	shared := ReduceMax(Mul(ConvertDType(Equal(InsertAxes(theirs, -1), InsertAxes(nbrs, 1)), dtype), InsertAxes(mask, 1)), -1)
	cand := InsertAxes(Concatenate([]*Node{nbrs, theirs}, 1), -1)                        // [T, 2D, 1]
	keep := Mul(Concatenate([]*Node{mask, Mul(theirMask, OneMinus(shared))}, 1), active) // [T, 2D]
	// Broadcasts are explicit: the backend multiplies equal shapes on its fast path.
	wide := func(x *Node, axis int) *Node { return BroadcastToDims(InsertAxes(x, axis), t, 2*d, h) }
	edges := Mul(Sigmoid(ReduceSum(Mul(wide(cSynth, 1), Gather(c, cand)), -1)), keep) // [T, 2D]
	flat, wideEdges := Reshape(cand, t*2*d, 1), wide(edges, -1)
	g := c.Graph()
	return synthLinks{
		toNodes:     ScatterSum(Zeros(g, shapes.Make(dtype, n, h)), flat, Reshape(Mul(wideEdges, wide(synth, 1)), t*2*d, h), false, false),
		nodeDegree:  ScatterSum(Zeros(g, shapes.Make(dtype, n, 1)), flat, Reshape(edges, t*2*d, 1), false, false),
		toSynth:     ReduceSum(Mul(wideEdges, Gather(z, cand)), 1),
		synthDegree: InsertAxes(ReduceSum(edges, 1), -1),
	}
}
