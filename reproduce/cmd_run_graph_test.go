package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/geomix-go/geomix/datasets"
)

// writeClusterGraph writes a graph the toolkit has never seen, in the edge-list format, into a
// new directory: 3 classes of 60 nodes, each a ring (written one-directional) with chords, features
// the class's one-hot vector plus a node-specific column, a self-loop, a repeated edge and 3
// isolated nodes (one per class).
func writeClusterGraph(t *testing.T) string {
	t.Helper()
	const classes, perClass = 3, 60
	var edges, features, labels strings.Builder
	edges.WriteString("source,target\n")
	for c := range classes {
		for i := range perClass - 1 { // the last node of each class stays isolated
			v, next := c*perClass+i, c*perClass+(i+1)%(perClass-1)
			fmt.Fprintf(&edges, "%d,%d\n", v, next)
			if i%5 == 0 {
				fmt.Fprintf(&edges, "%d,%d\n", v, c*perClass+(i+7)%(perClass-1))
			}
		}
	}
	edges.WriteString("4,4\n0,1\n")
	for v := range classes * perClass {
		row := make([]string, classes+5)
		for j := range row {
			row[j] = "0"
		}
		row[v/perClass] = "1"
		row[classes+v%5] = "1"
		features.WriteString(strings.Join(row, ",") + "\n")
		fmt.Fprintf(&labels, "%d\n", v/perClass)
	}
	dir := filepath.Join(t.TempDir(), "clusters")
	for name, content := range map[string]string{"edges.csv": edges.String(), "features.csv": features.String(), "labels.csv": labels.String()} {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// TestRunTrainsAGraphDirectory trains GeoMix-I from the CLI on a graph written by the test, with
// the per-class split flags: it learns the classes, and the notes say what loading cleaned up.
func TestRunTrainsAGraphDirectory(t *testing.T) {
	dir := writeClusterGraph(t)
	args := []string{"--dataset", dir, "--method", "geomix1", "--runs", "1", "--epochs", "60",
		"--train-per-class", "3", "--val-per-class", "5", "--set", "lr=0.05", "--json"}
	var stdout, stderr bytes.Buffer
	if err := runRun(args, &stdout, &stderr); err != nil {
		t.Fatalf("%v\n%s", err, stderr.String())
	}
	var res struct {
		Dataset     string  `json:"dataset"`
		TestAccMean float64 `json:"test_acc_mean"`
		DataNotes   string  `json:"data_notes"`
		Preset      string  `json:"preset"`
	}
	if err := json.Unmarshal(stdout.Bytes(), &res); err != nil {
		t.Fatal(err)
	}
	t.Logf("clusters geomix1: test accuracy %.2f%%", res.TestAccMean)
	if res.Dataset != "clusters" || res.TestAccMean < 80 {
		t.Errorf("dataset %q, test accuracy %.2f%%; want clusters, above 80%% on separable classes", res.Dataset, res.TestAccMean)
	}
	for _, want := range []string{"1 self-loop(s) removed", "1 duplicate edge(s) removed", "3 isolated node(s) kept",
		"one-directional edge(s) given their reverse", "per class 3 train, 5 validation"} {
		if !strings.Contains(res.DataNotes, want) {
			t.Errorf("notes %q lack %q", res.DataNotes, want)
		}
	}
	if !strings.Contains(res.Preset, "argparse defaults") {
		t.Errorf("preset %q, want the reference's argparse defaults", res.Preset)
	}
	err := runRun([]string{"--dataset", filepath.Join(dir, "missing.npz"), "--runs", "1", "--epochs", "1"}, io.Discard, io.Discard)
	if err == nil || !strings.Contains(err.Error(), "missing.npz") {
		t.Errorf("a missing graph file: got %v, want an error naming it", err)
	}
	err = runRun([]string{"--dataset", "synthetic", "--train-per-class", "3"}, io.Discard, io.Discard)
	if err == nil || !strings.Contains(err.Error(), "graph file") {
		t.Errorf("--train-per-class on a registered data set: got %v, want an error", err)
	}
}

// TestRunTrainsAGnnBenchmarkFile trains from the CLI on the published ms_academic_cs.npz given as
// a path, with Coauthor CS's preset.
func TestRunTrainsAGnnBenchmarkFile(t *testing.T) {
	path := filepath.Join(realDataRoot(t), "coauthor", "ms_academic_cs.npz")
	if _, err := os.Stat(path); err != nil {
		t.Skip(err)
	}
	var stdout bytes.Buffer
	args := []string{"--dataset", path, "--preset", "cs", "--method", "gcn", "--runs", "1", "--epochs", "20", "--json"}
	if err := runRun(args, &stdout, io.Discard); err != nil {
		t.Fatal(err)
	}
	var res struct {
		Dataset     string  `json:"dataset"`
		TestAccMean float64 `json:"test_acc_mean"`
		Preset      string  `json:"preset"`
	}
	if err := json.Unmarshal(stdout.Bytes(), &res); err != nil {
		t.Fatal(err)
	}
	if res.Dataset != "ms_academic_cs" || res.TestAccMean < 70 || !strings.Contains(res.Preset, "--preset cs") {
		t.Errorf("got %+v, want ms_academic_cs above 70%% after 20 epochs with CS's preset", res)
	}
}

// TestRunDataRootFailures: a data root given that does not exist, or that lacks Cora, is an error
// naming it; only without any root given does `run` fall back to the synthetic set, and says so.
func TestRunDataRootFailures(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "typo")
	quick := []string{"--runs", "1", "--epochs", "2"}
	err := runRun(append([]string{"--data", missing}, quick...), io.Discard, io.Discard)
	if err == nil || !strings.Contains(err.Error(), missing) {
		t.Errorf("--data %s: got %v, want an error naming it", missing, err)
	}
	t.Setenv(datasets.EnvData, missing)
	if err := runRun(quick, io.Discard, io.Discard); err == nil || !strings.Contains(err.Error(), missing) {
		t.Errorf("$GEOMIX_DATA=%s: got %v, want an error naming it", missing, err)
	}
	empty := t.TempDir()
	t.Setenv(datasets.EnvData, empty)
	if err := runRun(quick, io.Discard, io.Discard); err == nil || !strings.Contains(err.Error(), filepath.Join(empty, "planetoid")) {
		t.Errorf("$GEOMIX_DATA without Cora: got %v, want an error naming Cora's file", err)
	}
	t.Setenv(datasets.EnvData, "")
	cache := t.TempDir()
	t.Setenv("XDG_CACHE_HOME", cache)
	var stdout, stderr bytes.Buffer
	if err := runRun(append([]string{"--json"}, quick...), &stdout, &stderr); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(cache, "geomix", "planetoid", "ind.cora.x")); err == nil {
		t.Skip("Cora was downloaded into the user cache: online, no fallback to check")
	}
	if !strings.Contains(stdout.String(), `"dataset":"synthetic"`) || !strings.Contains(stderr.String(), "no data root given") ||
		!strings.Contains(stderr.String(), "synthetic data set instead") {
		t.Errorf("no data root: stdout %s, stderr %s; want the synthetic data set and a note saying why", stdout.String(), stderr.String())
	}
}

