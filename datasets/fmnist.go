package datasets

import (
	"fmt"
	"slices"
	"sync"
)

// fmnistFiles are the Fashion-MNIST training images and labels (zalandoresearch/fashion-mnist, MIT),
// the upstream IDX files. They are checked by the sha256 of their decompressed content: copies are
// known whose .gz bytes were re-compressed (Debian's dataset-fashion-mnist) with the same content.
var fmnistFiles = struct{ images, labels fileSpec }{
	images: fileSpec{
		Path:          "fashion-mnist/train-images-idx3-ubyte.gz",
		URL:           "https://github.com/zalandoresearch/fashion-mnist/raw/master/data/fashion/train-images-idx3-ubyte.gz",
		ContentSHA256: "c59f468a2f672dc815687fe0f83887768d799fd8a3f3276145d20f83aa44d888",
	},
	labels: fileSpec{
		Path:          "fashion-mnist/train-labels-idx1-ubyte.gz",
		URL:           "https://github.com/zalandoresearch/fashion-mnist/raw/master/data/fashion/train-labels-idx1-ubyte.gz",
		ContentSHA256: "bad3541b69d912435c50bb6ba87bec294ff4f6a2e1246121d8633921760443d9",
	},
}

const (
	// fmnistPerClass is how many images of each class the stand-in keeps: the paper's CIFAR10 takes
	// 1,500 of each of its 10 classes (15,000 images).
	fmnistPerClass = 1500
	// fmnistClasses is the number of Fashion-MNIST classes.
	fmnistClasses = 10
	// fmnistPCADims is the width of the -pca variants' features: the leading principal components of
	// the kept images' pixels, computed without labels.
	fmnistPCADims = 50
)

// fmnistVariant is one registered Fashion-MNIST data set: its name, its default train labels per
// class, and whether its features are the PCA projection.
type fmnistVariant struct {
	name     string
	perClass int
	pca      bool
}

// fmnistVariants are the registered names: fmnist and fmnist-20 (pixels; 10 and 20 labels per
// class, the paper's two image settings), fmnist-pca and fmnist-pca-20 (the PCA projection).
var fmnistVariants = []fmnistVariant{
	{"fmnist", imageLabelsPerClass, false},
	{"fmnist-20", 20, false},
	{"fmnist-pca", imageLabelsPerClass, true},
	{"fmnist-pca-20", 20, true},
}

// fmnistNote says what the stand-in is, wherever the graph is shown.
const fmnistNote = "Stand-in for the paper's STL10/CIFAR10 (images, not SimCLR features, which are not obtainable): " +
	"Fashion-MNIST, the first %d training images of each of its 10 classes in file order (15,000, the paper's CIFAR10 " +
	"scale); features: %s; graph: the 5 nearest other images (knn_graph, loop=False) made undirected; per class %d " +
	"train, %d validation, rest test (class_rand_splits_2), drawn with our RNG."

// loadFashionMNIST returns the loader of v: the image protocol of the paper's Table 4 on 15,000
// Fashion-MNIST images, with pixels scaled to [0, 1] or their PCA projection as features (see
// fmnistFeatures). RawFeatures changes nothing.
func loadFashionMNIST(v fmnistVariant) func(opts Options) (*Graph, error) {
	return func(opts Options) (*Graph, error) {
		f, err := fmnistFeatures(opts, v.pca)
		if err != nil {
			return nil, err
		}
		features := "the 784 pixels scaled to [0, 1]"
		if v.pca {
			features = fmt.Sprintf("the first %d principal components of the [0, 1] pixels, fitted on all 15,000 images without labels", fmnistPCADims)
		}
		perClass := opts.labelsPerClassOr(v.perClass)
		return imageGraphWithEdges(v.name, f.x, slices.Clone(f.labels), slices.Clone(f.src), slices.Clone(f.dst), fmnistClasses, f.numCols, opts,
			v.perClass, imageValid, fmt.Sprintf(fmnistNote, fmnistPerClass, features, perClass, imageValid))
	}
}

// fmnistData are the features, labels and 5-NN edges of the stand-in, which do not depend on the
// split: computed once per data root and feature kind in a process (the pixel 5-NN search over
// 15,000 images takes tens of seconds), the splits drawn per load.
type fmnistData struct {
	x        []float32
	numCols  int
	labels   []int32
	src, dst []int32
}

var fmnistCache = struct {
	sync.Mutex
	data map[[2]string]*fmnistData
}{data: map[[2]string]*fmnistData{}}

