package tables

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestReadRecordChecksPerRun: a record whose per_run does not agree with its test_accs, such as one
// written with Go's field names as keys before geomix.RunResult had JSON tags, is refused with an
// error naming the file and the entry.
func TestReadRecordChecksPerRun(t *testing.T) {
	path := filepath.Join(t.TempDir(), "cora-gcn.json")
	for what, perRun := range map[string]string{
		"Go field names": `[{"Run": 0, "BestEpoch": 7, "ValAcc": 80, "TestAcc": 81}, {"Run": 1, "BestEpoch": 9, "ValAcc": 79, "TestAcc": 82}]`,
		"one entry":      `[{"run": 0, "test_acc": 81}]`,
		"runs swapped":   `[{"run": 1, "test_acc": 82}, {"run": 0, "test_acc": 81}]`,
	} {
		record := `{"table": "table5", "dataset": "cora", "method": "gcn", "runs": 2, "test_accs": [81, 82], "per_run": ` + perRun + `}`
		if err := os.WriteFile(path, []byte(record), 0o644); err != nil {
			t.Fatal(err)
		}
		if _, err := ReadRecord(path); err == nil || !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), "per_run") {
			t.Errorf("%s: ReadRecord error %v, want one naming %s and per_run", what, err, path)
		}
	}
	good := `{"table": "table5", "dataset": "cora", "method": "gcn", "runs": 2, "test_accs": [81, 82], "per_run": [{"run": 0, "test_acc": 81}, {"run": 1, "test_acc": 82}]}`
	if err := os.WriteFile(path, []byte(good), 0o644); err != nil {
		t.Fatal(err)
	}
	if r, err := ReadRecord(path); err != nil || r.PerRun[1].TestAcc != 82 {
		t.Errorf("consistent record: %v, %+v", err, r)
	}
}
