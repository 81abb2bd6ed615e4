package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRunCheckpointFlag: `run --json --checkpoint F` prints the result with the keys the README
// names, deletes F when training finishes, and names F when it cannot resume from it.
func TestRunCheckpointFlag(t *testing.T) {
	path := filepath.Join(t.TempDir(), "synthetic.ckpt")
	args := []string{"--dataset", "synthetic", "--method", "geomix1", "--runs", "2", "--epochs", "3", "--json", "--checkpoint", path}
	var stdout bytes.Buffer
	if err := runRun(args, &stdout, io.Discard); err != nil {
		t.Fatal(err)
	}
	var out map[string]any
	if err := json.Unmarshal(stdout.Bytes(), &out); err != nil {
		t.Fatalf("--json output %q: %v", stdout.String(), err)
	}
	for _, key := range []string{"dataset", "method", "backbone", "runs", "test_acc_mean", "test_acc_std",
		"val_acc_mean", "epoch_ms_median", "seconds_total", "per_run"} {
		if _, ok := out[key]; !ok {
			t.Errorf("--json output lacks key %q: %s", key, stdout.String())
		}
	}
	if out["dataset"] != "synthetic" || out["method"] != "geomix1" || out["runs"] != 2.0 {
		t.Errorf("--json output: dataset %v, method %v, runs %v; want synthetic, geomix1, 2", out["dataset"], out["method"], out["runs"])
	}
	perRun, _ := out["per_run"].([]any)
	if len(perRun) != 2 {
		t.Fatalf("--json per_run: %v, want 2 runs", out["per_run"])
	}
	for _, key := range []string{"run", "split", "best_epoch", "val_acc", "test_acc"} {
		if _, ok := perRun[1].(map[string]any)[key]; !ok {
			t.Errorf("--json per_run entry lacks key %q: %v", key, perRun[1])
		}
	}
	if _, err := os.Stat(path); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("checkpoint after a finished training: %v, want it deleted", err)
	}
	if err := os.WriteFile(path, []byte("not a checkpoint"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := runRun(args, io.Discard, io.Discard); err == nil || !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), "damaged") {
		t.Errorf("damaged checkpoint: got %v, want an error naming %s", err, path)
	}
}

// TestRunRejectsOutOfRangeParam: `run --set alpha=2` fails before training, naming the valid range.
func TestRunRejectsOutOfRangeParam(t *testing.T) {
	err := runRun([]string{"--dataset", "synthetic", "--set", "alpha=2"}, io.Discard, io.Discard)
	if err == nil || !strings.Contains(err.Error(), `--set "alpha=2"`) || !strings.Contains(err.Error(), "want [0, 1]") {
		t.Errorf("--set alpha=2: got %v, want an error naming the flag and the range [0, 1]", err)
	}
}