// fmnistFeatures returns the stand-in's data for opts' root, pixels or (pca) their projection; the
// first call per (root, kind) reads the files and searches the kNN graph, later ones share it
// (read-only: the loaders copy what a Graph may change).
func fmnistFeatures(opts Options, pca bool) (*fmnistData, error) {
	key := [2]string{opts.root(), fmt.Sprint(pca)}
	fmnistCache.Lock()
	defer fmnistCache.Unlock()
	if d, ok := fmnistCache.data[key]; ok {
		return d, nil
	}
	x, labels, err := readFashionMNIST(opts, fmnistPerClass)
	if err != nil {
		return nil, err
	}
	name, numCols := "fmnist", fmnistRowPixels
	if pca {
		name = "fmnist-pca"
		if x, err = pcaProject(x, len(labels), numCols, fmnistPCADims); err != nil {
			return nil, fmt.Errorf("datasets: %s: %w", name, err)
		}
		numCols = fmnistPCADims
	}
	src, dst, err := imageEdges(name, x, len(labels), numCols, opts)
	if err != nil {
		return nil, err
	}
	d := &fmnistData{x: x, numCols: numCols, labels: labels, src: src, dst: dst}
	fmnistCache.data[key] = d
	return d, nil
}

// FashionMNISTSide is the width and height of a Fashion-MNIST image in pixels.
const FashionMNISTSide = fmnistSide

// FashionMNISTClassNames returns the names of the 10 Fashion-MNIST classes: label i is the i-th.
func FashionMNISTClassNames() []string {
	return []string{"T-shirt/top", "Trouser", "Pullover", "Dress", "Coat", "Sandal", "Shirt", "Sneaker", "Bag", "Ankle boot"}
}

// FashionMNISTImages returns the first perClass (1 to 1,500) training images of each class in file
// order, as a row-major [10 × perClass, 784] matrix of pixels / 255 (rows of 28 × 28, row by row)
// with their labels: with 1,500, the images of the fmnist data sets, in their node order.
func FashionMNISTImages(opts Options, perClass int) ([]float32, []int32, error) {
	if perClass < 1 || perClass > fmnistPerClass {
		return nil, nil, fmt.Errorf("datasets: %d Fashion-MNIST images per class, expected 1 to %d", perClass, fmnistPerClass)
	}
	return readFashionMNIST(opts, perClass)
}

// readFashionMNIST reads the training images and labels (their decompressed content verified) and
// keeps the first perClass images of each class in file order, returning them as a row-major
// [10 × perClass, 784] matrix of pixels / 255 with their labels.
func readFashionMNIST(opts Options, perClass int) ([]float32, []int32, error) {
	imgPath, err := opts.fetch(fmnistFiles.images)
	if err != nil {
		return nil, nil, err
	}
	lblPath, err := opts.fetch(fmnistFiles.labels)
	if err != nil {
		return nil, nil, err
	}
	pixels, n, err := readIDXImages(imgPath, fmnistFiles.images.ContentSHA256)
	if err != nil {
		return nil, nil, err
	}
	all, err := readIDXLabels(lblPath, fmnistFiles.labels.ContentSHA256)
	if err != nil {
		return nil, nil, err
	}
	if len(all) != n {
		return nil, nil, fmt.Errorf("datasets: %s has %d labels for the %d images of %s", lblPath, len(all), n, imgPath)
	}
	x := make([]float32, 0, perClass*fmnistClasses*fmnistRowPixels)
	labels := make([]int32, 0, perClass*fmnistClasses)
	taken := make([]int, fmnistClasses)
	for i, y := range all {
		if y >= fmnistClasses {
			return nil, nil, fmt.Errorf("datasets: %s: label %d of image %d, expected a class in [0, %d)", lblPath, y, i, fmnistClasses)
		}
		if taken[y] == perClass {
			continue
		}
		taken[y]++
		labels = append(labels, int32(y))
		for _, p := range pixels[i*fmnistRowPixels : (i+1)*fmnistRowPixels] {
			x = append(x, float32(p)/255)
		}
	}
	for c, k := range taken {
		if k < perClass {
			return nil, nil, fmt.Errorf("datasets: %s has %d images of class %d, expected at least %d", lblPath, k, c, perClass)
		}
	}
	return x, labels, nil
}

func init() {
	for _, v := range fmnistVariants {
		register(v.name, loadFashionMNIST(v))
	}
}
