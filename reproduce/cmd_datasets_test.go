package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
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
