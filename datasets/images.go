package datasets

import (
	"fmt"

	"github.com/nlpodyssey/gopickle/types"
)

const (
	// imageLabelsPerClass and imageValid are the reference scripts' image split: 10 train nodes per
	// class, 4000 validation nodes, the rest test.
	imageLabelsPerClass, imageValid = 10, 4000
	// cifarRows is how many rows of concat(train, test) the reference keeps for CIFAR10.
	cifarRows = 15000
	// imageClasses is the number of classes of STL10 and CIFAR10.
	imageClasses = 10
)

// imageFeaturesFile is the reference repository's features.pkl of name ("stl10" or "cifar10"). Its
// sha256 is unknown (the file could not be obtained), so it is never downloaded automatically.
func imageFeaturesFile(name string) fileSpec {
	return fileSpec{Path: name + "/features.pkl", URL: "https://github.com/WtaoZhao/geomix/raw/main/data/" + name + "/features.pkl"}
}

// imageNote says what the reference did and where we cannot check it.
const imageNote = "The reference's %s features (SimCLR ResNet-18 per the paper) come from the GeoMix repository's " +
	"features.pkl, whose sha256 is unknown to us, so it is not verified. Graph: 5 nearest other rows (knn_graph, " +
	"loop=False) made undirected; no feature normalisation; per class %d train, %d validation, rest test, " +
	"drawn with our RNG (torch's cannot be replicated)."

// loadImages is the loader of "stl10" and "cifar10" (reference load_image): x = concat(x_train,
// x_test) of features.pkl (CIFAR10 keeps the first 15,000 rows), a 5-NN graph, class_rand_splits_2
// with opts.LabelsPerClass (default 10) and 4000 validation nodes. Features are used as they are:
// RawFeatures changes nothing.
func loadImages(name string) func(opts Options) (*Graph, error) {
	return func(opts Options) (*Graph, error) {
		spec := imageFeaturesFile(name)
		path, err := opts.fetch(spec)
		if err != nil {
			return nil, err
		}
		x, labels, numCols, err := readImageFeatures(path)
		if err != nil {
			return nil, err
		}
		if name == "cifar10" && len(labels) > cifarRows {
			x, labels = x[:cifarRows*numCols], labels[:cifarRows]
		}
		perClass := opts.labelsPerClassOr(imageLabelsPerClass)
		return imageGraph(name, x, labels, imageClasses, numCols, opts, imageLabelsPerClass, imageValid,
			fmt.Sprintf(imageNote, name, perClass, imageValid))
	}
}

// readImageFeatures reads a features.pkl: a dict with numpy arrays x_train [n1, F], y_train [n1],
// x_test [n2, F], y_test [n2] (labels in [0, 10)). It returns concat(train, test) as a row-major
// [n1+n2, F] matrix, the labels and F.
func readImageFeatures(path string) (x []float32, labels []int32, numCols int, err error) {
	value, err := unpickle(path)
	if err != nil {
		return nil, nil, 0, err
	}
	dict, ok := value.(*types.Dict)
	if !ok {
		return nil, nil, 0, fmt.Errorf("datasets: %s holds a %T, expected a dict with x_train, y_train, x_test, y_test", path, value)
	}
	for _, part := range []string{"train", "test"} {
		xs, err := pickledArray(dict, path, "x_"+part)
		if err != nil {
			return nil, nil, 0, err
		}
		ys, err := pickledArray(dict, path, "y_"+part)
		if err != nil {
			return nil, nil, 0, err
		}
		if err := xs.checkShape(-1, -1); err != nil {
			return nil, nil, 0, fmt.Errorf("datasets: %s: x_%s: %w", path, part, err)
		}
		n := xs.Shape[0]
		if err := ys.checkShape(n); err != nil {
			return nil, nil, 0, fmt.Errorf("datasets: %s: y_%s: %w (one label per row of x_%s)", path, part, err, part)
		}
		if numCols == 0 {
			numCols = xs.Shape[1]
		} else if xs.Shape[1] != numCols {
			return nil, nil, 0, fmt.Errorf("datasets: %s: x_%s has %d columns, x_train has %d", path, part, xs.Shape[1], numCols)
		}
		values, err := xs.float32s()
		if err != nil {
			return nil, nil, 0, fmt.Errorf("datasets: %s: x_%s: %w", path, part, err)
		}
		for i := range n {
			for j := range numCols {
				x = append(x, values[xs.rowMajorIndex(i, j)])
			}
		}
		ints, err := ys.int64s()
		if err != nil {
			return nil, nil, 0, fmt.Errorf("datasets: %s: y_%s: %w", path, part, err)
		}
		for i, y := range ints {
			if y < 0 || y >= imageClasses {
				return nil, nil, 0, fmt.Errorf("datasets: %s: y_%s[%d] = %d, expected a class in [0, %d)", path, part, i, y, imageClasses)
			}
			labels = append(labels, int32(y))
		}
	}
	return x, labels, numCols, nil
}

