package pileup

import (
	"fmt"
	"os"
	"path/filepath"

	"go-hep.org/x/hep/groot"
	"go-hep.org/x/hep/groot/rbase"
	"go-hep.org/x/hep/groot/rtree"
)

// FileName is the Zenodo file name of a sample, e.g. "test_gg_PU30.root".
func FileName(process string, pu int) string { return fmt.Sprintf("test_%s_PU%d.root", process, pu) }

// rootEvent is the flat Delphes-like layout the simulator writes: a count branch and one
// variable-length branch per PF field, with Delphes' types (Float_t, Int_t).
type rootEvent struct {
	N        int32     `groot:"PF_size"`
	PT       []float32 `groot:"PF.PT[PF_size]"`
	Eta      []float32 `groot:"PF.Eta[PF_size]"`
	Phi      []float32 `groot:"PF.Phi[PF_size]"`
	Mass     []float32 `groot:"PF.Mass[PF_size]"`
	Charge   []int32   `groot:"PF.Charge[PF_size]"`
	PdgID    []int32   `groot:"PF.PdgID[PF_size]"`
	IsRecoPU []int32   `groot:"PF.IsRecoPU[PF_size]"`
	IsPU     []int32   `groot:"PF.IsPU[PF_size]"`
}

// SimulatorKey names the string the simulator stores beside the tree, saying what the file is; the
// Zenodo files have no such key (see SimulatorNote).
const SimulatorKey = "geomix-simulator"

// Simulate writes events simulated events of process ("gg"|"qq") at pileup pu to path as a ROOT
// file with tree "Delphes" and the PF branches ReadEvents reads (PF_size, PF.PT, ..., PF.IsPU), plus
// a SimulatorKey string, atomically: a failed write leaves no file at path. The same (process, pu, events, seed) give the
// same events; the first k events do not depend on events.
func Simulate(path, process string, pu, events int, seed uint64) error {
	if events <= 0 {
		return fmt.Errorf("pileup: %d events to simulate, expected a positive number", events)
	}
	sim, err := newSimulator(process, pu, seed)
	if err != nil {
		return err
	}
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("pileup: %w", err)
	}
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(path)+".tmp*")
	if err != nil {
		return fmt.Errorf("pileup: %w", err)
	}
	tmpName := tmp.Name()
	_ = tmp.Close()
	note := fmt.Sprintf("simulated by GeoMix-Go's Pileup simulator (process %s, PU %d, %d events, seed %d), not a Zenodo file",
		process, pu, events, seed)
	if err := writeEvents(tmpName, sim, events, note); err != nil {
		_ = os.Remove(tmpName)
		return fmt.Errorf("pileup: writing %s: %w", path, err)
	}
	if err := os.Rename(tmpName, path); err != nil {
		_ = os.Remove(tmpName)
		return fmt.Errorf("pileup: %w", err)
	}
	return nil
}

// writeEvents writes events events of sim and the note to a new ROOT file at path.
func writeEvents(path string, sim *simulator, events int, note string) (err error) {
	f, err := groot.Create(path)
	if err != nil {
		return err
	}
	defer func() {
		if cerr := f.Close(); err == nil {
			err = cerr
		}
	}()
	var row rootEvent
	w, err := rtree.NewWriter(f, TreeName, rtree.WriteVarsFromStruct(&row), rtree.WithTitle("Analysis tree"))
	if err != nil {
		return err
	}
	for i := 0; i < events; i++ {
		ev := sim.next()
		row = rootEvent{N: int32(ev.Len()), PT: ev.PT, Eta: ev.Eta, Phi: ev.Phi, Mass: ev.Mass,
			Charge: ev.Charge, PdgID: ev.PdgID, IsRecoPU: ev.IsRecoPU, IsPU: ev.IsPU}
		if _, err := w.Write(); err != nil {
			_ = w.Close()
			return fmt.Errorf("event %d: %w", i, err)
		}
	}
	if err := w.Close(); err != nil {
		return err
	}
	return f.Put(SimulatorKey, rbase.NewObjString(note))
}

// SimulatorNote returns the note Simulate stored in the ROOT file at path, or "" when the file has
// none (a Zenodo file). A file that cannot be opened as ROOT is an error.
func SimulatorNote(path string) (string, error) {
	f, err := openROOT(path)
	if err != nil {
		return "", err
	}
	defer func() { _ = f.Close() }()
	obj, err := f.Get(SimulatorKey)
	if err != nil {
		return "", nil
	}
	s, ok := obj.(*rbase.ObjString)
	if !ok {
		return "", fmt.Errorf("pileup: %s: %q is a %s, expected a TObjString", path, SimulatorKey, obj.Class())
	}
	return s.String(), nil
}
