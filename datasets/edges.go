package datasets

import (
	"fmt"
	"slices"
)

// undirectedEdges turns a list of (src, dst) pairs over numNodes nodes into the Graph edge form:
// both directions of every pair, sorted by (src, dst), duplicates and self-loops removed.
// It returns an error naming the first pair with an id outside [0, numNodes).
func undirectedEdges(numNodes int, src, dst []int32) (outSrc, outDst []int32, err error) {
	if len(src) != len(dst) {
		return nil, nil, fmt.Errorf("edge list has %d sources but %d targets", len(src), len(dst))
	}
	keys := make([]int64, 0, 2*len(src))
	for i := range src {
		s, d := src[i], dst[i]
		if s < 0 || d < 0 || int(s) >= numNodes || int(d) >= numNodes {
			return nil, nil, fmt.Errorf("edge %d (%d->%d) has a node id outside [0, %d)", i, s, d, numNodes)
		}
		if s == d {
			continue
		}
		keys = append(keys, int64(s)<<32|int64(d), int64(d)<<32|int64(s))
	}
	slices.Sort(keys)
	keys = slices.Compact(keys)
	outSrc = make([]int32, len(keys))
	outDst = make([]int32, len(keys))
	for i, k := range keys {
		outSrc[i] = int32(k >> 32)
		outDst[i] = int32(k & 0xffffffff)
	}
	return outSrc, outDst, nil
}
