package datasets

import (
	"fmt"
	"math/rand/v2"
	"slices"
)

// Coauthor split sizes per class (the reference's class_rand_splits) and seed.
const (
	coauthorTrainPerClass = 20
	coauthorValPerClass   = 30
	coauthorSeed          = 123
)

// coauthorSpecs are the gnn-benchmark files (the shchur/gnn-benchmark repository; see docs/data.md).
var coauthorSpecs = map[string]fileSpec{
	"cs": {Path: "coauthor/ms_academic_cs.npz", Size: 12835626,
		URL:    "https://github.com/shchur/gnn-benchmark/raw/master/data/npz/ms_academic_cs.npz",
		SHA256: "933c745734e78908c7eb77172a673fee0503f30e26e5a99b36814d88534c42e3"},
	"physics": {Path: "coauthor/ms_academic_phy.npz", Size: 16374005,
		URL:    "https://github.com/shchur/gnn-benchmark/raw/master/data/npz/ms_academic_phy.npz",
		SHA256: "e4d68468eba5fb8f6b280ffd406bd53e6e4295ba1dd2967d6fe99b978e4b3375"},
}

func init() {
	for _, name := range []string{"cs", "physics"} {
		register(name, func(opts Options) (*Graph, error) { return loadCoauthor(name, opts) })
	}
}

// loadCoauthor reads Coauthor CS or Physics from the gnn-benchmark .npz as PyG's Coauthor does:
// features binarised (x > 0 -> 1), then row-normalised (x / max(rowsum, 1)) unless opts.RawFeatures
// (which keeps the binarised values); edges from the adjacency, symmetrised, self-loops removed.
// The split is the reference's class_rand_splits: per class (in class order) a random permutation,
// the first 20 nodes train, the next 30 val, the rest test, from seed opts.Seed (default 123, the
// reference's). The reference draws the permutations with torch.randperm, which Go cannot replay:
// our split has the same sizes and protocol but other members (said in Graph.Notes).
func loadCoauthor(name string, opts Options) (*Graph, error) {
	path, err := opts.fetch(coauthorSpecs[name])
	if err != nil {
		return nil, err
	}
	return readCoauthor(name, path, opts)
}

// readCoauthor is loadCoauthor on the gnn-benchmark .npz at path.
func readCoauthor(name, path string, opts Options) (*Graph, error) {
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
	for k := range features.Values {
		if features.Values[k] > 0 {
			features.Values[k] = 1
		} else {
			features.Values[k] = 0
		}
	}
	if !opts.RawFeatures {
		features.NormalizeRows()
	}
	src := make([]int32, 0, adj.NNZ())
	for i := 0; i < n; i++ {
		for k := adj.RowPtr[i]; k < adj.RowPtr[i+1]; k++ {
			src = append(src, int32(i))
		}
	}
	g := &Graph{Name: name, NumNodes: n, Features: features, Labels: labels, NumClasses: numClasses}
	if g.Src, g.Dst, err = UndirectedEdges(n, src, adj.ColIdx); err != nil {
		return nil, fmt.Errorf("datasets: %s: %w", path, err)
	}
	seed := opts.seedOr(coauthorSeed)
	g.Splits = []Split{classRandSplit(labels, numClasses, coauthorTrainPerClass, coauthorValPerClass, seed)}
	g.Notes = fmt.Sprintf("split: %d train / %d val per class, rest test, drawn with Go's PCG from seed %d; "+
		"the reference used torch.randperm after seed 123, so split membership differs (sizes and protocol match).",
		coauthorTrainPerClass, coauthorValPerClass, seed)
	return g, nil
}

// npzCSR reads the scipy CSR stored as <prefix>_data, _indices, _indptr and _shape members.
func npzCSR(npz *npzFile, prefix string) (*CSR, error) {
	shapeArr, err := npz.array(prefix+"_shape", 2)
	if err != nil {
		return nil, err
	}
	shape, _ := shapeArr.int64s()
	if shape[0] < 0 || shape[1] < 0 || shape[0] >= 1<<31 || shape[1] >= 1<<31 {
		return nil, fmt.Errorf("datasets: %s_shape.npy in %s is %v, expected two sizes", prefix, npz.path, shape)
	}
	var parts [3][]int64
	var data []float32
	for i, member := range []string{"_indptr", "_indices", "_data"} {
		a, err := npz.array(prefix+member, -1)
		if err != nil {
			return nil, err
		}
		if member == "_data" {
			data, err = a.float32s()
		} else {
			parts[i], err = a.int64s()
		}
		if err != nil {
			return nil, fmt.Errorf("datasets: %s%s.npy in %s: %w", prefix, member, npz.path, err)
		}
	}
	m, err := newCSR(int(shape[0]), int(shape[1]), parts[0], parts[1], data)
	if err != nil {
		return nil, fmt.Errorf("datasets: %s_* in %s: %w", prefix, npz.path, err)
	}
	return m, nil
}

// classLabels converts an integer label array to int32 and returns the number of classes, max+1.
func classLabels(a *ndarray) ([]int32, int, error) {
	vals, err := a.int64s()
	if err != nil {
		return nil, 0, err
	}
	return classIDs(vals)
}

// classIDs converts integer labels to int32 and returns the number of classes, max+1.
func classIDs(vals []int64) ([]int32, int, error) {
	labels := make([]int32, len(vals))
	numClasses := 0
	for i, v := range vals {
		if v < 0 || v >= 1<<16 {
			return nil, 0, fmt.Errorf("label %d of node %d, expected a class id in [0, 65536)", v, i)
		}
		labels[i] = int32(v)
		numClasses = max(numClasses, int(v)+1)
	}
	return labels, numClasses, nil
}

// classRandSplit is the reference's class_rand_splits: for each class c = 0..C-1, its nodes in
// increasing order are shuffled, the first trainPerClass go to train, the next valPerClass to val,
// the rest to test. The shuffles use a PCG generator seeded with seed; the returned sets are sorted.
func classRandSplit(labels []int32, numClasses, trainPerClass, valPerClass int, seed int64) Split {
	rng := rand.New(rand.NewPCG(uint64(seed), 0))
	byClass := make([][]int32, numClasses)
	for v, c := range labels {
		byClass[c] = append(byClass[c], int32(v))
	}
	var s Split
	for _, nodes := range byClass {
		rng.Shuffle(len(nodes), func(i, j int) { nodes[i], nodes[j] = nodes[j], nodes[i] })
		t := min(trainPerClass, len(nodes))
		v := min(trainPerClass+valPerClass, len(nodes))
		s.Train = append(s.Train, nodes[:t]...)
		s.Val = append(s.Val, nodes[t:v]...)
		s.Test = append(s.Test, nodes[v:]...)
	}
	slices.Sort(s.Train)
	slices.Sort(s.Val)
	slices.Sort(s.Test)
	return s
}
