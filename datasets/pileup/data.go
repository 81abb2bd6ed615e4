package pileup

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/geomix-go/geomix/datasets"
)

// Mode says where sample files come from.
type Mode int

const (
	// Auto uses the Zenodo file when it is present under the data root, else the simulator's file
	// (generated into the cache on first use). It never downloads.
	Auto Mode = iota
	// Real uses the Zenodo file only, downloading it when missing unless Data.Offline.
	Real
	// Simulated uses the simulator's file only.
	Simulated
)

// Defaults of Data.
const (
	// DefaultSimSeed seeds simulated samples when Data.SimSeed is 0.
	DefaultSimSeed = 1
	// DefaultSimEvents is the number of events of a cached simulated file when Data.SimEvents is 0;
	// the protocol reads at most the first 20 of a file.
	DefaultSimEvents = 200
)

// Data says where to find the samples.
type Data struct {
	// Root is the data root of the Zenodo files, under pileup/; "" means datasets.DefaultRoot().
	Root string
	// Cache is where simulated files are generated; "" means DefaultCache().
	Cache string
	// Mode chooses real or simulated files (default Auto).
	Mode Mode
	// Offline forbids downloading the Zenodo files (Real mode).
	Offline bool
	// SimSeed and SimEvents are the seed and length of simulated files (0: the defaults above).
	SimSeed   uint64
	SimEvents int
	// Progress receives download progress bars; nil means os.Stderr.
	Progress io.Writer
}

// Sample is one sample's resolved file.
type Sample struct {
	Process string
	PU      int
	// Path is the ROOT file.
	Path string
	// Simulated is true for a file the simulator wrote (found in the cache, or under the data root
	// with its SimulatorKey note); Origin says what the file is.
	Simulated bool
	Origin    string
}

// String says where the sample comes from, e.g. "gg PU30 at PATH (simulated by ... seed 1), not a
// Zenodo file)".
func (s Sample) String() string {
	return fmt.Sprintf("%s PU%d at %s (%s)", s.Process, s.PU, displayPath(s.Path), s.Origin)
}

// displayPath is path as notes and reports show it: under the user cache or home directory
// relative to it ("<user cache>/...", "~/..."), so that no machine's folders are shown.
func displayPath(path string) string {
	for _, base := range []struct{ dir, name string }{{userCacheDir(), "<user cache>"}, {homeDir(), "~"}} {
		if base.dir == "" {
			continue
		}
		if rel, err := filepath.Rel(base.dir, path); err == nil && !strings.HasPrefix(rel, "..") && !filepath.IsAbs(rel) {
			return filepath.Join(base.name, rel)
		}
	}
	return path
}

// userCacheDir and homeDir are os.UserCacheDir and os.UserHomeDir, "" when unknown.
func userCacheDir() string { d, _ := os.UserCacheDir(); return d }
func homeDir() string      { d, _ := os.UserHomeDir(); return d }

// zenodoOrigin is the Origin of a file without the simulator's note.
const zenodoOrigin = "Zenodo 8015774 file"

// Identify returns the Sample of the file at path: simulated when it carries the simulator's note.
func Identify(process string, pu int, path string) (Sample, error) {
	note, err := SimulatorNote(path)
	if err != nil {
		return Sample{}, err
	}
	s := Sample{Process: process, PU: pu, Path: path, Simulated: note != "", Origin: note}
	if !s.Simulated {
		s.Origin = zenodoOrigin
	}
	return s, nil
}

// DefaultCache is <os.UserCacheDir()>/geomix/pileup-simulated, or geomix-pileup-simulated in the
// working directory when no cache directory is known.
func DefaultCache() string {
	if dir, err := os.UserCacheDir(); err == nil {
		return filepath.Join(dir, "geomix", "pileup-simulated")
	}
	return "geomix-pileup-simulated"
}

// Sample resolves the file of (process, pu) as d.Mode says, simulating it into the cache when
// needed. An unknown sample, a missing Zenodo file in Real mode, or a failed simulation is an error.
func (d Data) Sample(process string, pu int) (Sample, error) {
	if !slices.Contains(Processes, process) || !slices.Contains(PileupLevels, pu) {
		return Sample{}, fmt.Errorf("pileup: unknown sample %s PU%d, expected process gg or qq and PU 10, 30, 50 or 140", process, pu)
	}
	if d.Mode != Simulated {
		path, err := d.real(process, pu)
		switch {
		case err == nil:
			return Identify(process, pu, path)
		case d.Mode == Real || !errors.Is(err, datasets.ErrMissing):
			return Sample{}, err
		}
	}
	return d.simulated(process, pu)
}

// real fetches the Zenodo file (Auto mode: only when present).
func (d Data) real(process string, pu int) (string, error) {
	rel := "pileup/" + FileName(process, pu)
	for _, f := range datasets.Files() {
		if f.Path == rel {
			opts := datasets.Options{Root: d.Root, Offline: d.Offline || d.Mode == Auto, Progress: d.Progress}
			path, err := opts.Fetch(f)
			if err != nil {
				return "", fmt.Errorf("%w; note: the Zenodo files' sizes and sha256 are unknown, so a downloaded copy is not verified", err)
			}
			return path, nil
		}
	}
	return "", fmt.Errorf("pileup: %s is not in the data-set file table", rel)
}

// simulated returns the cached simulated file, generating it on first use.
func (d Data) simulated(process string, pu int) (Sample, error) {
	seed, events, cache := d.SimSeed, d.SimEvents, d.Cache
	if seed == 0 {
		seed = DefaultSimSeed
	}
	if events == 0 {
		events = DefaultSimEvents
	}
	if cache == "" {
		cache = DefaultCache()
	}
	path := filepath.Join(cache, fmt.Sprintf("seed%d-events%d", seed, events), FileName(process, pu))
	if _, err := os.Stat(path); err != nil {
		if err := Simulate(path, process, pu, events, seed); err != nil {
			return Sample{}, err
		}
	}
	return Identify(process, pu, path)
}
