package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"text/tabwriter"

	"github.com/geomix-go/geomix/geomix/theory"
	"github.com/schollz/progressbar/v3"
)

func init() {
	register(command{
		name:    "theory",
		summary: "check Theorems 1-3 and the heterophily claims numerically; exit 1 if any check fails",
		example: "go run ./reproduce theory --quick",
		run:     func(args []string) error { return runTheory(args, os.Stdout, os.Stderr) },
	})
}

// theoryRow is one check in `reproduce theory --json`.
type theoryRow struct {
	Name      string  `json:"name"`
	Predicted float64 `json:"predicted"`
	Observed  float64 `json:"observed"`
	Tolerance float64 `json:"tolerance"`
	Pass      bool    `json:"pass"`
}

// runTheory implements `reproduce theory [--json] [--quick] [--seed S]`: it runs every check of
// package theory on the pure-Go backend, prints a table (or JSON) to stdout and progress to stderr,
// and returns an error when a check fails.
func runTheory(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("theory", stderr)
	asJSON := fs.Bool("json", false, "print a JSON array of {name, predicted, observed, tolerance, pass} instead of a table")
	quick := fs.Bool("quick", false, "smaller graphs and fewer replicates (seconds; wider, still sampling-derived tolerances)")
	seed := fs.Uint64("seed", 1, "seed of every sample")
	if err := parseArgs(fs, args); err != nil {
		return err
	}
	bar := progressbar.NewOptions(len(theory.Names()), progressbar.OptionSetWriter(stderr),
		progressbar.OptionSetDescription("theory checks"), progressbar.OptionShowCount(), progressbar.OptionClearOnFinish())
	checks, err := theory.All(theory.Options{Seed: *seed, Quick: *quick}, func(done, _ int, c theory.Check) {
		bar.Describe(c.Name)
		_ = bar.Set(done)
	})
	_ = bar.Finish()
	if err != nil {
		return err
	}
	return reportTheory(checks, *asJSON, stdout)
}

// reportTheory prints checks as a table or JSON and returns an error naming the failed ones.
func reportTheory(checks []theory.Check, asJSON bool, stdout io.Writer) error {
	var failed []string
	for _, c := range checks {
		if !c.Pass {
			failed = append(failed, c.Name)
		}
	}
	if asJSON {
		rows := make([]theoryRow, len(checks))
		for i, c := range checks {
			rows[i] = theoryRow{Name: c.Name, Predicted: c.Predicted, Observed: c.Observed, Tolerance: c.Tolerance, Pass: c.Pass}
		}
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(rows); err != nil {
			return err
		}
	} else {
		w := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', 0)
		fmt.Fprintln(w, "check\tpredicted\tobserved\ttolerance\tcompare\tpass")
		for _, c := range checks {
			fmt.Fprintf(w, "%s\t%.6g\t%.6g\t%.3g\t%s\t%v\n", c.Name, c.Predicted, c.Observed, c.Tolerance, c.Comparison, c.Pass)
		}
		if err := w.Flush(); err != nil {
			return err
		}
		fmt.Fprintln(stdout, "\nNotes:")
		for _, c := range checks {
			fmt.Fprintf(stdout, "- %s: %s\n", c.Name, c.Note)
		}
	}
	if len(failed) > 0 {
		return fmt.Errorf("%d of %d checks failed: %v", len(failed), len(checks), failed)
	}
	return nil
}
