package main

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/geomix-go/geomix/internal/torchbench"
)

func TestBenchAgainstTorchRejectsBadInput(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--torch-threads", "1,0"}, `--torch-threads "1,0"`},
		{[]string{"--torch-threads", "2,2"}, `--torch-threads "2,2": want comma-separated distinct`},
		{[]string{"--passes", "0"}, `--passes 0`},
		{[]string{"--profile"}, `--profile and --against-torch`},
		{[]string{"--methods", "gcn,gat"}, `method "gat": the PyTorch reference implements gcn, geomix1, geomix2, geomix3`},
	} {
		var stdout, stderr bytes.Buffer
		args := append([]string{"--against-torch", "--datasets", "synthetic"}, tc.args...)
		if err := runBench(args, &stdout, &stderr); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("bench %q: error %v, want one containing %q", args, err, tc.want)
		}
	}
}

// TestBenchAgainstTorchSkipsWithoutTorch names an interpreter that does not exist: the command
// succeeds with one line on stderr saying how to install PyTorch, and prints nothing else.
func TestBenchAgainstTorchSkipsWithoutTorch(t *testing.T) {
	var stdout, stderr bytes.Buffer
	if err := runBench([]string{"--against-torch", "--datasets", "synthetic", "--python", "/nonexistent/python3"}, &stdout, &stderr); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(stderr.String()), "\n")
	if stdout.Len() != 0 || len(lines) != 1 || !strings.Contains(lines[0], "skipped") || !strings.Contains(lines[0], "/nonexistent/python3: not found") ||
		!strings.Contains(lines[0], "apt-get install python3-torch") {
		t.Errorf("stdout %q, stderr %q: want one line saying why and how to install", stdout.String(), stderr.String())
	}
}

// TestBenchAgainstTorchOnSyntheticData runs the comparison on the embedded data set, our side in
// child processes of this test binary: both sides' times, our peak resident set and the machine
// in the report. It skips when no python3 imports torch.
func TestBenchAgainstTorchOnSyntheticData(t *testing.T) {
	if _, err := torchbench.FindPython(torchbench.DefaultPythons); err != nil {
		t.Skipf("%v; %s", err, torchbench.InstallHint)
	}
	t.Setenv(envAsMain, "1") // the children run main()
	var stdout, stderr bytes.Buffer
	args := []string{"--against-torch", "--datasets", "synthetic", "--methods", "gcn,geomix1", "--epochs", "2", "--passes", "1", "--torch-threads", "1", "--json"}
	if err := runBench(args, &stdout, &stderr); err != nil {
		t.Fatalf("%v\n%s", err, stderr.String())
	}
	var report torchReport
	if err := json.Unmarshal(stdout.Bytes(), &report); err != nil {
		t.Fatal(err)
	}
	if len(report.Rows) != 2 || report.Rows[0].Method != "gcn" || report.Rows[1].Method != "geomix1" || report.TorchVersion == "" ||
		report.Backend == "" || report.Passes != 1 || report.Epochs != 2 || report.LoadEnd == "" {
		t.Fatalf("report %+v", report)
	}
	for _, r := range report.Rows {
		if r.OursMillis <= 0 || r.TorchMillis <= 0 || r.TorchOverOurs <= 0 || r.OursPeakRSSMiB <= 0 || r.OursPeakHeapMiB <= 0 || r.TorchPeakRSSMiB <= 0 {
			t.Errorf("row %+v: want positive times, ratio and peaks", r)
		}
	}
	if !strings.Contains(stderr.String(), "against torch: synthetic, pass 1 of 1") {
		t.Errorf("stderr lacks the progress line:\n%s", stderr.String())
	}
}