// pickledArray is the numpy array under key in a pickled dict.
func pickledArray(dict *types.Dict, path, key string) (*ndarray, error) {
	v, ok := dict.Get(key)
	if !ok {
		return nil, fmt.Errorf("datasets: %s has no key %q, expected x_train, y_train, x_test, y_test", path, key)
	}
	a, ok := v.(*ndarray)
	if !ok {
		return nil, fmt.Errorf("datasets: %s: %q is a %T, expected a numpy array", path, key, v)
	}
	return a, nil
}

// imageGraph builds a Graph of the image protocol from row-major [N, numCols] features x: the 5
// nearest other rows (PyG knn_graph, loop=False) made undirected, and class_rand_splits_2 with
// opts.LabelsPerClass (default defaultPerClass) train nodes per class and valid validation nodes.
func imageGraph(name string, x []float32, labels []int32, numClasses, numCols int, opts Options,
	defaultPerClass, valid int, notes string) (*Graph, error) {
	src, dst, err := imageEdges(name, x, len(labels), numCols, opts)
	if err != nil {
		return nil, err
	}
	return imageGraphWithEdges(name, x, labels, src, dst, numClasses, numCols, opts, defaultPerClass, valid, notes)
}

// imageEdges returns the image protocol's graph of the n rows of x: the 5 nearest other rows made
// undirected (both directions, sorted).
func imageEdges(name string, x []float32, n, numCols int, opts Options) (src, dst []int32, err error) {
	nbrs, err := KNearest(x, n, numCols, imageK, false, opts.progress())
	if err != nil {
		return nil, nil, fmt.Errorf("datasets: %s: %w", name, err)
	}
	src, dst, err = knnEdges(n, imageK, nbrs)
	if err != nil {
		return nil, nil, fmt.Errorf("datasets: %s: %w", name, err)
	}
	return src, dst, nil
}

// imageGraphWithEdges is imageGraph given the graph's edges (imageEdges).
func imageGraphWithEdges(name string, x []float32, labels, src, dst []int32, numClasses, numCols int, opts Options,
	defaultPerClass, valid int, notes string) (*Graph, error) {
	n := len(labels)
	split, err := classRandSplits2(labels, numClasses, opts.labelsPerClassOr(defaultPerClass), valid,
		newSplitRNG(opts.seedOr(referenceSeed)))
	if err != nil {
		return nil, fmt.Errorf("datasets: %s: %w", name, err)
	}
	return &Graph{
		Name:       name,
		NumNodes:   n,
		Features:   denseToCSR(n, numCols, x),
		Src:        src,
		Dst:        dst,
		Labels:     labels,
		NumClasses: numClasses,
		Splits:     []Split{split},
		Notes:      notes,
	}, nil
}

func init() {
	register("stl10", loadImages("stl10"))
	register("cifar10", loadImages("cifar10"))
}
