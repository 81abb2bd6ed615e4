package torchbench

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/geomix-go/geomix/datasets"
	"github.com/gomlx/gomlx/pkg/ml/context"
)

// TestSummarise checks the pass statistics: medians over passes, the ratio paired by pass (2.5
// here, where the medians' ratio is 3), peaks as maxima.
func TestSummarise(t *testing.T) {
	ours := []*OursTiming{{10, 5, 100}, {20, 7, 120}, {40, 6, 110}}
	torch := []*TorchTiming{
		{MillisByThreads: map[int]float64{1: 100, 2: 900}, BestThreads: 1, MillisPerEpoch: 100, PeakRSSMiB: 300},
		{MillisByThreads: map[int]float64{1: 70, 2: 50}, BestThreads: 2, MillisPerEpoch: 50, PeakRSSMiB: 320},
		{MillisByThreads: map[int]float64{1: 60, 2: 400}, BestThreads: 1, MillisPerEpoch: 60, PeakRSSMiB: 310},
	}
	row := &Row{}
	summarise(row, ours, torch, []int{1, 2})
	if row.OursMillis != 20 || row.TorchMillis != 60 || row.TorchOverOurs != 2.5 || row.OursPeakRSSMiB != 120 || row.TorchPeakRSSMiB != 320 ||
		row.OursPeakHeapMiB != 7 || row.TorchMillisByThreads[1] != 70 || row.TorchMillisByThreads[2] != 400 {
		t.Errorf("summary %+v", row)
	}
}

// TestFindPythonErrors checks that every failed candidate is named with its reason.
func TestFindPythonErrors(t *testing.T) {
	_, err := FindPython([]string{"/nonexistent/python3", "false"})
	if err == nil || !strings.Contains(err.Error(), "/nonexistent/python3: not found") || !strings.Contains(err.Error(), "false") {
		t.Errorf("error %v: want both candidates named", err)
	}
}

// TestCompareOnSyntheticData times GCN and GeoMix-I with the PyTorch reference on the embedded
// data set, our side given by a function that reports fixed times: the script runs on the exported
// file, reports a positive time per thread count and a peak resident set above the interpreter's.
// It skips when no python3 imports torch.
func TestCompareOnSyntheticData(t *testing.T) {
	python, err := FindPython(DefaultPythons)
	if err != nil {
		t.Skipf("%v; %s", err, InstallHint)
	}
	dir := t.TempDir()
	ours := func(dataset, method string) (*OursTiming, error) {
		return &OursTiming{MillisPerEpoch: 1, PeakRSSMiB: 1}, nil
	}
	rows, err := Compare(context.New(), []string{"synthetic"}, []string{"gcn", "geomix1"},
		Options{Python: python.Path, Epochs: 2, Passes: 1, Threads: []int{1}, Dir: dir, Data: datasets.Options{}, Ours: ours})
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 2 || rows[0].Method != "gcn" || rows[1].Method != "geomix1" {
		t.Fatalf("rows %+v", rows)
	}
	for _, r := range rows {
		if r.TorchMillis <= 0 || r.TorchMillisByThreads[1] != r.TorchMillis || r.TorchOverOurs != r.TorchMillis || r.TorchPeakRSSMiB < python.ImportRSSMiB {
			t.Errorf("%s: %+v (torch import alone: %.0f MiB)", r.Method, r, python.ImportRSSMiB)
		}
	}
	for _, f := range []string{"geomix_ref.py", "synthetic-gcn.npz", "synthetic-geomix1.npz"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			t.Error(err)
		}
	}
	if _, err := Compare(context.New(), []string{"synthetic"}, []string{"gat"}, Options{Epochs: 1, Passes: 1, Threads: []int{1}, Dir: dir}); err == nil ||
		!strings.Contains(err.Error(), `method "gat"`) {
		t.Errorf("gat: error %v", err)
	}
}
