package tables

import (
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/geomix-go/geomix/geomix"
)

// fakeCell stores a finished two-run cell of table under dir with test accuracy mean ± std and, on
// twitch-ood, the OOD graphs' accuracies extra.
func fakeCell(t *testing.T, dir, table, dataset, method string, mean, std float64, extra map[string]geomix.MeanStd) {
	t.Helper()
	rec := &Record{Result: geomix.Result{Dataset: dataset, Method: method, Runs: 2, TestAccMean: mean, TestAccStd: std, ExtraTests: extra,
		PerRun: []geomix.RunResult{{Run: 0, TestAcc: mean}, {Run: 1, TestAcc: mean}}}, Table: table, TestAccs: []float64{mean, mean}}
	if err := writeRecord(RecordPath(dir, table, dataset, method), rec); err != nil {
		t.Fatal(err)
	}
}

// claimsOf loads table's report from dir and returns its claim checks and Markdown.
func claimsOf(t *testing.T, dir, table string) ([]ClaimCheck, string) {
	t.Helper()
	rep, err := LoadReport(dir, table)
	if err != nil {
		t.Fatal(err)
	}
	return rep.Claims, rep.Markdown()
}

// wantVerdicts checks the verdict and counts (held, compared, missing) of every check.
func wantVerdicts(t *testing.T, checks []ClaimCheck, want []string, counts [][3]int) {
	t.Helper()
	if len(checks) != len(want) {
		t.Fatalf("%d claims, want %d", len(checks), len(want))
	}
	for i, c := range checks {
		if c.Verdict != want[i] || c.Held != counts[i][0] || c.Compared != counts[i][1] || c.Missing != counts[i][2] {
			t.Errorf("claim %q: %s, %d of %d hold, %d missing; want %s, %v", c.Text(), c.Verdict, c.Held, c.Compared, c.Missing, want[i], counts[i])
		}
	}
}

// wantLines checks that md holds every line of want.
func wantLines(t *testing.T, md string, want ...string) {
	t.Helper()
	for _, w := range want {
		if !strings.Contains(md, w) {
			t.Errorf("report lacks %q:\n%s", w, md[strings.Index(md, "## Claims"):])
		}
	}
}

// TestTable2Claims: Cora run in full, CiteSeer's GCN and GeoMix-I only. Comparisons with results are
// decided (GeoMix-III under GraphMix fails the Mixup claim), the missing ones keep the others "not
// settled", never "holds".
func TestTable2Claims(t *testing.T) {
	dir := t.TempDir()
	cora := map[string][2]float64{"gcn": {80, 0.5}, "gat": {81, 0.5}, "sgc": {79, 0.5}, "appnp": {82, 0.5}, "glognn": {78, 0.5}, "mixup": {79, 0.5},
		"graphmixup": {80, 0.5}, "graphmix": {83, 0.5}, "geomix1": {84, 0.4}, "geomix2": {83.2, 1.0}, "geomix3": {82.3, 0.5}}
	for m, s := range cora {
		fakeCell(t, dir, "table2", "cora", m, s[0], s[1], nil)
	}
	fakeCell(t, dir, "table2", "citeseer", "gcn", 70, 0.5, nil)
	fakeCell(t, dir, "table2", "citeseer", "geomix1", 72, 0.5, nil)
	checks, md := claimsOf(t, dir, "table2")
	wantVerdicts(t, checks, []string{ClaimOpen, ClaimOpen, ClaimFails, ClaimOpen}, [][3]int{{4, 4, 17}, {3, 3, 18}, {2, 3, 18}, {1, 1, 6}})
	if c := checks[0]; c.PaperHeld != 21 || c.PaperCompared != 21 {
		t.Errorf("paper: %d of %d, want 21 of 21", c.PaperHeld, c.PaperCompared)
	}
	wantLines(t, md,
		"- **Not settled**: GeoMix-I, GeoMix-II and GeoMix-III, each above GCN on every data set. Ours: 4 of 4 comparisons hold; 17 not decided, results missing; the paper's numbers: 21 of 21.",
		"  - Cora, against GraphMix 83.00 ± 0.50 (paper: GraphMix 83.80 ± 0.62): GeoMix-I 84.00 ± 0.40 ✓ (paper 84.08 ✓), GeoMix-II 83.20 ± 1.00 ✓ within std (paper 83.94 ✓), GeoMix-III 82.30 ± 0.50 ✗ (paper 84.22 ✓)",
		"  - CiteSeer, against GCN 70.00 ± 0.50 (paper: GCN 71.64 ± 0.33): GeoMix-I 72.00 ± 0.50 ✓ (paper 75.06 ✓), GeoMix-II not yet run (paper 75.12 ✓), GeoMix-III not yet run (paper 73.60 ✓)",
		"  - CiteSeer, against Mixup not yet run, GraphMixup not yet run and GraphMix not yet run (paper: GraphMix 74.28 ± 0.45): GeoMix-I 72.00 ± 0.50 open",
		"- **Not settled**: the best of GeoMix-I, GeoMix-II and GeoMix-III above GCN, GAT, SGC, APPNP, GloGNN, Mixup, GraphMixup and GraphMix on every data set.",
		"  - Cora: GeoMix-I 84.00 ± 0.40 ✓ against GraphMix 83.00 ± 0.50 (paper: GeoMix-III 84.22 ± 0.85 ✓ against GraphMix 83.80 ± 0.62)",
		"  - CiteSeer: GeoMix-I 72.00 ± 0.50 open against GCN 70.00 ± 0.50; GAT not yet run, SGC not yet run,",
		"  - PubMed: nothing run yet",
		"The paper: Table 2 shades a GeoMix cell as the best of every column.",
	)
	data, err := json.Marshal(checks[2])
	if err != nil || !strings.Contains(string(data), `"verdict":"does not hold"`) || !strings.Contains(string(data), `"missing":["Mixup not yet run","GraphMixup not yet run","GraphMix not yet run"]`) {
		t.Errorf("JSON of the Mixup claim: %s, %v", data, err)
	}
}

