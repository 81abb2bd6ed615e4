package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/geomix-go/geomix/datasets"
	"github.com/geomix-go/geomix/internal/progress"
	"github.com/geomix-go/geomix/reproduce/tables"
	"github.com/geomix-go/geomix/viz"
)

func init() {
	register(command{
		name:    tables.FigureHyper,
		summary: "sweep GeoMix-I/II over alpha and mixup hops K (resumable): the appendix's hyper-parameter figure",
		run:     runFigureHyper,
	})
}

// runFigureHyper implements `reproduce figure-hyper [--datasets a,b] [--methods m,n] [--alphas ...]
// [--hops ...] [--runs R] [--quick] [--out DIR] [--force] [--jobs N] [--json] [--dry-run]
// [--report-only] [--data DIR]`: every point's record in DIR/figure-hyper/, the report in
// DIR/figure-hyper.md and one heatmap per panel in DIR/figure-hyper/<dataset>-<method>.html.
func runFigureHyper(args []string) error {
	def := tables.DefaultGrid()
	fs := flag.NewFlagSet(tables.FigureHyper, flag.ContinueOnError)
	dsFlag := fs.String("datasets", strings.Join(def.Datasets, ","), "comma-separated data sets")
	mFlag := fs.String("methods", strings.Join(def.Methods, ","), "comma-separated methods: "+strings.Join(tables.GridMethods, ", "))
	alphaFlag := fs.String("alphas", joinNumbers(def.Alphas), "comma-separated values of alpha in [0, 1]")
	hopsFlag := fs.String("hops", joinNumbers(def.Hops), "comma-separated numbers of mixup hops K >= 1")
	runs := fs.Int("runs", 0, "runs per point (default 5, 10 for squirrel/chameleon, 1 with --quick)")
	quick := fs.Bool("quick", false, "1 run, few epochs: a smoke test, NOT the paper's protocol")
	out := fs.String("out", "results", "results directory: points in DIR/"+tables.FigureHyper+"/, the report in DIR/"+tables.FigureHyper+".md")
	force := fs.Bool("force", false, "rerun points that already have a result")
	asJSON := fs.Bool("json", false, "also print the report as JSON on stdout")
	jobs := fs.Int("jobs", 1, "points to train at once (each keeps one core busy on the pure-Go backend; records do not depend on it)")
	dryRun := fs.Bool("dry-run", false, "list the points and their state (finished, in progress, to run) without training")
	reportOnly := fs.Bool("report-only", false, "render the report and charts from the records in DIR without training")
	dataDir := fs.String("data", "", "data root (sets $"+datasets.EnvData+"; default $"+datasets.EnvData+" or the user cache)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected arguments %q", fs.Args())
	}
	if *jobs < 1 {
		return fmt.Errorf("--jobs %d: want >= 1", *jobs)
	}
	grid := tables.Grid{Datasets: splitList(*dsFlag), Methods: splitList(*mFlag)}
	var err error
	if grid.Alphas, err = parseNumbers("--alphas", *alphaFlag, func(s string) (float64, error) { return strconv.ParseFloat(s, 64) }); err != nil {
		return err
	}
	if grid.Hops, err = parseNumbers("--hops", *hopsFlag, strconv.Atoi); err != nil {
		return err
	}
	if err := grid.Check(); err != nil {
		return err
	}
	if *dataDir != "" {
		if err := os.Setenv(datasets.EnvData, *dataDir); err != nil {
			return err
		}
	}
	opts := tables.Options{Runs: *runs, Quick: *quick, OutDir: *out, Force: *force, Jobs: *jobs,
		Command: commandLine(tables.FigureHyper, args)}
	if *dryRun {
		return printGridPlan(grid, opts)
	}
	var report *tables.GridReport
	var path string
	if *reportOnly {
		report, path, err = tables.WriteGridReport(grid, opts)
		if err == nil {
			fmt.Fprintf(os.Stderr, "%s: report %s rendered from the records, nothing trained\n", tables.FigureHyper, path)
		}
	} else {
		var cellOut io.Writer = os.Stderr
		if *jobs > 1 {
			cellOut = progress.Plain(os.Stderr)
		}
		runner, rerr := newCellRunner(cellOut)
		if rerr != nil {
			return rerr
		}
		report, path, err = tables.RunGrid(grid, runner, opts)
		if report != nil {
			fmt.Fprintf(os.Stderr, "%s: report %s\n", tables.FigureHyper, path)
		}
	}
	if report == nil {
		return err
	}
	if cerr := saveHeatmaps(report, filepath.Join(*out, tables.FigureHyper)); cerr != nil && err == nil {
		err = cerr
	}
	if *asJSON {
		enc := json.NewEncoder(os.Stdout)
		enc.SetIndent("", "  ")
		if jerr := enc.Encode(report); jerr != nil && err == nil {
			err = jerr
		}
	}
	return err
}

// saveHeatmaps writes one standalone HTML heatmap per panel with at least one point into dir.
func saveHeatmaps(report *tables.GridReport, dir string) error {
	for _, p := range report.Panels {
		alphas, hops, values := p.Heatmap()
		chart, err := viz.Heatmap{Title: "Test accuracy (%), " + p.Title(), Subtitle: fmt.Sprintf("preset: alpha %g, K %d", p.PresetAlpha, p.PresetHops),
			XName: "alpha", YName: "mixup hops K", XLabels: alphas, YLabels: hops, Values: values}.Chart()
		if err != nil {
			if p.Runs == 0 { // no point stored yet: nothing to draw
				continue
			}
			return err
		}
		path := filepath.Join(dir, p.Dataset+"-"+p.Method+".html")
		if err := chart.Save(path); err != nil {
			return err
		}
		fmt.Fprintf(os.Stderr, "%s: chart %s\n", tables.FigureHyper, path)
	}
	return nil
}

// printGridPlan prints what a sweep of grid with opts would do, a line per point.
func printGridPlan(grid tables.Grid, opts tables.Options) error {
	cells, err := tables.PlanGrid(grid, opts)
	if err != nil {
		return err
	}
	w := tabwriter.NewWriter(os.Stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintln(w, "POINT\tRUNS\tSTATE\tRECORD")
	for _, c := range cells {
		fmt.Fprintf(w, "%s\t%d\t%s\t%s\n", c.Cell, c.Runs, planState(c), c.Path)
	}
	return w.Flush()
}

// parseNumbers parses a comma-separated flag value with parse, naming the flag and the bad word.
func parseNumbers[T any](flagName, s string, parse func(string) (T, error)) ([]T, error) {
	var out []T
	for _, w := range splitList(s) {
		v, err := parse(w)
		if err != nil {
			return nil, fmt.Errorf("%s: %q is not a number", flagName, w)
		}
		out = append(out, v)
	}
	return out, nil
}

// joinNumbers formats numbers as a comma-separated flag value.
func joinNumbers[T float64 | int](values []T) string {
	words := make([]string, len(values))
	for i, v := range values {
		words[i] = fmt.Sprint(v)
	}
	return strings.Join(words, ",")
}
