package main

import (
	"archive/zip"
	"bytes"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/geomix-go/geomix/datasets"
)

// TestDatasetsCommandListsAbsent: without --names, every data set missing from the root is one
// line on stderr with the file and why (stl10's not downloaded as its sha256 is unknown), and the
// table holds what loads; a data set named with --names that is missing is an error naming the file.
func TestDatasetsCommandListsAbsent(t *testing.T) {
	var stdout, stderr bytes.Buffer
	root := t.TempDir()
	if err := runDatasets([]string{"--data", root, "--offline", "--json"}, &stdout, &stderr); err != nil {
		t.Fatal(err)
	}
	var rows []map[string]any
	if err := json.Unmarshal(stdout.Bytes(), &rows); err != nil || len(rows) != 1 || rows[0]["name"] != "synthetic" {
		t.Errorf("stdout %q (%v), want the synthetic data set only", stdout.String(), err)
	}
	lines := strings.Split(strings.TrimSpace(stderr.String()), "\n")
	if want := len(datasets.Names()); len(lines) != want {
		t.Errorf("%d lines on stderr, want one per absent data set and a summary (%d):\n%s", len(lines), want, stderr.String())
	}
	for _, want := range []string{"absent cora: ", filepath.Join(root, "planetoid", "ind.cora.x"), "absent squirrel: ",
		"absent stl10: ", "no sha256 is known", fmt.Sprintf("%d of %d data sets absent from the data root %s", len(datasets.Names())-1, len(datasets.Names()), root)} {
		if !strings.Contains(stderr.String(), want) {
			t.Errorf("stderr lacks %q:\n%s", want, stderr.String())
		}
	}
	stdout.Reset()
	err := runDatasets([]string{"--data", root, "--offline", "--names", "synthetic,cora"}, &stdout, &stderr)
	if err == nil || !strings.Contains(err.Error(), filepath.Join(root, "planetoid", "ind.cora.x")) || stdout.Len() != 0 {
		t.Errorf("--names cora without Cora's files: error %v, stdout %q; want an error naming ind.cora.x and no table", err, stdout.String())
	}
}

// TestDatasetsCommandRejectsMissingRoot: a data root given by --data or $GEOMIX_DATA that does
// not exist is an error naming it.
func TestDatasetsCommandRejectsMissingRoot(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "typo")
	err := runDatasets([]string{"--data", missing, "--offline"}, io.Discard, io.Discard)
	if err == nil || !strings.Contains(err.Error(), missing) || !strings.Contains(err.Error(), "--data") {
		t.Errorf("--data %s: got %v, want an error naming it", missing, err)
	}
	t.Setenv(datasets.EnvData, missing)
	err = runDatasets([]string{"--offline", "--names", "synthetic"}, io.Discard, io.Discard)
	if err == nil || !strings.Contains(err.Error(), missing) || !strings.Contains(err.Error(), "$GEOMIX_DATA") {
		t.Errorf("$GEOMIX_DATA=%s: got %v, want an error naming it", missing, err)
	}
}

// realDataRoot is $GEOMIX_DATA resolved as the tests do (datasets.ResolveRoot from the module
// root), skipping the test when it is unset.
func realDataRoot(t *testing.T) string {
	t.Helper()
	if os.Getenv(datasets.EnvData) == "" {
		t.Skip("GEOMIX_DATA is not set: skipping the test on real data (CI sets it to ../shared/data)")
	}
	root, err := datasets.ResolveRoot(os.Getenv(datasets.EnvData), "")
	if err != nil {
		t.Fatal(err)
	}
	return root
}

func TestDatasetsCommandFailsOnCorruptFile(t *testing.T) {
	root := t.TempDir()
	path := filepath.Join(root, "heterophilous-graphs", "squirrel_filtered.npz")
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	// Right size (so the cheap size check passes), wrong content.
	if err := os.WriteFile(path, bytes.Repeat([]byte{'x'}, 208215), 0o644); err != nil {
		t.Fatal(err)
	}
	var stdout, stderr bytes.Buffer
	err := runDatasets([]string{"--data", root, "--offline"}, &stdout, &stderr)
	if err == nil || !strings.Contains(err.Error(), path) {
		t.Fatalf("error %v, want one naming %s", err, path)
	}
}