// TestTable3Claims reads the OOD graphs' accuracies from fake twitch-ood records: every variant
// above ERM holds, GeoMix-II under GeoMix-I on PT and Mixup above every variant on PT fail.
func TestTable3Claims(t *testing.T) {
	dir := t.TempDir()
	for m, acc := range map[string][3]float64{"gcn": {50, 60, 50}, "eerm": {51, 60, 51}, "dann": {52, 60, 52}, "mixup": {53, 64, 53}, "graphmix": {54, 60, 54},
		"geomix1": {55, 62, 51.5}, "geomix2": {58, 61, 60}, "geomix3": {57, 63, 61}} {
		fakeCell(t, dir, "table3", "twitch-ood", m, 70, 1, map[string]geomix.MeanStd{"FR": {Mean: acc[0], Std: 2}, "PTBR": {Mean: acc[1], Std: 0.5}, "RU": {Mean: acc[2], Std: 2}})
	}
	checks, md := claimsOf(t, dir, "table3")
	wantVerdicts(t, checks, []string{ClaimHolds, ClaimFails, ClaimFails}, [][3]int{{9, 9, 0}, {2, 3, 0}, {2, 3, 0}})
	wantLines(t, md,
		"- **Holds**: GeoMix-I, GeoMix-II and GeoMix-III, each above ERM on every data set. Ours: 9 of 9 comparisons hold (1 within std); the paper's numbers: 8 of 9.",
		"  - Twitch-FR, against ERM 50.00 ± 2.00 (paper: ERM 57.98 ± 2.41): GeoMix-I 55.00 ± 2.00 ✓ (paper 57.82 ✗),",
		"  - Twitch-RU, against ERM 50.00 ± 2.00 (paper: ERM 59.74 ± 3.89): GeoMix-I 51.50 ± 2.00 ✓ within std (paper 64.00 ✓)",
		"- **Does not hold**: GeoMix-II above GeoMix-I on every data set. Ours: 2 of 3 comparisons hold, 1 does not; the paper's numbers: 2 of 3.",
		"  - Twitch-PT, against GeoMix-I 62.00 ± 0.50 (paper: GeoMix-I 66.96 ± 0.63): GeoMix-II 61.00 ± 0.50 ✗ (paper 65.58 ✗)",
		"  - Twitch-PT: GeoMix-III 63.00 ± 0.50 ✗ against Mixup 64.00 ± 0.50 (paper: GeoMix-I 66.96 ± 0.63 ✓ against Mixup 66.31 ± 0.65)",
		"  - Twitch-FR: GeoMix-II 58.00 ± 2.00 ✓ against GraphMix 54.00 ± 2.00",
	)
}

