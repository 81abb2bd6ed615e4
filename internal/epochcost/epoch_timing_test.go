package epochcost

import (
	"testing"

	"github.com/geomix-go/geomix/internal/testutil"

	"github.com/geomix-go/geomix/datasets"
	"github.com/gomlx/gomlx/pkg/ml/context"
)

func TestMedianIQR(t *testing.T) {
	for _, tc := range []struct {
		xs                  []float64
		wantMedian, wantIQR float64
	}{
		{[]float64{5}, 5, 0},
		{[]float64{4, 1, 3, 2}, 2.5, 1.5}, // quartiles 1.75 and 3.25
		{[]float64{10, 1, 2, 3, 4}, 3, 2}, // quartiles 2 and 4
	} {
		median, iqr := medianIQR(tc.xs)
		if median != tc.wantMedian || iqr != tc.wantIQR {
			t.Errorf("medianIQR(%v) = %v, %v, want %v, %v", tc.xs, median, iqr, tc.wantMedian, tc.wantIQR)
		}
	}
}

// TestTimeEpochsPresets times three methods on the embedded data set, GCN in the middle: every
// timing has its epochs, a positive time and heap, and a ratio to GCN except GCN's own.
func TestTimeEpochsPresets(t *testing.T) {
	methods := []string{"geomix1", "gcn", "geomix3"}
	timings, err := TimeEpochsPresets(context.New(), testutil.Backend(t), "synthetic", methods, datasets.Options{}, 3)
	if err != nil {
		t.Fatal(err)
	}
	if len(timings) != len(methods) {
		t.Fatalf("%d timings, want %d", len(timings), len(methods))
	}
	for i, tm := range timings {
		if tm.Method != methods[i] || tm.Dataset != "synthetic" || tm.Epochs != 3 || tm.MillisPerEpoch <= 0 || tm.MillisIQR < 0 || tm.PeakHeapMiB <= 0 {
			t.Errorf("timing %d: %+v", i, tm)
		}
		if hasRatio := tm.RatioToGCN > 0; hasRatio != (tm.Method != "gcn") {
			t.Errorf("%s: ratio to GCN %v", tm.Method, tm.RatioToGCN)
		}
	}
	if _, err := TimeEpochsPresets(context.New(), testutil.Backend(t), "synthetic", methods, datasets.Options{}, 0); err == nil {
		t.Error("0 epochs: no error")
	}
}
