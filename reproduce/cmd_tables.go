package main

import (
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"text/tabwriter"

	"github.com/geomix-go/geomix/geomix/backbones"
	"github.com/geomix-go/geomix/geomix/methods"
	"github.com/geomix-go/geomix/reproduce/tables"
)

// newCellRunner returns the function that trains one table cell (presetCellRunner; tests replace it).
var newCellRunner = presetCellRunner

func init() {
	for _, spec := range tables.Specs() {
		id := spec.Paper.ID
		register(command{
			name:    id,
			summary: fmt.Sprintf("run Table %d's cells (resumable) and compare with the paper", spec.Paper.Number),
			example: tableExamples[id],
			run:     func(args []string) error { return runTable(id, args) },
		})
	}
	register(command{
		name:    "list",
		summary: "list every table, figure and check the toolkit can run, with its status",
		example: "go run ./reproduce list --out results",
		run:     runList,
	})
}

// tableExamples is the example `reproduce <table> -h` shows, by table id.
var tableExamples = map[string]string{
	"table2": "go run ./reproduce table2 --datasets cora,citeseer --methods gcn,geomix1 --jobs 2",
	"table3": "go run ./reproduce table3 --methods erm,geomix2",
	"table4": "go run ./reproduce table4 --methods gcn,geomix1 --dry-run",
	"table5": "go run ./reproduce table5 --datasets cora --report-only",
}

// runTable implements `reproduce <table> [--datasets a,b] [--methods m,n] [--runs R] [--quick]
// [--out DIR] [--force] [--jobs N] [--json] [--dry-run] [--report-only] [--data DIR] [--shard i/n]
// [--shards N]`. Every selected cell runs even when some fail; the command then exits non-zero
// naming the failed cells. SIGINT or SIGTERM stop it at the next safe point: the report of the
// finished cells is written and it exits 130 or 143 saying what was kept and how to resume.
func runTable(id string, args []string) error {
	spec, err := tables.SpecFor(id)
	if err != nil {
		return err
	}
	fs := newFlagSet(id, os.Stderr)
	dsFlag := fs.String("datasets", "", "comma-separated data sets (default: all of "+strings.Join(spec.Datasets, ",")+
		"; with --quick: "+strings.Join(tables.QuickDatasets, ",")+")")
	mFlag := fs.String("methods", "", "comma-separated methods (default: all of "+strings.Join(spec.Methods, ",")+")")
	f := addSweepFlags(fs, sweepHelp{
		runs:       "runs per cell (default 5, 10 for squirrel/chameleon, 1 with --quick)",
		jobs:       jobsHelp("cells"),
		quick:      "1 run, few epochs, small data sets only: a smoke test, NOT the paper's protocol",
		out:        "results directory: cells in DIR/" + id + "/, the report in DIR/" + id + ".md",
		force:      "rerun cells that already have a result",
		asJSON:     "also print the comparison as JSON on stdout",
		dryRun:     "list the selected cells and their state (finished, in progress, to run) without training",
		reportOnly: "render DIR/" + id + ".md from the records in DIR without training any cell (--datasets and --methods are ignored)",
	})
	if err := parseArgs(fs, args); err != nil {
		return err
	}
	opts, err := f.options(id, args)
	if err != nil {
		return err
	}
	opts.Datasets, opts.Methods = splitList(*dsFlag), splitList(*mFlag)
	if f.dryRunSet() {
		return printPlan(spec, opts)
	}
	if *f.reportOnly {
		report, path, err := tables.WriteReport(spec, opts)
		if err != nil {
			return err
		}
		fmt.Fprintf(os.Stderr, "%s: report %s rendered from the records, nothing trained\n", id, path)
		return printReportJSON(report, *f.asJSON)
	}
	runner, received, release, err := startSweep(&opts)
	if err != nil {
		return err
	}
	defer release()
	sweep, err := tables.Run(spec, runner, opts)
	if sweep != nil && sweep.Report != nil {
		fmt.Fprintf(os.Stderr, "%s: %d cells run, %d skipped (finished earlier), %d copied from another table, %d failed%s; report %s\n",
			id, sweep.Ran, sweep.Skipped, sweep.Shared, len(sweep.Failed), sweepExtras(sweep), sweep.ReportPath)
		if jerr := printReportJSON(sweep.Report, *f.asJSON); jerr != nil && err == nil {
			err = jerr
		}
	}
	return stoppedExit(err, received(), commandLine(id, args))
}

