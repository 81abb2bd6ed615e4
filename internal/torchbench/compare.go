package torchbench

import (
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strings"

	"github.com/geomix-go/geomix/datasets"
	"github.com/geomix-go/geomix/geomix/presets"
	"github.com/geomix-go/geomix/internal/atomicfile"
	"github.com/geomix-go/geomix/internal/stats"
	"github.com/gomlx/gomlx/pkg/ml/context"
)

// OursTiming is our side of a cell, timed in a process of its own (as the PyTorch side is, so that
// the peak resident sets compare).
type OursTiming struct {
	// MillisPerEpoch is the median epoch, PeakHeapMiB the largest Go heap (epochcost.EpochTiming).
	MillisPerEpoch float64
	PeakHeapMiB    float64
	// PeakRSSMiB is the process's largest resident set.
	PeakRSSMiB float64
}

// Row is one (data set, method) timed on both sides, pass after pass.
type Row struct {
	// Dataset and Method name the cell (datasets and geomix names).
	Dataset string `json:"dataset"`
	Method  string `json:"method"`
	// TorchFlags are geomix_ref.py's flags for the cell (Flags).
	TorchFlags []string `json:"torch_flags"`
	// OursMillis is the median over the passes of our median epoch.
	OursMillis float64 `json:"ours_ms_per_epoch"`
	// TorchMillis is the median over the passes of PyTorch's median epoch at its faster thread
	// count of the pass; TorchMillisByThreads the median over the passes at each thread count.
	TorchMillis          float64         `json:"torch_ms_per_epoch"`
	TorchMillisByThreads map[int]float64 `json:"torch_ms_per_epoch_by_threads"`
	// TorchOverOurs is the median over the passes of PyTorch's epoch (its faster thread count)
	// over ours of the same pass: above 1, ours is faster.
	TorchOverOurs float64 `json:"torch_over_ours"`
	// OursPeakRSSMiB and TorchPeakRSSMiB are the largest resident sets of the two sides' processes
	// over the passes (runtime, interpreter and libraries included); OursPeakHeapMiB our largest
	// Go heap.
	OursPeakRSSMiB  float64 `json:"ours_peak_rss_mib"`
	TorchPeakRSSMiB float64 `json:"torch_peak_rss_mib"`
	OursPeakHeapMiB float64 `json:"ours_peak_heap_mib"`
}

// Options configures Compare.
type Options struct {
	// Python is the interpreter that imports torch (FindPython).
	Python string
	// Epochs are the timed epochs per process after the warm-up, Passes how often each side of
	// each cell is timed, Threads the torch thread counts (the best is taken).
	Epochs, Passes int
	Threads        []int
	// Dir receives the script and the exported data sets.
	Dir string
	// Data is where the data sets load from.
	Data datasets.Options
	// Ours times our epochs of (dataset, method) with their presets in a separate process (with
	// the same overrides as Compare's ctx).
	Ours func(dataset, method string) (*OursTiming, error)
	// Progress receives a line per pass of a data set, if not nil.
	Progress io.Writer
}

