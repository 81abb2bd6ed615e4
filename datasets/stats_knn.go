package datasets

import "fmt"

// KNNEdges returns the undirected graph (both directions, sorted, no self-loops) of the first k
// neighbours of each row of nbrs, a [numRows, width] result of KNearest or KNearestCSR (k <= width):
// the graph the image and text protocols build, at another k. With KNearest's includeSelf the row
// itself is among the k and adds no edge, as in scikit-learn's kneighbors_graph(include_self=True).
func KNNEdges(nbrs []int32, width, k int) (src, dst []int32, err error) {
	if width < 1 || len(nbrs)%width != 0 || k < 1 || k > width {
		return nil, nil, fmt.Errorf("datasets: %d neighbour indices in rows of %d: cannot take the first %d of each (want 1 <= k <= width)", len(nbrs), width, k)
	}
	n := len(nbrs) / width
	from, to := make([]int32, 0, n*k), make([]int32, 0, n*k)
	for i := range n {
		for _, j := range nbrs[i*width : i*width+k] {
			from, to = append(from, int32(i)), append(to, j) // the row itself: a self-loop, dropped
		}
	}
	return UndirectedEdges(n, from, to)
}

// KNNHomophily returns, for each k of ks, the edge homophily of KNNEdges(nbrs, width, k) under labels
// [numRows]: how often a kNN graph links two nodes of the same class as k grows.
func KNNHomophily(nbrs []int32, width int, labels []int32, ks []int) ([]float64, error) {
	if width < 1 || len(nbrs) != len(labels)*width {
		return nil, fmt.Errorf("datasets: %d neighbour indices for %d labelled rows of %d neighbours", len(nbrs), len(labels), width)
	}
	out := make([]float64, len(ks))
	for i, k := range ks {
		src, dst, err := KNNEdges(nbrs, width, k)
		if err != nil {
			return nil, err
		}
		out[i] = EdgeHomophilyOf(src, dst, labels)
	}
	return out, nil
}
