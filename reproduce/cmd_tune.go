package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/geomix-go/geomix/reproduce/tables"
)

func init() {
	register(command{
		name:    "tune",
		summary: "validation grid search of a table's rows (the appendix's grids, resumable): the validation-selected group of Tables 2-4",
		example: "go run ./reproduce tune --table table2 --datasets cora --methods gcn,sgc --size 24 --jobs 2",
		run:     runTune,
	})
}

// runTune implements `reproduce tune --table T [--datasets a,b] [--methods m,n] [--size K]
// [--seed S] [--screen F] [--quick] [--out DIR] [--force] [--jobs N] [--json] [--dry-run] [--report-only]
// [--data DIR] [--shard i/n] [--shards N]`: every configuration's record in
// DIR/tune/<table>/<dataset>-<method>/ (screening runs in its screen/), each finished cell's validation-selected record in
// DIR/<table>/<dataset>-<method>-tuned.json, and the table's report DIR/<table>.md with both row
// groups. SIGINT or SIGTERM stop it at the next safe point, as the table commands.
func runTune(args []string) error {
	fs := newFlagSet("tune", os.Stderr)
	table := fs.String("table", "", "the table whose cells are tuned: table2, table3 or table4, or just its number (required)")
	dsFlag := fs.String("datasets", "", "comma-separated data sets (the table's columns; default all, with --quick "+strings.Join(tables.QuickDatasets, ",")+")")
	mFlag := fs.String("methods", "", "comma-separated rows to tune (default every row but GeoMix's in Tables 2 and 4, which keep the authors' settings)")
	size := fs.Int("size", 0, fmt.Sprintf("configurations per cell: the whole grid when it has at most this many, else a seeded random subset of this size, which holds every smaller one's configurations (default %d, %d with --quick)",
		tables.DefaultTuneSize, tables.QuickTuneSize))
	screen := fs.Int("screen", 0, "screen the configurations: each trains the protocol's first run only, and this many of the best by its validation accuracy train the full protocol, the selection made among them (0: every configuration on the full protocol)")
	seed := fs.Int64("seed", 1, "seed of the random subset: the same seed, size and method give the same configurations on every data set, shard and rerun")
	f := addSweepFlags(fs, sweepHelp{
		jobs:       jobsHelp("configurations"),
		quick:      "1 run, few epochs, a tiny grid, small data sets only: a smoke test, NOT the paper's protocol",
		out:        "results directory: configurations in DIR/tune/<table>/, selected cells and the report in DIR/<table>/ and DIR/<table>.md",
		force:      "retrain configurations that already have a record",
		asJSON:     "also print the table's report as JSON on stdout",
		dryRun:     "list every configuration and its state, and each cell's selection, without training",
		reportOnly: "store the selected cell of every cell whose configurations are all there and render DIR/<table>.md from the records, without training",
	})
	if err := parseArgs(fs, args); err != nil {
		return err
	}
	if *table == "" {
		return fmt.Errorf("--table is required: table2, table3 or table4")
	}
	if _, err := strconv.Atoi(*table); err == nil {
		*table = "table" + *table
	}
	if *size < 0 {
		return fmt.Errorf("--size %d: want >= 1 (0 for the default)", *size)
	}
	opts, err := f.options("tune", args)
	if err != nil {
		return err
	}
	sweep := tables.TuneSweep{Table: *table, Datasets: splitList(*dsFlag), Methods: splitList(*mFlag), Size: *size, Seed: *seed, Screen: *screen}
	if err := sweep.Check(); err != nil {
		return err
	}
	if f.dryRunSet() {
		return printTunePlan(sweep, opts)
	}
	var report *tables.Report
	var path string
	if *f.reportOnly {
		spec, err := tables.SpecFor(*table)
		if err != nil {
			return err
		}
		if _, err := tables.SelectTuned(sweep, opts); err != nil {
			return err
		}
		report, path, err = tables.WriteReport(spec, opts)
		if err != nil {
			return err
		}
	} else {
		runner, received, release, err := startSweep(&opts)
		if err != nil {
			return err
		}
		defer release()
		report, path, err = tables.RunTune(sweep, runner, opts)
		if path != "" { // the report is written also when configurations failed or the sweep stopped
			if serr := printTuneStatus(os.Stderr, sweep, opts); serr != nil && err == nil {
				err = serr
			}
			fmt.Fprintf(os.Stderr, "tune %s: report %s\n", *table, path)
		}
		if err != nil {
			return stoppedExit(err, received(), opts.Command)
		}
	}
	if *f.reportOnly {
		fmt.Fprintf(os.Stderr, "tune %s: report %s rendered from the records, nothing trained\n", *table, path)
	}
	return printReportJSON(report, *f.asJSON)
}

