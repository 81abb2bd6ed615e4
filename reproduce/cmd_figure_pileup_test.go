package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/geomix-go/geomix/datasets"
	"github.com/geomix-go/geomix/reproduce/tables"
)

// TestFigurePileupQuick runs `reproduce figure-pileup --quick` as CI does, from an empty data root
// and cache (the events are simulated on first use): the seven methods on the quick shift, each
// record with its per-run metrics and simulated origin, the report and its chart, then a dry run
// that finds every point finished.
func TestFigurePileupQuick(t *testing.T) {
	t.Setenv(datasets.EnvData, t.TempDir())
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	dir := t.TempDir()
	if err := runFigurePileup([]string{"--quick", "--out", dir}); err != nil {
		t.Fatal(err)
	}
	for _, m := range tables.PileupMethods {
		rec, err := tables.ReadRecord(tables.PileupRecordPath(dir, tables.QuickPileupShifts[0], m))
		if err != nil {
			t.Fatal(err)
		}
		pc := rec.Pileup
		if !rec.Quick || pc == nil || len(pc.Runs) != 1 || !pc.Simulated || pc.Runs[0].Acc != rec.TestAccs[0] || pc.MajorityAcc < 50 || pc.Runs[0].AUC <= 0 || pc.Runs[0].AUC >= 1 {
			t.Errorf("%s record: quick %v, pileup %+v, test accs %v", m, rec.Quick, pc, rec.TestAccs)
		}
	}
	md, err := os.ReadFile(filepath.Join(dir, tables.FigurePileup+".md"))
	if err != nil || !strings.Contains(string(md), "| Method | PU10→PU30 |") || !strings.Contains(string(md), "not the Zenodo Delphes files") {
		t.Errorf("report (err %v):\n%s", err, md)
	}
	page, err := os.ReadFile(filepath.Join(dir, tables.FigurePileup, "accuracy.html"))
	if err != nil || !strings.Contains(string(page), "Pileup Mitigation: accuracy on the target test neutrals") {
		t.Errorf("bar chart page (err %v) lacks its title", err)
	}
	plan, err := tables.PlanPileup(tables.PileupSweep{Shifts: tables.QuickPileupShifts, Methods: tables.PileupMethods}, tables.Options{OutDir: dir, Quick: true})
	if err != nil || len(plan) != len(tables.PileupMethods) || plan[len(plan)-1].State != tables.StateFinished {
		t.Errorf("plan after the sweep (err %v): %+v", err, plan)
	}
}

// TestFigurePileupBadInput: an unknown shift or method, and --events-dir without the files, are
// errors naming them.
func TestFigurePileupBadInput(t *testing.T) {
	dir := t.TempDir()
	if err := runFigurePileup([]string{"--out", dir, "--shifts", "gg-pu10-pu20"}); err == nil || !strings.Contains(err.Error(), `"gg-pu10-pu20"`) {
		t.Errorf("bad --shifts: %v", err)
	}
	if err := runFigurePileup([]string{"--out", dir, "--methods", "gat"}); err == nil || !strings.Contains(err.Error(), `"gat"`) {
		t.Errorf("bad --methods: %v", err)
	}
	err := runFigurePileup([]string{"--out", dir, "--quick", "--methods", "gcn", "--events-dir", filepath.Join(dir, "none")})
	if err == nil || !strings.Contains(err.Error(), "test_gg_PU10.root") {
		t.Errorf("--events-dir without files: %v", err)
	}
}
