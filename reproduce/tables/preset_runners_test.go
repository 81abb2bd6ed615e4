package tables

import (
	"sync"
	"testing"

	"github.com/geomix-go/geomix/datasets"
	"github.com/geomix-go/geomix/geomix"
)

// TestPresetCellsConcurrent: cells trained at once on one backend (Options.Jobs) give exactly the
// runs each gives alone, on the synthetic data set with the quick protocol.
func TestPresetCellsConcurrent(t *testing.T) {
	if testing.Short() {
		t.Skip("trains four quick cells (~15 s)")
	}
	backend, err := geomix.NewBackend()
	if err != nil {
		t.Fatal(err)
	}
	runner := PresetCells(backend, datasets.Options{Offline: true}, nil)
	cells := []Cell{{Dataset: "synthetic", Method: "gcn", Runs: 1, Quick: true},
		{Dataset: "synthetic", Method: "geomix1", Runs: 1, Quick: true}}
	alone := make([]*geomix.Result, len(cells))
	for i, c := range cells {
		if alone[i], err = runner(c); err != nil {
			t.Fatal(err)
		}
	}
	together := make([]*geomix.Result, len(cells))
	errs := make([]error, len(cells))
	var wg sync.WaitGroup
	for i, c := range cells {
		wg.Go(func() { together[i], errs[i] = runner(c) })
	}
	wg.Wait()
	for i, c := range cells {
		if errs[i] != nil {
			t.Fatalf("%s/%s at once: %v", c.Dataset, c.Method, errs[i])
		}
		for r := range alone[i].PerRun {
			a, b := alone[i].PerRun[r], together[i].PerRun[r]
			if a.TestAcc != b.TestAcc || a.ValAcc != b.ValAcc || a.BestEpoch != b.BestEpoch {
				t.Errorf("%s/%s run %d: alone test %.2f val %.2f epoch %d, at once %.2f, %.2f, %d", c.Dataset, c.Method, r,
					a.TestAcc, a.ValAcc, a.BestEpoch, b.TestAcc, b.ValAcc, b.BestEpoch)
			}
		}
	}
}
