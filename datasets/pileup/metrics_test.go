package pileup

import (
	"math"
	"testing"
)

// TestMetrics checks the metrics on hand-made predictions.
func TestMetrics(t *testing.T) {
	//                  0  1  2  3  4  5  6  7
	labels := []int32{1, 1, 0, 0, 0, 0, 0, 1}
	pred := []int32{1, 0, 0, 0, 1, 0, 1, 1}
	scores := []float32{0.9, 0.3, 0.1, 0.3, 0.6, 0.2, 0.7, 0.0}
	nodes := []int32{0, 1, 2, 3, 4, 5} // 2 LV, 4 PU; node 6, 7 excluded
	near := func(got, want float64) bool { return math.Abs(got-want) < 1e-12 }
	if got := Accuracy(pred, labels, nodes); !near(got, 4.0/6) {
		t.Errorf("Accuracy = %v, want 4/6", got)
	}
	// LV recall 1/2, PU recall 3/4.
	if got := BalancedAccuracy(pred, labels, nodes); !near(got, (0.5+0.75)/2) {
		t.Errorf("BalancedAccuracy = %v, want 0.625", got)
	}
	// LV scores {0.9, 0.3} against PU {0.1, 0.3, 0.6, 0.2}: 0.9 beats 4; 0.3 beats 2, ties 1 → 6.5/8.
	if got := AUC(scores, labels, nodes); !near(got, 6.5/8) {
		t.Errorf("AUC = %v, want 0.8125", got)
	}
	if got := MajorityAccuracy(labels, nodes); !near(got, 4.0/6) {
		t.Errorf("MajorityAccuracy = %v, want 4/6", got)
	}
	// Perfect and inverted scores; a single class.
	if got := AUC([]float32{0.1, 0.9}, []int32{0, 1}, []int32{0, 1}); got != 1 {
		t.Errorf("perfect AUC = %v", got)
	}
	if got := AUC([]float32{0.9, 0.1}, []int32{0, 1}, []int32{0, 1}); got != 0 {
		t.Errorf("inverted AUC = %v", got)
	}
	if got := AUC(scores, labels, []int32{2, 3}); got != 0.5 {
		t.Errorf("single-class AUC = %v, want 0.5", got)
	}
	if got := BalancedAccuracy(pred, labels, []int32{2, 4}); got != 0.5 {
		t.Errorf("single-class balanced accuracy = %v, want 0.5", got)
	}
	if Accuracy(pred, labels, nil) != 0 || MajorityAccuracy(labels, nil) != 0 {
		t.Error("metrics of no nodes are not 0")
	}
}
