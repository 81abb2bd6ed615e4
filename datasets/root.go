package datasets

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
)

// EnvData names the environment variable that points at the data root (CI sets it to
// ../shared/data). The layout under the root is the one docs/data.md lists, e.g.
// planetoid/ind.cora.x, coauthor/ms_academic_cs.npz, heterophilous-graphs/squirrel_filtered.npz.
const EnvData = "GEOMIX_DATA"

// DefaultRoot is the data root used when Options.Root is empty: $GEOMIX_DATA if set (a relative
// value resolved by ResolveRoot against the module root), else <os.UserCacheDir()>/geomix, else
// geomix-data in the working directory when no cache directory is known.
func DefaultRoot() string {
	if dir := os.Getenv(EnvData); dir != "" {
		if abs, err := ResolveRoot(dir, ""); err == nil {
			return abs
		}
		return dir
	}
	if cache, err := os.UserCacheDir(); err == nil {
		return filepath.Join(cache, "geomix")
	}
	return "geomix-data"
}

// ResolveRoot returns the data root dir as an absolute, cleaned path; "" stays "". A relative dir
// is taken relative to base. The CLI passes the directory it was started in, once at startup, so
// that GEOMIX_DATA=../shared/data and --data ../shared/data mean what the shell means. base ""
// means the module root: the nearest directory at or above the working directory holding go.mod
// (or the working directory outside a module), because `go test` runs each package's tests in the
// package's folder while a relative $GEOMIX_DATA is written for the repository's root.
func ResolveRoot(dir, base string) (string, error) {
	if dir == "" {
		return "", nil
	}
	if filepath.IsAbs(dir) {
		return filepath.Clean(dir), nil
	}
	if base == "" {
		var err error
		if base, err = moduleRoot(); err != nil {
			return "", fmt.Errorf("datasets: resolving the data root %s: %w", dir, err)
		}
	}
	abs, err := filepath.Abs(filepath.Join(base, dir))
	if err != nil {
		return "", fmt.Errorf("datasets: resolving the data root %s: %w", dir, err)
	}
	return abs, nil
}

// moduleRoot is the nearest directory at or above the working directory holding go.mod, or the
// working directory when there is none.
func moduleRoot() (string, error) {
	wd, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for dir := wd; ; dir = filepath.Dir(dir) {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		if filepath.Dir(dir) == dir {
			return wd, nil
		}
	}
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

// CheckRoot returns an error naming dir unless it is an existing directory: a data root given
// explicitly (--data, $GEOMIX_DATA) that does not exist is a typo to report, not an empty root.
func CheckRoot(dir string) error {
	info, err := os.Stat(dir)
	switch {
	case err != nil:
		return fmt.Errorf("datasets: data root %s: %w", dir, err)
	case !info.IsDir():
		return fmt.Errorf("datasets: data root %s is a file, expected a directory", dir)
	}
	return nil
}
