package main

import (
	"bytes"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestBenchScaleRejectsBadInput(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--scale", "--nodes", "1005"}, `--nodes "1005"`},
		{[]string{"--scale", "--nodes", "500"}, `--nodes "500"`},
		{[]string{"--scale", "--methods", "gcn,geomix9"}, `geomix9`},
		{[]string{"--scale", "--epochs", "0"}, `--epochs 0`},
		{[]string{"--scale", "--point", "--nodes", "1000,2000"}, `--point measures one size`},
	} {
		var stdout, stderr bytes.Buffer
		err := runBench(tc.args, &stdout, &stderr)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("bench %q: error %v, want one containing %q", tc.args, err, tc.want)
		}
	}
}

// TestBenchScaleChildren runs `bench --scale` on two small sizes, each point in a child process
// (this test binary as reproduce), then once more on one of them: the report holds every point with
// positive times and memory, the fits, the Markdown table and the chart, and a point measured
// again replaces the old one.
func TestBenchScaleChildren(t *testing.T) {
	t.Setenv(envAsMain, "1")
	dir := t.TempDir()
	var stdout, stderr bytes.Buffer
	if err := runBench([]string{"--scale", "--nodes", "1000,2000", "--methods", "gcn,geomix1", "--epochs", "1", "--out-dir", dir}, &stdout, &stderr); err != nil {
		t.Fatalf("%v\n%s", err, stderr.String())
	}
	if err := runBench([]string{"--scale", "--nodes", "2000", "--methods", "gcn", "--epochs", "1", "--out-dir", dir}, &stdout, &stderr); err != nil {
		t.Fatalf("%v\n%s", err, stderr.String())
	}
	os.Remove(filepath.Join(dir, "scale.md"))
	if err := runBench([]string{"--scale", "--report-only", "--out-dir", dir}, &stdout, &stderr); err != nil {
		t.Fatalf("--report-only: %v", err)
	}
	data, err := os.ReadFile(filepath.Join(dir, "scale.json"))
	if err != nil {
		t.Fatal(err)
	}
	var r scaleReport
	if err := json.Unmarshal(data, &r); err != nil {
		t.Fatal(err)
	}
	if len(r.Points) != 4 {
		t.Fatalf("%d points, want 4 (2 sizes x 2 methods, one measured twice)", len(r.Points))
	}
	for _, p := range r.Points {
		if p.MillisPerEpoch <= 0 || p.CPUMillisPerEpoch <= 0 || p.PeakHeapMiB <= 0 || p.Edges < 40*p.Nodes || p.Epochs != 1 {
			t.Errorf("point %+v: want positive times and heap, about 50 edges per node, 1 epoch", *p.Point)
		}
		if p.PeakRSSMiB <= 0 && filepath.Separator == '/' {
			t.Errorf("point %d %s: peak RSS %g, want the child's", p.Nodes, p.Method, p.PeakRSSMiB)
		}
	}
	// The times of such small graphs on a shared machine need not grow with the edges: only the
	// fits' existence is checked.
	if len(r.Fits) != 2 || r.Fits[0].Method != "gcn" || r.Fits[0].Points != 2 || math.IsNaN(r.Fits[0].Exponent) || r.Fits[0].Prefactor <= 0 {
		t.Errorf("fits %+v, want GCN's and GeoMix-I's over 2 points each", r.Fits)
	}
	md, _ := os.ReadFile(filepath.Join(dir, "scale.md"))
	for _, want := range []string{"| 1000 |", "| 2000 |", "GeoMix-I ms/epoch", "| GCN |"} {
		if !strings.Contains(string(md), want) {
			t.Errorf("scale.md lacks %q:\n%s", want, md)
		}
	}
	if html, err := os.ReadFile(filepath.Join(dir, "scale.html")); err != nil || !bytes.Contains(html, []byte(`"type":"log"`)) {
		t.Errorf("scale.html: %v, want a chart on log axes", err)
	}
}
