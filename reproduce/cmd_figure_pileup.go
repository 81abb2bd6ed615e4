package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/geomix-go/geomix/datasets/pileup"
	"github.com/geomix-go/geomix/geomix"
	"github.com/geomix-go/geomix/reproduce/tables"
	"github.com/geomix-go/geomix/viz"
)

func init() {
	register(command{
		name:    tables.FigurePileup,
		summary: "train ERM, DANN, Mixup, GraphMix and GeoMix-I/II/III on the six Pileup shifts (resumable): the Pileup figure",
		example: "go run ./reproduce " + tables.FigurePileup + " --shifts pu30-gg-qq --methods gcn,geomix1 --jobs 2",
		run:     runFigurePileup,
	})
}

// newPileupRunner returns figure-pileup's runner (presetPileupRunner; tests replace it).
var newPileupRunner = presetPileupRunner

// presetPileupRunner is tables.PileupCells on one backend, reading data, progress to out.
func presetPileupRunner(data pileup.Data, out io.Writer) (tables.PileupRunner, error) {
	backend, err := geomix.NewBackend()
	if err != nil {
		return nil, err
	}
	return tables.PileupCells(backend, data, out), nil
}

// runFigurePileup implements `reproduce figure-pileup [--shifts a,b] [--methods m,n]
// [--events-dir DIR]` and the shared figure flags: every point's record in DIR/figure-pileup/, the
// report in DIR/figure-pileup.md and the grouped bar chart in DIR/figure-pileup/accuracy.html.
// Events come from the Zenodo files under the data root when present, else from the simulator
// (generated into the user cache on first use); with --events-dir only from the files under
// DIR/pileup/. --quick without --shifts trains tables.QuickPileupShifts.
func runFigurePileup(args []string) error {
	def := tables.DefaultPileupSweep()
	fs := newFlagSet(tables.FigurePileup, os.Stderr)
	shiftFlag := fs.String("shifts", strings.Join(def.Shifts, ","), "comma-separated shifts")
	mFlag := fs.String("methods", strings.Join(def.Methods, ","), "comma-separated methods: "+strings.Join(tables.PileupMethods, ", "))
	eventsDir := fs.String("events-dir", "", "read the events only from DIR/pileup/test_{gg,qq}_PU*.root (e.g. written by pileup-simulate or downloaded from the Zenodo record)")
	f := addFigureFlags(fs, tables.FigurePileup)
	if err := parseArgs(fs, args); err != nil {
		return err
	}
	sweep := tables.PileupSweep{Shifts: splitList(*shiftFlag), Methods: splitList(*mFlag)}
	if *f.quick && !flagGiven(fs, "shifts") {
		sweep.Shifts = tables.QuickPileupShifts
	}
	if err := sweep.Check(); err != nil {
		return err
	}
	data := pileup.Data{}
	if *eventsDir != "" {
		data = pileup.Data{Root: *eventsDir, Mode: pileup.Real, Offline: true}
	}
	return runFigure(f, figureSweep{id: tables.FigurePileup,
		plan: func(o tables.Options) ([]tables.PlannedCell, error) { return tables.PlanPileup(sweep, o) },
		run: func(_ tables.CellRunner, o tables.Options) (any, string, error) {
			runner, err := newPileupRunner(data, cellOutput(o.Jobs))
			if err != nil {
				return nil, "", err
			}
			return tables.RunPileup(sweep, runner, o)
		},
		render: func(o tables.Options) (any, string, error) { return tables.WritePileupReport(sweep, o) },
		charts: func(report any, dir string) error { return savePileupBars(report.(*tables.PileupReport), dir) },
	}, args)
}

// flagGiven reports whether the flag called name was set on the command line.
func flagGiven(fs *flag.FlagSet, name string) bool {
	given := false
	fs.Visit(func(f *flag.Flag) { given = given || f.Name == name })
	return given
}

// savePileupBars writes the grouped bar chart of the stored points into dir/accuracy.html: shifts
// as categories, one series per method with ± std, and the majority-class baseline.
func savePileupBars(report *tables.PileupReport, dir string) error {
	if report.Simulated+report.Real == 0 {
		return nil
	}
	chart, err := pileupChart(report)
	if err != nil {
		return err
	}
	return saveChart(chart, filepath.Join(dir, "accuracy.html"))
}

// pileupChart is the report's grouped bar chart.
func pileupChart(report *tables.PileupReport) (*viz.Chart, error) {
	categories, series := report.Bars()
	var bars []viz.BarSeries
	for _, s := range series {
		bars = append(bars, viz.BarSeries(s))
	}
	origin := "events from this toolkit's simulator, not the Zenodo files"
	if report.Simulated == 0 {
		origin = "events from the Zenodo Delphes files"
	}
	return viz.Bars{Title: "Pileup Mitigation: accuracy on the target test neutrals", Subtitle: fmt.Sprintf("error bars: ± std over runs; %s", origin),
		YName: "accuracy (%)", Categories: categories, Series: bars}.Chart()
}
