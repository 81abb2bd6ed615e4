package main

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/geomix-go/geomix/geomix/theory"
)

func TestTheoryCommandQuickJSON(t *testing.T) {
	var stdout, stderr bytes.Buffer
	if err := runTheory([]string{"--json", "--quick", "--seed", "3"}, &stdout, &stderr); err != nil {
		t.Fatalf("%v\nstderr: %s", err, stderr.String())
	}
	var rows []map[string]any
	if err := json.Unmarshal(stdout.Bytes(), &rows); err != nil {
		t.Fatalf("stdout is not a JSON array: %v\n%s", err, stdout.String())
	}
	if len(rows) != len(theory.Names()) {
		t.Fatalf("%d rows, want %d", len(rows), len(theory.Names()))
	}
	for i, row := range rows {
		if len(row) != 5 || row["name"] != theory.Names()[i] || row["pass"] != true {
			t.Errorf("row %d = %v, want the 5 keys name/predicted/observed/tolerance/pass of a passing %s", i, row, theory.Names()[i])
		}
	}
}

func TestTheoryReportFailsOnFailedCheck(t *testing.T) {
	checks := []theory.Check{
		{Name: "theorem1/expected-feature", Predicted: 0.5, Observed: 0.5, Tolerance: 0.01, Pass: true, Comparison: theory.Equal},
		{Name: "theorem2/expected-label", Predicted: 0.5, Observed: 0.7, Tolerance: 0.01, Pass: false, Comparison: theory.Equal},
	}
	var stdout bytes.Buffer
	err := reportTheory(checks, false, &stdout)
	if err == nil || !strings.Contains(err.Error(), "1 of 2 checks failed") || !strings.Contains(err.Error(), "theorem2/expected-label") {
		t.Fatalf("error %v, want one naming the failed check", err)
	}
	found := false
	for _, line := range strings.Split(stdout.String(), "\n") {
		if f := strings.Fields(line); len(f) == 6 && f[0] == "theorem2/expected-label" && f[2] == "0.7" && f[5] == "false" {
			found = true
		}
	}
	if !found {
		t.Errorf("table lacks the failed row:\n%s", stdout.String())
	}
}