// TestAbsoluteDataRoots: relative --data values and $GEOMIX_DATA are made absolute against the
// working directory; a --data directory that does not exist is an error naming it.
func TestAbsoluteDataRoots(t *testing.T) {
	base := t.TempDir()
	for _, dir := range []string{"work/rel/dir", "x"} {
		if err := os.MkdirAll(filepath.Join(base, dir), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	t.Chdir(filepath.Join(base, "work"))
	t.Setenv(datasets.EnvData, "../shared/data")
	got, err := absoluteDataRoots([]string{"--runs", "1", "--data", "rel/dir", "-data=../x", "--set", "a=1", "--", "--data", "y"})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"--runs", "1", "--data", filepath.Join(base, "work", "rel", "dir"), "-data=" + filepath.Join(base, "x"), "--set", "a=1", "--", "--data", "y"}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("args %q, want %q", got, want)
	}
	if env := os.Getenv(datasets.EnvData); env != filepath.Join(base, "shared", "data") {
		t.Errorf("$%s = %q, want ../shared/data taken from the working directory", datasets.EnvData, env)
	}
	if _, err := absoluteDataRoots([]string{"--data=typo"}); err == nil || !strings.Contains(err.Error(), filepath.Join(base, "work", "typo")) {
		t.Errorf("--data=typo: got %v, want an error naming %s", err, filepath.Join(base, "work", "typo"))
	}
}
