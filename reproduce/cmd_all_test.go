package main

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// fakeSweeps registers sub-commands named by ids that record their arguments into got and return
// the error of errs (nil when absent); they are removed when the test ends.
func fakeSweeps(t *testing.T, got map[string][]string, errs map[string]error, ids ...string) []allStep {
	var steps []allStep
	for _, id := range ids {
		register(command{name: id, run: func(args []string) error {
			got[id] = args
			return errs[id]
		}})
		t.Cleanup(func() { delete(commands, id) })
		steps = append(steps, allStep{id: id, jobs: id != "fake-tsne", dryRun: true})
	}
	return steps
}

// TestAllRunsEverySweepAndSummarises: every sweep runs with the shared flags (no --jobs where the
// sweep has none), a failing sweep does not stop the next, and the summary names the failure.
func TestAllRunsEverySweepAndSummarises(t *testing.T) {
	got := map[string][]string{}
	steps := fakeSweeps(t, got, map[string]error{"fake-b": errors.New("cell x failed\nmore")}, "fake-a", "fake-b", "fake-tsne")
	dir := t.TempDir()
	err := runAll([]string{"--out", dir, "--jobs", "2", "--quick", "--data", "/data"}, steps, io.Discard)
	if err == nil || !strings.Contains(err.Error(), "1 sweep(s) failed: fake-b") {
		t.Fatalf("err %v; want fake-b named as failed", err)
	}
	if want := []string{"--out", dir, "--jobs", "2", "--quick", "--data", "/data"}; !slices.Equal(got["fake-a"], want) || !slices.Equal(got["fake-b"], want) {
		t.Errorf("args %q, %q; want %q", got["fake-a"], got["fake-b"], want)
	}
	if want := []string{"--out", dir, "--quick", "--data", "/data"}; !slices.Equal(got["fake-tsne"], want) {
		t.Errorf("fake-tsne args %q; want %q (no --jobs)", got["fake-tsne"], want)
	}
	md, err := os.ReadFile(filepath.Join(dir, "all.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"| fake-a |", "| fake-b |", "cell x failed |", "| fake-tsne |", ": finished,", "quick mode"} {
		if !strings.Contains(string(md), want) {
			t.Errorf("all.md lacks %q:\n%s", want, md)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "all.json")); err != nil {
		t.Error(err)
	}
}

// TestAllStopsOnSignal: a sweep stopped by a signal ends `all` with its exit status, the later
// sweeps untouched and the summary saying how to resume.
func TestAllStopsOnSignal(t *testing.T) {
	got := map[string][]string{}
	stopped := &exitError{code: 130, err: errors.New("stopped")}
	steps := fakeSweeps(t, got, map[string]error{"fake-a": stopped}, "fake-a", "fake-b")
	dir := t.TempDir()
	err := runAll([]string{"--out", dir}, steps, io.Discard)
	var ee *exitError
	if !errors.As(err, &ee) || ee.code != 130 || !strings.Contains(err.Error(), "to resume: go run ./reproduce all --out") {
		t.Fatalf("err %v; want exit 130 with the command to resume", err)
	}
	if _, ran := got["fake-b"]; ran {
		t.Error("fake-b ran after the stop")
	}
	md, _ := os.ReadFile(filepath.Join(dir, "all.md"))
	if !strings.Contains(string(md), "stopped (rerun the command to resume)") {
		t.Errorf("all.md does not say it stopped:\n%s", md)
	}
}

// TestAllFlags: --only selects in the steps' order and rejects unknown names; bad --jobs fails.
func TestAllFlags(t *testing.T) {
	got := map[string][]string{}
	steps := fakeSweeps(t, got, nil, "fake-a", "fake-b")
	if err := runAll([]string{"--only", "fake-c"}, steps, io.Discard); err == nil || !strings.Contains(err.Error(), `--only "fake-c": unknown sweep, want some of fake-a,fake-b`) {
		t.Errorf("err %v; want the unknown sweep named", err)
	}
	if err := runAll([]string{"--jobs", "0"}, steps, io.Discard); err == nil || !strings.Contains(err.Error(), "--jobs 0") {
		t.Errorf("err %v; want --jobs 0 rejected", err)
	}
	if err := runAll([]string{"--only", "fake-b", "--out", t.TempDir()}, steps, io.Discard); err != nil {
		t.Fatal(err)
	}
	if _, ran := got["fake-a"]; ran || got["fake-b"] == nil {
		t.Errorf("ran %v; want only fake-b", got)
	}
}

// TestAllStepsAreCommands: every default step is a registered sweep that accepts the flags `all`
// gives it (a dry run of each in quick mode).
func TestAllStepsAreCommands(t *testing.T) {
	dir := t.TempDir()
	for _, s := range allSteps() {
		c, ok := commands[s.id]
		if !ok {
			t.Errorf("step %s is not a command", s.id)
			continue
		}
		if !s.dryRun {
			continue
		}
		args := []string{"--out", dir, "--quick", "--dry-run"}
		if s.jobs {
			args = append(args, "--jobs", "2")
		}
		if err := c.run(args); err != nil {
			t.Errorf("%s %q: %v", s.id, args, err)
		}
	}
}
