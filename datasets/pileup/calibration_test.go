package pileup

import (
	"bytes"
	"math"
	"strings"
	"testing"
)

// TestCalibration simulates 1000 events of every published sample (seed 1) and requires the mean
// nodes, directed edges and LV/PU ratio per kept event within 5% of the StruRW README's table; gg
// PU10's ratio is excluded (anomalous, see Published).
func TestCalibration(t *testing.T) {
	if testing.Short() {
		t.Skip("simulates 6000 events")
	}
	for _, p := range Published {
		s, err := SimulatedStats(p.Process, p.PU, 1000, DefaultSimSeed)
		if err != nil {
			t.Fatal(err)
		}
		check := func(what string, ours, theirs float64) {
			dev := ours/theirs - 1
			t.Logf("%s PU%d %s: %.4g vs %.4g (%+.1f%%)", p.Process, p.PU, what, ours, theirs, 100*dev)
			if math.Abs(dev) > CalibrationTolerance {
				t.Errorf("%s PU%d %s: %.4g, published %.4g (%+.1f%%)", p.Process, p.PU, what, ours, theirs, 100*dev)
			}
		}
		check("nodes", s.Nodes, p.Nodes)
		check("edges", s.Edges, p.Edges)
		if p.Process == "gg" && p.PU == 10 {
			continue
		}
		check("LV/PU", s.LVPerPU, p.LVPerPU)
	}
}

// TestWriteCalibration checks the report's content on a few events.
func TestWriteCalibration(t *testing.T) {
	var b bytes.Buffer
	if err := WriteCalibration(&b, 5, 1, "cmd"); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"not the Zenodo 8015774 files", "| gg PU30 |", "[417.8]", "| qq PU10 |", "anomalous", "`cmd`"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("report lacks %q:\n%s", want, b.String())
		}
	}
}
