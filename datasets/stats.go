package datasets

import (
	"fmt"
	"math"
)

// NodeSetStats describe a set of nodes of a graph: its size, its edges, how homophilous they are and
// how its labels are balanced.
type NodeSetStats struct {
	// Nodes is the size of the set.
	Nodes int
	// Edges is the number of undirected edges with both ends in the set.
	Edges int
	// EdgeHomophily is the fraction of those edges whose two ends share a label; NaN without edges.
	EdgeHomophily float64
	// ChanceHomophily is the edge homophily the same edges would have with their ends' labels
	// shuffled: Σ_c p_c², p_c the share of edge ends with label c. A graph is homophilous beyond its
	// label balance only where EdgeHomophily exceeds it. NaN without edges.
	ChanceHomophily float64
	// MeanDegree is the mean degree of the set's nodes in the whole graph.
	MeanDegree float64
	// ClassCounts is [C]: how many of the set's nodes have each label.
	ClassCounts []int
}

// ClassShare is the percentage of the set's nodes whose label is c.
func (s NodeSetStats) ClassShare(c int) float64 {
	if s.Nodes == 0 || c < 0 || c >= len(s.ClassCounts) {
		return math.NaN()
	}
	return 100 * float64(s.ClassCounts[c]) / float64(s.Nodes)
}

// SetStats returns the statistics of the nodes of g in nodes (nil: every node). A node index
// outside [0, N) or a label outside [0, C) is an error.
func SetStats(g *Graph, nodes []int32) (NodeSetStats, error) {
	in, err := nodeMask(g.NumNodes, nodes)
	if err != nil {
		return NodeSetStats{}, err
	}
	s := NodeSetStats{ClassCounts: make([]int, g.NumClasses), EdgeHomophily: math.NaN(), ChanceHomophily: math.NaN()}
	degrees := g.Degrees()
	degreeSum := 0
	for v, ok := range in {
		if !ok {
			continue
		}
		y := g.Labels[v]
		if y < 0 || int(y) >= g.NumClasses {
			return NodeSetStats{}, fmt.Errorf("datasets: %s: node %d has label %d, expected one in [0, %d)", g.Name, v, y, g.NumClasses)
		}
		s.Nodes++
		s.ClassCounts[y]++
		degreeSum += degrees[v]
	}
	same, directed := 0, 0
	ends := make([]int, g.NumClasses)
	for i, u := range g.Src {
		if v := g.Dst[i]; in[u] && in[v] {
			directed++
			ends[g.Labels[u]]++
			if g.Labels[u] == g.Labels[v] {
				same++
			}
		}
	}
	s.Edges = directed / 2
	if directed > 0 {
		s.EdgeHomophily = float64(same) / float64(directed)
		s.ChanceHomophily = 0
		for _, e := range ends {
			p := float64(e) / float64(directed)
			s.ChanceHomophily += p * p
		}
	}
	if s.Nodes > 0 {
		s.MeanDegree = float64(degreeSum) / float64(s.Nodes)
	}
	return s, nil
}

// nodeMask returns [n] flags of the nodes in nodes (nil: all of them), or an error for an index
// outside [0, n).
func nodeMask(n int, nodes []int32) ([]bool, error) {
	in := make([]bool, n)
	if nodes == nil {
		for v := range in {
			in[v] = true
		}
		return in, nil
	}
	for _, v := range nodes {
		if v < 0 || int(v) >= n {
			return nil, fmt.Errorf("datasets: node %d outside [0, %d)", v, n)
		}
		in[v] = true
	}
	return in, nil
}

// Degrees returns [N]: the number of neighbours of each node.
func (g *Graph) Degrees() []int {
	d := make([]int, g.NumNodes)
	for _, u := range g.Src {
		d[u]++
	}
	return d
}

// DegreeHistogram returns the percentage of the nodes in nodes (nil: all) whose degree falls in each
// of bins power-of-two bins: 0, 1, 2-3, 4-7, ..., the last one open-ended (see DegreeBinLabels).
// It returns an error for bins < 2 or a node outside degrees.
func DegreeHistogram(degrees []int, nodes []int32, bins int) ([]float64, error) {
	if bins < 2 {
		return nil, fmt.Errorf("datasets: a degree histogram needs at least 2 bins, got %d", bins)
	}
	in, err := nodeMask(len(degrees), nodes)
	if err != nil {
		return nil, err
	}
	hist, total := make([]float64, bins), 0
	for v, ok := range in {
		if !ok {
			continue
		}
		b := 0
		if d := degrees[v]; d > 0 {
			b = 1
			for d > 1 && b < bins-1 {
				d >>= 1
				b++
			}
		}
		hist[b]++
		total++
	}
	for b := range hist {
		if total > 0 {
			hist[b] *= 100 / float64(total)
		}
	}
	return hist, nil
}

// DegreeBinLabels names the bins of DegreeHistogram: "0", "1", "2-3", "4-7", ..., "≥2^(bins-2)".
func DegreeBinLabels(bins int) []string {
	labels := []string{"0"}
	for b := 1; b < bins; b++ {
		lo := 1 << (b - 1)
		switch {
		case b == bins-1:
			labels = append(labels, fmt.Sprintf("≥%d", lo))
		case lo == 1:
			labels = append(labels, "1")
		default:
			labels = append(labels, fmt.Sprintf("%d-%d", lo, 2*lo-1))
		}
	}
	return labels
}

// EdgeHomophilyOf is the fraction of the directed edges (src[i], dst[i]) whose ends share a label;
// NaN without edges.
func EdgeHomophilyOf(src, dst, labels []int32) float64 {
	if len(src) == 0 {
		return math.NaN()
	}
	same := 0
	for i, u := range src {
		if labels[u] == labels[dst[i]] {
			same++
		}
	}
	return float64(same) / float64(len(src))
}

// ClassMixing returns [C][C] percentages: row a holds, of the directed edges leaving nodes of class
// a, the share that reaches each class (a row without edges is all NaN). Its diagonal is the
// per-class homophily; off the diagonal, which classes the graph links.
func ClassMixing(src, dst, labels []int32, numClasses int) ([][]float64, error) {
	counts := make([][]float64, numClasses)
	for a := range counts {
		counts[a] = make([]float64, numClasses)
	}
	for i, u := range src {
		a, b := labels[u], labels[dst[i]]
		if a < 0 || int(a) >= numClasses || b < 0 || int(b) >= numClasses {
			return nil, fmt.Errorf("datasets: edge %d (%d→%d) has labels %d→%d, expected classes in [0, %d)", i, u, dst[i], a, b, numClasses)
		}
		counts[a][b]++
	}
	for _, row := range counts {
		total := 0.0
		for _, c := range row {
			total += c
		}
		for b := range row {
			row[b] = 100 * row[b] / total // NaN for a row without edges
		}
	}
	return counts, nil
}
