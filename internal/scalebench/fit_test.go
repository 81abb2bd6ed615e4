package scalebench

import (
	"math"
	"testing"
)

func TestFitRecoversAPowerLaw(t *testing.T) {
	edges := []float64{1e3, 1e4, 1e5, 1e6}
	millis := make([]float64, len(edges))
	for i, e := range edges {
		millis[i] = Power(0.002, 1.1, e)
	}
	b, a, err := Fit(edges, millis)
	if err != nil || math.Abs(b-1.1) > 1e-9 || math.Abs(a-0.002) > 1e-12 {
		t.Fatalf("Fit = %g, %g, %v; want 1.1, 0.002", b, a, err)
	}
	for _, bad := range [][2][]float64{{{1}, {1}}, {{1, 2}, {1}}, {{1, 1}, {2, 3}}, {{1, 2}, {0, 3}}} {
		if _, _, err := Fit(bad[0], bad[1]); err == nil {
			t.Errorf("Fit(%v, %v) gave no error", bad[0], bad[1])
		}
	}
}