// printTunePlan prints every configuration of the sweep with its state, then each cell's search.
func printTunePlan(sweep tables.TuneSweep, opts tables.Options) error {
	cells, err := tables.PlanTune(sweep, opts)
	if err != nil {
		return err
	}
	w := tabwriter.NewWriter(os.Stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintln(w, "DATASET\tMETHOD\tCONFIG\tRUNS\tSTATE\tSETTINGS")
	for _, c := range cells {
		settings := (&tables.Tuning{Settings: c.Params}).SettingsString()
		fmt.Fprintf(w, "%s\t%s\t%s\t%d\t%s\t%s\n", c.Dataset, c.Method, strings.TrimSuffix(filepath.Base(c.Path), ".json"), c.Runs, planState(c), settings)
	}
	if err := w.Flush(); err != nil {
		return err
	}
	if err := printPlanCost(cells, "configurations"); err != nil {
		return err
	}
	if finalists, err := tables.FinalistsCost(sweep, opts); err != nil {
		return err
	} else if finalists.Cells > 0 {
		plannedCost = plannedCost.Add(finalists)
		fmt.Printf("then, as each cell's screening finishes: %s\n", finalists.Text("finalists on the full protocol"))
	}
	return printTuneStatus(os.Stdout, sweep, opts)
}

// printTuneStatus prints, cell by cell, how many configurations are finished and, once all are,
// the selected settings and where the selected cell is stored.
func printTuneStatus(out io.Writer, sweep tables.TuneSweep, opts tables.Options) error {
	status, err := tables.TuneStatus(sweep, opts)
	if err != nil {
		return err
	}
	for _, c := range status {
		searched := (&tables.Tuning{Tried: c.Tried, GridSize: c.GridSize, SubsetSeed: c.Seed, Finalists: c.Finalists}).Searched()
		switch {
		case c.Selected == nil && c.Finalists > 0 && c.Screened < c.Tried:
			fmt.Fprintf(out, "%s/%s: %d of %d configurations screened (%s); not selected yet\n", c.Dataset, c.Method, c.Screened, c.Tried, searched)
			continue
		case c.Selected == nil && c.Finalists > 0:
			fmt.Fprintf(out, "%s/%s: screened; %d of %d finalists finished (%s); not selected yet\n", c.Dataset, c.Method, c.Finished, c.Finalists, searched)
			continue
		case c.Selected == nil:
			fmt.Fprintf(out, "%s/%s: %d of %d configurations finished (%s); not selected yet\n", c.Dataset, c.Method, c.Finished, c.Tried, searched)
			continue
		}
		t := c.Selected.Tuning
		fmt.Fprintf(out, "%s/%s: %s; selected %s (validation %.2f, test %.2f) -> %s\n", c.Dataset, c.Method, t.Searched(),
			t.SettingsString(), c.Selected.ValAccMean, c.Selected.TestAccMean, c.Path)
	}
	return nil
}

// tuneCounts says how many cells of the tuned tables have a validation-selected record under dir:
// stored by any search, or ready to store from the default one's records ("" when it cannot be
// told).
func tuneCounts(dir string) string {
	selected, of := 0, 0
	for _, spec := range tables.Specs() {
		if !spec.Tuned {
			continue
		}
		status, err := tables.TuneStatus(tables.TuneSweep{Table: spec.Paper.ID, Seed: 1}, tables.Options{OutDir: dir})
		if err != nil {
			return ""
		}
		for _, c := range status {
			of++
			if c.Selected != nil {
				selected++
			} else if r, err := tables.ReadRecord(c.Path); err == nil && r.Tuning != nil && r.Tuning.SelectedFrom != "" {
				selected++
			}
		}
	}
	return fmt.Sprintf("%d of %d tunings selected in %s", selected, of, dir)
}
