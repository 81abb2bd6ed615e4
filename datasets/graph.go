// Package datasets loads the graphs of the GeoMix paper (KDD'24) from their published raw files,
// with the splits the authors' reference code makes, in one PyG-like value: Graph.
//
// Every loader reads from a data root (see Root) and, for users online, downloads missing files from
// their canonical URL and verifies their sha256 first. Errors name the file and what was expected.
package datasets

import "fmt"

// CSR is a sparse float32 matrix of shape [NumRows, NumCols] in compressed-sparse-row form: the
// non-zeros of row i are Values[RowPtr[i]:RowPtr[i+1]] at columns ColIdx[RowPtr[i]:RowPtr[i+1]],
// with column indices sorted within each row.
type CSR struct {
	NumRows, NumCols int
	RowPtr           []int64   // [NumRows+1]
	ColIdx           []int32   // [NNZ]
	Values           []float32 // [NNZ]
}

// NNZ is the number of stored non-zeros.
func (m *CSR) NNZ() int { return len(m.ColIdx) }

// Dense returns the matrix as a row-major [NumRows, NumCols] slice.
func (m *CSR) Dense() []float32 {
	out := make([]float32, m.NumRows*m.NumCols)
	for i := 0; i < m.NumRows; i++ {
		row := out[i*m.NumCols : (i+1)*m.NumCols]
		for k := m.RowPtr[i]; k < m.RowPtr[i+1]; k++ {
			row[m.ColIdx[k]] = m.Values[k]
		}
	}
	return out
}

// NormalizeRows divides every row by max(rowsum, 1), in place: PyG 2.0.3's NormalizeFeatures,
// which the reference code applies to Planetoid, Coauthor and Twitch. Rows summing to less than 1
// (e.g. all-zero rows) are left as they are.
func (m *CSR) NormalizeRows() {
	for i := 0; i < m.NumRows; i++ {
		var sum float32
		for k := m.RowPtr[i]; k < m.RowPtr[i+1]; k++ {
			sum += m.Values[k]
		}
		if sum < 1 {
			continue
		}
		for k := m.RowPtr[i]; k < m.RowPtr[i+1]; k++ {
			m.Values[k] /= sum
		}
	}
}

// Split is one train/validation/test partition of the nodes, as sorted node indices.
type Split struct {
	Train, Val, Test []int32
}

// Graph is one node-classification data set: a graph with node features, labels and splits, in the
// spirit of a PyG Data object with masks.
type Graph struct {
	// Name is the data set's id, e.g. "cora" (see Names).
	Name string
	// NumNodes is N.
	NumNodes int
	// Features is the [N, F] node feature matrix.
	Features *CSR
	// Src and Dst hold the directed edge list: every undirected edge in both directions, sorted by
	// (Src, Dst), without duplicates and without self-loops. len(Src) == len(Dst) == NumEdges().
	Src, Dst []int32
	// Labels is [N], each in [0, NumClasses).
	Labels []int32
	// NumClasses is C.
	NumClasses int
	// Splits holds one or more partitions; Squirrel and Chameleon carry 10, one per run.
	Splits []Split
	// ExtraTests are named test sets reported beside Split.Test at the selected epoch, e.g. the
	// out-of-distribution graphs of twitch-ood (FR, PTBR, RU); nil for most data sets.
	ExtraTests []NodeSet
	// TrainBatches, when set, replace full-batch training: every epoch makes one update per batch,
	// in order, each on the batch's own graph, and then evaluates on this graph with its splits
	// (Split.Train then only gives the train accuracy). The Pileup protocol trains this way on
	// mini-batches of source events. Nil for every other data set.
	TrainBatches []TrainBatch
	// Notes says where this graph differs from the paper's (e.g. features that are not the ones the
	// reference code used); empty when it does not.
	Notes string
}

// TrainBatch is one mini-batch of Graph.TrainBatches: a graph of its own (with the features,
// classes and labels of the graph it trains for; its Splits unused), the nodes of its supervised
// loss and the nodes of GeoMix's augmentation loss.
type TrainBatch struct {
	// Graph is the batch's graph, e.g. several events joined block-diagonally.
	Graph *Graph
	// Labelled are the nodes of the cross-entropy with the true labels (their labels also replace
	// the pseudo-labels before mixing); Augmented are the nodes of the soft cross-entropy against
	// the mixed labels. Both sorted, indices into Graph.
	Labelled, Augmented []int32
	// Target are the target-domain nodes joined into the batch for domain-adversarial training
	// (DANN's domain classifier): unlabelled as far as the losses go, in neither Labelled nor
	// Augmented; sorted, nil for a batch without them.
	Target []int32
}

// NumFeatures is F.
func (g *Graph) NumFeatures() int { return g.Features.NumCols }

// NumEdges is the number of directed edges (twice the number of undirected edges).
func (g *Graph) NumEdges() int { return len(g.Src) }

// DenseFeatures returns the features as a row-major [N, F] slice.
func (g *Graph) DenseFeatures() []float32 { return g.Features.Dense() }

// EdgeHomophily is the fraction of directed edges whose two ends share a label.
func (g *Graph) EdgeHomophily() float64 {
	if len(g.Src) == 0 {
		return 0
	}
	same := 0
	for i := range g.Src {
		if g.Labels[g.Src[i]] == g.Labels[g.Dst[i]] {
			same++
		}
	}
	return float64(same) / float64(len(g.Src))
}

// String is a one-line summary, e.g. "cora: 2708 nodes, 10556 edges, 1433 features, 7 classes".
func (g *Graph) String() string {
	return fmt.Sprintf("%s: %d nodes, %d edges, %d features, %d classes, %d split(s)",
		g.Name, g.NumNodes, g.NumEdges(), g.NumFeatures(), g.NumClasses, len(g.Splits))
}
