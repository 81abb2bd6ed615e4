package pileup

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"

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
	// Simulated is true for the simulator's file; SimSeed and SimEvents then say which.
	Simulated bool
	SimSeed   uint64
	SimEvents int
}

// String says where the sample comes from, e.g. "gg PU30: simulated (seed 1, 200 events) at ...".
func (s Sample) String() string {
	if s.Simulated {
		return fmt.Sprintf("%s PU%d: simulated (seed %d, %d events) at %s", s.Process, s.PU, s.SimSeed, s.SimEvents, s.Path)
	}
	return fmt.Sprintf("%s PU%d: Zenodo 8015774 file %s", s.Process, s.PU, s.Path)
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
			return Sample{Process: process, PU: pu, Path: path}, nil
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
	s := Sample{Process: process, PU: pu, Simulated: true, SimSeed: d.SimSeed, SimEvents: d.SimEvents}
	if s.SimSeed == 0 {
		s.SimSeed = DefaultSimSeed
	}
	if s.SimEvents == 0 {
		s.SimEvents = DefaultSimEvents
	}
	cache := d.Cache
	if cache == "" {
		cache = DefaultCache()
	}
	s.Path = filepath.Join(cache, fmt.Sprintf("seed%d-events%d", s.SimSeed, s.SimEvents), FileName(process, pu))
	if _, err := os.Stat(s.Path); err == nil {
		return s, nil
	}
	if err := Simulate(s.Path, process, pu, s.SimEvents, s.SimSeed); err != nil {
		return Sample{}, err
	}
	return s, nil
}
