package pileup

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"go-hep.org/x/hep/groot"
	"go-hep.org/x/hep/groot/rtree"
)

// simulatedFile writes a small simulated sample into a temporary directory.
func simulatedFile(t testing.TB, process string, pu, events int) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), FileName(process, pu))
	if err := Simulate(path, process, pu, events, 7); err != nil {
		t.Fatal(err)
	}
	return path
}

// copyEvent deep-copies ev.
func copyEvent(ev *Event) Event {
	return Event{PT: clone(ev.PT), Eta: clone(ev.Eta), Phi: clone(ev.Phi), Mass: clone(ev.Mass), Charge: clone(ev.Charge),
		PdgID: clone(ev.PdgID), IsRecoPU: clone(ev.IsRecoPU), IsPU: clone(ev.IsPU)}
}

func clone[T any](s []T) []T { return append([]T{}, s...) }

// TestReadRoundTrip reads a simulated file back and finds the simulator's events, in order, with
// first-N selection.
func TestReadRoundTrip(t *testing.T) {
	path := simulatedFile(t, "gg", 30, 12)
	sim, err := newSimulator("gg", 30, 7)
	if err != nil {
		t.Fatal(err)
	}
	var want []Event
	for i := 0; i < 12; i++ {
		want = append(want, copyEvent(sim.next()))
	}
	var got []Event
	n, err := ReadEvents(path, 5, func(entry int, ev *Event) error {
		if entry != len(got) {
			t.Errorf("entry %d, want %d", entry, len(got))
		}
		got = append(got, copyEvent(ev))
		return nil
	})
	if err != nil || n != 5 || len(got) != 5 {
		t.Fatalf("read %d (%d) events, err %v; want 5", n, len(got), err)
	}
	for i := range got {
		if !reflect.DeepEqual(got[i], want[i]) {
			t.Fatalf("event %d differs from the simulator's", i)
		}
		if got[i].Len() < 300 {
			t.Errorf("event %d has %d candidates, expected a PU30 event (> 300)", i, got[i].Len())
		}
	}
	// n <= 0 and n beyond the tree read every entry.
	for _, n := range []int{0, 100} {
		if all, err := ReadEvents(path, n, func(int, *Event) error { return nil }); err != nil || all != 12 {
			t.Errorf("ReadEvents(n=%d) read %d, err %v; want 12", n, all, err)
		}
	}
}

// TestSimulateDeterministic checks that the same seed writes the same bytes' events and another
// seed other events.
func TestSimulateDeterministic(t *testing.T) {
	read := func(seed uint64) []Event {
		path := filepath.Join(t.TempDir(), "x.root")
		if err := Simulate(path, "qq", 10, 3, seed); err != nil {
			t.Fatal(err)
		}
		var out []Event
		if _, err := ReadEvents(path, 0, func(_ int, ev *Event) error { out = append(out, copyEvent(ev)); return nil }); err != nil {
			t.Fatal(err)
		}
		return out
	}
	a, b, c := read(3), read(3), read(4)
	if !reflect.DeepEqual(a, b) {
		t.Error("the same seed gave different events")
	}
	if reflect.DeepEqual(a, c) {
		t.Error("seeds 3 and 4 gave the same events")
	}
}

// writeTree writes a Delphes tree with the given variables (one event).
func writeTree(t *testing.T, vars []rtree.WriteVar) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "custom.root")
	f, err := groot.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	w, err := rtree.NewWriter(f, TreeName, vars)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.Write(); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestReadErrors checks that a missing, non-ROOT or truncated file, and a tree without a needed
