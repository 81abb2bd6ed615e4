package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"runtime"
	"slices"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/geomix-go/geomix/geomix/methods"

	"github.com/geomix-go/geomix/datasets"
	"github.com/geomix-go/geomix/geomix"
	"github.com/geomix-go/geomix/internal/atomicfile"
	"github.com/geomix-go/geomix/internal/epochcost"
	"github.com/geomix-go/geomix/reproduce/tables"
)

func init() {
	register(command{
		name:    "bench",
		summary: "time training epochs per (data set, method) and their ratio to GCN measured in the same run (GAT's also to a GCN of its total width)",
		example: "go run ./reproduce bench --datasets cora,pubmed --methods gcn,geomix1 --epochs 10",
		run:     func(args []string) error { return runBench(args, os.Stdout, os.Stderr) },
	})
}

// benchReport is `reproduce bench --json` and the --out file: the rows and where they were measured.
type benchReport struct {
	Rows        []*epochcost.EpochTiming `json:"rows"`
	Costs       []*epochcost.EpochCost   `json:"costs,omitempty"` // with --profile
	GitRevision string                   `json:"git_revision"`    // of the working directory, which need not be the binary's
	GOMAXPROCS  int                      `json:"gomaxprocs"`
	Backend     string                   `json:"backend"`
	MeasuredAt  string                   `json:"measured_at"`
}

// runBench implements `reproduce bench [--datasets a,b] [--methods m,n] [--epochs E] [--data DIR]
// [--set param=value ...] [--profile] [--json] [--out FILE]`.
func runBench(args []string, stdout, stderr io.Writer) error {
	if rest, ok := scaleArgs(args); ok {
		return runBenchScale(rest, stdout, stderr)
	}
	fs := newFlagSet("bench", stderr)
	names := fs.String("datasets", "cora,pubmed,physics", "comma-separated data sets: "+strings.Join(datasets.Names(), ", "))
	methodsFlag := fs.String("methods", "gcn,geomix1,geomix2,geomix3", "comma-separated methods (with gcn among them, each other's epoch is also given as a ratio to GCN's; "+
		"a method with a GAT backbone also brings a row gcn@W, the GCN preset with hidden width W = GAT's heads × hidden, timed in the same rounds, "+
		"and its ratio to it, X GCN SAME WIDTH): "+strings.Join(geomix.Methods(), ", "))
	epochs := fs.Int("epochs", 10, "timed epochs per method, in rounds of one epoch of every method, after one warm-up epoch each")
	dataDir := fs.String("data", datasets.DefaultRoot(), "data root (default $"+datasets.EnvData+" or the user cache)")
	asJSON := fs.Bool("json", false, "print the report as JSON instead of a table")
	out := fs.String("out", "", "also write the JSON report to this file (atomically)")
	profile := fs.Bool("profile", false, "also measure as many epochs one op at a time, every op timed on a sequential backend: ops, work (their sum), span (the longest chain of ops), the work per op type and the heaviest ops with their shapes")
	var sets setFlags
	fs.Var(&sets, "set", "override a hyper-parameter of every cell, repeatable: "+strings.Join(geomix.ParamNames(), ", "))
	torch := addTorchFlags(fs)
	if err := parseArgs(fs, args); err != nil {
		return err
	}
	if *epochs < 1 {
		return fmt.Errorf("--epochs %d: want at least 1", *epochs)
	}
	methodList := strings.Split(*methodsFlag, ",")
	for _, m := range methodList {
		if _, err := methods.New(m); err != nil {
			return err
		}
	}
	datasetList := strings.Split(*names, ",")
	for _, d := range datasetList {
		if !slices.Contains(datasets.Names(), d) {
			return fmt.Errorf("unknown data set %q: want one of %s", d, strings.Join(datasets.Names(), ", "))
		}
	}
	ctx, err := sets.context()
	if err != nil {
		return err
	}
	if *torch.against {
		return torch.run(ctx, datasetList, methodList, *epochs, *dataDir, sets, *out, *asJSON, stdout, stderr)
	}
	backend, err := geomix.NewBackend()
	if err != nil {
		return err
	}
	report := benchReport{GitRevision: tables.GitRevision("."), GOMAXPROCS: runtime.GOMAXPROCS(0), Backend: backend.Name(),
		MeasuredAt: time.Now().UTC().Format(time.RFC3339)}
	data := datasets.Options{Root: *dataDir}
	for i, d := range datasetList {
		fmt.Fprintf(stderr, "bench data set %d of %d: %s, %s, %d rounds of one epoch each\n", i+1, len(datasetList), d, strings.Join(methodList, ", "), *epochs)
		timings, err := epochcost.TimeEpochsPresets(ctx, backend, d, methodList, data, *epochs)
		if err != nil {
			return err
		}
		report.Rows = append(report.Rows, timings...)
		if *profile {
			fmt.Fprintf(stderr, "profile data set %d of %d: %s, %d rounds of one epoch each, one op at a time\n", i+1, len(datasetList), d, *epochs)
			costs, err := epochcost.ProfileEpochsPresets(ctx, d, methodList, data, *epochs)
			if err != nil {
				return err
			}
			report.Costs = append(report.Costs, costs...)
		}
	}
	if *out != "" {
		if err := atomicfile.Write(*out, func(w io.Writer) error {
			enc := json.NewEncoder(w)
			enc.SetIndent("", "  ")
			return enc.Encode(report)
		}); err != nil {
			return err
		}
	}
	if *asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(report)
	}
	fmt.Fprintf(stdout, "backend %s, GOMAXPROCS %d, git %s (the working directory's), %s\n", report.Backend, report.GOMAXPROCS, report.GitRevision, report.MeasuredAt)
	tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "DATASET\tMETHOD\tMS/EPOCH\tIQR\tX GCN\tX GCN SAME WIDTH\tPEAK HEAP MIB\tSETUP S")
	for _, r := range report.Rows {
		fmt.Fprintf(tw, "%s\t%s\t%.1f\t%.1f\t%s\t%s\t%.0f\t%.1f\n", r.Dataset, r.Label(), r.MillisPerEpoch, r.MillisIQR, ratioText(r.RatioToGCN),
			ratioText(r.RatioToSameWidthGCN), r.PeakHeapMiB, r.SetupSeconds)
	}
	if err := tw.Flush(); err != nil || len(report.Costs) == 0 {
		return err
	}
	return printCosts(stdout, report.Costs)
}

