package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/geomix-go/geomix/datasets"
	"github.com/geomix-go/geomix/internal/atomicfile"
	"github.com/geomix-go/geomix/internal/torchbench"
	"github.com/geomix-go/geomix/reproduce/tables"
	"github.com/gomlx/gomlx/pkg/ml/context"
)

// torchFlags are bench's flags of --against-torch.
type torchFlags struct {
	fs      *flag.FlagSet
	against *bool
	python  *string
	passes  *int
	threads *string
}

// addTorchFlags defines bench's --against-torch flags on fs.
func addTorchFlags(fs *flag.FlagSet) *torchFlags {
	return &torchFlags{fs: fs,
		against: fs.Bool("against-torch", false, "time each method beside the PyTorch reference (tools/torchref/geomix_ref.py --bench) on the same data and hyper-parameters, each side in processes of its own, and print both side by side (--out is written after every data set); skipped with a message when no python3 imports torch"),
		python:  fs.String("python", "", "with --against-torch: the python3 that imports torch (default: the first of "+strings.Join(torchbench.DefaultPythons, ", ")+" that does)"),
		passes:  fs.Int("passes", 3, "with --against-torch: how often each side of each cell is timed (in a new process each time), the sides alternating"),
		threads: fs.String("torch-threads", "1,2", "with --against-torch: torch thread counts, each timed epoch by epoch in turn; the faster is compared"),
	}
}

// torchReport is `reproduce bench --against-torch --json` and its --out file.
type torchReport struct {
	Rows         []*torchbench.Row `json:"rows"`
	CPU          string            `json:"cpu"`
	Cores        int               `json:"cores"`
	GoVersion    string            `json:"go_version"`
	GOMAXPROCS   int               `json:"gomaxprocs"`
	Backend      string            `json:"backend"`
	Python       string            `json:"python"`
	TorchVersion string            `json:"torch_version"`
	TorchImport  float64           `json:"torch_import_rss_mib"` // the interpreter's peak importing torch alone
	TorchThreads []int             `json:"torch_threads"`
	Passes       int               `json:"passes"`
	Epochs       int               `json:"epochs"`
	LoadStart    string            `json:"load_average_start"` // 1, 5 and 15 minutes
	LoadEnd      string            `json:"load_average_end"`
	GitRevision  string            `json:"git_revision"` // of the working directory, which need not be the binary's
	MeasuredAt   string            `json:"measured_at"`
}

