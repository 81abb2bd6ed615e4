package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"text/tabwriter"

	"github.com/geomix-go/geomix/datasets/pileup"
	"github.com/geomix-go/geomix/internal/atomicfile"
)

func init() {
	register(command{
		name:    "pileup-simulate",
		summary: "write simulated Delphes-layout Pileup files DIR/pileup/test_{gg,qq}_PU{10,30,50,140}.root",
		example: "go run ./reproduce pileup-simulate --out /tmp/pileup-data --events 200",
		run:     func(args []string) error { return runPileupSimulate(args, os.Stdout, os.Stderr) },
	})
	register(command{
		name:    "pileup-calibration",
		summary: "write the Pileup simulator's statistics beside the published ones (results/pileup-calibration.md)",
		example: "go run ./reproduce pileup-calibration --events 500",
		run:     func(args []string) error { return runPileupCalibration(args, os.Stdout, os.Stderr) },
	})
}

// runPileupSimulate implements `reproduce pileup-simulate --out DIR [--events N] [--seed S]`: one
// file per (process, PU) under DIR/pileup/, the data-root layout, so `reproduce datasets --data DIR`
// lists them (as simulated).
func runPileupSimulate(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("pileup-simulate", stderr)
	out := fs.String("out", "", "data root to write into: files go to DIR/pileup/ (required)")
	events := fs.Int("events", 1000, "events per file")
	seed := fs.Uint64("seed", pileup.DefaultSimSeed, "simulation seed (each sample has its own stream)")
	if err := parseArgs(fs, args); err != nil {
		return err
	}
	if *out == "" {
		return fmt.Errorf("--out DIR is required")
	}
	if *events <= 0 {
		return fmt.Errorf("--events %d, expected a positive number", *events)
	}
	for _, process := range pileup.Processes {
		for _, pu := range pileup.PileupLevels {
			path := filepath.Join(*out, "pileup", pileup.FileName(process, pu))
			if err := pileup.Simulate(path, process, pu, *events, *seed); err != nil {
				return err
			}
			info, err := os.Stat(path)
			if err != nil {
				return err
			}
			fmt.Fprintf(stdout, "wrote %s (%d events, %d bytes)\n", path, *events, info.Size())
		}
	}
	return nil
}

// runPileupCalibration implements `reproduce pileup-calibration [--out FILE] [--events N] [--seed
// S]`, writing the report atomically.
func runPileupCalibration(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("pileup-calibration", stderr)
	out := fs.String("out", filepath.Join("results", "pileup-calibration.md"), "report to write")
	events := fs.Int("events", 2000, "events simulated per sample")
	seed := fs.Uint64("seed", pileup.DefaultSimSeed, "simulation seed")
	if err := parseArgs(fs, args); err != nil {
		return err
	}
	if *events <= 0 {
		return fmt.Errorf("--events %d, expected a positive number", *events)
	}
	command := fmt.Sprintf("go run ./reproduce pileup-calibration --events %d --seed %d", *events, *seed)
	err := atomicfile.Write(*out, func(w io.Writer) error { return pileup.WriteCalibration(w, *events, *seed, command) })
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "wrote %s\n", *out)
	return nil
}

// printPileupSamples lists the Pileup files present under root/pileup/ (Zenodo or simulated, as
// their content says) with their per-event statistics over the first events events; it prints
// nothing when there are none.
func printPileupSamples(w io.Writer, root string, events int) error {
	type row struct {
		sample pileup.Sample
		stats  pileup.Stats
	}
	var rows []row
	for _, process := range pileup.Processes {
		for _, pu := range pileup.PileupLevels {
			path := filepath.Join(root, "pileup", pileup.FileName(process, pu))
			if _, err := os.Stat(path); err != nil {
				continue
			}
			s, err := pileup.Identify(process, pu, path)
			if err != nil {
				return err
			}
			st, err := pileup.FileStats(path, events)
			if err != nil {
				return err
			}
			rows = append(rows, row{s, st})
		}
	}
	if len(rows) == 0 {
		return nil
	}
	fmt.Fprintf(w, "\nPileup samples under %s (per event, first %d events, after |eta| < 2.5, pT > 0.5 and the event skips):\n",
		filepath.Join(root, "pileup"), events)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "sample\tevents\tkept\tnodes\tdirected edges\tLV/PU\tneutral LV fraction\tsource\t")
	for _, r := range rows {
		source := "Zenodo"
		if r.sample.Simulated {
			source = "simulated"
		}
		fmt.Fprintf(tw, "%s PU%d\t%d\t%d\t%.1f\t%.0f\t%.4f\t%.3f\t%s\t\n", r.sample.Process, r.sample.PU, r.stats.Events,
			r.stats.Kept, r.stats.Nodes, r.stats.Edges, r.stats.LVPerPU, r.stats.NeutralLV, source)
	}
	return tw.Flush()
}
