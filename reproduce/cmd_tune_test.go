package main

import (
	"maps"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/geomix-go/geomix/geomix"
	"github.com/geomix-go/geomix/geomix/training"
	"github.com/geomix-go/geomix/reproduce/tables"
)

// settingsRunner returns every run at a validation accuracy that grows with the learning rate,
// with the cell's settings in its Params, and counts its calls.
func settingsRunner(calls *int) tables.CellRunner {
	return func(c tables.Cell) (*geomix.Result, error) {
		*calls++
		val := 60 + 100*c.Params[training.ParamLR].(float64)
		res := &geomix.Result{Dataset: c.Dataset, Method: c.Method, Runs: c.Runs, TestAccMean: 70, ValAccMean: val, Params: maps.Clone(c.Params)}
		for i := range c.Runs {
			res.PerRun = append(res.PerRun, geomix.RunResult{Run: i, TestAcc: 70, ValAcc: val})
		}
		return res, nil
	}
}

// TestTuneCommand: `tune` trains the configurations, stores the selected cell and renders the
// table's report with its validation-selected group; a rerun trains nothing; --report-only stores
// the selection again from the records; --dry-run lists the configurations as finished with the
// selection; --table takes the bare number too; bad flags are errors naming what is wrong; `list` shows the command.
func TestTuneCommand(t *testing.T) {
	calls := 0
	withRunner(t, settingsRunner(&calls))
	dir := t.TempDir()
	args := []string{"--table", "table2", "--datasets", "cora", "--methods", "sgc", "--size", "3", "--out", dir}
	var err error
	captureStderr(t, func() { err = runTune(args) })
	if err != nil || calls != 3 {
		t.Fatalf("err %v, %d trainings; want 3", err, calls)
	}
	rec, err := tables.ReadRecord(tables.TunedRecordPath(dir, "table2", "cora", "sgc"))
	if err != nil || rec.Tuning == nil || rec.Tuning.Tried != 3 || rec.Tuning.GridSize != 32 || rec.Runs != 5 {
		t.Fatalf("selected cell %+v, %v; want 3 of 32 configurations, 5 runs", rec, err)
	}
	if rec.Command != "go run ./reproduce tune "+strings.Join(args, " ") {
		t.Errorf("selected cell's command %q", rec.Command)
	}
	md, err := os.ReadFile(filepath.Join(dir, "table2.md"))
	if err != nil || !strings.Contains(string(md), "## Validation-selected settings (headline)") || !strings.Contains(string(md), "3 of 32 configurations, seeded subset (seed 1)") {
		t.Errorf("report %v:\n%s", err, md)
	}
	captureStderr(t, func() { err = runTune(args) })
	if err != nil || calls != 3 {
		t.Errorf("rerun: err %v, %d trainings in all; want none more", err, calls)
	}
	byNumber := append([]string{"--table", "2"}, args[2:]...)
	captureStderr(t, func() { err = runTune(byNumber) })
	if err != nil || calls != 3 {
		t.Errorf("rerun as --table 2: err %v, %d trainings in all; want the same cell, none more", err, calls)
	}

	if err := os.Remove(tables.TunedRecordPath(dir, "table2", "cora", "sgc")); err != nil {
		t.Fatal(err)
	}
	captureStderr(t, func() { err = runTune(append(args, "--report-only")) })
	if again, rerr := tables.ReadRecord(tables.TunedRecordPath(dir, "table2", "cora", "sgc")); err != nil || rerr != nil || calls != 3 || again.Tuning.ConfigID != rec.Tuning.ConfigID {
		t.Errorf("--report-only after the selected cell was removed: %v, %v, %d trainings in all; want it selected again from the records, nothing trained", err, rerr, calls)
	}

	stdout := os.Stdout
	f, err := os.Create(filepath.Join(t.TempDir(), "plan.txt"))
	if err != nil {
		t.Fatal(err)
	}
	os.Stdout = f
	err = runTune(append(args, "--dry-run"))
	os.Stdout = stdout
	plan, _ := os.ReadFile(f.Name())
	if err != nil || strings.Count(string(plan), " finished ") != 3 || !strings.Contains(string(plan), "cora/sgc: 3 of 32 configurations, seeded subset (seed 1); selected lr=") {
		t.Errorf("dry run: %v\n%s", err, plan)
	}

	for _, bad := range []struct {
		args []string
		want string
	}{
		{[]string{"--out", dir}, "--table is required"},
		{[]string{"--table", "table5", "--out", dir}, "table5 is not tuned"},
		{[]string{"--table", "7", "--out", dir}, `"table7" cannot be run`},
		{[]string{"--table", "table2", "--methods", "geomix1", "--out", dir}, "keeps the authors' script settings"},
		{[]string{"--table", "table2", "--size", "-2", "--out", dir}, "--size -2"},
		{[]string{"--table", "table2", "--screen", "-1", "--out", dir}, "tune screen -1"},
		{[]string{"--table", "table2", "--methods", "sgc", "--size", "3", "--screen", "3", "--out", dir, "--dry-run"}, "fewer finalists than configurations"},
		{[]string{"--table", "table2", "--jobs", "0", "--out", dir}, "--jobs 0"},
	} {
		if err := runTune(bad.args); err == nil || !strings.Contains(err.Error(), bad.want) {
			t.Errorf("tune %v: %v, want an error with %q", bad.args, err, bad.want)
		}
	}
	if got := progressNote("tune", dir); !strings.HasPrefix(got, "1 of 92 tunings selected in ") {
		t.Errorf("list's note on tune: %q", got) // 56 + 8 + 28 cells; the one above is stored, from 3 configurations
	}
	found := false
	for _, e := range tables.Catalog() {
		if s, _ := listStatus(e); e.ID == "tune" && s == tables.Implemented && e.Command == "go run ./reproduce tune --table table2" {
			found = true
		}
	}
	if !found {
		t.Error("reproduce list does not show tune as implemented")
	}
}