// Compare times methods on each data set with our trainer (Options.Ours) and with the PyTorch
// reference (geomix_ref.py --bench), each in a process of its own, on the same data: the data set as
// presets.Load gives it to our trainer for the method (raw or normalised features), exported with
// Graph.WriteNPZ, and the same hyper-parameters (the presets, ctx's overriding them; Flags). Per
// data set it runs Passes passes; a pass times every method on both sides, each method in turn
// first and the two sides in alternating order, so that the machine's slow spells fall on both
// alike.
func Compare(ctx *context.Context, datasetNames, methodNames []string, o Options) ([]*Row, error) {
	if err := CheckMethods(methodNames); err != nil {
		return nil, err
	}
	if o.Epochs < 1 || o.Passes < 1 || len(o.Threads) == 0 {
		return nil, fmt.Errorf("%d epochs, %d passes, threads %v: want at least one of each", o.Epochs, o.Passes, o.Threads)
	}
	script, err := WriteScript(o.Dir)
	if err != nil {
		return nil, err
	}
	var rows []*Row
	for _, d := range datasetNames {
		cells, npzs := make([]*Row, len(methodNames)), make([]string, len(methodNames))
		for i, m := range methodNames {
			if cells[i], npzs[i], err = prepare(ctx, d, m, o); err != nil {
				return nil, fmt.Errorf("%s/%s: %w", d, m, err)
			}
		}
		ours := make([][]*OursTiming, len(methodNames)) // [method][pass]
		torch := make([][]*TorchTiming, len(methodNames))
		for pass := range o.Passes {
			if o.Progress != nil {
				fmt.Fprintf(o.Progress, "against torch: %s, pass %d of %d: %s, %d epochs each side (load %s)\n", d, pass+1, o.Passes, strings.Join(methodNames, ", "), o.Epochs, LoadAverage())
			}
			for k := range methodNames {
				i := (pass + k) % len(methodNames)
				timeOurs := func() error {
					t, err := o.Ours(d, methodNames[i])
					ours[i] = append(ours[i], t)
					return err
				}
				timeTorch := func() error {
					t, err := BenchTorch(o.Python, script, npzs[i], cells[i].TorchFlags, o.Epochs, o.Threads)
					torch[i] = append(torch[i], t)
					return err
				}
				first, second := timeOurs, timeTorch
				if (pass+k)%2 == 1 {
					first, second = timeTorch, timeOurs
				}
				if err := first(); err != nil {
					return nil, fmt.Errorf("%s/%s: %w", d, methodNames[i], err)
				}
				if err := second(); err != nil {
					return nil, fmt.Errorf("%s/%s: %w", d, methodNames[i], err)
				}
			}
		}
		for i, row := range cells {
			summarise(row, ours[i], torch[i], o.Threads)
		}
		rows = append(rows, cells...)
	}
	return rows, nil
}

// CheckMethods returns an error naming the first of methodNames the PyTorch reference does not
// implement (see Methods).
func CheckMethods(methodNames []string) error {
	for _, m := range methodNames {
		if !slices.Contains(Methods, m) {
			return fmt.Errorf("method %q: the PyTorch reference implements %s", m, strings.Join(Methods, ", "))
		}
	}
	return nil
}

// prepare exports the data set as our trainer sees it for method and returns the cell's row with
// its torch flags, and the exported file.
func prepare(ctx *context.Context, dataset, method string, o Options) (*Row, string, error) {
	merged, g, _, err := presets.Load(ctx, dataset, method, o.Data)
	if err != nil {
		return nil, "", err
	}
	flags, err := Flags(merged, method)
	if err != nil {
		return nil, "", err
	}
	npz := filepath.Join(o.Dir, dataset+"-"+method+".npz")
	if err := atomicfile.Write(npz, g.WriteNPZ); err != nil {
		return nil, "", err
	}
	return &Row{Dataset: dataset, Method: method, TorchFlags: flags}, npz, nil
}

// summarise fills row's times, ratio and peaks from the passes' timings of both sides.
func summarise(row *Row, ours []*OursTiming, torch []*TorchTiming, threads []int) {
	var oursMs, torchMs, ratios []float64
	for p := range ours {
		oursMs = append(oursMs, ours[p].MillisPerEpoch)
		torchMs = append(torchMs, torch[p].MillisPerEpoch)
		ratios = append(ratios, torch[p].MillisPerEpoch/ours[p].MillisPerEpoch)
		row.OursPeakRSSMiB = max(row.OursPeakRSSMiB, ours[p].PeakRSSMiB)
		row.OursPeakHeapMiB = max(row.OursPeakHeapMiB, ours[p].PeakHeapMiB)
		row.TorchPeakRSSMiB = max(row.TorchPeakRSSMiB, torch[p].PeakRSSMiB)
	}
	row.OursMillis, row.TorchMillis, row.TorchOverOurs = stats.Median(oursMs), stats.Median(torchMs), stats.Median(ratios)
	row.TorchMillisByThreads = map[int]float64{}
	for _, t := range threads {
		var ms []float64
		for _, tt := range torch {
			ms = append(ms, tt.MillisByThreads[t])
		}
		row.TorchMillisByThreads[t] = stats.Median(ms)
	}
}
