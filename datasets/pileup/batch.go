package pileup

import "github.com/geomix-go/geomix/datasets"

// Merge joins events into one block-diagonal graph, as PyG's DataLoader collates a batch: event k's
// nodes are offsets[k] .. offsets[k+1]-1 of the result, in order. The graph has NumFeatures CSR
// feature columns (exact zeros not stored), both-direction edges sorted by (Src, Dst), labels
// LabelLV/LabelPU (2 classes) and no splits. offsets has len(events)+1 entries.
func Merge(name string, events []*EventGraph) (g *datasets.Graph, offsets []int32) {
	offsets = make([]int32, len(events)+1)
	numEdges := 0
	for k, ev := range events {
		offsets[k+1] = offsets[k] + int32(ev.NumNodes())
		numEdges += len(ev.Src)
	}
	n := int(offsets[len(events)])
	features := &datasets.CSR{NumRows: n, NumCols: NumFeatures, RowPtr: make([]int64, 1, n+1)}
	g = &datasets.Graph{Name: name, NumNodes: n, Features: features, NumClasses: 2,
		Src: make([]int32, 0, numEdges), Dst: make([]int32, 0, numEdges), Labels: make([]int32, 0, n)}
	for k, ev := range events {
		for i := 0; i < ev.NumNodes(); i++ {
			for c, v := range ev.Features[i*NumFeatures : (i+1)*NumFeatures] {
				if v != 0 {
					features.ColIdx = append(features.ColIdx, int32(c))
					features.Values = append(features.Values, v)
				}
			}
			features.RowPtr = append(features.RowPtr, int64(len(features.ColIdx)))
		}
		for e := range ev.Src {
			g.Src = append(g.Src, ev.Src[e]+offsets[k])
			g.Dst = append(g.Dst, ev.Dst[e]+offsets[k])
		}
		g.Labels = append(g.Labels, ev.Labels...)
	}
	return g, offsets
}
