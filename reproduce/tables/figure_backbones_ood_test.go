package tables

import (
	"io"
	"os"
	"strings"
	"testing"

	"github.com/geomix-go/geomix/geomix"
	"github.com/geomix-go/geomix/geomix/backbones"
	"github.com/geomix-go/geomix/geomix/training"
)

// oodRunner trains every point to the test accuracy 70 and, on twitch-ood, to ood[backbone/method]'s
// FR, PTBR and RU accuracies (std 1), with twitch_features svd128, as geomix.Train reports them.
func oodRunner(ood map[string][3]float64) CellRunner {
	return func(c Cell) (*geomix.Result, error) {
		b := c.Params[backbones.ParamBackbone].(string)
		res := &geomix.Result{Dataset: c.Dataset, Method: c.Method, Runs: c.Runs, TestAccMean: 70, TestAccStd: 0.5, SecondsTotal: 3,
			Params: map[string]any{backbones.ParamBackbone: b, training.ParamTwitchFeatures: "svd128"}}
		if c.Dataset == "twitch-ood" {
			acc := ood[b+"/"+c.Method]
			res.ExtraTests = map[string]geomix.MeanStd{"FR": {Mean: acc[0], Std: 1}, "PTBR": {Mean: acc[1], Std: 1}, "RU": {Mean: acc[2], Std: 1}}
		}
		for i := range c.Runs {
			res.PerRun = append(res.PerRun, geomix.RunResult{Run: i, TestAcc: 70})
		}
		return res, nil
	}
}

