package pileup

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/geomix-go/geomix/datasets"
)

// TestDataSample checks where samples come from: Auto prefers a Zenodo file under the data root,
// else simulates into the cache once; Real offline without the file is ErrMissing; unknown samples
// are errors.
func TestDataSample(t *testing.T) {
	root, cache := t.TempDir(), t.TempDir()
	present := filepath.Join(root, "pileup", FileName("gg", 30))
	if err := Simulate(present, "gg", 30, 2, 99); err != nil {
		t.Fatal(err)
	}
	auto := Data{Root: root, Cache: cache, SimEvents: 5}
	// A simulator's file under the data root is used and still said to be simulated.
	s, err := auto.Sample("gg", 30)
	if err != nil || !s.Simulated || s.Path != present || !strings.Contains(s.String(), "seed 99), not a Zenodo file") {
		t.Fatalf("Auto with the simulated file present: %v, %v", s, err)
	}
	// A file without the simulator's note counts as the Zenodo file.
	zenodo := typedTree(t)
	if err := os.Rename(zenodo, present); err != nil {
		t.Fatal(err)
	}
	s, err = auto.Sample("gg", 30)
	if err != nil || s.Simulated || s.Path != present || !strings.Contains(s.String(), "Zenodo 8015774 file") {
		t.Fatalf("Auto with a Zenodo-like file present: %v, %v", s, err)
	}
	s, err = auto.Sample("qq", 50)
	want := filepath.Join(cache, "seed1-events5", FileName("qq", 50))
	if err != nil || !s.Simulated || s.Path != want || !strings.Contains(s.String(), "5 events, seed 1), not a Zenodo file") {
		t.Fatalf("Auto without the file: %v, %v; want %s", s, err, want)
	}
	if n, err := ReadEvents(s.Path, 0, func(int, *Event) error { return nil }); err != nil || n != 5 {
		t.Fatalf("cached file: %d events, %v", n, err)
	}
	info, _ := os.Stat(s.Path)
	if again, err := auto.Sample("qq", 50); err != nil || again != s {
		t.Fatalf("second use: %v, %v", again, err)
	}
	if info2, _ := os.Stat(s.Path); !info2.ModTime().Equal(info.ModTime()) {
		t.Error("the cached file was generated again")
	}
	_, err = Data{Root: root, Cache: cache, Mode: Real, Offline: true}.Sample("qq", 50)
	if !errors.Is(err, datasets.ErrMissing) || !strings.Contains(err.Error(), "test_qq_PU50.root") {
		t.Errorf("Real offline without the file: %v", err)
	}
	if s, err := (Data{Root: root, Mode: Simulated, Cache: cache}).Sample("gg", 30); err != nil || !s.Simulated {
		t.Errorf("Simulated mode used %v, %v", s, err)
	}
	for _, c := range []struct {
		process string
		pu      int
	}{{"zz", 30}, {"gg", 20}} {
		if _, err := auto.Sample(c.process, c.pu); err == nil {
			t.Errorf("sample %s PU%d accepted", c.process, c.pu)
		}
	}
}

// TestSampleStringHidesMachinePaths: a sample under the user cache is shown relative to it.
func TestSampleStringHidesMachinePaths(t *testing.T) {
	cache, err := os.UserCacheDir()
	if err != nil {
		t.Skip("no user cache directory")
	}
	s := Sample{Process: "gg", PU: 30, Path: filepath.Join(cache, "geomix", "pileup-simulated", "test_gg_PU30.root"), Origin: "simulated"}
	if got, want := s.String(), "gg PU30 at <user cache>/geomix/pileup-simulated/test_gg_PU30.root (simulated)"; got != want {
		t.Errorf("String() = %q, want %q", got, want)
	}
}
