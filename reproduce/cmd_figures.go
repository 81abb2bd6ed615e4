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
	"github.com/geomix-go/geomix/geomix"
	"github.com/geomix-go/geomix/reproduce/tables"
	"github.com/geomix-go/geomix/viz"
)

func init() {
	register(command{
		name:    tables.FigureHyper,
		summary: "sweep GeoMix-I/II over alpha and mixup hops K (resumable): the appendix's hyper-parameter figure",
		example: "go run ./reproduce " + tables.FigureHyper + " --datasets cora --methods geomix1 --alphas 0,0.1,0.5 --hops 1,2,3 --jobs 2",
		run:     runFigureHyper,
	})
	register(command{
		name:    tables.FigureTSNE,
		summary: "train GCN and GeoMix-I/II/III once and embed their representations with t-SNE (resumable): the t-SNE figures",
		example: "go run ./reproduce " + tables.FigureTSNE + " --datasets cora --methods gcn,geomix1",
		run:     runFigureTSNE,
	})
	register(command{
		name:    tables.FigureBackbones,
		summary: "train GAT and APPNP plainly and under GeoMix-I/II/III (resumable): the backbone figure",
		example: "go run ./reproduce " + tables.FigureBackbones + " --datasets cora --backbones gat --methods geomix1",
		run:     runFigureBackbones,
	})
}

// addFigureFlags defines the shared flags of figure id on fs.
func addFigureFlags(fs *flag.FlagSet, id string) *sweepFlags {
	return addSweepFlags(fs, sweepHelp{
		runs:       "runs per point (default 5, 10 for squirrel/chameleon, 1 with --quick)",
		jobs:       jobsHelp("points"),
		quick:      "1 run, few epochs: a smoke test, NOT the paper's protocol",
		out:        "results directory: points in DIR/" + id + "/, the report in DIR/" + id + ".md",
		force:      "rerun points that already have a result",
		asJSON:     "also print the report as JSON on stdout",
		dryRun:     "list the points and their state (finished, in progress, to run) without training",
		reportOnly: "render the report and charts from the records in DIR without training",
	})
}

// figureSweep is what runFigure needs of one figure: its plan, its sweep and its report with charts.
type figureSweep struct {
	id   string
	plan func(tables.Options) ([]tables.PlannedCell, error)
	// run trains the points and renders the report; render only renders it. Both return the report
	// (for --json), its path and an error.
	run    func(tables.CellRunner, tables.Options) (any, string, error)
	render func(tables.Options) (any, string, error)
	// charts saves the report's HTML charts into dir.
	charts func(report any, dir string) error
}

// runFigure parses the shared flags already defined on fs (args were parsed by the caller) and runs
// the sweep: a dry run, a report from the records, or the training of the missing points; then
// the charts and, with --json, the report on stdout.
func runFigure(f *sweepFlags, s figureSweep, args []string) error {
	opts, err := f.options(s.id, args)
	if err != nil {
		return err
	}
	if f.dryRunSet() {
		return printPoints(s.plan(opts))
	}
	var report any
	var path string
	var sig func() os.Signal
	if *f.reportOnly {
		report, path, err = s.render(opts)
	} else {
		runner, received, release, rerr := startSweep(&opts)
		if rerr != nil {
			return rerr
		}
		defer release()
		sig = received
		report, path, err = s.run(runner, opts)
	}
	if sig != nil {
		err = stoppedExit(err, sig(), opts.Command)
	}
	if path == "" {
		return err
	}
	fmt.Fprintf(os.Stderr, "%s: report %s\n", s.id, path)
	if cerr := s.charts(report, filepath.Join(*f.out, s.id)); cerr != nil && err == nil {
		err = cerr
	}
	if *f.asJSON {
		enc := json.NewEncoder(os.Stdout)
		enc.SetIndent("", "  ")
		if jerr := enc.Encode(report); jerr != nil && err == nil {
			err = jerr
		}
	}
	return err
}

