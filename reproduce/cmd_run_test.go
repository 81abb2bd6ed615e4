package main

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRunCheckpointFlag: `run --checkpoint F` deletes F when training finishes, and names F when
// it cannot resume from it.
func TestRunCheckpointFlag(t *testing.T) {
	path := filepath.Join(t.TempDir(), "synthetic.ckpt")
	args := []string{"--dataset", "synthetic", "--method", "geomix1", "--runs", "2", "--epochs", "3", "--json", "--checkpoint", path}
	if err := runRun(args); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(path); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("checkpoint after a finished training: %v, want it deleted", err)
	}
	if err := os.WriteFile(path, []byte("not a checkpoint"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := runRun(args); err == nil || !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), "damaged") {
		t.Errorf("damaged checkpoint: got %v, want an error naming %s", err, path)
	}
}