// TestBackboneOODPanel sweeps Cora and twitch-ood with fake runs and checks the OOD panel (one row
// per backbone and graph, read from the records' extra_tests, with their features), the claim
// counted on it (APPNP's GeoMix-II under the plain APPNP on RU fails it), the bars and the notebook
// line; without APPNP's GeoMix-II the claim is open and the report names the points not yet run
// and the command that trains them.
func TestBackboneOODPanel(t *testing.T) {
	dir := t.TempDir()
	ood := map[string][3]float64{"gat/gat": {50, 60, 50}, "gat/geomix1": {55, 62, 56}, "gat/geomix2": {57, 63, 58},
		"appnp/appnp": {52, 61, 55}, "appnp/geomix1": {53, 64, 56}, "appnp/geomix2": {54, 62, 54.5}}
	sweep := BackboneSweep{Datasets: []string{"cora", "twitch-ood"}, Backbones: []string{"gat", "appnp"}, Methods: []string{"geomix1", "geomix2"}}
	report, path, err := RunBackbones(sweep, oodRunner(ood), Options{OutDir: dir, Runs: 2, Progress: io.Discard, Command: "test"})
	if err != nil {
		t.Fatal(err)
	}
	md, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"| Twitch, in-distribution test | GAT | 70.00 ± 0.50 | 70.00 ± 0.50 (+0.00) | 70.00 ± 0.50 (+0.00) |",
		"## OOD panel: Twitch",
		"the stored points use a 128-d truncated SVD of the raw features fitted on DE+ENGB+ES (`twitch_features=svd128`)",
		"| GAT | Twitch-FR | 50.00 ± 1.00 | 55.00 ± 1.00 (+5.00) | 57.00 ± 1.00 (+7.00) |",
		"| APPNP | Twitch-RU | 55.00 ± 1.00 | 56.00 ± 1.00 (+1.00) | 54.50 ± 1.00 (-0.50) |",
		"- **Does not hold** on the standard data sets' test accuracy: GeoMix is above the plain backbone in 0 of 4 comparisons",
		"- **Does not hold** on the OOD graphs (Twitch FR, PT, RU): GeoMix is above the plain backbone in 11 of 12 comparisons, by more than the plain backbone's std in 8. " +
			"Not above: Twitch-RU APPNP GeoMix-II 54.50 ± 1.00 against 55.00 ± 1.00.",
	} {
		if !strings.Contains(string(md), want) {
			t.Errorf("report lacks %q:\n%s", want, md)
		}
	}
	if strings.Contains(string(md), "Not yet run") {
		t.Errorf("every point is stored, yet the report says some are not run:\n%s", md)
	}
	if c, a, s := report.Gains(true); c != 12 || a != 11 || s != 8 {
		t.Errorf("OOD gains %d, %d, %d; want 12 compared, 11 above, 8 by more than a std", c, a, s)
	}
	categories, series := report.Bars("twitch-ood")
	if strings.Join(categories, ",") != "GAT · FR,GAT · PT,GAT · RU,APPNP · FR,APPNP · PT,APPNP · RU" || len(series) != 3 || series[2].Values[5] != 54.5 {
		t.Errorf("OOD bars: %v %+v", categories, series)
	}
	if chart, err := report.Chart("twitch-ood"); err != nil || !strings.Contains(chart.Option(), "OOD accuracy on Twitch FR, PT and RU") {
		t.Errorf("OOD chart: %v", err)
	}
	var lines strings.Builder
	if err := report.WritePanels(&lines); err != nil || !strings.Contains(lines.String(),
		"backbone twitch-ood appnp: plain=70.00 std=0.50 geomix1=70.00 std=0.50 geomix2=70.00 std=0.50 FR_plain=52.00 std=1.00 FR_geomix1=53.00 std=1.00") {
		t.Errorf("panel lines (%v):\n%s", err, lines.String())
	}

	if err := os.Remove(BackboneRecordPath(dir, "twitch-ood", "appnp", "geomix2")); err != nil {
		t.Fatal(err)
	}
	report, err = LoadBackbones(dir, sweep)
	if err != nil {
		t.Fatal(err)
	}
	md2 := report.Markdown()
	for _, want := range []string{
		"| APPNP | Twitch-RU | 55.00 ± 1.00 | 56.00 ± 1.00 (+1.00) | not yet run |",
		"Not yet run: 1 point (APPNP GeoMix-II). `go run ./reproduce figure-backbones --datasets twitch-ood --jobs 2` trains them",
		"- **Not settled** on the OOD graphs (Twitch FR, PT, RU): GeoMix is above the plain backbone in 9 of 9 comparisons, by more than the plain backbone's std in 7; 3 comparisons missing (points not yet run).",
	} {
		if !strings.Contains(md2, want) {
			t.Errorf("report without APPNP GeoMix-II lacks %q:\n%s", want, md2)
		}
	}

	// A twitch-ood record without the OOD graphs' accuracies is refused, naming its file.
	rec, err := ReadRecord(BackboneRecordPath(dir, "twitch-ood", "gat", "gat"))
	if err != nil {
		t.Fatal(err)
	}
	rec.ExtraTests = nil
	if err := writeRecord(BackboneRecordPath(dir, "twitch-ood", "gat", "gat"), rec); err != nil {
		t.Fatal(err)
	}
	if _, err := LoadBackbones(dir, sweep); err == nil || !strings.Contains(err.Error(), "twitch-ood-gat.json: record has no extra test set \"FR\"") {
		t.Errorf("record without extra tests: %v", err)
	}
}

// TestDefaultBackboneSweepHasOOD: the default sweep trains the OOD panel, and its report, with
// nothing stored, shows every OOD point as not yet run with the command and the features it uses.
func TestDefaultBackboneSweepHasOOD(t *testing.T) {
	def := DefaultBackboneSweep()
	if strings.Join(def.Datasets, ",") != "cora,citeseer,twitch-ood" {
		t.Errorf("default data sets %v, want cora, citeseer and twitch-ood", def.Datasets)
	}
	report, err := LoadBackbones(t.TempDir(), def)
	if err != nil {
		t.Fatal(err)
	}
	md := report.Markdown()
	for _, want := range []string{"| GAT | Twitch-PT | not yet run | not yet run | not yet run | not yet run |",
		"Not yet run: 8 points (GAT plain, GAT GeoMix-I, GAT GeoMix-II, GAT GeoMix-III, APPNP plain, APPNP GeoMix-I, APPNP GeoMix-II, APPNP GeoMix-III). `go run ./reproduce figure-backbones --datasets twitch-ood --jobs 2`",
		"the points not yet run train with the preset's default, the raw 3,170-d binary game features (`twitch_features=raw`)",
		"- **Not checked yet** on the OOD graphs (Twitch FR, PT, RU): no comparison has results yet; 18 comparisons missing"} {
		if !strings.Contains(md, want) {
			t.Errorf("empty default report lacks %q:\n%s", want, md)
		}
	}
}
