package datasets

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// Split sizes drawn for a graph file that stores no split: the reference's class_rand_splits
// defaults (as for Coauthor CS/Physics), overridden by Options.TrainPerClass and ValPerClass.
const (
	DefaultTrainPerClass = coauthorTrainPerClass
	DefaultValPerClass   = coauthorValPerClass
)

// IsGraphPath reports whether value names a graph on disk rather than a registered data set: it
// ends in ".npz", contains a path separator, or is an existing directory that is not also a
// registered name (write ./20news for a directory called 20news).
func IsGraphPath(value string) bool {
	if strings.HasSuffix(value, ".npz") || strings.ContainsRune(value, '/') || strings.ContainsRune(value, filepath.Separator) {
		return true
	}
	return !slices.Contains(Names(), value) && pathIsDir(value)
}

// LoadNameOrPath loads value as a graph file when IsGraphPath(value) (a .npz file with FromNPZ, a
// directory with FromEdgeList), else as a registered data set with Load. A path that does not
// exist is an error naming it.
func LoadNameOrPath(value string, opts Options) (*Graph, error) {
	if !IsGraphPath(value) {
		return Load(value, opts)
	}
	info, err := os.Stat(value)
	if err != nil {
		return nil, fmt.Errorf("datasets: graph file %s: %w (expected a .npz file or a directory in the edge-list format)", value, err)
	}
	if info.IsDir() {
		return FromEdgeList(value, opts)
	}
	return FromNPZ(value, opts)
}

// finishUserGraph completes a graph read from the file at path: features row-normalised unless
// opts.RawFeatures, edges made undirected (self-loops and duplicates dropped, missing reverses
// added, isolated nodes kept), a per-class split drawn when splits is empty; each change is said
// in Notes, and the result is validated.
func finishUserGraph(path string, n int, features *CSR, src, dst []int32, labels []int32, numClasses int, splits []Split, opts Options) (*Graph, error) {
	name := strings.TrimSuffix(filepath.Base(filepath.Clean(path)), ".npz")
	g := &Graph{Name: name, NumNodes: n, Features: features, Labels: labels, NumClasses: numClasses, Splits: splits}
	notes := []string{"loaded from " + path}
	var changes edgeChanges
	var err error
	if g.Src, g.Dst, changes, err = symmetrize(n, src, dst); err != nil {
		return nil, fmt.Errorf("datasets: %s: %w", path, err)
	}
	if s := changes.String(); s != "" {
		notes = append(notes, "edges made undirected: "+s)
	}
	if opts.RawFeatures {
		notes = append(notes, "features as stored")
	} else {
		features.NormalizeRows()
		notes = append(notes, "features row-normalised (x / max(rowsum, 1), PyG's NormalizeFeatures)")
	}
	if len(g.Splits) == 0 {
		train, val := DefaultTrainPerClass, DefaultValPerClass
		if opts.TrainPerClass > 0 {
			train = opts.TrainPerClass
		}
		if opts.ValPerClass > 0 {
			val = opts.ValPerClass
		}
		seed := opts.seedOr(coauthorSeed)
		g.Splits = []Split{classRandSplit(labels, numClasses, train, val, seed)}
		notes = append(notes, fmt.Sprintf("no split stored: per class %d train, %d validation, rest test, drawn with Go's PCG from seed %d", train, val, seed))
		if err := g.validateSplits(); err != nil {
			return nil, fmt.Errorf("datasets: %s: %w: per class %d train and %d validation nodes were drawn, and the smallest class has %d nodes (set fewer per class)",
				path, err, train, val, smallestClass(labels, numClasses))
		}
	} else {
		notes = append(notes, fmt.Sprintf("%d stored split(s)", len(g.Splits)))
	}
	g.Notes = strings.Join(notes, "; ") + "."
	if err := g.Validate(); err != nil {
		return nil, fmt.Errorf("%w (read from %s)", err, path)
	}
	return g, nil
}

// smallestClass is the number of nodes of the rarest class.
func smallestClass(labels []int32, numClasses int) int {
	counts := make([]int, numClasses)
	for _, c := range labels {
		counts[c]++
	}
	return slices.Min(counts)
}
