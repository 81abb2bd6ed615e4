package datasets

import (
	"fmt"
	"slices"
)

// heteroSpecs are the filtered Wikipedia graphs of Platonov et al. 2023
// (the yandex-research/heterophilous-graphs repository; see docs/data.md).
var heteroSpecs = map[string]fileSpec{
	"squirrel": {Path: "heterophilous-graphs/squirrel_filtered.npz", Size: 208215,
		URL:    "https://github.com/yandex-research/heterophilous-graphs/raw/main/data/squirrel_filtered.npz",
		SHA256: "f06370ffb3116c5de8b7a600005400b2293c025e0ce2f6916d8201a825505ac7"},
	"chameleon": {Path: "heterophilous-graphs/chameleon_filtered.npz", Size: 58924,
		URL:    "https://github.com/yandex-research/heterophilous-graphs/raw/main/data/chameleon_filtered.npz",
		SHA256: "bf46f07e1fb5249280447e5fe3100f3e82fc4b93ad1e13ffcfdec924b6ac0bb5"},
}

func init() {
	for _, name := range []string{"squirrel", "chameleon"} {
		register(name, func(opts Options) (*Graph, error) { return loadHetero(name, opts) })
	}
}

// loadHetero reads filtered Squirrel or Chameleon as the reference's load_wiki_new does:
// node_features [N, F] row-normalised as x / rowsum (all-zero rows stay zero) unless
// opts.RawFeatures, node_labels, edges [E, 2] made undirected, and the 10 fixed splits from
// train_masks/val_masks/test_masks [10, N] (stored in Fortran order). Self-loops, which the
// reference's to_undirected would keep, are dropped like in every Graph (the GCN adds its own).
func loadHetero(name string, opts Options) (*Graph, error) {
	path, err := opts.fetch(heteroSpecs[name])
	if err != nil {
		return nil, err
	}
	return readHetero(name, path, opts)
}

// readHetero is loadHetero on the filtered .npz at path.
func readHetero(name, path string, opts Options) (*Graph, error) {
	npz, err := openNPZ(path)
	if err != nil {
		return nil, err
	}
	defer func() { _ = npz.Close() }()
	xArr, err := npz.array("node_features", -1, -1)
	if err != nil {
		return nil, err
	}
	n, f := xArr.Shape[0], xArr.Shape[1]
	x, err := xArr.float32s()
	if err != nil {
		return nil, fmt.Errorf("datasets: node_features.npy in %s: %w", path, err)
	}
	if xArr.Fortran {
		x = transposeFortran(x, n, f)
	}
	labelArr, err := npz.array("node_labels", n)
	if err != nil {
		return nil, err
	}
	labels, numClasses, err := classLabels(labelArr)
	if err != nil {
		return nil, fmt.Errorf("datasets: node_labels.npy in %s: %w", path, err)
	}
	edgeArr, err := npz.array("edges", -1, 2)
	if err != nil {
		return nil, err
	}
	pairs, err := edgeArr.int64s()
	if err != nil {
		return nil, fmt.Errorf("datasets: edges.npy in %s: %w", path, err)
	}
	numPairs := edgeArr.Shape[0]
	src, dst := make([]int32, numPairs), make([]int32, numPairs)
	selfLoops := 0
	for e := range numPairs {
		s, d := pairs[edgeArr.rowMajorIndex(e, 0)], pairs[edgeArr.rowMajorIndex(e, 1)]
		if s < 0 || d < 0 || s >= int64(n) || d >= int64(n) {
			return nil, fmt.Errorf("datasets: edges.npy in %s: edge %d (%d, %d), expected node ids in [0, %d)", path, e, s, d, n)
		}
		src[e], dst[e] = int32(s), int32(d)
		if s == d {
			selfLoops++
		}
	}
	g := &Graph{Name: name, NumNodes: n, Features: denseToCSR(n, f, x), Labels: labels, NumClasses: numClasses}
	if !opts.RawFeatures {
		normalizeRowsBySum(g.Features)
	}
	if g.Src, g.Dst, err = UndirectedEdges(n, src, dst); err != nil {
		return nil, fmt.Errorf("datasets: edges.npy in %s: %w", path, err)
	}
	if g.Splits, err = maskSplits(npz, n); err != nil {
		return nil, err
	}
	if selfLoops > 0 {
		g.Notes = fmt.Sprintf("%d self-loop(s) in edges.npy were dropped; the reference kept them "+
			"(its GCN adds self-loops anyway).", selfLoops)
	}
	return g, nil
}

// maskSplits reads train_masks, val_masks and test_masks, each [S, N] boolean, into S splits.
func maskSplits(npz *npzFile, n int) ([]Split, error) {
	var masks [3]*ndarray
	var values [3][]int64
	for i, member := range []string{"train_masks", "val_masks", "test_masks"} {
		a, err := npz.array(member, -1, n)
		if err == nil && i > 0 && a.Shape[0] != masks[0].Shape[0] {
			err = fmt.Errorf("datasets: %s.npy in %s has %d splits, train_masks.npy %d", member, npz.path, a.Shape[0], masks[0].Shape[0])
		}
		if err != nil {
			return nil, err
		}
		if values[i], err = a.int64s(); err != nil {
			return nil, fmt.Errorf("datasets: %s.npy in %s: %w", member, npz.path, err)
		}
		masks[i] = a
	}
	splits := make([]Split, masks[0].Shape[0])
	for s := range splits {
		sets := [3]*[]int32{&splits[s].Train, &splits[s].Val, &splits[s].Test}
		for v := range n {
			for i, a := range masks {
				if values[i][a.rowMajorIndex(s, v)] != 0 {
					*sets[i] = append(*sets[i], int32(v))
				}
			}
		}
		if err := checkDisjoint(npz.path, s, splits[s]); err != nil {
			return nil, err
		}
	}
	return splits, nil
}

// checkDisjoint returns an error naming file and split number s when a node is in two of the
// split's train, validation and test sets.
func checkDisjoint(file string, s int, split Split) error {
	sets := [3][]int32{split.Train, split.Val, split.Test}
	for i := 0; i < 3; i++ {
		for j := i + 1; j < 3; j++ {
			if shared := intersect(sets[i], sets[j]); shared >= 0 {
				return fmt.Errorf("datasets: %s: split %d puts node %d in two of train/val/test", file, s, shared)
			}
		}
	}
	return nil
}

// intersect returns an element common to the sorted slices a and b, or -1.
func intersect(a, b []int32) int32 {
	for _, v := range a {
		if _, found := slices.BinarySearch(b, v); found {
			return v
		}
	}
	return -1
}

// transposeFortran turns a column-major [rows, cols] matrix into row-major order.
func transposeFortran(x []float32, rows, cols int) []float32 {
	out := make([]float32, len(x))
	for i := range rows {
		for j := range cols {
			out[i*cols+j] = x[i+j*rows]
		}
	}
	return out
}

// normalizeRowsBySum divides every row by its sum, in place, leaving rows that sum to 0 as they
// are: the reference's preprocessing for Squirrel/Chameleon (x / rowsum with inf set to 0), which,
// unlike NormalizeRows, also scales rows summing to less than 1.
func normalizeRowsBySum(m *CSR) {
	for i := 0; i < m.NumRows; i++ {
		var sum float32
		for k := m.RowPtr[i]; k < m.RowPtr[i+1]; k++ {
			sum += m.Values[k]
		}
		if sum == 0 {
			continue
		}
		for k := m.RowPtr[i]; k < m.RowPtr[i+1]; k++ {
			m.Values[k] /= sum
		}
	}
}
