package datasets

import (
	"maps"
	"slices"
	"strings"
)

// File is one raw file a loader reads: where it goes under the data root, where it is published,
// and how it is verified.
type File struct {
	// Dataset is the loader's name(s), e.g. "cora" or "twitch-*".
	Dataset string
	// Path is relative to the data root, e.g. "planetoid/ind.cora.x".
	Path string
	// URL is the canonical download address.
	URL string
	// SHA256 is the hex digest a download must match; empty where it is unknown (stl10, cifar10,
	// pileup).
	SHA256 string
	// Size is in bytes; 0 where it is unknown.
	Size int64
	// ContentSHA256 is the digest of a gzip file's decompressed content, verified instead of
	// SHA256 and Size where copies differ in their compressed bytes (fashion-mnist).
	ContentSHA256 string
}

// Files lists every raw file the loaders read or download, in the order of Names.
func Files() []File {
	var out []File
	add := func(dataset string, f fileSpec) {
		out = append(out, File{Dataset: dataset, Path: f.Path, URL: f.URL, SHA256: f.SHA256, Size: f.Size, ContentSHA256: f.ContentSHA256})
	}
	for _, name := range []string{"cora", "citeseer", "pubmed"} {
		for _, suffix := range []string{"x", "tx", "allx", "y", "ty", "ally", "graph", "test.index"} {
			add(name, planetoidSpec(name, suffix))
		}
	}
	for _, name := range []string{"cs", "physics"} {
		add(name, coauthorSpecs[name])
	}
	for _, name := range []string{"squirrel", "chameleon"} {
		add(name, heteroSpecs[name])
	}
	for _, rel := range slices.Sorted(maps.Keys(twitchChecksums)) {
		region, kind, _ := strings.Cut(rel, "/musae_")
		kind = strings.TrimPrefix(kind, region+"_")
		add("twitch-"+strings.ToLower(region), twitchFile(region, kind))
	}
	add("20news", news20Archive)
	add("digits", digitsFile)
	for _, name := range []string{"stl10", "cifar10"} {
		add(name, imageFeaturesFile(name))
	}
	add("fmnist*", fmnistFiles.images)
	add("fmnist*", fmnistFiles.labels)
	for _, process := range []string{"gg", "qq"} {
		for _, pu := range []int{10, 30, 50, 140} {
			add("pileup", pileupFile(process, pu))
		}
	}
	return out
}