// TestTable4Claims: the 20News columns decide the verdicts; the Fashion-MNIST stand-in is shown but
// not counted (GeoMix-I under GCN there does not fail the claim), STL10 and CIFAR10 are not
// checkable.
func TestTable4Claims(t *testing.T) {
	dir := t.TempDir()
	for _, d := range []string{"20news", "20news-200"} {
		for m, acc := range map[string]float64{"mlp": 55, "gcn": 56, "gat": 56.5, "sgc": 55, "mixup": 57, "graphmixup": 57.5, "graphmix": 58, "geomix1": 59, "geomix2": 58.5, "geomix3": 58.8} {
			fakeCell(t, dir, "table4", d, m, acc, 0.2, nil)
		}
	}
	fakeCell(t, dir, "table4", "fmnist", "gcn", 75, 1, nil)
	fakeCell(t, dir, "table4", "fmnist", "geomix1", 70, 1, nil)
	checks, md := claimsOf(t, dir, "table4")
	wantVerdicts(t, checks, []string{ClaimHolds, ClaimHolds, ClaimHolds, ClaimHolds}, [][3]int{{6, 6, 0}, {6, 6, 0}, {6, 6, 0}, {2, 2, 0}})
	wantLines(t, md,
		"  - not counted (our stand-in, no paper numbers): Fashion-MNIST stand-in (10 per class), against GCN 75.00 ± 1.00: GeoMix-I 70.00 ± 1.00 ✗, GeoMix-II not yet run, GeoMix-III not yet run",
		"  - not counted (our stand-in, no paper numbers): Fashion-MNIST stand-in (20 per class): nothing run yet",
		"  - not checkable, the data cannot be obtained: STL10 (10 per class), STL10 (20 per class), CIFAR10 (10 per class) and CIFAR10 (20 per class)",
		"  - 20News (100 per class): GeoMix-I 59.00 ± 0.20 ✓ against GraphMix 58.00 ± 0.20 (paper: GeoMix-I 58.60 ± 0.20 ✓ against GraphMixup 57.80 ± 0.60)",
	)
}

// TestTable5Claims: Random Mix drops most on Squirrel; w/o Locality is above GeoMix-I on Squirrel,
// which fails both its claims; without Squirrel's w/o Locality cell its drop claim is open.
func TestTable5Claims(t *testing.T) {
	dir := t.TempDir()
	for d, acc := range map[string][3]float64{"cora": {84, 80, 83}, "citeseer": {72, 70, 71.9}, "squirrel": {40, 35, 40.5}} {
		for i, m := range []string{"geomix1", "randommix", "nolocality"} {
			fakeCell(t, dir, "table5", d, m, acc[i], 0.3, nil)
		}
	}
	checks, md := claimsOf(t, dir, "table5")
	wantVerdicts(t, checks, []string{ClaimHolds, ClaimFails, ClaimFails}, [][3]int{{3, 3, 0}, {2, 3, 0}, {1, 2, 0}})
	wantLines(t, md,
		"- **Holds**: Random Mix below GeoMix-I on every data set. Ours: 3 of 3 comparisons hold; the paper's numbers: 3 of 3.",
		"- **Does not hold**: w/o Locality below GeoMix-I on every data set. Ours: 2 of 3 comparisons hold (1 within std), 1 does not; the paper's numbers: 3 of 3.",
		"  - Squirrel, against w/o Locality 40.50 ± 0.30 (paper: w/o Locality 38.30 ± 1.60): GeoMix-I 40.00 ± 0.30 ✗ (paper 41.00 ✓)",
		"  - Random Mix against GeoMix-I: Cora -4.76%, CiteSeer -2.78%, Squirrel -12.50% ✓ (paper: -2.38%, -7.06%, -7.80% ✓)",
		"  - w/o Locality against GeoMix-I: Cora -1.19%, CiteSeer -0.14%, Squirrel +1.25% ✗ (paper: -0.12%, -1.86%, -6.59% ✓)",
	)
	if err := os.Remove(RecordPath(dir, "table5", "squirrel", "nolocality")); err != nil {
		t.Fatal(err)
	}
	checks, md = claimsOf(t, dir, "table5")
	wantVerdicts(t, checks, []string{ClaimHolds, ClaimOpen, ClaimOpen}, [][3]int{{3, 3, 0}, {2, 2, 1}, {1, 1, 1}})
	wantLines(t, md, "  - w/o Locality against GeoMix-I: Cora -1.19%, CiteSeer -0.14% open; Squirrel w/o Locality not yet run (paper: -0.12%, -1.86%, -6.59% ✓)")
}
