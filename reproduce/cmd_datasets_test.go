package main

import (
	"archive/zip"
	"bytes"
	"encoding/binary"
	"encoding/json"
	"io"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func TestDatasetsCommandSkipsMissingOffline(t *testing.T) {
	var stdout, stderr bytes.Buffer
	root := t.TempDir()
	err := runDatasets([]string{"--data", root, "--offline", "--json", "--names", "cora,squirrel"}, &stdout, &stderr)
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.TrimSpace(stdout.String()); got != "[]" {
		t.Errorf("stdout %q, want an empty JSON array", got)
	}
	for _, want := range []string{"skipping cora", filepath.Join(root, "planetoid", "ind.cora.x"), "skipping squirrel"} {
		if !strings.Contains(stderr.String(), want) {
			t.Errorf("stderr lacks %q:\n%s", want, stderr.String())
		}
	}
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
	root := os.Getenv("GEOMIX_DATA")
	if root == "" {
		t.Skip("GEOMIX_DATA is not set: skipping the test on real data (CI sets it to ../shared/data)")
	}
	if _, err := os.Stat(root); err != nil && !filepath.IsAbs(root) {
		root = filepath.Join("..", root)
	}
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
	root := os.Getenv("GEOMIX_DATA")
	if root == "" {
		t.Skip("GEOMIX_DATA is not set: skipping the test on real data (CI sets it to ../shared/data)")
	}
	if !filepath.IsAbs(root) {
		root = filepath.Join("..", root)
	}
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