// runFigureHyper implements `reproduce figure-hyper [--datasets a,b] [--methods m,n] [--alphas ...]
// [--hops ...]` and the shared figure flags: every point's record in DIR/figure-hyper/, the report
// in DIR/figure-hyper.md and one heatmap per panel in DIR/figure-hyper/<dataset>-<method>.html.
func runFigureHyper(args []string) error {
	def := tables.DefaultGrid()
	fs := newFlagSet(tables.FigureHyper, os.Stderr)
	dsFlag := fs.String("datasets", strings.Join(def.Datasets, ","), "comma-separated data sets")
	mFlag := fs.String("methods", strings.Join(def.Methods, ","), "comma-separated methods: "+strings.Join(tables.GridMethods, ", "))
	alphaFlag := fs.String("alphas", joinNumbers(def.Alphas), "comma-separated values of alpha in [0, 1]")
	hopsFlag := fs.String("hops", joinNumbers(def.Hops), "comma-separated numbers of mixup hops K >= 1")
	f := addFigureFlags(fs, tables.FigureHyper)
	if err := parseArgs(fs, args); err != nil {
		return err
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
	return runFigure(f, figureSweep{id: tables.FigureHyper,
		plan: func(o tables.Options) ([]tables.PlannedCell, error) { return tables.PlanGrid(grid, o) },
		run: func(r tables.CellRunner, o tables.Options) (any, string, error) {
			return tables.RunGrid(grid, r, o)
		},
		render: func(o tables.Options) (any, string, error) { return tables.WriteGridReport(grid, o) },
		charts: func(report any, dir string) error { return saveHeatmaps(report.(*tables.GridReport), dir) },
	}, args)
}

// runFigureBackbones implements `reproduce figure-backbones [--datasets a,b] [--backbones gat,appnp]
// [--methods geomix1,...]` and the shared figure flags: every point's record in
// DIR/figure-backbones/, the report in DIR/figure-backbones.md and one bar chart per data set in
// DIR/figure-backbones/<dataset>.html.
func runFigureBackbones(args []string) error {
	def := tables.DefaultBackboneSweep()
	fs := newFlagSet(tables.FigureBackbones, os.Stderr)
	dsFlag := fs.String("datasets", strings.Join(def.Datasets, ","), "comma-separated data sets")
	bFlag := fs.String("backbones", strings.Join(def.Backbones, ","), "comma-separated backbones, each also trained plainly")
	mFlag := fs.String("methods", strings.Join(def.Methods, ","), "comma-separated mixing methods: "+strings.Join(tables.BackboneMixings, ", "))
	f := addFigureFlags(fs, tables.FigureBackbones)
	if err := parseArgs(fs, args); err != nil {
		return err
	}
	sweep := tables.BackboneSweep{Datasets: splitList(*dsFlag), Backbones: splitList(*bFlag), Methods: splitList(*mFlag)}
	if err := sweep.Check(); err != nil {
		return err
	}
	return runFigure(f, figureSweep{id: tables.FigureBackbones,
		plan: func(o tables.Options) ([]tables.PlannedCell, error) { return tables.PlanBackbones(sweep, o) },
		run: func(r tables.CellRunner, o tables.Options) (any, string, error) {
			return tables.RunBackbones(sweep, r, o)
		},
		render: func(o tables.Options) (any, string, error) { return tables.WriteBackboneReport(sweep, o) },
		charts: func(report any, dir string) error {
			return saveBackboneBars(report.(*tables.BackboneReport), dir)
		},
	}, args)
}

// newRepresentationRunner returns the function that trains one run of a t-SNE point
// (presetRepresentationRunner; tests replace it).
var newRepresentationRunner = presetRepresentationRunner

// presetRepresentationRunner is figure-tsne's tables.RepresentationRunner: tables.PresetRepresentations
// on one backend, data from $GEOMIX_DATA or the user cache, progress to out.
func presetRepresentationRunner(out io.Writer) (tables.RepresentationRunner, error) {
	backend, err := geomix.NewBackend()
	if err != nil {
		return nil, err
	}
	return tables.PresetRepresentations(backend, datasets.Options{}, out), nil
}

// runFigureTSNE implements `reproduce figure-tsne [--datasets a,b] [--methods gcn,geomix1,...]
// [--perplexity P] [--iterations I] [--tsne-seed S] [--quick] [--out DIR] [--force] [--json]
// [--report-only] [--data DIR]`: every embedding in DIR/figure-tsne/<dataset>-<method>.json, with
// its scatter chart beside it (.html), and the report in DIR/figure-tsne.md.
func runFigureTSNE(args []string) error {
	def := tables.DefaultTSNESweep()
	fs := newFlagSet(tables.FigureTSNE, os.Stderr)
	dsFlag := fs.String("datasets", strings.Join(def.Datasets, ","), "comma-separated data sets")
	mFlag := fs.String("methods", strings.Join(def.Methods, ","), "comma-separated methods, gcn first (the others are compared with it)")
	perplexity := fs.Float64("perplexity", def.Config.Perplexity, "t-SNE perplexity")
	iterations := fs.Int("iterations", def.Config.Iterations, "t-SNE iterations")
	seed := fs.Uint64("tsne-seed", def.Config.Seed, "t-SNE's seed (the training's is the preset's)")
	f := addSweepFlags(fs, sweepHelp{
		quick:      "few epochs: a smoke test, NOT the paper's protocol",
		out:        "results directory: embeddings in DIR/" + tables.FigureTSNE + "/, the report in DIR/" + tables.FigureTSNE + ".md",
		force:      "remake embeddings that already exist",
		asJSON:     "also print the report as JSON on stdout",
		reportOnly: "render the report and charts from the records in DIR without training",
	})
	if err := parseArgs(fs, args); err != nil {
		return err
	}
	sweep := tables.TSNESweep{Datasets: splitList(*dsFlag), Methods: splitList(*mFlag), Config: def.Config}
	sweep.Config.Perplexity, sweep.Config.Iterations, sweep.Config.Seed = *perplexity, *iterations, *seed
	if err := sweep.Check(); err != nil {
		return err
	}
	opts, err := f.options(tables.FigureTSNE, args)
	if err != nil {
		return err
	}
	var report *tables.TSNEReport
	var path string
	if *f.reportOnly {
		report, path, err = tables.WriteTSNEReport(sweep, opts)
	} else {
		runner, rerr := newRepresentationRunner(os.Stderr)
		if rerr != nil {
			return rerr
		}
		stop, received, release := signalStop(os.Stderr)
		defer release()
		opts.Stop = stop
		report, path, err = tables.RunTSNE(sweep, runner, opts)
		err = stoppedExit(err, received(), opts.Command)
	}
	if path == "" {
		return err
	}
	fmt.Fprintf(os.Stderr, "%s: report %s\n", tables.FigureTSNE, path)
	if cerr := saveScatters(report, filepath.Join(*f.out, tables.FigureTSNE)); cerr != nil && err == nil {
		err = cerr
	}
	if *f.asJSON {
		enc := json.NewEncoder(os.Stdout)
		enc.SetIndent("", "  ")
		if jerr := enc.Encode(report); jerr != nil && err == nil {
			err = jerr
		}
	}
	return err
}

// saveScatters writes one standalone HTML scatter per stored embedding into dir, beside its record.
func saveScatters(report *tables.TSNEReport, dir string) error {
	for i := range report.Datasets {
		for _, e := range report.Stored(i) {
			chart, err := e.Chart()
			if err != nil {
				return err
			}
			if err := saveChart(chart, filepath.Join(dir, e.Dataset+"-"+e.Method+".html")); err != nil {
				return err
			}
		}
	}
	return nil
}

// saveHeatmaps writes one standalone HTML heatmap per panel with at least one point into dir.
func saveHeatmaps(report *tables.GridReport, dir string) error {
	for _, p := range report.Panels {
		if p.Runs == 0 { // no point stored yet: nothing to draw
			continue
		}
		chart, err := p.Chart()
		if err != nil {
			return err
		}
		if err := saveChart(chart, filepath.Join(dir, p.Dataset+"-"+p.Method+".html")); err != nil {
			return err
		}
	}
	return nil
}

// saveBackboneBars writes one standalone HTML bar chart per data set with at least one point into
// dir: backbones as categories, plain and each GeoMix variant as series with ± std.
func saveBackboneBars(report *tables.BackboneReport, dir string) error {
	for _, d := range report.StoredDatasets() {
		chart, err := report.Chart(d)
		if err != nil {
			return err
		}
		if err := saveChart(chart, filepath.Join(dir, d+".html")); err != nil {
			return err
		}
	}
	return nil
}

// saveChart saves chart at path and says so on stderr.
func saveChart(chart *viz.Chart, path string) error {
	if err := chart.Save(path); err != nil {
		return err
	}
	fmt.Fprintf(os.Stderr, "chart %s\n", path)
	return nil
}

// printPoints prints planned points, a line each.
func printPoints(cells []tables.PlannedCell, err error) error {
	if err != nil {
		return err
	}
	w := tabwriter.NewWriter(os.Stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintln(w, "POINT\tRUNS\tSTATE\tRECORD")
	for _, c := range cells {
		fmt.Fprintf(w, "%s\t%d\t%s\t%s\n", c.Cell, c.Runs, planState(c), c.Path)
	}
	if err := w.Flush(); err != nil {
		return err
	}
	return printPlanCost(cells, "points")
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
