package datasets

import "fmt"

// FromNPZ reads a graph from a .npz in the gnn-benchmark layout (the one PyG's Coauthor and Amazon
// data sets read, e.g. ms_academic_cs.npz):
//
//   - adj_data, adj_indices, adj_indptr, adj_shape: the [N, N] adjacency in scipy CSR form (any
//     non-zero is an edge; direction, self-loops and repeats are cleaned up, see below);
//   - attr_data, attr_indices, attr_indptr, attr_shape: the [N, F] features in scipy CSR form, or
//     attr_matrix: the dense [N, F] features;
//   - labels: [N] integer class ids in [0, C), C = max + 1;
//   - optional splits: train_mask, val_mask, test_mask ([N] booleans, one split) or train_masks,
//     val_masks, test_masks ([S, N], S splits, the heterophilous-graphs layout).
//
// Edges are made undirected, self-loops and duplicates removed, isolated nodes kept; features are
// row-normalised unless opts.RawFeatures, and otherwise kept as stored (PyG's read_npz binarises
// them, x > 0 -> 1, as the cs and physics loaders do; FromNPZ keeps real-valued features). Without stored masks the split is drawn per class (see
// Options.TrainPerClass, ValPerClass, Seed). Graph.Notes records every change; the graph is
// validated (Graph.Validate). Name is the file's base name without ".npz".
func FromNPZ(path string, opts Options) (*Graph, error) {
	npz, err := openNPZ(path)
	if err != nil {
		return nil, err
	}
	defer func() { _ = npz.Close() }()
	features, adj, labels, numClasses, err := gnnBenchmarkArrays(npz)
	if err != nil {
		return nil, err
	}
	n := features.NumRows
	var src, dst []int32
	for i := range n {
		for k := adj.RowPtr[i]; k < adj.RowPtr[i+1]; k++ {
			if adj.Values[k] != 0 {
				src, dst = append(src, int32(i)), append(dst, adj.ColIdx[k])
			}
		}
	}
	var splits []Split
	switch {
	case npz.has("train_masks"):
		splits, err = maskSplits(npz, n)
	case npz.has("train_mask"):
		splits, err = singleMaskSplit(npz, n)
	}
	if err != nil {
		return nil, err
	}
	return finishUserGraph(path, n, features, src, dst, labels, numClasses, splits, opts)
}

// gnnBenchmarkArrays reads the arrays of the gnn-benchmark layout: the [N, F] features (attr_* CSR
// or dense attr_matrix), the [N, N] adjacency (adj_* CSR) and the [N] labels with their class count.
func gnnBenchmarkArrays(npz *npzFile) (features, adj *CSR, labels []int32, numClasses int, err error) {
	if npz.has("attr_matrix") {
		features, err = npzDense(npz, "attr_matrix")
	} else {
		features, err = npzCSR(npz, "attr")
	}
	if err != nil {
		return nil, nil, nil, 0, fmt.Errorf("%w (expected attr_data/attr_indices/attr_indptr/attr_shape or attr_matrix)", err)
	}
	if adj, err = npzCSR(npz, "adj"); err != nil {
		return nil, nil, nil, 0, fmt.Errorf("%w (expected adj_data/adj_indices/adj_indptr/adj_shape)", err)
	}
	n := features.NumRows
	if adj.NumRows != n || adj.NumCols != n {
		return nil, nil, nil, 0, fmt.Errorf("datasets: %s: adjacency is [%d, %d], expected [%d, %d] like the features",
			npz.path, adj.NumRows, adj.NumCols, n, n)
	}
	labelArr, err := npz.array("labels", n)
	if err != nil {
		return nil, nil, nil, 0, err
	}
	if labels, numClasses, err = classLabels(labelArr); err != nil {
		return nil, nil, nil, 0, fmt.Errorf("datasets: labels.npy in %s: %w", npz.path, err)
	}
	return features, adj, labels, numClasses, nil
}

// npzDense reads member name, a dense [rows, cols] numeric array, as a CSR.
func npzDense(npz *npzFile, name string) (*CSR, error) {
	a, err := npz.array(name, -1, -1)
	if err != nil {
		return nil, err
	}
	x, err := a.float32s()
	if err != nil {
		return nil, fmt.Errorf("datasets: %s.npy in %s: %w", name, npz.path, err)
	}
	if a.Fortran {
		x = transposeFortran(x, a.Shape[0], a.Shape[1])
	}
	return denseToCSR(a.Shape[0], a.Shape[1], x), nil
}

// singleMaskSplit reads train_mask, val_mask and test_mask, each [N] boolean, into one split.
func singleMaskSplit(npz *npzFile, n int) ([]Split, error) {
	var sets [3][]int32
	for i, member := range []string{"train_mask", "val_mask", "test_mask"} {
		a, err := npz.array(member, n)
		if err != nil {
			return nil, err
		}
		mask, err := a.int64s()
		if err != nil {
			return nil, fmt.Errorf("datasets: %s.npy in %s: %w", member, npz.path, err)
		}
		for v, m := range mask {
			if m != 0 {
				sets[i] = append(sets[i], int32(v))
			}
		}
	}
	split := Split{Train: sets[0], Val: sets[1], Test: sets[2]}
	if err := checkDisjoint(npz.path, 0, split); err != nil {
		return nil, err
	}
	return []Split{split}, nil
}
