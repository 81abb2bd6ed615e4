package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/geomix-go/geomix/geomix/training"
	"github.com/geomix-go/geomix/internal/testutil"
	"github.com/geomix-go/geomix/reproduce/tables"
)

// envAsMain makes the test binary run main() with its arguments: how the tests start reproduce as
// separate processes without building it.
const envAsMain = "GEOMIX_REPRODUCE_AS_MAIN"

func TestMain(m *testing.M) {
	if os.Getenv(envAsMain) == "1" {
		main()
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// reproduceCmd is `reproduce args...` as a separate process with env added to the test's
// environment (less any scheduler variables).
func reproduceCmd(t *testing.T, env []string, args ...string) (*exec.Cmd, *bytes.Buffer) {
	t.Helper()
	cmd := exec.Command(os.Args[0], args...)
	for _, kv := range os.Environ() {
		key, _, _ := strings.Cut(kv, "=")
		switch key {
		case envSlurmTaskID, envSlurmTaskCount, envSlurmTaskMin, envSlurmTaskStep, envJobIndex, envShards:
		default:
			cmd.Env = append(cmd.Env, kv)
		}
	}
	cmd.Env = append(append(cmd.Env, envAsMain+"=1"), env...)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	return cmd, &out
}

// perRun returns the per_run entries of every record under dir/table, keyed by file name.
func perRun(t *testing.T, dir, table string) map[string]string {
	t.Helper()
	paths, _ := filepath.Glob(filepath.Join(dir, table, "*.json"))
	out := map[string]string{}
	for _, path := range paths {
		rec, err := tables.ReadRecord(path)
		if err != nil {
			t.Fatal(err)
		}
		data, _ := json.Marshal(rec.PerRun)
		out[filepath.Base(path)] = string(data)
	}
	return out
}

// samePerRun fails unless got holds the records of want with the same per_run.
func samePerRun(t *testing.T, what string, got, want map[string]string) {
	t.Helper()
	if len(want) == 0 || len(got) != len(want) {
		t.Fatalf("%s: %d records, want %d", what, len(got), len(want))
	}
	for name, w := range want {
		if got[name] != w {
			t.Errorf("%s: %s per_run\n%s\nwant\n%s", what, name, got[name], w)
		}
	}
}

// TestThreeShardProcesses runs Table 5's quick Cora cells as three processes over one folder, the
// shards given by --shard, by a Slurm array's variables and by a Kubernetes Indexed Job's index:
// together they write the records a one-process sweep writes, each cell trained by one of them.
func TestThreeShardProcesses(t *testing.T) {
	testutil.LoadOrSkip(t, "cora")
	dir := t.TempDir()
	args := []string{"table5", "--quick", "--datasets", "cora", "--out", dir}
	shards := []struct {
		env  []string
		args []string
	}{
		{nil, []string{"--shard", "1/3"}},
		{[]string{envSlurmTaskID + "=1", envSlurmTaskCount + "=3", envSlurmTaskMin + "=0"}, nil},
		{[]string{envJobIndex + "=2", envShards + "=3"}, nil},
	}
	var cmds []*exec.Cmd
	var outs []*bytes.Buffer
	for _, s := range shards {
		cmd, out := reproduceCmd(t, s.env, append(append([]string{}, args...), s.args...)...)
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		cmds, outs = append(cmds, cmd), append(outs, out)
	}
	trained := 0
	for i, cmd := range cmds {
		if err := cmd.Wait(); err != nil {
			t.Fatalf("shard %d: %v\n%s", i+1, err, outs[i])
		}
		trained += strings.Count(outs[i].String(), "quick=true")
	}
	if !strings.Contains(outs[1].String(), "shard 2/3 (from $SLURM_ARRAY_TASK_ID=1 of 3 tasks)") ||
		!strings.Contains(outs[2].String(), "shard 3/3 (from $JOB_COMPLETION_INDEX=2 and 3 shards)") {
		t.Errorf("the shards from the environment do not say so:\n%s\n%s", outs[1], outs[2])
	}
	if trained != 4 {
		t.Errorf("the shards trained %d cells, want the 4 cells once each", trained)
	}
	one := t.TempDir()
	cmd, out := reproduceCmd(t, nil, "table5", "--quick", "--datasets", "cora", "--out", one)
	if err := cmd.Run(); err != nil {
		t.Fatalf("one process: %v\n%s", err, out)
	}
	samePerRun(t, "three shards vs one process", perRun(t, dir, "table5"), perRun(t, one, "table5"))
}

// waitForCheckpoint waits until the checkpoint at path holds at least done finished runs.
func waitForCheckpoint(t *testing.T, path string, done int, out *bytes.Buffer) {
	t.Helper()
	deadline := time.Now().Add(3 * time.Minute)
	for time.Now().Before(deadline) {
		if _, _, n, _, err := training.CheckpointProgress(path); err == nil && n >= done {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatalf("no checkpoint with %d finished runs at %s:\n%s", done, path, out)
}

// TestSignalsStopAndResume stops a full-protocol sweep with SIGTERM and then SIGINT, each once a
// checkpoint holds finished runs: it exits 143, then 130, keeps the checkpoint, says what it kept
// and how to resume, and writes the report; the third start finishes the cell with the record of
// an uninterrupted sweep.
func TestSignalsStopAndResume(t *testing.T) {
	testutil.LoadOrSkip(t, "cora")
	dir := t.TempDir()
	args := []string{"table5", "--datasets", "cora", "--methods", "gcn", "--runs", "3", "--out", dir}
	checkpoint := tables.CheckpointPath(dir, "table5", "cora", "gcn")
	for _, c := range []struct {
		sig    syscall.Signal
		done   int
		status int
	}{{syscall.SIGTERM, 1, 143}, {syscall.SIGINT, 2, 130}} {
		cmd, out := reproduceCmd(t, nil, args...)
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		waitForCheckpoint(t, checkpoint, c.done, out)
		if err := cmd.Process.Signal(c.sig); err != nil {
			t.Fatal(err)
		}
		var exit *exec.ExitError
		if err := cmd.Wait(); !errors.As(err, &exit) || exit.ExitCode() != c.status {
			t.Fatalf("%v: exit %v, want status %d\n%s", c.sig, err, c.status, out)
		}
		for _, want := range []string{"stopping at the next safe point", "STOPPED", checkpoint + " keeps", "to resume: go run ./reproduce table5", "report " + dir} {
			if !strings.Contains(out.String(), want) {
				t.Errorf("%v: output lacks %q:\n%s", c.sig, want, out)
			}
		}
		if _, err := os.Stat(checkpoint); err != nil {
			t.Errorf("%v: checkpoint: %v", c.sig, err)
		}
		if _, err := os.Stat(tables.ReportPath(dir, "table5")); err != nil {
			t.Errorf("%v: report: %v", c.sig, err)
		}
	}
	cmd, out := reproduceCmd(t, nil, args...)
	if err := cmd.Run(); err != nil || !strings.Contains(out.String(), "resuming at run 3 of 3") {
		t.Fatalf("resume: %v\n%s", err, out)
	}
	one := t.TempDir()
	cmd, out = reproduceCmd(t, nil, "table5", "--datasets", "cora", "--methods", "gcn", "--runs", "3", "--out", one)
	if err := cmd.Run(); err != nil {
		t.Fatalf("uninterrupted: %v\n%s", err, out)
	}
	samePerRun(t, "stopped twice and resumed vs uninterrupted", perRun(t, dir, "table5"), perRun(t, one, "table5"))
}