// sweepExtras lists the sweep's counts that concern concurrent, sharded or stopped sweeps, those
// not zero, each after ", ".
func sweepExtras(s *tables.Sweep) string {
	var b strings.Builder
	for _, c := range []struct {
		n    int
		what string
	}{{s.ByOthers, "finished by another sweep"}, {s.OtherShards, "left to other shards"}, {len(s.Stopped), "stopped"}, {s.NotStarted, "not started"}} {
		if c.n > 0 {
			fmt.Fprintf(&b, ", %d %s", c.n, c.what)
		}
	}
	return b.String()
}

// printReportJSON prints report as indented JSON on stdout when asJSON is set.
func printReportJSON(report *tables.Report, asJSON bool) error {
	if !asJSON {
		return nil
	}
	enc := json.NewEncoder(os.Stdout)
	enc.SetIndent("", "  ")
	return enc.Encode(report)
}

// printPlan prints what a sweep with opts would do, a line per cell.
func printPlan(spec *tables.Spec, opts tables.Options) error {
	cells, err := tables.Plan(spec, opts)
	if err != nil {
		return err
	}
	w := tabwriter.NewWriter(os.Stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintln(w, "DATASET	METHOD	RUNS	STATE	RECORD")
	for _, c := range cells {
		fmt.Fprintf(w, "%s\t%s\t%d\t%s\t%s\n", c.Dataset, c.Method, c.Runs, planState(c), c.Path)
	}
	if err := w.Flush(); err != nil {
		return err
	}
	return printPlanCost(cells, "cells")
}

// plannedCost adds up the costs the dry runs of this process printed: `reproduce all --dry-run`
// gives their total.
var plannedCost tables.PlanCost

// printPlanCost prints on stdout what the planned cells (units: "cells", "points", ...) not yet
// finished still need to train, and adds it to plannedCost.
func printPlanCost(cells []tables.PlannedCell, units string) error {
	c := tables.CostOf(cells)
	plannedCost = plannedCost.Add(c)
	_, err := fmt.Fprintln(os.Stdout, c.Text(units))
	return err
}

// planState is a planned cell's state, with its finished runs when in progress and the process
// training it now, if any.
func planState(c tables.PlannedCell) string {
	state := c.State
	if c.State == tables.StateInProgress {
		state = fmt.Sprintf("%s: %d of %d runs finished", c.State, c.Done, c.Runs)
	}
	if c.TrainedBy != "" {
		state += ", being trained by " + c.TrainedBy
	}
	return state
}

// runList implements `reproduce list [--out DIR]`.
func runList(args []string) error {
	fs := newFlagSet("list", os.Stderr)
	out := fs.String("out", "results", "results directory whose finished cells are counted")
	if err := parseArgs(fs, args); err != nil {
		return err
	}
	w := tabwriter.NewWriter(os.Stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintln(w, "ID\tKIND\tSTATUS\tWHAT\tCOMMAND\tNOTE")
	for _, e := range tables.Catalog() {
		status, note := listStatus(e)
		note = joinNotes(progressNote(e.ID, *out), note)
		command := e.Command
		if command == "" {
			command = "-"
		}
		fmt.Fprintf(w, "%s\t%s\t%s\t%s\t%s\t%s\n", e.ID, e.Kind, status, e.Title, command, note)
	}
	return w.Flush()
}

// progressNote says how many full-protocol cells of the table, or points of a figure's default
// sweep, are finished and in progress under dir ("" for other entries).
func progressNote(id, dir string) string {
	if spec, err := tables.SpecFor(id); err == nil {
		if cells, err := tables.Plan(spec, tables.Options{OutDir: dir}); err == nil {
			return cellCounts(cells, "cells", dir)
		}
	} else if id == tables.FigureHyper {
		if cells, err := tables.PlanGrid(tables.DefaultGrid(), tables.Options{OutDir: dir}); err == nil {
			return cellCounts(cells, "points of the default grid", dir)
		}
	} else if id == tables.FigureBackbones {
		if cells, err := tables.PlanBackbones(tables.DefaultBackboneSweep(), tables.Options{OutDir: dir}); err == nil {
			return cellCounts(cells, "points of the default sweep", dir)
		}
	} else if id == tables.FigurePileup {
		if cells, err := tables.PlanPileup(tables.DefaultPileupSweep(), tables.Options{OutDir: dir}); err == nil {
			return cellCounts(cells, "points of the default sweep", dir)
		}
	} else if id == "tune" {
		return tuneCounts(dir)
	} else if id == tables.FigureTSNE {
		sweep := tables.DefaultTSNESweep()
		if r, err := tables.LoadTSNE(dir, sweep); err == nil {
			return fmt.Sprintf("%d of %d embeddings of the default sweep finished in %s", r.Points(), len(sweep.Datasets)*len(sweep.Methods), dir)
		}
	}
	return ""
}

// cellCounts says how many of the planned cells (what: "cells", "points ...") under dir are
// finished and in progress.
func cellCounts(cells []tables.PlannedCell, what, dir string) string {
	finished, inProgress := 0, 0
	for _, c := range cells {
		switch c.State {
		case tables.StateFinished, tables.StateShared:
			finished++
		case tables.StateInProgress:
			inProgress++
		}
	}
	s := fmt.Sprintf("%d of %d %s finished in %s", finished, len(cells), what, dir)
	if inProgress > 0 {
		s += fmt.Sprintf(", %d in progress", inProgress)
	}
	return s
}

// listStatus downgrades a catalog entry whose sub-command is not registered in this binary, or whose
// table cannot train because no cell runner is wired.
func listStatus(e tables.Entry) (status, note string) {
	status, note = e.Status, e.Note
	if e.Command == "" {
		return status, note
	}
	if _, ok := commands[e.ID]; !ok {
		return tables.NotYet, joinNotes("sub-command not in this build", note)
	}
	spec, err := tables.SpecFor(e.ID)
	if err != nil {
		return status, note
	}
	if missing := missingBackbones(spec.Methods); len(missing) > 0 {
		return tables.Partial, joinNotes("backbones not in this build: "+strings.Join(missing, ", "), note)
	}
	return status, note
}

// missingBackbones lists the backbones that methods name (the plain baselines gat, sgc, ...) but
// geomix has not registered.
func missingBackbones(names []string) []string {
	var missing []string
	for _, m := range names {
		if mth, err := methods.New(m); err == nil && mth.Backbone("") != "" {
			backbone := mth.Backbone("")
			if _, err := backbones.ByName(backbone); err != nil {
				missing = append(missing, backbone)
			}
		}
	}
	return missing
}

// joinNotes joins the non-empty notes with "; ".
func joinNotes(notes ...string) string {
	var kept []string
	for _, n := range notes {
		if n != "" {
			kept = append(kept, n)
		}
	}
	return strings.Join(kept, "; ")
}

// splitList splits a comma-separated flag value, dropping blanks; "" gives nil.
func splitList(s string) []string {
	var out []string
	for _, f := range strings.Split(s, ",") {
		if f = strings.TrimSpace(f); f != "" {
			out = append(out, f)
		}
	}
	return out
}

// commandLine reconstructs the invocation for the records, quoting arguments that need it.
func commandLine(name string, args []string) string {
	words := []string{"go run ./reproduce", name}
	for _, a := range args {
		if a == "" || strings.ContainsAny(a, " \t\"'$\\") {
			a = fmt.Sprintf("%q", a)
		}
		words = append(words, a)
	}
	return strings.Join(words, " ")
}