// branch, are errors naming the file (and the branch).
func TestReadErrors(t *testing.T) {
	dir := t.TempDir()
	noop := func(int, *Event) error { return nil }
	missing := filepath.Join(dir, "test_gg_PU30.root")
	text := filepath.Join(dir, "text.root")
	if err := os.WriteFile(text, []byte("not a ROOT file\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	whole, err := os.ReadFile(simulatedFile(t, "gg", 50, 20))
	if err != nil {
		t.Fatal(err)
	}
	truncated := filepath.Join(dir, "truncated.root")
	if err := os.WriteFile(truncated, whole[:len(whole)/2], 0o644); err != nil {
		t.Fatal(err)
	}
	n := int32(1)
	pt, i32 := []float32{1}, []int32{0}
	noIsPU := writeTree(t, []rtree.WriteVar{
		{Name: "PF_size", Value: &n}, {Name: "PF.PT", Value: &pt, Count: "PF_size"}, {Name: "PF.Eta", Value: &pt, Count: "PF_size"},
		{Name: "PF.Phi", Value: &pt, Count: "PF_size"}, {Name: "PF.Mass", Value: &pt, Count: "PF_size"},
		{Name: "PF.Charge", Value: &i32, Count: "PF_size"}, {Name: "PF.PdgID", Value: &i32, Count: "PF_size"},
		{Name: "PF.IsRecoPU", Value: &i32, Count: "PF_size"},
	})
	for _, c := range []struct {
		path  string
		words []string
	}{
		{missing, []string{missing, "does not exist"}},
		{dir, []string{dir, "directory"}},
		{text, []string{text, "not a readable ROOT file"}},
		{truncated, []string{truncated, "not a readable ROOT file"}},
		{noIsPU, []string{noIsPU, `no branch "PF.IsPU"`}},
	} {
		_, err := ReadEvents(c.path, 0, noop)
		if err == nil {
			t.Errorf("%s: no error", c.path)
			continue
		}
		for _, w := range c.words {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%s: error %q does not say %q", c.path, err, w)
			}
		}
	}
}

// typedTree writes a one-event Delphes tree with float64/int64 leaves and the PT branch under the
// reference code's "PF/" alias: a file without the simulator's note, like a Zenodo file.
func typedTree(t *testing.T) string {
	n := int32(2)
	f64 := []float64{1.5, -2.25}
	i64 := []int64{-211, 22}
	return writeTree(t, []rtree.WriteVar{
		{Name: "PF_size", Value: &n}, {Name: "PF/PF.PT", Value: &f64, Count: "PF_size"}, {Name: "PF.Eta", Value: &f64, Count: "PF_size"},
		{Name: "PF.Phi", Value: &f64, Count: "PF_size"}, {Name: "PF.Mass", Value: &f64, Count: "PF_size"},
		{Name: "PF.Charge", Value: &i64, Count: "PF_size"}, {Name: "PF.PdgID", Value: &i64, Count: "PF_size"},
		{Name: "PF.IsRecoPU", Value: &i64, Count: "PF_size"}, {Name: "PF.IsPU", Value: &i64, Count: "PF_size"},
	})
}

// TestReadConvertsLeafTypes reads float64/int64 leaves into the Event's float32/int32, and finds a
// branch by the reference code's "PF/" alias.
func TestReadConvertsLeafTypes(t *testing.T) {
	path := typedTree(t)
	var got Event
	if _, err := ReadEvents(path, 0, func(_ int, ev *Event) error { got = copyEvent(ev); return nil }); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got.PT, []float32{1.5, -2.25}) || !reflect.DeepEqual(got.Eta, []float32{1.5, -2.25}) ||
		!reflect.DeepEqual(got.PdgID, []int32{-211, 22}) {
		t.Errorf("read %+v", got)
	}
	if note, err := SimulatorNote(path); note != "" || err != nil {
		t.Errorf("SimulatorNote of a plain file: %q, %v", note, err)
	}
}

// TestReadPassesCallbackErrors checks that fn's error ends the read and comes back with the file's
// name, not as a damaged file.
func TestReadPassesCallbackErrors(t *testing.T) {
	path := simulatedFile(t, "qq", 10, 4)
	stop := errors.New("stop here")
	n, err := ReadEvents(path, 0, func(entry int, _ *Event) error {
		if entry == 1 {
			return stop
		}
		return nil
	})
	if !errors.Is(err, stop) || strings.Contains(err.Error(), "damaged") || !strings.Contains(err.Error(), path) || n != 2 {
		t.Errorf("read %d, error %v", n, err)
	}
}
