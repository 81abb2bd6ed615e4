package torchbench

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/geomix-go/geomix/internal/atomicfile"
	"github.com/geomix-go/geomix/tools/torchref"
)

// TorchTiming is one run of geomix_ref.py --bench: one process, its epochs timed at each thread
// count in turn.
type TorchTiming struct {
	// MillisByThreads is the median epoch at each thread count, keyed by the count.
	MillisByThreads map[int]float64
	// BestThreads is the thread count of the fastest median, MillisPerEpoch that median.
	BestThreads    int
	MillisPerEpoch float64
	// PeakRSSMiB is the process's largest resident set (interpreter and torch included).
	PeakRSSMiB float64
}

// WriteScript writes geomix_ref.py into dir and returns its path.
func WriteScript(dir string) (string, error) {
	path := filepath.Join(dir, "geomix_ref.py")
	return path, atomicfile.Write(path, func(w io.Writer) error {
		_, err := w.Write(torchref.Script)
		return err
	})
}

// BenchTorch runs script (geomix_ref.py) with python on the exported data set npz and flags
// (Flags), timing epochs epochs at each of threads after a warm-up epoch each.
func BenchTorch(python, script, npz string, flags []string, epochs int, threads []int) (*TorchTiming, error) {
	counts := make([]string, len(threads))
	for i, t := range threads {
		counts[i] = strconv.Itoa(t)
	}
	args := append(append([]string{script, "--npz", npz}, flags...), "--bench", strconv.Itoa(epochs), "--bench_threads", strings.Join(counts, ","))
	cmd := exec.Command(python, args...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return nil, fmt.Errorf("%s %s: %w: %s", python, strings.Join(args, " "), err, lastLine(stderr.String(), err))
	}
	var out struct {
		Bench *struct {
			Threads map[string]struct {
				Millis float64 `json:"ms_per_epoch"`
			} `json:"threads"`
			BestThreads int     `json:"best_threads"`
			Millis      float64 `json:"ms_per_epoch"`
		} `json:"bench"`
	}
	if err := json.Unmarshal(stdout.Bytes(), &out); err != nil || out.Bench == nil || len(out.Bench.Threads) != len(threads) {
		return nil, fmt.Errorf("%s --bench printed %q: want one JSON object {\"bench\": ...} with %d thread counts", script, stdout.String(), len(threads))
	}
	t := &TorchTiming{MillisByThreads: map[int]float64{}, BestThreads: out.Bench.BestThreads, MillisPerEpoch: out.Bench.Millis,
		PeakRSSMiB: PeakRSSMiB(cmd.ProcessState)}
	for k, v := range out.Bench.Threads {
		n, err := strconv.Atoi(k)
		if err != nil {
			return nil, fmt.Errorf("%s --bench: thread count %q is not a number", script, k)
		}
		t.MillisByThreads[n] = v.Millis
	}
	return t, nil
}
