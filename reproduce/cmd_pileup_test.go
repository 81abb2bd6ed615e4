package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestPileupSimulateThenDatasets writes simulated files into a data root and lists them.
func TestPileupSimulateThenDatasets(t *testing.T) {
	root := t.TempDir()
	var stdout, stderr bytes.Buffer
	if err := runPileupSimulate([]string{"--out", root, "--events", "3", "--seed", "2"}, &stdout, &stderr); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"test_gg_PU10.root", "test_qq_PU140.root"} {
		if !strings.Contains(stdout.String(), filepath.Join(root, "pileup", name)) {
			t.Errorf("output does not list %s:\n%s", name, stdout.String())
		}
	}
	stdout.Reset()
	if err := runDatasets([]string{"--data", root, "--offline", "--pileup-events", "2"}, &stdout, &stderr); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(stdout.String(), "Pileup samples under") || strings.Count(stdout.String(), "simulated") != 8 {
		t.Errorf("datasets does not list the 8 simulated samples:\n%s", stdout.String())
	}
}

// TestPileupCommandsRejectBadFlags checks the flag errors.
func TestPileupCommandsRejectBadFlags(t *testing.T) {
	var stdout, stderr bytes.Buffer
	for _, args := range [][]string{{}, {"--out", t.TempDir(), "--events", "0"}, {"--out", t.TempDir(), "extra"}} {
		if err := runPileupSimulate(args, &stdout, &stderr); err == nil {
			t.Errorf("pileup-simulate %q: no error", args)
		}
	}
	if err := runPileupCalibration([]string{"--events", "-1"}, &stdout, &stderr); err == nil {
		t.Error("pileup-calibration --events -1: no error")
	}
}

// TestPileupCalibrationWritesReport writes a small report.
func TestPileupCalibrationWritesReport(t *testing.T) {
	out := filepath.Join(t.TempDir(), "cal.md")
	var stdout, stderr bytes.Buffer
	if err := runPileupCalibration([]string{"--out", out, "--events", "4"}, &stdout, &stderr); err != nil {
		t.Fatal(err)
	}
	text, err := os.ReadFile(out)
	if err != nil || !strings.Contains(string(text), "pileup-calibration --events 4 --seed 1") {
		t.Errorf("report %q, %v", text, err)
	}
}
