package atomicfile

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestWriteInterrupted checks that a write failing half-way leaves neither a half file nor a
// temporary file, and keeps the previous complete file.
func TestWriteInterrupted(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "table5", "cora-gcn.json")
	half := func(w io.Writer) error {
		if _, err := io.WriteString(w, `{"dataset": "co`); err != nil {
			return err
		}
		return errors.New("interrupted")
	}
	if err := Write(path, half); err == nil || !strings.Contains(err.Error(), "interrupted") {
		t.Fatalf("err = %v, want the write error", err)
	}
	if entries, _ := os.ReadDir(filepath.Dir(path)); len(entries) != 0 {
		t.Fatalf("an interrupted write left %v", entries)
	}
	if err := Write(path, func(w io.Writer) error { _, err := io.WriteString(w, "complete"); return err }); err != nil {
		t.Fatal(err)
	}
	if err := Write(path, half); err == nil {
		t.Fatal("interrupted rewrite returned no error")
	}
	if got, _ := os.ReadFile(path); string(got) != "complete" {
		t.Errorf("interrupted rewrite changed the file to %q", got)
	}
	if entries, _ := os.ReadDir(filepath.Dir(path)); len(entries) != 1 {
		t.Errorf("interrupted rewrite left %v", entries)
	}
}
