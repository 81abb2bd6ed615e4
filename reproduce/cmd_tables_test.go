package main

import (
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/geomix-go/geomix/geomix"
	"github.com/geomix-go/geomix/reproduce/tables"
)

// withRunner makes the table commands use r for the test and restores it afterwards.
func withRunner(t *testing.T, r tables.CellRunner) {
	saved := newCellRunner
	newCellRunner = func(io.Writer) (tables.CellRunner, error) { return r, nil }
	t.Cleanup(func() { newCellRunner = saved })
}

// countingRunner returns every run at 70% accuracy and counts its calls.
func countingRunner(calls *int) tables.CellRunner {
	return func(c tables.Cell) (*geomix.Result, error) {
		*calls++
		res := &geomix.Result{Dataset: c.Dataset, Method: c.Method, Runs: c.Runs, TestAccMean: 70}
		for i := range c.Runs {
			res.PerRun = append(res.PerRun, geomix.RunResult{Run: i, TestAcc: 70})
		}
		return res, nil
	}
}

// TestTableCommand runs `table5` with a counting runner, checks the record, the JSON output and
// that a rerun skips the finished cell.
func TestTableCommand(t *testing.T) {
	calls := 0
	withRunner(t, countingRunner(&calls))
	dir := t.TempDir()
	args := []string{"--out", dir, "--datasets", "cora", "--methods", "gcn, geomix1", "--runs", "2", "--json"}

	stdout := os.Stdout
	f, err := os.Create(filepath.Join(t.TempDir(), "stdout.json"))
	if err != nil {
		t.Fatal(err)
	}
	os.Stdout = f
	err = runTable("table5", args)
	os.Stdout = stdout
	if err != nil || calls != 2 {
		t.Fatalf("err %v, calls %d; want 2 cells run", err, calls)
	}
	rec, err := tables.ReadRecord(tables.RecordPath(dir, "table5", "cora", "geomix1"))
	if err != nil {
		t.Fatal(err)
	}
	want := "go run ./reproduce table5 --out " + dir + " --datasets cora --methods \"gcn, geomix1\" --runs 2 --json"
	if rec.Runs != 2 || rec.Quick || rec.Command != want {
		t.Errorf("record runs %d quick %v command %q; want 2, false, %q", rec.Runs, rec.Quick, rec.Command, want)
	}
	data, err := os.ReadFile(f.Name())
	if err != nil {
		t.Fatal(err)
	}
	var rep tables.Report
	if err := json.Unmarshal(data, &rep); err != nil {
		t.Fatalf("--json output is not a report: %v\n%s", err, data)
	}
	if rep.Table != "table5" || len(rep.Rows) != 12 || rep.Rows[0].Ours == nil || rep.Rows[0].Ours.Mean != 70 {
		t.Errorf("--json report: table %q, %d rows, first %+v", rep.Table, len(rep.Rows), rep.Rows[0])
	}

	if err := runTable("table5", args[:len(args)-1]); err != nil || calls != 2 {
		t.Errorf("rerun: err %v, calls %d; want finished cells skipped", err, calls)
	}
	for _, bad := range [][]string{{"--methods", "graphmix"}, {"--datasets", "pubmed"}, {"--bogus"}, {"extra"}, {"--jobs", "0"}} {
		if err := runTable("table5", append([]string{"--out", dir}, bad...)); err == nil {
			t.Errorf("args %q: no error", bad)
		}
	}
}

func TestListStatus(t *testing.T) {
	byID := map[string]tables.Entry{}
	for _, e := range tables.Catalog() {
		byID[e.ID] = e
	}
	calls := 0
	withRunner(t, countingRunner(&calls))
	if s, _ := listStatus(byID["table5"]); s != tables.Implemented {
		t.Errorf("table5 with runner: %q, want implemented", s)
	}
	if s, _ := listStatus(byID["table3"]); s != tables.Partial {
		t.Errorf("table3: %q, want partial", s)
	}
	dir := t.TempDir()
	if err := runTable("table5", []string{"--out", dir, "--datasets", "cora", "--methods", "gcn", "--runs", "5"}); err != nil {
		t.Fatal(err)
	}
	if got := progressNote("table5", dir); got != "1 of 12 cells finished in "+dir {
		t.Errorf("cell counts %q, want 1 of 12 (cora/gcn)", got)
	}
	ghost := tables.Entry{ID: "ghost", Command: "go run ./reproduce ghost", Status: tables.Implemented}
	if s, note := listStatus(ghost); s != tables.NotYet || !strings.Contains(note, "not in this build") {
		t.Errorf("unregistered command: %q %q", s, note)
	}
}

func TestCommandLine(t *testing.T) {
	got := commandLine("table2", []string{"--datasets", "cora,citeseer", "--out", "my results", "--data", ""})
	want := `go run ./reproduce table2 --datasets cora,citeseer --out "my results" --data ""`
	if got != want {
		t.Errorf("commandLine = %q, want %q", got, want)
	}
	if got := splitList(" cora, ,citeseer "); strings.Join(got, "|") != "cora|citeseer" {
		t.Errorf("splitList = %q", got)
	}
}