// printCosts prints the --profile table: per cell its ops, work, span and bound with their ratios
// to GCN's and the three op types with the most work, then each cell's heaviest ops with their shapes.
func printCosts(w io.Writer, costs []*epochcost.EpochCost) error {
	fmt.Fprintf(w, "\none op at a time (median epoch, ms; work: the ops' summed time, span: the longest chain of ops, bound: max(work/%d, span), the least time on %d cores):\n",
		runtime.GOMAXPROCS(0), runtime.GOMAXPROCS(0))
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "DATASET\tMETHOD\tOPS\tWORK\tX GCN\tSPAN\tX GCN\tBOUND\tX GCN\tMOST WORK: OP MS (COUNT)")
	for _, c := range costs {
		var most []string
		for _, op := range c.ByOp[:min(3, len(c.ByOp))] {
			most = append(most, fmt.Sprintf("%s %.2f (%d)", op.Op, op.WorkMillis, op.Count))
		}
		fmt.Fprintf(tw, "%s\t%s\t%d\t%.2f\t%s\t%.2f\t%s\t%.2f\t%s\t%s\n", c.Dataset, c.Label(), c.Ops, c.WorkMillis, ratioText(c.WorkRatioToGCN),
			c.SpanMillis, ratioText(c.SpanRatioToGCN), c.BoundMillis, ratioText(c.BoundRatioToGCN), strings.Join(most, ", "))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	fmt.Fprintln(w, "\nheaviest ops of the last epoch (ms, output shape <- input shapes):")
	tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "DATASET\tMETHOD\tOP\tMS\tSHAPES")
	for _, c := range costs {
		for _, n := range c.Heaviest {
			fmt.Fprintf(tw, "%s\t%s\t%s\t%.2f\t%s <- %s\n", c.Dataset, c.Label(), n.Op, n.WorkMillis, n.Output, strings.Join(n.Inputs, ", "))
		}
	}
	return tw.Flush()
}

// ratioText prints a ratio with two decimals, "-" for none (0).
func ratioText(r float64) string {
	if r == 0 {
		return "-"
	}
	return fmt.Sprintf("%.2f", r)
}