func TestDatasetsCommandOnRealData(t *testing.T) {
	root := realDataRoot(t)
	if _, err := os.Stat(filepath.Join(root, "planetoid", "ind.cora.x")); err != nil {
		t.Skipf("Cora is not under %s: %v", root, err)
	}
	args := []string{"--data", root, "--offline", "--json"}
	if testing.Short() {
		args = append(args, "--names", "cora,squirrel") // all registered sets take seconds (20news, kNN graphs)
	}
	var stdout, stderr bytes.Buffer
	if err := runDatasets(args, &stdout, &stderr); err != nil {
		t.Fatal(err)
	}
	var rows []map[string]any
	if err := json.Unmarshal(stdout.Bytes(), &rows); err != nil {
		t.Fatal(err)
	}
	var cora map[string]any
	for _, r := range rows {
		if r["name"] == "cora" {
			cora = r
		}
	}
	want := map[string]float64{"nodes": 2708, "edges": 10556, "features": 1433, "classes": 7,
		"train": 140, "val": 500, "test": 1000, "splits": 1}
	for k, v := range want {
		if cora[k] != v {
			t.Errorf("cora %s = %v, want %v", k, cora[k], v)
		}
	}
	if h, _ := cora["edge_homophily"].(float64); h < 0.80 || h > 0.82 {
		t.Errorf("cora edge_homophily = %v, want about 0.81", cora["edge_homophily"])
	}
	if len(cora) != 10 {
		t.Errorf("cora has keys %v, want exactly name, nodes, edges, features, classes, train, val, test, splits, edge_homophily", cora)
	}
}

// TestDatasetsCommandExports writes the synthetic graph as DIR/synthetic.npz with every member
// datasets.Graph.WriteNPZ documents, and names the path when it cannot write there.
func TestDatasetsCommandExports(t *testing.T) {
	dir := t.TempDir()
	var stdout, stderr bytes.Buffer
	if err := runDatasets([]string{"--data", t.TempDir(), "--offline", "--names", "synthetic", "--export", dir}, &stdout, &stderr); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "synthetic.npz")
	if !strings.Contains(stderr.String(), "wrote "+path) {
		t.Errorf("stderr %q does not name %s", stderr.String(), path)
	}
	zr, err := zip.OpenReader(path)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = zr.Close() }()
	var names []string
	for _, f := range zr.File {
		names = append(names, f.Name)
	}
	want := []string{"x_indptr.npy", "x_indices.npy", "x_data.npy", "x_shape.npy", "edge_index.npy", "y.npy",
		"num_classes.npy", "train_mask.npy", "val_mask.npy", "test_mask.npy"}
	if !reflect.DeepEqual(names, want) {
		t.Errorf("members %v, want %v", names, want)
	}

	blocked := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(blocked, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	err = runDatasets([]string{"--data", t.TempDir(), "--offline", "--names", "synthetic", "--export", blocked}, &stdout, &stderr)
	if err == nil || !strings.Contains(err.Error(), filepath.Join(blocked, "synthetic.npz")) {
		t.Errorf("exporting under a file: error %v, want one naming %s", err, filepath.Join(blocked, "synthetic.npz"))
	}
}

// TestDatasetsCommandExportsRawFeatures exports Cora with and without --raw-features: its binary
// bag-of-words values stay 1 raw, and every row sums to 1 otherwise.
func TestDatasetsCommandExportsRawFeatures(t *testing.T) {
	root := realDataRoot(t)
	values := func(raw bool) []float32 {
		dir := t.TempDir()
		args := []string{"--data", root, "--offline", "--names", "cora", "--export", dir}
		if raw {
			args = append(args, "--raw-features")
		}
		var stdout, stderr bytes.Buffer
		if err := runDatasets(args, &stdout, &stderr); err != nil {
			t.Fatal(err)
		}
		zr, err := zip.OpenReader(filepath.Join(dir, "cora.npz"))
		if err != nil {
			t.Fatal(err)
		}
		defer func() { _ = zr.Close() }()
		f, err := zr.Open("x_data.npy")
		if err != nil {
			t.Fatal(err)
		}
		data, err := io.ReadAll(f)
		if err != nil {
			t.Fatal(err)
		}
		data = data[10+int(binary.LittleEndian.Uint16(data[8:10])):]
		out := make([]float32, len(data)/4)
		for i := range out {
			out[i] = math.Float32frombits(binary.LittleEndian.Uint32(data[4*i:]))
		}
		return out
	}
	sum := func(v []float32) (s float64) {
		for _, x := range v {
			s += float64(x)
		}
		return s
	}
	raw, normalised := values(true), values(false)
	if len(raw) != 49216 || len(normalised) != 49216 {
		t.Fatalf("Cora non-zeros: %d raw, %d normalised, want 49216", len(raw), len(normalised))
	}
	if got := sum(raw); got != 49216 {
		t.Errorf("raw Cora features sum to %v, want 49216 (all ones)", got)
	}
	if got := sum(normalised); math.Abs(got-2708) > 0.01 {
		t.Errorf("normalised Cora features sum to %v, want 2708 (each row to 1)", got)
	}
}
