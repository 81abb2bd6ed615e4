package pileup

import (
	"math"
	"testing"
)

// TestNeighbourStats counts the statistic on a hand-made event: neutral 0 (LV) sees charged LV 2
// and charged PU 3, neutral 1 (PU) sees charged PU 3 only, neutral 4 (PU) has no charged neighbour.
func TestNeighbourStats(t *testing.T) {
	g := &EventGraph{
		Particles: Event{PT: make([]float32, 5), Charge: []int32{0, 0, 1, -1, 0}},
		Labels:    []int32{LabelLV, LabelPU, LabelLV, LabelPU, LabelPU},
		Neutral:   []int32{0, 1, 4},
		Src:       []int32{0, 0, 1, 2, 3, 3, 4, 0},
		Dst:       []int32{2, 3, 3, 0, 0, 1, 0, 4},
	}
	s := NeighbourStats([]*EventGraph{g})
	if len(s.LV) != 1 || s.LV[0] != 0.5 || len(s.PU) != 1 || s.PU[0] != 0 || s.NoCharged != 1 {
		t.Errorf("stats %+v, want LV [0.5], PU [0], 1 without charged neighbours", s)
	}
	if auc := s.AUC(); auc != 1 {
		t.Errorf("AUC %v, want 1", auc)
	}
	if sp := g.Species(); sp[0] != SpeciesNeutralLV || sp[1] != SpeciesNeutralPU || sp[2] != SpeciesChargedLV || sp[3] != SpeciesChargedPU {
		t.Errorf("species %v", sp)
	}
	lv, pu := s.Histograms(4)
	if lv[2] != 100 || pu[0] != 100 || lv[0] != 0 {
		t.Errorf("histograms LV %v, PU %v", lv, pu)
	}
	if got := histogram([]float64{0, 0.5, 1, 1}, 4); got[0] != 25 || got[2] != 25 || got[3] != 50 {
		t.Errorf("histogram %v", got)
	}
	if l := BinLabels(10); l[1] != "0.1-0.2" || len(l) != 10 {
		t.Errorf("labels %v", l)
	}
	if got := s.String(); got != "lv_mean=0.500 pu_mean=0.000 auc=1.000 lv=1 pu=1 no_charged=1" {
		t.Errorf("String() = %q", got)
	}
	if !math.IsNaN(mean(nil)) {
		t.Error("mean of nothing is not NaN")
	}
}
