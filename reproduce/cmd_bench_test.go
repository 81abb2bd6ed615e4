package main

import (
	"bytes"
	"cmp"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/geomix-go/geomix/internal/rowops"
)

func TestBenchCommandRejectsBadInput(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--datasets", "coraa"}, `unknown data set "coraa"`},
		{[]string{"--methods", "gcn,geomix9"}, `geomix9`},
		{[]string{"--epochs", "0"}, `--epochs 0`},
		{[]string{"--set", "hidden=wide"}, `hidden`},
	} {
		var stdout, stderr bytes.Buffer
		err := runBench(tc.args, &stdout, &stderr)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("bench %q: error %v, want one containing %q", tc.args, err, tc.want)
		}
	}
}

// TestBenchCommandOnSyntheticData times GCN and GeoMix-I on the embedded data set (no files needed)
// and checks the report: positive times, a ratio against the GCN of the same rounds for GeoMix-I
// only, and the --out file equal to the --json output.
func TestBenchCommandOnSyntheticData(t *testing.T) {
	out := filepath.Join(t.TempDir(), "sub", "bench.json")
	var stdout, stderr bytes.Buffer
	if err := runBench([]string{"--datasets", "synthetic", "--methods", "gcn,geomix1", "--epochs", "2", "--json", "--out", out}, &stdout, &stderr); err != nil {
		t.Fatal(err)
	}
	var report benchReport
	if err := json.Unmarshal(stdout.Bytes(), &report); err != nil {
		t.Fatal(err)
	}
	if len(report.Rows) != 2 || report.Rows[0].Method != "gcn" || report.Rows[1].Method != "geomix1" {
		t.Fatalf("rows %+v, want gcn then geomix1", report.Rows)
	}
	gcn, mix := report.Rows[0], report.Rows[1]
	if gcn.MillisPerEpoch <= 0 || mix.MillisPerEpoch <= 0 || gcn.Epochs != 2 || gcn.RatioToGCN != 0 || gcn.PeakHeapMiB <= 0 {
		t.Errorf("gcn row %+v: want a positive time and heap over 2 epochs and no ratio", gcn)
	}
	if mix.RatioToGCN <= 0 || mix.MillisIQR < 0 {
		t.Errorf("geomix1 row %+v: want a positive ratio to GCN", mix)
	}
	written, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(written, stdout.Bytes()) {
		t.Errorf("--out file differs from the --json output:\n%s\nvs\n%s", written, stdout.Bytes())
	}
	if !strings.Contains(stderr.String(), "bench data set 1 of 1: synthetic, gcn, geomix1, 2 rounds") {
		t.Errorf("stderr lacks the progress line:\n%s", stderr.String())
	}
}

// TestBenchCommandProfiles checks --profile's table on the embedded data set: a row per method
// with its ops, GeoMix-I's ratios to GCN, and the op type with the most work; then each cell's
// heaviest ops, most time first.
func TestBenchCommandProfiles(t *testing.T) {
	var stdout, stderr bytes.Buffer
	if err := runBench([]string{"--datasets", "synthetic", "--methods", "gcn,geomix1", "--epochs", "2", "--profile"}, &stdout, &stderr); err != nil {
		t.Fatal(err)
	}
	text := stdout.String()
	_, table, ok := strings.Cut(text, "one op at a time")
	table, heaviest, ok2 := strings.Cut(table, "heaviest ops of the last epoch")
	if !ok || !ok2 {
		t.Fatalf("no profile table and heaviest ops in:\n%s", text)
	}
	var rows [][]string
	for _, line := range strings.Split(table, "\n") {
		if f := strings.Fields(line); len(f) > 9 && f[0] == "synthetic" {
			rows = append(rows, f)
		}
	}
	if len(rows) != 2 || rows[0][1] != "gcn" || rows[0][4] != "-" || rows[1][1] != "geomix1" || rows[1][4] == "-" || rows[1][6] == "-" || rows[1][8] == "-" {
		t.Errorf("profile rows %q, want gcn without ratios, then geomix1 with them", rows)
	}
	// Each cell's heaviest ops, most time first, with their shapes.
	perCell := map[string][]float64{}
	for _, line := range strings.Split(heaviest, "\n") {
		if f := strings.Fields(line); len(f) > 5 && f[0] == "synthetic" && strings.Contains(line, " <- ") {
			ms, err := strconv.ParseFloat(f[3], 64)
			if err != nil || !strings.HasPrefix(f[4], "(") {
				t.Errorf("heaviest op line %q: want op, ms, then shapes", line)
			}
			perCell[f[1]] = append(perCell[f[1]], ms)
		}
	}
	for _, m := range []string{"gcn", "geomix1"} {
		if ms := perCell[m]; len(ms) == 0 || len(ms) > rowops.HeaviestOps || !slices.IsSortedFunc(ms, func(a, b float64) int { return cmp.Compare(b, a) }) {
			t.Errorf("%s: heaviest ops' times %v, want 1 to %d, most first", m, ms, rowops.HeaviestOps)
		}
	}
	if !strings.Contains(stderr.String(), "profile data set 1 of 1: synthetic, 2 rounds of one epoch each, one op at a time") {
		t.Errorf("stderr lacks the profile's progress line:\n%s", stderr.String())
	}
}

// TestBenchCommandSameWidthGCN checks GAT's reference row on the embedded data set: GAT of 2 heads
// of 4 units brings a row gcn@8 and a ratio in the X GCN SAME WIDTH column.
func TestBenchCommandSameWidthGCN(t *testing.T) {
	var stdout, stderr bytes.Buffer
	if err := runBench([]string{"--datasets", "synthetic", "--methods", "gcn,gat", "--epochs", "1", "--set", "hidden=4", "--set", "gat_heads=2"}, &stdout, &stderr); err != nil {
		t.Fatal(err)
	}
	rows := map[string][]string{}
	for _, line := range strings.Split(stdout.String(), "\n") {
		if f := strings.Fields(line); len(f) == 8 && f[0] == "synthetic" {
			rows[f[1]] = f
		}
	}
	if !strings.Contains(stdout.String(), "X GCN SAME WIDTH") || len(rows) != 3 || rows["gcn@8"] == nil || rows["gat"] == nil {
		t.Fatalf("want rows gcn, gat and gcn@8 under an X GCN SAME WIDTH column:\n%s", stdout.String())
	}
	if rows["gat"][5] == "-" || rows["gcn@8"][5] != "-" || rows["gcn"][5] != "-" {
		t.Errorf("want a same-width ratio for gat only:\n%s", stdout.String())
	}
}
