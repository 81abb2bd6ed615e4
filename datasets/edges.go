package datasets

import (
	"fmt"
	"slices"
	"strings"
)

// edgeChanges counts what making an edge list undirected changed (see symmetrize).
type edgeChanges struct {
	// SelfLoops is the number of (v, v) pairs dropped.
	SelfLoops int
	// Duplicates is the number of (src, dst) pairs dropped because the same directed pair came earlier.
	Duplicates int
	// Mirrored is the number of directed pairs whose reverse was missing and was added.
	Mirrored int
	// Isolated is the number of nodes left without any edge (kept as nodes).
	Isolated int
}

// String says what changed, e.g. "2 self-loop(s) removed; 3 one-directional edge(s) given their
// reverse; 1 isolated node(s) kept"; "" when nothing changed and no node is isolated.
func (c edgeChanges) String() string {
	var parts []string
	if c.SelfLoops > 0 {
		parts = append(parts, fmt.Sprintf("%d self-loop(s) removed", c.SelfLoops))
	}
	if c.Duplicates > 0 {
		parts = append(parts, fmt.Sprintf("%d duplicate edge(s) removed", c.Duplicates))
	}
	if c.Mirrored > 0 {
		parts = append(parts, fmt.Sprintf("%d one-directional edge(s) given their reverse", c.Mirrored))
	}
	if c.Isolated > 0 {
		parts = append(parts, fmt.Sprintf("%d isolated node(s) kept", c.Isolated))
	}
	return strings.Join(parts, "; ")
}

// UndirectedEdges turns a list of (src, dst) pairs over numNodes nodes into the Graph edge form:
// both directions of every pair, sorted by (src, dst), duplicates and self-loops removed.
// It returns an error naming the first pair with an id outside [0, numNodes).
func UndirectedEdges(numNodes int, src, dst []int32) (outSrc, outDst []int32, err error) {
	outSrc, outDst, _, err = symmetrize(numNodes, src, dst)
	return outSrc, outDst, err
}

// symmetrize is UndirectedEdges that also counts what it changed: self-loops dropped, repeated
// directed pairs dropped, directed pairs whose reverse it added, and nodes without any edge.
func symmetrize(numNodes int, src, dst []int32) (outSrc, outDst []int32, changes edgeChanges, err error) {
	if len(src) != len(dst) {
		return nil, nil, changes, fmt.Errorf("edge list has %d sources but %d targets", len(src), len(dst))
	}
	given := make([]int64, 0, len(src))
	for i := range src {
		s, d := src[i], dst[i]
		if s < 0 || d < 0 || int(s) >= numNodes || int(d) >= numNodes {
			return nil, nil, changes, fmt.Errorf("edge %d (%d->%d) has a node id outside [0, %d)", i, s, d, numNodes)
		}
		if s == d {
			changes.SelfLoops++
			continue
		}
		given = append(given, int64(s)<<32|int64(d))
	}
	slices.Sort(given)
	unique := slices.Compact(slices.Clone(given))
	changes.Duplicates = len(given) - len(unique)
	keys := slices.Clone(unique)
	for _, k := range unique {
		reverse := k<<32 | k>>32&0xffffffff
		if _, found := slices.BinarySearch(unique, reverse); !found {
			keys = append(keys, reverse)
			changes.Mirrored++
		}
	}
	slices.Sort(keys)
	outSrc = make([]int32, len(keys))
	outDst = make([]int32, len(keys))
	hasEdge := make([]bool, numNodes)
	for i, k := range keys {
		outSrc[i] = int32(k >> 32)
		outDst[i] = int32(k & 0xffffffff)
		hasEdge[outSrc[i]] = true
	}
	for _, has := range hasEdge {
		if !has {
			changes.Isolated++
		}
	}
	return outSrc, outDst, changes, nil
}
