package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/geomix-go/geomix/internal/atomicfile"
	"github.com/geomix-go/geomix/reproduce/tables"
)

func init() {
	register(command{
		name:    "all",
		summary: "run every table and figure sweep in turn (resumable; the grid search is `tune`), then write a timing summary",
		example: "go run ./reproduce all --jobs 2",
		run:     func(args []string) error { return runAll(args, allSteps(), os.Stdout) },
	})
}

// allStep is one sweep of `reproduce all`: the sub-command id and whether it takes --jobs and
// --dry-run.
type allStep struct {
	id           string
	jobs, dryRun bool
}

// allSteps is every resumable sweep of the toolkit with its default cells, in the order `all`
// runs them: the tables, then the figures (the theorem checks have no cells: `reproduce theory`; the
// validation grid search is its own command: `reproduce tune`).
func allSteps() []allStep {
	var steps []allStep
	for _, spec := range tables.Specs() {
		steps = append(steps, allStep{id: spec.Paper.ID, jobs: true, dryRun: true})
	}
	return append(steps,
		allStep{id: tables.FigureBackbones, jobs: true, dryRun: true},
		allStep{id: tables.FigureHyper, jobs: true, dryRun: true},
		allStep{id: tables.FigureTSNE},
		allStep{id: tables.FigurePileup, jobs: true, dryRun: true},
	)
}

// AllStepResult is one sweep's line of the summary.
type AllStepResult struct {
	// ID is the sweep's sub-command (table2, figure-pileup, ...).
	ID string `json:"id"`
	// Args are the arguments it was run with.
	Args []string `json:"args"`
	// Before and After say how many of its cells were finished before and after the step.
	Before string `json:"before"`
	After  string `json:"after"`
	// Seconds is the step's wall time.
	Seconds float64 `json:"seconds"`
	// Error is the step's error, "" when it succeeded.
	Error string `json:"error,omitempty"`
}

// AllSummary is what `reproduce all` writes to DIR/all.json (and, as a table, DIR/all.md).
type AllSummary struct {
	Command  string          `json:"command"`
	Jobs     int             `json:"jobs"`
	Quick    bool            `json:"quick"`
	GitRev   string          `json:"git_revision"`
	Started  time.Time       `json:"started_at"`
	Seconds  float64         `json:"seconds_total"`
	Steps    []AllStepResult `json:"steps"`
	Stopped  bool            `json:"stopped,omitempty"`
	Finished bool            `json:"finished"`
}

// runAll implements `reproduce all [--out DIR] [--jobs N] [--quick] [--only a,b] [--dry-run]
// [--data DIR]`: each step of steps runs with its defaults (its finished cells are kept), a failed
// step does not stop the next ones, a signal stops after the running step's safe point. The
// summary is printed on stdout and written atomically after every step.
func runAll(args []string, steps []allStep, stdout io.Writer) error {
	fs := newFlagSet("all", os.Stderr)
	out := fs.String("out", "results", "results directory of every sweep; the summary goes to DIR/all.json and DIR/all.md")
	jobs := fs.Int("jobs", 1, "cells to train at once in each sweep")
	quick := fs.Bool("quick", false, "run every sweep in its --quick mode (a smoke test, NOT the paper's protocol)")
	only := fs.String("only", "", "comma-separated sweeps to run (default: all of "+stepIDs(steps)+")")
	dryRun := fs.Bool("dry-run", false, "list every sweep's cells and their state without training")
	dataDir := fs.String("data", "", "data root passed to every sweep (default $GEOMIX_DATA or the user cache)")
	if err := parseArgs(fs, args); err != nil {
		return err
	}
	if *jobs < 1 {
		return fmt.Errorf("--jobs %d: want >= 1", *jobs)
	}
	selected, err := selectSteps(steps, splitList(*only))
	if err != nil {
		return err
	}
	plannedCost = tables.PlanCost{}
	sum := AllSummary{Command: commandLine("all", args), Jobs: *jobs, Quick: *quick, GitRev: tables.GitRevision(".", *out), Started: time.Now().UTC()}
	for i, s := range selected {
		stepArgs := []string{"--out", *out}
		if s.jobs {
			stepArgs = append(stepArgs, "--jobs", fmt.Sprint(*jobs))
		}
		if *quick {
			stepArgs = append(stepArgs, "--quick")
		}
		if *dataDir != "" {
			stepArgs = append(stepArgs, "--data", *dataDir)
		}
		if *dryRun {
			fmt.Fprintf(stdout, "== %s\n", s.id)
			if !s.dryRun {
				fmt.Fprintf(stdout, "%s\n", progressNote(s.id, *out))
				continue
			}
			stepArgs = append(stepArgs, "--dry-run")
		}
		c, ok := commands[s.id]
		if !ok {
			return fmt.Errorf("all: sweep %q is not a command of this build", s.id)
		}
		fmt.Fprintf(os.Stderr, "all: sweep %d of %d: go run ./reproduce %s %s\n", i+1, len(selected), s.id, strings.Join(stepArgs, " "))
		res := AllStepResult{ID: s.id, Args: stepArgs, Before: progressNote(s.id, *out)}
		start := time.Now()
		err := c.run(stepArgs)
		res.Seconds = time.Since(start).Seconds()
		if err != nil {
			res.Error = err.Error()
		}
		if *dryRun {
			if err != nil {
				return err
			}
			continue
		}
		res.After = progressNote(s.id, *out)
		sum.Steps = append(sum.Steps, res)
		sum.Seconds = time.Since(sum.Started).Seconds()
		var stop *exitError
		sum.Stopped = errors.As(err, &stop)
		sum.Finished = i == len(selected)-1 && !sum.Stopped
		if werr := writeAllSummary(*out, sum); werr != nil {
			return werr
		}
		if sum.Stopped {
			fmt.Fprint(stdout, allMarkdown(sum))
			return &exitError{code: stop.code, err: fmt.Errorf("all stopped in %s: %w\nto resume: %s", s.id, stop.err, sum.Command)}
		}
	}
	if *dryRun {
		fmt.Fprintf(stdout, "== all\n%s", plannedCost.Text("cells and points"))
		if plannedCost.Cells > 0 {
			fmt.Fprintf(stdout, "; with --jobs %d, at least %s of wall time", *jobs, tables.Duration(plannedCost.Seconds/float64(*jobs)))
		}
		fmt.Fprintln(stdout)
		return nil
	}
	fmt.Fprint(stdout, allMarkdown(sum))
	var failed []string
	for _, s := range sum.Steps {
		if s.Error != "" {
			failed = append(failed, s.ID)
		}
	}
	if len(failed) > 0 {
		return fmt.Errorf("all: %d sweep(s) failed: %s (their errors are in %s)", len(failed), strings.Join(failed, ", "), filepath.Join(*out, "all.json"))
	}
	return nil
}