// run implements `reproduce bench --against-torch`: torchbench.Compare with our side timed by
// this binary's `bench --json` in a child process per cell and pass.
func (t *torchFlags) run(ctx *context.Context, datasetList, methodList []string, epochs int, dataDir string, sets setFlags, out string, asJSON bool, stdout, stderr io.Writer) error {
	if t.fs.Lookup("profile").Value.String() == "true" {
		return fmt.Errorf("--profile and --against-torch: choose one")
	}
	var threads []int
	for _, s := range strings.Split(*t.threads, ",") {
		n, err := strconv.Atoi(s)
		if err != nil || n < 1 || slices.Contains(threads, n) {
			return fmt.Errorf("--torch-threads %q: want comma-separated distinct positive counts", *t.threads)
		}
		threads = append(threads, n)
	}
	if *t.passes < 1 {
		return fmt.Errorf("--passes %d: want at least 1", *t.passes)
	}
	if err := torchbench.CheckMethods(methodList); err != nil {
		return err
	}
	candidates := torchbench.DefaultPythons
	if *t.python != "" {
		candidates = []string{*t.python}
	}
	python, err := torchbench.FindPython(candidates)
	if err != nil {
		fmt.Fprintf(stderr, "bench --against-torch: skipped: %v; %s\n", err, torchbench.InstallHint)
		return nil
	}
	self, err := os.Executable()
	if err != nil {
		return err
	}
	dir, err := os.MkdirTemp("", "geomix-against-torch-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	report := torchReport{CPU: torchbench.CPUModel(), Cores: runtime.NumCPU(), GoVersion: runtime.Version(), GOMAXPROCS: runtime.GOMAXPROCS(0),
		Python: python.Path, TorchVersion: python.TorchVersion, TorchImport: python.ImportRSSMiB, TorchThreads: threads, Passes: *t.passes, Epochs: epochs,
		LoadStart: torchbench.LoadAverage(), GitRevision: tables.GitRevision("."), MeasuredAt: time.Now().UTC().Format(time.RFC3339)}
	ours := func(dataset, method string) (*torchbench.OursTiming, error) {
		args := []string{"bench", "--datasets", dataset, "--methods", method, "--epochs", strconv.Itoa(epochs), "--data", dataDir, "--json"}
		for _, kv := range sets {
			args = append(args, "--set", kv)
		}
		cmd := exec.Command(self, args...)
		var errOut strings.Builder
		cmd.Stderr = &errOut
		text, err := cmd.Output()
		if err != nil {
			return nil, fmt.Errorf("reproduce %s: %w\n%s", strings.Join(args, " "), err, errOut.String())
		}
		var r benchReport
		if err := json.Unmarshal(text, &r); err != nil || len(r.Rows) != 1 {
			return nil, fmt.Errorf("reproduce %s printed %q: want a bench report of one row", strings.Join(args, " "), text)
		}
		report.Backend = r.Backend
		return &torchbench.OursTiming{MillisPerEpoch: r.Rows[0].MillisPerEpoch, PeakHeapMiB: r.Rows[0].PeakHeapMiB,
			PeakRSSMiB: torchbench.PeakRSSMiB(cmd.ProcessState)}, nil
	}
	opts := torchbench.Options{Python: python.Path, Epochs: epochs, Passes: *t.passes, Threads: threads, Dir: dir,
		Data: datasets.Options{Root: dataDir}, Ours: ours, Progress: stderr}
	for _, d := range datasetList { // a data set at a time, the --out file holding those done
		rows, err := torchbench.Compare(ctx, []string{d}, methodList, opts)
		if err != nil {
			return err
		}
		report.Rows = append(report.Rows, rows...)
		report.LoadEnd = torchbench.LoadAverage()
		if out != "" {
			if err := atomicfile.Write(out, func(w io.Writer) error {
				enc := json.NewEncoder(w)
				enc.SetIndent("", "  ")
				return enc.Encode(report)
			}); err != nil {
				return err
			}
		}
	}
	if asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(report)
	}
	return printTorchReport(stdout, &report)
}

// printTorchReport writes the machine and the side-by-side table.
func printTorchReport(w io.Writer, r *torchReport) error {
	threads := make([]string, len(r.TorchThreads))
	for i, t := range r.TorchThreads {
		threads[i] = strconv.Itoa(t)
	}
	fmt.Fprintf(w, "%s, %d cores; %s, GOMAXPROCS %d, backend %s; torch %s (%s; %.0f MiB resident after importing torch), best of %s threads\n",
		r.CPU, r.Cores, r.GoVersion, r.GOMAXPROCS, r.Backend, r.TorchVersion, r.Python, r.TorchImport, strings.Join(threads, " and "))
	fmt.Fprintf(w, "%d passes of %d epochs a side; load average %s at the start, %s at the end; git %s, %s\n",
		r.Passes, r.Epochs, r.LoadStart, r.LoadEnd, r.GitRevision, r.MeasuredAt)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	head := []string{"DATASET", "METHOD", "OURS MS/EPOCH", "TORCH MS/EPOCH"}
	for _, t := range r.TorchThreads {
		head = append(head, fmt.Sprintf("TORCH %dT", t))
	}
	fmt.Fprintln(tw, strings.Join(append(head, "TORCH/OURS", "OURS PEAK RSS MIB", "TORCH PEAK RSS MIB", "OURS PEAK HEAP MIB"), "\t"))
	for _, row := range r.Rows {
		cols := []string{row.Dataset, row.Method, fmt.Sprintf("%.1f", row.OursMillis), fmt.Sprintf("%.1f", row.TorchMillis)}
		for _, t := range r.TorchThreads {
			cols = append(cols, fmt.Sprintf("%.1f", row.TorchMillisByThreads[t]))
		}
		cols = append(cols, fmt.Sprintf("%.2f", row.TorchOverOurs), fmt.Sprintf("%.0f", row.OursPeakRSSMiB), fmt.Sprintf("%.0f", row.TorchPeakRSSMiB), fmt.Sprintf("%.0f", row.OursPeakHeapMiB))
		fmt.Fprintln(tw, strings.Join(cols, "\t"))
	}
	return tw.Flush()
}
