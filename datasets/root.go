package datasets

import (
	"io"
	"os"
	"path/filepath"
)

// EnvData names the environment variable that points at the data root (CI sets it to
// ../shared/data). The layout under the root is the one of the project's shared data folder, e.g.
// planetoid/ind.cora.x, coauthor/ms_academic_cs.npz, heterophilous-graphs/squirrel_filtered.npz.
const EnvData = "GEOMIX_DATA"

// DefaultRoot is the data root used when Options.Root is empty: $GEOMIX_DATA if set, else
// <os.UserCacheDir()>/geomix, else geomix-data in the working directory when no cache directory is known.
func DefaultRoot() string {
	if dir := os.Getenv(EnvData); dir != "" {
		return dir
	}
	if cache, err := os.UserCacheDir(); err == nil {
		return filepath.Join(cache, "geomix")
	}
	return "geomix-data"
}

// root is the data root these options use.
func (o Options) root() string {
	if o.Root != "" {
		return o.Root
	}
	return DefaultRoot()
}

// progress is where download progress bars go.
func (o Options) progress() io.Writer {
	if o.Progress != nil {
		return o.Progress
	}
	return os.Stderr
}

// seedOr is Options.Seed, or the data set's reference seed when Seed is 0.
func (o Options) seedOr(reference int64) int64 {
	if o.Seed != 0 {
		return o.Seed
	}
	return reference
}

// labelsPerClassOr is Options.LabelsPerClass, or the data set's reference count when it is 0.
func (o Options) labelsPerClassOr(reference int) int {
	if o.LabelsPerClass != 0 {
		return o.LabelsPerClass
	}
	return reference
}
