package datasets

import (
	"fmt"
	"io"
	"slices"
	"strings"
	"sync"
)

// Options configure a load. The zero value means: data root DefaultRoot(), download missing files,
// row-normalise features as the reference code does, reference seeds and label counts.
type Options struct {
	// Root is the data root; "" means DefaultRoot().
	Root string
	// Offline forbids downloads: a missing file is an error naming it and its URL.
	Offline bool
	// RawFeatures skips the row-normalisation the reference code applies by default.
	RawFeatures bool
	// Seed seeds random splits; 0 means the data set's reference seed (123 in the authors' code).
	Seed int64
	// LabelsPerClass is the per-class train count for data sets that have that option (20news 100|200,
	// digits 10|20, images 10, fmnist 10|20); 0 means the reference default.
	LabelsPerClass int
	// Progress receives download progress bars; nil means os.Stderr.
	Progress io.Writer
	// VerifyChecksums makes fetch hash files that are already present (their size is always checked).
	// Downloaded files are always verified.
	VerifyChecksums bool
	// TrainPerClass and ValPerClass are the per-class train and validation counts of the split drawn
	// for a graph file that stores none (FromNPZ, FromEdgeList); 0 means DefaultTrainPerClass and
	// DefaultValPerClass.
	TrainPerClass, ValPerClass int
	// TwitchFeatures selects twitch-ood's node features: TwitchFeaturesRaw ("" or "raw", the
	// default) or TwitchFeaturesSVD128 ("svd128"). Other data sets refuse any value but the default.
	TwitchFeatures string
}

// canonicalOrder is the order of the data sets in issue 2's table (the paper's tables); Names lists
// registered names in this order, then any others alphabetically.
var canonicalOrder = []string{
	"cora", "citeseer", "pubmed", "cs", "physics", "squirrel", "chameleon",
	"twitch-de", "twitch-engb", "twitch-es", "twitch-fr", "twitch-ptbr", "twitch-ru", "twitch-tw",
	"20news", "20news-200", "digits", "synthetic", "twitch-ood", "stl10", "cifar10",
	"fmnist", "fmnist-20", "fmnist-pca", "fmnist-pca-20",
}

var (
	registryMu sync.RWMutex
	loaders    = map[string]func(opts Options) (*Graph, error){}
)

// register makes a loader available to Load under name. It is called from init functions; a
// duplicate name is a programming error and panics.
func register(name string, load func(opts Options) (*Graph, error)) {
	registryMu.Lock()
	defer registryMu.Unlock()
	if _, dup := loaders[name]; dup {
		panic(fmt.Sprintf("datasets: loader %q registered twice", name))
	}
	loaders[name] = load
}

// Names lists every registered data set name, in the order of issue 2's table (cora, citeseer,
// pubmed, cs, physics, squirrel, chameleon, twitch-*, stl10, cifar10, 20news, digits), followed by
// any other registered name in alphabetical order.
func Names() []string {
	registryMu.RLock()
	defer registryMu.RUnlock()
	names := make([]string, 0, len(loaders))
	for _, n := range canonicalOrder {
		if _, ok := loaders[n]; ok {
			names = append(names, n)
		}
	}
	var extra []string
	for n := range loaders {
		if !slices.Contains(canonicalOrder, n) {
			extra = append(extra, n)
		}
	}
	slices.Sort(extra)
	return append(names, extra...)
}

// Load reads the data set called name (see Names) with opts. An unknown name is an error that lists
// the known ones.
func Load(name string, opts Options) (*Graph, error) {
	registryMu.RLock()
	load, ok := loaders[name]
	registryMu.RUnlock()
	if !ok {
		return nil, fmt.Errorf("datasets: unknown data set %q; known: %s", name, strings.Join(Names(), ", "))
	}
	if err := checkTwitchFeatures(opts.TwitchFeatures); err != nil {
		return nil, fmt.Errorf("datasets: %s: %w", name, err)
	}
	if opts.TwitchFeatures == TwitchFeaturesSVD128 && name != "twitch-ood" {
		return nil, fmt.Errorf("datasets: twitch features %q apply to twitch-ood only (fitted on its training regions), not to %q", opts.TwitchFeatures, name)
	}
	return load(opts)
}