// selectSteps returns the steps named in only (all of them when only is empty), in steps' order.
func selectSteps(steps []allStep, only []string) ([]allStep, error) {
	if len(only) == 0 {
		return steps, nil
	}
	want := map[string]bool{}
	for _, id := range only {
		found := false
		for _, s := range steps {
			found = found || s.id == id
		}
		if !found {
			return nil, fmt.Errorf("--only %q: unknown sweep, want some of %s", id, stepIDs(steps))
		}
		want[id] = true
	}
	var sel []allStep
	for _, s := range steps {
		if want[s.id] {
			sel = append(sel, s)
		}
	}
	return sel, nil
}

// stepIDs joins the steps' ids with commas.
func stepIDs(steps []allStep) string {
	ids := make([]string, len(steps))
	for i, s := range steps {
		ids[i] = s.id
	}
	return strings.Join(ids, ",")
}

// writeAllSummary writes sum to dir/all.json and dir/all.md, each atomically.
func writeAllSummary(dir string, sum AllSummary) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	if err := atomicfile.Write(filepath.Join(dir, "all.json"), func(w io.Writer) error {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(sum)
	}); err != nil {
		return err
	}
	return atomicfile.Write(filepath.Join(dir, "all.md"), func(w io.Writer) error {
		_, err := io.WriteString(w, allMarkdown(sum))
		return err
	})
}

// allMarkdown renders sum as a Markdown table, one line per sweep.
func allMarkdown(sum AllSummary) string {
	var b strings.Builder
	state := "finished"
	switch {
	case sum.Stopped:
		state = "stopped (rerun the command to resume)"
	case !sum.Finished:
		state = "running"
	}
	fmt.Fprintf(&b, "# reproduce all\n\n`%s`: %s, %s wall with --jobs %d", sum.Command, state, formatWall(sum.Seconds), sum.Jobs)
	if sum.Quick {
		b.WriteString(", quick mode (NOT the paper's protocol)")
	}
	fmt.Fprintf(&b, ", git %s.\n\n", sum.GitRev)
	b.WriteString("| sweep | wall | before | after | error |\n|---|---|---|---|---|\n")
	for _, s := range sum.Steps {
		fmt.Fprintf(&b, "| %s | %s | %s | %s | %s |\n", s.ID, formatWall(s.Seconds), cellsOnly(s.Before), cellsOnly(s.After), firstLine(s.Error))
	}
	return b.String()
}

// cellsOnly drops the " in DIR" tail of a progress note ("3 of 8 cells finished in results").
func cellsOnly(note string) string {
	if i := strings.Index(note, " finished in "); i >= 0 {
		return note[:i] + " finished"
	}
	return note
}

// firstLine is s up to its first newline.
func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}

// formatWall prints seconds as "1 h 02 min", "3 min 05 s" or "12.3 s".
func formatWall(sec float64) string {
	d := time.Duration(sec * float64(time.Second))
	switch {
	case d >= time.Hour:
		return fmt.Sprintf("%d h %02d min", int(d.Hours()), int(d.Minutes())%60)
	case d >= time.Minute:
		return fmt.Sprintf("%d min %02d s", int(d.Minutes()), int(d.Seconds())%60)
	}
	return fmt.Sprintf("%.1f s", d.Seconds())
}
