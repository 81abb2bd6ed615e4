package notebooks_test

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/geomix-go/geomix/datasets"
)

// executedDir is where scripts/notebooks.sh writes executed notebooks.
const executedDir = "../build/notebooks"

// notebook is the part of an .ipynb file the tests read.
type notebook struct {
	Cells []struct {
		CellType string       `json:"cell_type"`
		Source   multiline    `json:"source"`
		Outputs  []cellOutput `json:"outputs"`
	} `json:"cells"`
}

type cellOutput struct {
	OutputType string               `json:"output_type"`
	Name       string               `json:"name"`
	Text       multiline            `json:"text"`
	Data       map[string]multiline `json:"data"`
	EName      string               `json:"ename"`
	EValue     string               `json:"evalue"`
}

// multiline is nbformat's string-or-list-of-strings.
type multiline string

// UnmarshalJSON implements json.Unmarshaler.
func (m *multiline) UnmarshalJSON(b []byte) error {
	var lines []string
	if err := json.Unmarshal(b, &lines); err == nil {
		*m = multiline(strings.Join(lines, ""))
		return nil
	}
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return err
	}
	*m = multiline(s)
	return nil
}

func readNotebook(t *testing.T, path string) *notebook {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	nb := &notebook{}
	if err := json.Unmarshal(b, nb); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return nb
}

// executed returns the executed copy of notebooks/<name>.ipynb, skipping when the runner has not
// written it and failing when it was executed from another version of the source.
func executed(t *testing.T, name string) (stdout string, html []string) {
	t.Helper()
	path := filepath.Join(executedDir, name+".ipynb")
	if _, err := os.Stat(path); err != nil {
		t.Skipf("%s not found: run scripts/notebooks.sh first (GEOMIX_QUICK=1 for a short run)", path)
	}
	src, run := readNotebook(t, name+".ipynb"), readNotebook(t, path)
	if len(src.Cells) != len(run.Cells) {
		t.Fatalf("%s is stale (%d cells, the source has %d): re-run scripts/notebooks.sh", path, len(run.Cells), len(src.Cells))
	}
	var out strings.Builder
	for i, c := range run.Cells {
		if c.Source != src.Cells[i].Source {
			t.Fatalf("%s is stale (cell %d differs from the source): re-run scripts/notebooks.sh", path, i)
		}
		for _, o := range c.Outputs {
			switch o.OutputType {
			case "error":
				t.Errorf("cell %d raised %s: %s", i, o.EName, o.EValue)
			case "stream":
				if o.Name == "stdout" {
					out.WriteString(string(o.Text))
				}
			case "display_data", "execute_result":
				if h, ok := o.Data["text/html"]; ok {
					html = append(html, string(h))
				}
			}
		}
	}
	return out.String(), html
}

// datasetStats are the known statistics of the data sets the quickstart can load (Cora: the
// Planetoid public split; synthetic: datasets.DefaultSyntheticConfig, 2000 nodes in 5 classes) and
// the sane range of its training run's test accuracy (%): the paper reports 81.63 (GCN) and 84.08
// (GeoMix-I) on Cora, chance is 14%; on the synthetic set chance is 20%, and GCN and GeoMix-I reach
// about 80%.
var datasetStats = func() map[string]datasetStat {
	syn := datasets.DefaultSyntheticConfig()
	return map[string]datasetStat{
		"cora":      {2708, 1433, 7, 60, 90},
		"synthetic": {syn.Nodes, syn.Features, syn.Classes, 60, 100},
	}
}()

// datasetStat is one entry of datasetStats.
type datasetStat struct {
	nodes, features, classes int
	accLow, accHigh          float64
}

var (
	statsLine = regexp.MustCompile(`(?m)^(\w+): (\d+) nodes, (\d+) edges, (\d+) features, (\d+) classes`)
	splitLine = regexp.MustCompile(`(?m)^split 0: (\d+) train, (\d+) validation, (\d+) test nodes$`)
	accLine   = regexp.MustCompile(`(?m)^(.+) test accuracy: ([0-9.]+)%`)
	toyLine   = regexp.MustCompile(`(?m)^toy node (\d): feature (\S+) -> (\S+), label mass on class 0 (\S+) -> (\S+)$`)
)

func atoi(s string) int { n, _ := strconv.Atoi(s); return n }

// toyMix is one GeoMix-I step (α = 0.5, K = 1) on the quickstart's toy graph, by hand: the node
// values x [8] mixed over Â = D̃^-1/2 (A+I) D̃^-1/2.
func toyMix(x []float64) []float64 {
	edges := [][2]int{{0, 1}, {1, 2}, {2, 3}, {3, 0}, {0, 2}, {4, 5}, {5, 6}, {6, 7}, {7, 4}, {5, 7}, {3, 4}}
	deg := []float64{1, 1, 1, 1, 1, 1, 1, 1} // the self-loop
	for _, e := range edges {
		deg[e[0]]++
		deg[e[1]]++
	}
	ax := make([]float64, len(x))
	for v := range x {
		ax[v] = x[v] / deg[v]
	}
	for _, e := range edges {
		w := 1 / math.Sqrt(deg[e[0]]*deg[e[1]])
		ax[e[0]] += w * x[e[1]]
		ax[e[1]] += w * x[e[0]]
	}
	out := make([]float64, len(x))
	for v := range x {
		out[v] = 0.5*x[v] + 0.5*ax[v]
	}
	return out
}

func TestQuickstartOutputs(t *testing.T) {
	stdout, html := executed(t, "00-quickstart")
	// The toy graph's mixing step: features and class-0 label mass against the step by hand.
	toy := toyLine.FindAllStringSubmatch(stdout, -1)
	if len(toy) != 8 {
		t.Fatalf("%d toy node lines, want 8:\n%s", len(toy), stdout)
	}
	var feature, label, mixedFeature, mixedLabel []float64
	for _, m := range toy {
		feature, mixedFeature = append(feature, atof(t, m[2])), append(mixedFeature, atof(t, m[3]))
		label, mixedLabel = append(label, atof(t, m[4])), append(mixedLabel, atof(t, m[5]))
	}
	for name, got := range map[string][2][]float64{"feature": {feature, mixedFeature}, "label": {label, mixedLabel}} {
		for v, want := range toyMix(got[0]) {
			if math.Abs(got[1][v]-want) > 1e-3 {
				t.Errorf("toy node %d: mixed %s %g, want %.3f", v, name, got[1][v], want)
			}
		}
	}

	m := statsLine.FindStringSubmatch(stdout)
	if m == nil {
		t.Fatalf("no data set statistics line in the output:\n%s", stdout)
	}
	want, ok := datasetStats[m[1]]
	if !ok {
		t.Fatalf("quickstart loaded %q, want cora or synthetic", m[1])
	}
	if got := []int{atoi(m[2]), atoi(m[4]), atoi(m[5])}; !slices.Equal(got, []int{want.nodes, want.features, want.classes}) {
		t.Errorf("%s: nodes, features, classes = %v, want %v", m[1], got, []int{want.nodes, want.features, want.classes})
	}
	fallback := strings.Contains(stdout, "this notebook trains on the synthetic data set instead")
	if fallback != (m[1] == "synthetic") || (m[1] == "synthetic") == strings.Contains(stdout, "paper (Table 2, Cora)") {
		t.Errorf("%s: the fallback notice (%v) and the comparison with the paper must appear exactly when on synthetic data and on Cora", m[1], fallback)
	}
	if m[1] == "cora" {
		if m[3] != "10556" {
			t.Errorf("cora has %s directed edges, want 10556", m[3])
		}
		s := splitLine.FindStringSubmatch(stdout)
		if s == nil || atoi(s[1]) != 140 || atoi(s[2]) != 500 || atoi(s[3]) != 1000 {
			t.Errorf("cora split line %q, want 140 train, 500 validation, 1000 test", s)
		}
	}
	charts := countCharts(t, html)
	if charts != 4 {
		t.Errorf("%d charts, want 4 (the toy graph's feature and label, the validation curves, the test accuracy)", charts)
	}
	accs := accLine.FindAllStringSubmatch(stdout, -1)
	for _, a := range accs {
		if acc, err := strconv.ParseFloat(a[2], 64); err != nil || acc < want.accLow || acc > want.accHigh {
			t.Errorf("%s: %s test accuracy %s%%, want within [%g, %g]", m[1], a[1], a[2], want.accLow, want.accHigh)
		}
	}
	if len(accs) != 2 {
		t.Errorf("%d test accuracy lines, want 2 (gcn and geomix1)", len(accs))
	}
	t.Logf("quickstart: %s, %d chart(s), %d accuracy line(s)", m[0], charts, len(accs))
}

// countCharts counts the displayed charts and fails when one does not inline ECharts 5.4.3.
func countCharts(t *testing.T, html []string) int {
	t.Helper()
	charts := 0
	for _, h := range html {
		if strings.Contains(h, "echarts.init") {
			charts++
			if !strings.Contains(h, `version="5.4.3"`) || strings.Contains(h, "<script src=") {
				t.Error("a chart in the executed notebook does not inline ECharts 5.4.3")
			}
		}
	}
	return charts
}

// atof parses s, failing the test when it is not a number.
func atof(t *testing.T, s string) float64 {
	t.Helper()
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		t.Fatalf("%q is not a number: %v", s, err)
	}
	return v
}

var (
	checkLine   = regexp.MustCompile(`(?m)^check (\S+): predicted=(\S+) observed=(\S+) tolerance=(\S+) compare=(\S+) pass=(\w+)$`)
	residual    = regexp.MustCompile(`(?m)^  (alpha=\S+ beta=\S+ tau=\S+): max \|mix - gradient steps\| = (\S+) \(tolerance (\S+)\)$`)
	tauLine     = regexp.MustCompile(`(?m)^tau at alpha=(\S+) beta=2: (\S+) \(1-alpha = 2 tau beta\), (\S+) \(appendix: alpha = 2 tau beta\)$`)
	theoryFixed = regexp.MustCompile(`(?m)^headless: p=0.5 eps=0.2 alpha=0.5 degree=10: own=(\S+) other=(\S+) lambda=(\S+) separation=(\S+) feature_bound=(\S+) label_bound=(\S+)$`)
)

// theoryChecks are the checks 01-theory prints, in the notebook's order, with the range of the worst point's
// predicted value: the synthetic class means lie in [-B/2, B/2] = [-0.5, 0.5] (so do their mixtures),
// labels and probabilities in [0, 1], Theorem 3 predicts a zero difference, the separation factor
// (pC-1)/(C-1) lies in [-1/3, 1] for C = 4, and α + (1-α)·0 at p = 1/C is one of the grid's α.
var theoryChecks = []struct {
	name         string
	compare      string
	predLo       float64
	predHi       float64
	predOneOf    []float64
	maxTolerance float64
}{
	{name: "theorem1/expected-feature", compare: "equal", predLo: -0.5, predHi: 0.5, maxTolerance: 0.1},
	{name: "theorem2/expected-label", compare: "equal", predLo: 0, predHi: 1, maxTolerance: 0.1},
	{name: "theorem1/concentration", compare: "at-most", predLo: 1e-9, predHi: 1, maxTolerance: 0.1},
	{name: "theorem2/concentration", compare: "at-most", predLo: 1e-9, predHi: 1, maxTolerance: 0.1},
	{name: "theorem3/f1-gradient-step", compare: "equal", predLo: 0, predHi: 0, maxTolerance: 1e-10},
	{name: "theorem3/f2-gradient-step", compare: "equal", predLo: 0, predHi: 0, maxTolerance: 1e-10},
	{name: "heterophily/collapse", compare: "equal", predLo: -1.0 / 3, predHi: 1, maxTolerance: 0.1},
	{name: "heterophily/alpha-restores", compare: "equal", predOneOf: []float64{0.25, 0.5, 0.75}, maxTolerance: 0.1},
}

func TestTheoryOutputs(t *testing.T) {
	stdout, html := executed(t, "01-theory")
	lines := checkLine.FindAllStringSubmatch(stdout, -1)
	if len(lines) != len(theoryChecks) {
		t.Fatalf("%d check lines, want %d:\n%s", len(lines), len(theoryChecks), stdout)
	}
	for i, want := range theoryChecks {
		m := lines[i]
		if m[1] != want.name || m[5] != want.compare {
			t.Errorf("check %d is %s (%s), want %s (%s)", i, m[1], m[5], want.name, want.compare)
			continue
		}
		pred, obs, tol := atof(t, m[2]), atof(t, m[3]), atof(t, m[4])
		if m[6] != "true" {
			t.Errorf("%s: pass=%s (predicted %g, observed %g, tolerance %g)", m[1], m[6], pred, obs, tol)
		}
		if tol <= 0 || tol > want.maxTolerance {
			t.Errorf("%s: tolerance %g, want in (0, %g]", m[1], tol, want.maxTolerance)
		}
		if want.predOneOf != nil {
			if !slices.ContainsFunc(want.predOneOf, func(v float64) bool { return math.Abs(v-pred) < 1e-9 }) {
				t.Errorf("%s: predicted %g, want one of %v", m[1], pred, want.predOneOf)
			}
		} else if pred < want.predLo || pred > want.predHi {
			t.Errorf("%s: predicted %g, want in [%g, %g]", m[1], pred, want.predLo, want.predHi)
		}
		// The summary line must agree with its pass flag.
		switch excess := obs - pred; want.compare {
		case "equal":
			if math.Abs(excess) > tol {
				t.Errorf("%s: |observed %g - predicted %g| > tolerance %g", m[1], obs, pred, tol)
			}
		case "at-most":
			if excess > tol || obs < 0 {
				t.Errorf("%s: observed tail %g, want in [0, bound %g + %g]", m[1], obs, pred, tol)
			}
		}
	}

	// Theorem 3: 6 (α, β) points for F1 and 3 α for F2, every difference at float64 rounding level.
	res := residual.FindAllStringSubmatch(stdout, -1)
	if len(res) != 9 {
		t.Errorf("%d Theorem 3 residual lines, want 9", len(res))
	}
	for _, r := range res {
		if d := atof(t, r[2]); d > atof(t, r[3]) || d > 1e-12 {
			t.Errorf("Theorem 3 at %s: residual %s (tolerance %s)", r[1], r[2], r[3])
		}
	}

	// τ for GeoMix-I with β = 2: (1-α)/4 from the algebra, α/4 from the appendix's typo.
	wantTau := map[string][2]float64{"0.1": {0.225, 0.025}, "0.5": {0.125, 0.125}, "0.8": {0.05, 0.2}}
	taus := tauLine.FindAllStringSubmatch(stdout, -1)
	if len(taus) != len(wantTau) {
		t.Errorf("%d tau lines, want %d", len(taus), len(wantTau))
	}
	for _, m := range taus {
		w, ok := wantTau[m[1]]
		if !ok || math.Abs(atof(t, m[2])-w[0]) > 1e-9 || math.Abs(atof(t, m[3])-w[1]) > 1e-9 {
			t.Errorf("tau at alpha=%s: %s and %s, want %v", m[1], m[2], m[3], w)
		}
	}

	// The headless fallback of the slider cell, by hand for C = 4, p = 0.5, ε = 0.2, α = 0.5, degree 10,
	// t = 1.5, B = 1, F = 4: own 0.4 + 0.2·0.5/3, other (0.1 + 0.4)/3 + 0.2·0.5·2/9, λ = 1/3,
	// α + (1-α)λ = 2/3, both bounds 8·exp(-10·2.25/8).
	if m := theoryFixed.FindStringSubmatch(stdout); m == nil {
		t.Error("no headless fallback line from the interactive cell")
	} else {
		bound := 8 * math.Exp(-22.5/8)
		for i, want := range []float64{0.4 + 0.1/3, 0.5/3 + 0.2/9, 1.0 / 3, 2.0 / 3, bound, bound} {
			if got := atof(t, m[i+1]); math.Abs(got-want) > 1e-4 {
				t.Errorf("headless prediction %d: %g, want %.4f", i, got, want)
			}
		}
	}
	if charts := countCharts(t, html); charts != 9 {
		t.Errorf("%d charts displayed, want 9", charts)
	}
}

// tableRow matches the per-row lines of 02-table2 and 03-ablation.
var tableRow = regexp.MustCompile(`(?m)^row (\S+) (\S+): ours=(\S+) std=(\S+) runs=(\d+) quick=(\w+) paper=(\S+) std=(\S+) diff=(\S+) flagged=(\w+) rel=(\S+) paper_rel=(\S+)$`)

// paperRow is a published cell (Table 2 or Table 5 of the paper) and the sane range of ours.
type paperRow struct {
	mean, std, rel float64
	low, high      float64
}

// checkTableRows asserts that every row of want is printed with the paper's published numbers, a
// consistent difference, and our accuracy in its sane range; it returns our means by method.
func checkTableRows(t *testing.T, stdout string, want map[string]paperRow, withRel bool) map[string]float64 {
	t.Helper()
	ours := map[string]float64{}
	quick := false
	for _, m := range tableRow.FindAllStringSubmatch(stdout, -1) {
		w, ok := want[m[1]+"/"+m[2]]
		if !ok {
			continue
		}
		acc, paper, paperStd, diff := atof(t, m[3]), atof(t, m[7]), atof(t, m[8]), atof(t, m[9])
		ours[m[2]] = acc
		quick = quick || m[6] == "true"
		if paper != w.mean || paperStd != w.std {
			t.Errorf("%s/%s: paper %g ± %g, want %g ± %g", m[1], m[2], paper, paperStd, w.mean, w.std)
		}
		if math.Abs(diff-(acc-paper)) > 0.011 {
			t.Errorf("%s/%s: diff %g, want ours %g - paper %g", m[1], m[2], diff, acc, paper)
		}
		if flagged := math.Abs(acc-paper) > math.Max(2*paperStd, 1); strconv.FormatBool(flagged) != m[10] {
			t.Errorf("%s/%s: flagged=%s, want %v", m[1], m[2], m[10], flagged)
		}
		if withRel && m[12] != "none" && math.Abs(atof(t, m[12])-w.rel) > 1e-9 {
			t.Errorf("%s/%s: paper's relative change %s, want %g", m[1], m[2], m[12], w.rel)
		}
		if acc < w.low || acc > w.high {
			t.Errorf("%s/%s: test accuracy %.2f%%, want within [%g, %g]", m[1], m[2], acc, w.low, w.high)
		}
	}
	for k := range want {
		if _, ok := ours[strings.SplitN(k, "/", 2)[1]]; !ok {
			t.Errorf("no row for %s", k)
		}
	}
	if quick && !strings.Contains(stdout, "NOT the paper's protocol") {
		t.Error("quick results are not labelled as NOT the paper's protocol")
	}
	return ours
}

func TestTable2Outputs(t *testing.T) {
	stdout, html := executed(t, "02-table2")
	// The paper's Table 2 on Cora; ours in the quickstart's sane range (chance is 14%).
	checkTableRows(t, stdout, map[string]paperRow{
		"cora/gcn":     {mean: 81.63, std: 0.45, low: 60, high: 90},
		"cora/geomix1": {mean: 84.08, std: 0.74, low: 60, high: 90},
	}, false)
	if countCharts(t, html) != 1 {
		t.Error("want one bar chart of ours vs paper")
	}
}

func TestAblationOutputs(t *testing.T) {
	stdout, html := executed(t, "03-ablation")
	// The paper's Table 5 on Cora, with its printed relative change against GeoMix-I (%).
	want := map[string]paperRow{
		"cora/geomix1":    {mean: 84.10, std: 0.70, low: 60, high: 90},
		"cora/randommix":  {mean: 82.10, std: 0.50, rel: -2.38, low: 0, high: 90},
		"cora/nolocality": {mean: 84.00, std: 0.60, rel: -0.12, low: 60, high: 90},
	}
	ours := checkTableRows(t, stdout, want, true)
	// Our relative change is (method − GeoMix-I) / GeoMix-I in percent.
	// Only the ablation rows: the committed table (shown when the quick sweep has no data) also has
	// GCN rows, for which the paper prints no relative change.
	for _, m := range tableRow.FindAllStringSubmatch(stdout, -1) {
		ref, ok := ours["geomix1"]
		if _, ablation := want["cora/"+m[2]]; m[1] != "cora" || m[2] == "geomix1" || !ok || !ablation {
			continue
		}
		if rel := 100 * (atof(t, m[3]) - ref) / ref; m[11] == "none" || math.Abs(atof(t, m[11])-rel) > 0.02 {
			t.Errorf("cora/%s: our relative change %s, want %.2f", m[2], m[11], rel)
		}
	}
	// The paper's qualitative claim: pairing nodes at random instead of by the graph hurts.
	if rnd, geo := ours["randommix"], ours["geomix1"]; rnd >= geo-1 {
		t.Errorf("Random Mix on Cora: %.2f%%, want at least 1 point below GeoMix-I's %.2f%%", rnd, geo)
	}
	if countCharts(t, html) != 1 {
		t.Error("want one bar chart of ours vs paper")
	}
}

var (
	gridPoint  = regexp.MustCompile(`(?m)^point (\S+) (\S+) alpha=(\S+) hops=(\d+): acc=(\S+) std=(\S+) runs=(\d+) quick=(\w+) preset=(\w+) best=(\w+)$`)
	hyperFixed = regexp.MustCompile(`(?m)^headless: alpha=(\S+)$`)
)

func TestHyperOutputs(t *testing.T) {
	stdout, html := executed(t, "04-hyper")
	points := gridPoint.FindAllStringSubmatch(stdout, -1)
	if len(points) == 0 {
		t.Fatal("no point printed")
	}
	// Per panel and α: the printed best K must be the highest accuracy there (the first on ties).
	type key struct{ panel, alpha string }
	top, bestAcc := map[key]float64{}, map[key]float64{}
	panels := map[string]bool{}
	for _, m := range points {
		panels[m[1]+"/"+m[2]] = true
		acc := atof(t, m[5])
		// Cora and CiteSeer: chance is 14% and 17%; a diverged point may sit near it, none above 100.
		if acc < 5 || acc > 100 || atof(t, m[6]) < 0 {
			t.Errorf("%s: accuracy %s ± %s out of range", m[0], m[5], m[6])
		}
		k := key{m[1] + "/" + m[2], m[3]}
		if v, ok := top[k]; !ok || acc > v {
			top[k] = acc
		}
		if m[10] == "true" {
			if _, twice := bestAcc[k]; twice {
				t.Errorf("%s alpha=%s: two points marked best", k.panel, k.alpha)
			}
			bestAcc[k] = acc
		}
	}
	for k, v := range top {
		if b, ok := bestAcc[k]; !ok || b != v {
			t.Errorf("%s alpha=%s: best marked at %v (ok %v), highest accuracy %v", k.panel, k.alpha, b, ok, v)
		}
	}
	if m := hyperFixed.FindStringSubmatch(stdout); m == nil {
		t.Error("the headless line chart's line is missing")
	}
	if n := countCharts(t, html); n != len(panels)+1 {
		t.Errorf("%d charts, want one heatmap per panel (%d) and the line chart", n, len(panels))
	}
}

var backbonePanel = regexp.MustCompile(`(?m)^backbone (\S+) (\S+): plain=(\S+) std=(\S+)((?: \S+=\S+ std=\S+)*) runs=(\d+) quick=(\w+)$`)

func TestBackbonesOutputs(t *testing.T) {
	stdout, html := executed(t, "05-backbones")
	panels := backbonePanel.FindAllStringSubmatch(stdout, -1)
	if len(panels) == 0 {
		t.Fatal("no backbone panel printed")
	}
	datasetIDs := map[string]bool{}
	for _, m := range panels {
		datasetIDs[m[1]] = true
		if m[2] != "gat" && m[2] != "appnp" {
			t.Errorf("%s: backbone %q, want gat or appnp", m[0], m[2])
		}
		// Every stored accuracy (plain and mixed) of Cora/CiteSeer in a sane range (chance 14-17%).
		for _, acc := range regexp.MustCompile(`=(\d+\.\d+) std`).FindAllStringSubmatch(m[0], -1) {
			if v := atof(t, acc[1]); v < 20 || v > 100 {
				t.Errorf("%s: accuracy %v out of range", m[0], v)
			}
		}
	}
	if n := countCharts(t, html); n != len(datasetIDs) {
		t.Errorf("%d charts, want one bar chart per data set (%d)", n, len(datasetIDs))
	}
}

var embeddingLine = regexp.MustCompile(`(?m)^embedding (\S+) (\S+): test=(\S+) epoch=(\d+) silhouette=(\S+) silhouette_tsne=(\S+) nodes=(\d+) quick=(\w+)$`)

func TestTSNEOutputs(t *testing.T) {
	stdout, html := executed(t, "06-tsne")
	lines := embeddingLine.FindAllStringSubmatch(stdout, -1)
	if len(lines) == 0 {
		t.Fatal("no embedding printed")
	}
	nodes := map[string]int{"cora": 2708, "citeseer": 3327}
	for _, m := range lines {
		if want, ok := nodes[m[1]]; ok && atof(t, m[7]) != float64(want) {
			t.Errorf("%s: %s nodes, want %d", m[0], m[7], want)
		}
		if acc := atof(t, m[3]); acc < 20 || acc > 100 {
			t.Errorf("%s: test accuracy out of range", m[0])
		}
		for _, s := range []string{m[5], m[6]} {
			if v := atof(t, s); v < -1 || v > 1 {
				t.Errorf("%s: silhouette %v outside [-1, 1]", m[0], v)
			}
		}
	}
	if !strings.Contains(stdout, "headless: ") {
		t.Error("the headless scatter's line is missing")
	}
	if n := countCharts(t, html); n != len(lines)+1 {
		t.Errorf("%d charts, want one scatter per embedding (%d) and the interactive one", n, len(lines))
	}
}

var (
	pileupEvent      = regexp.MustCompile(`(?m)^event gg PU30 entry=(\d+): nodes=(\d+) edges=(\d+) neutral=(\d+) lv=(\d+) simulated=(\w+)$`)
	pileupNeighbours = regexp.MustCompile(`(?m)^neighbours (.+): lv_mean=(\S+) pu_mean=(\S+) auc=(\S+) lv=(\d+) pu=(\d+) no_charged=(\d+)$`)
	pileupMajority   = regexp.MustCompile(`(?m)^majority (\S+): (\S+)% of the (\d+) test neutrals are PU$`)
	pileupTrain      = regexp.MustCompile(`(?m)^train gg-pu10-pu30 (\S+): acc=(\S+) std=(\S+) bal=(\S+) auc=(\S+) runs=(\d+) majority=(\S+) quick=(\w+)$`)
	pileupPoint      = regexp.MustCompile(`(?m)^pileup (\S+) (\S+): acc=(\S+) std=(\S+) bal=(\S+) auc=(\S+) majority=(\S+) runs=(\d+) quick=(\w+) simulated=(\w+)$`)
)

func TestPileupOutputs(t *testing.T) {
	stdout, html := executed(t, "07-pileup")
	ev := pileupEvent.FindStringSubmatch(stdout)
	if ev == nil {
		t.Fatal("no event line printed")
	}
	nodes, edges, neutral, lv := atof(t, ev[2]), atof(t, ev[3]), atof(t, ev[4]), atof(t, ev[5])
	// A gg event at PU30 after the cuts: hundreds of particles, a few edges each, a minority of LV.
	if nodes < 150 || edges < nodes || neutral < 10 || neutral > nodes/2 || lv < 10 || lv > nodes/2 {
		t.Errorf("%s: implausible event", ev[0])
	}
	// The statistic separates LV from PU neutrals on every sample (the simulator's AUC is 0.65-0.70).
	lines := pileupNeighbours.FindAllStringSubmatch(stdout, -1)
	if len(lines) != 5 {
		t.Errorf("%d neighbour lines, want 5 (gg PU10; gg PU10 and PU30; gg and qq PU30)", len(lines))
	}
	for _, m := range lines {
		if atof(t, m[2]) <= atof(t, m[3]) || atof(t, m[4]) < 0.6 || atof(t, m[4]) > 0.9 {
			t.Errorf("%s: LV neutrals should see more LV charged neighbours, with an AUC in [0.6, 0.9]", m[0])
		}
	}
	for _, m := range pileupMajority.FindAllStringSubmatch(stdout, -1) {
		if v := atof(t, m[2]); v < 70 || v > 95 {
			t.Errorf("%s: at PU30 most neutrals are PU (the simulator's share is about 76-86%%)", m[0])
		}
	}
	trained := pileupTrain.FindAllStringSubmatch(stdout, -1)
	if len(trained) != 2 {
		t.Fatalf("%d training lines, want 2 (gcn, geomix1)", len(trained))
	}
	for _, m := range trained {
		acc, bal, auc, majority := atof(t, m[2]), atof(t, m[4]), atof(t, m[5]), atof(t, m[7])
		if acc < 20 || acc > 100 || bal < 30 || bal > 100 || auc < 0.3 || auc > 1 || majority < 70 {
			t.Errorf("%s: a metric out of range", m[0])
		}
	}
	points := pileupPoint.FindAllStringSubmatch(stdout, -1)
	for _, m := range points {
		if acc := atof(t, m[3]); acc < 20 || acc > 100 || m[9] != "false" || m[10] != "true" {
			t.Errorf("%s: a committed point should be a full (not quick) run on simulated events, accuracy in range", m[0])
		}
	}
	want := 4 // the event and three histograms
	if len(points) > 0 {
		want++ // the committed figure's bars
	}
	if n := countCharts(t, html); n != want {
		t.Errorf("%d charts, want %d", n, want)
	}
}

var (
	twitchRegion  = regexp.MustCompile(`(?m)^region (\w+): nodes=(\d+) edges=(\d+) homophily=(\S+) chance=(\S+) mature=(\S+)% mean_degree=(\S+) games=(\S+) games_used=(\d+) features=raw$`)
	twitchPool    = regexp.MustCompile(`(?m)^pool DE\+ENGB\+ES: nodes=(\d+) mature=(\S+)% homophily=(\S+) chance=(\S+) games=(\S+) features=raw$`)
	twitchShift   = regexp.MustCompile(`(?m)^shift (\w+): mature=(\S+)% homophily=(\S+) chance=(\S+) game_distance=(\S+) unseen_plays=(\S+)% games=(\S+) features=raw$`)
	twitchTrain   = regexp.MustCompile(`(?m)^train twitch-ood (\w+): FR=(\S+) PTBR=(\S+) RU=(\S+) in_dist_test=(\S+) val=(\S+) runs=1 epochs=(\d+) quick=(\w+) features=(\w+)$`)
	cellFeatures  = regexp.MustCompile(`(?m)^features (\S+) (\S+): twitch_features=(\w+)$`)
	twitchGroup   = regexp.MustCompile(`(?m)^group (validation-selected|script-settings): (\d+) rows with results$`)
	twitchHeadles = regexp.MustCompile(`(?m)^headless: region=(\w+)$`)
)

// twitchPublished are the MUSAE regions' users and friendships (the release's counts; FR keeps one
// row per user, 6,549).
var twitchPublished = map[string][2]int{
	"DE": {9498, 153138}, "ENGB": {7126, 35324}, "ES": {4648, 59382}, "FR": {6549, 112666},
	"PTBR": {1912, 31299}, "RU": {4385, 37304}, "TW": {2772, 63462},
}

func TestTwitchOODOutputs(t *testing.T) {
	stdout, html := executed(t, "08-twitch-ood")
	regions := twitchRegion.FindAllStringSubmatch(stdout, -1)
	if len(regions) != 7 {
		t.Fatalf("%d region lines, want 7:\n%s", len(regions), stdout)
	}
	mature := map[string]float64{}
	for _, m := range regions {
		want, ok := twitchPublished[m[1]]
		nodes, edges := atof(t, m[2]), atof(t, m[3])
		if !ok || nodes != float64(want[0]) || edges != float64(want[1]) {
			t.Errorf("%s: %v nodes and %v edges, want %v", m[1], nodes, edges, want)
		}
		h, chance, share, degree := atof(t, m[4]), atof(t, m[5]), atof(t, m[6]), atof(t, m[7])
		// Two classes: chance homophily p² + (1-p)² lies in [0.5, 1]; the mean degree is 2|E|/N.
		if h < 0 || h > 1 || chance < 0.5 || chance > 1 || share <= 0 || share >= 100 || math.Abs(degree-2*edges/nodes) > 0.006 {
			t.Errorf("%s: a statistic out of range or inconsistent", m[0])
		}
		if games := atof(t, m[8]); games < 1 || games > 3170 || atof(t, m[9]) > 3170 {
			t.Errorf("%s: game usage out of range", m[0])
		}
		mature[m[1]] = share
	}
	p := twitchPool.FindStringSubmatch(stdout)
	if p == nil {
		t.Fatal("no pool line")
	}
	// The pool's mature share is the node-weighted mean of DE's, ENGB's and ES's.
	pooled := 0.0
	for _, r := range []string{"DE", "ENGB", "ES"} {
		pooled += mature[r] * float64(twitchPublished[r][0])
	}
	pooled /= float64(twitchPublished["DE"][0] + twitchPublished["ENGB"][0] + twitchPublished["ES"][0])
	if atof(t, p[1]) != 21272 || math.Abs(atof(t, p[2])-pooled) > 0.01 {
		t.Errorf("%s: want 21272 nodes and %.2f%% mature", p[0], pooled)
	}
	shifts := twitchShift.FindAllStringSubmatch(stdout, -1)
	if len(shifts) != 6 {
		t.Fatalf("%d shift lines, want 6", len(shifts))
	}
	for _, m := range shifts {
		share, distance, unseen := atof(t, m[2]), atof(t, m[5]), atof(t, m[6])
		if share != mature[m[1]] || distance < 0 || distance > 1 || unseen < 0 || unseen > 100 {
			t.Errorf("%s: inconsistent with its region line, or out of range", m[0])
		}
		ood := m[1] == "FR" || m[1] == "PTBR" || m[1] == "RU"
		if !ood && unseen != 0 {
			t.Errorf("%s: a training region plays games its own pool never does", m[0])
		}
		// The notebook's point: the OOD regions hold far fewer mature streamers than the pool.
		if ood && share > atof(t, p[2])-10 {
			t.Errorf("%s: want at least 10 points fewer mature streamers than the pool (%s%%)", m[0], p[2])
		}
	}
	trained := twitchTrain.FindAllStringSubmatch(stdout, -1)
	if len(trained) != 2 || trained[0][1] != "erm" || trained[1][1] != "geomix2" {
		t.Fatalf("training lines %q, want erm and geomix2", trained)
	}
	for _, m := range trained {
		for _, v := range m[2:7] {
			if acc := atof(t, v); acc < 5 || acc > 100 {
				t.Errorf("%s: accuracy %v out of range", m[0], acc)
			}
		}
		if quick := m[8] == "true"; (m[7] == "50") != quick || m[9] != "raw" {
			t.Errorf("%s: quick runs 50 epochs on the raw features", m[0])
		}
	}
	if m := twitchHeadles.FindStringSubmatch(stdout); m == nil || m[1] != "FR" {
		t.Error("the headless degree chart's line is missing")
	}
	// The committed Table 3: the paper's numbers, ours in a sane range, the features of every row.
	checkTableRows(t, stdout, map[string]paperRow{
		"twitch-fr/erm":     {mean: 57.98, std: 2.41, low: 5, high: 100},
		"twitch-ptbr/erm":   {mean: 64.58, std: 0.63, low: 5, high: 100},
		"twitch-ru/geomix2": {mean: 69.95, std: 2.67, low: 5, high: 100},
	}, false)
	rows, features := tableRow.FindAllStringSubmatch(stdout, -1), cellFeatures.FindAllStringSubmatch(stdout, -1)
	columns := map[string]bool{}
	for i, m := range rows {
		columns[m[1]] = true
		if i >= len(features) || features[i][1] != m[1] || features[i][2] != m[2] || (features[i][3] != "raw" && features[i][3] != "svd128") {
			t.Errorf("%s: no features line (raw or svd128) in the same place", m[0])
		}
	}
	if len(features) != len(rows) {
		t.Errorf("%d rows and %d features lines", len(rows), len(features))
	}
	// The groups' rows add up to the rows printed, the script settings group last and complete.
	groups, inGroups := twitchGroup.FindAllStringSubmatch(stdout, -1), 0
	for _, g := range groups {
		inGroups += int(atof(t, g[2]))
	}
	if n := len(groups); n == 0 || groups[n-1][1] != "script-settings" || groups[n-1][2] != "24" || inGroups != len(rows) {
		t.Errorf("groups %v: want the script settings group last with 24 rows, %d rows in all", groups, len(rows))
	}
	// Two region charts, the shift, the slider's static chart, the training, one per column.
	if n, want := countCharts(t, html), 5+len(columns); n != want {
		t.Errorf("%d charts, want %d", n, want)
	}
}

var (
	newsDataset = regexp.MustCompile(`(?m)^dataset 20news: nodes=(\d+) edges=(\d+) features=(\d+) classes=(\d+) homophily=(\S+) chance=(\S+) mean_degree=(\S+)$`)
	newsClasses = regexp.MustCompile(`(?m)^classes 20news: (.+)$`)
	knnLine     = regexp.MustCompile(`(?m)^knn (\w+) k=(\d+): homophily=(\S+)`)
	fmnistImgs  = regexp.MustCompile(`(?m)^images fmnist: (\d+) images, (\d+) per class, 28x28 pixels in \[0, 1\]; a stand-in for STL10/CIFAR10 \(pixels, not SimCLR\)$`)
	fmnistGraph = regexp.MustCompile(`(?m)^graph fmnist k=5: nodes=(\d+) edges=(\d+) homophily=(\S+) chance=(\S+) mean_degree=(\S+) min_degree=(\d+)$`)
	standInLine = regexp.MustCompile(`(?m)^stand-in: (\d+) cells on Fashion-MNIST pixels, a stand-in for STL10/CIFAR10 \(not SimCLR\)`)
)

// news20Published are the train + test documents of the 10 newsgroups in 20news-bydate.
var news20Published = []int{799, 982, 975, 990, 999, 991, 984, 990, 987, 910}

func TestTable4Outputs(t *testing.T) {
	stdout, html := executed(t, "09-table4")
	d := newsDataset.FindStringSubmatch(stdout)
	if d == nil {
		t.Fatalf("no 20news line:\n%s", stdout)
	}
	if d[1] != "9607" || d[3] != "236" || d[4] != "10" {
		t.Errorf("%s: want 9607 documents, 236 terms, 10 classes", d[0])
	}
	// Each document links to 4 others (self counted in k = 5): between 2 and 4 edges per document.
	if edges := atof(t, d[2]); edges < 2*9607 || edges > 4*9607 || math.Abs(atof(t, d[7])-2*edges/9607) > 0.006 {
		t.Errorf("%s: edges or mean degree out of range", d[0])
	}
	c := newsClasses.FindStringSubmatch(stdout)
	if c == nil {
		t.Fatal("no classes line")
	}
	counts := regexp.MustCompile(`=(\d+)`).FindAllStringSubmatch(c[1], -1)
	chance := 0.0
	for i, m := range counts {
		if i < len(news20Published) && atoi(m[1]) != news20Published[i] {
			t.Errorf("class %d: %s documents, want %d", i, m[1], news20Published[i])
		}
	}
	for _, n := range news20Published {
		chance += math.Pow(float64(n)/9607, 2)
	}
	// Near-regular graph: the chance level is close to the class shares' Σ p².
	if len(counts) != 10 || math.Abs(atof(t, d[6])-chance) > 0.01 {
		t.Errorf("%d class counts; chance %s, want about %.3f", len(counts), d[6], chance)
	}
	knn := map[string]map[int]float64{}
	for _, m := range knnLine.FindAllStringSubmatch(stdout, -1) {
		if knn[m[1]] == nil {
			knn[m[1]] = map[int]float64{}
		}
		knn[m[1]][atoi(m[2])] = atof(t, m[3])
	}
	for _, name := range []string{"20news", "fmnist"} {
		h := knn[name]
		if len(h) != 9 || h[5] == 0 {
			t.Fatalf("%s: %d kNN lines, want 9 with k = 5", name, len(h))
		}
		// Homophily falls as farther neighbours join.
		if h[2] <= h[15] {
			t.Errorf("%s: homophily %v at k = 2, %v at k = 15; want it to fall", name, h[2], h[15])
		}
	}
	// The data set's graph is the 5-NN graph of the notebook's search.
	if knn["20news"][5] != atof(t, d[5]) {
		t.Errorf("20news: the 5-NN homophily %v differs from the data set's %s", knn["20news"][5], d[5])
	}
	im := fmnistImgs.FindStringSubmatch(stdout)
	if im == nil || atoi(im[1]) != 10*atoi(im[2]) || (im[2] != "1500" && im[2] != "200") {
		t.Fatalf("images line %q: want 10 classes of 1500 (200 in quick mode) images", im)
	}
	g := fmnistGraph.FindStringSubmatch(stdout)
	if g == nil {
		t.Fatal("no 5-NN graph line")
	}
	// Every image has its 5 nearest others: degree at least 5, at most 10 edges' worth per image.
	if n, edges := atof(t, g[1]), atof(t, g[2]); n != atof(t, im[1]) || atoi(g[6]) < 5 || edges < 2.5*n || edges > 5*n || atof(t, g[3]) != knn["fmnist"][5] {
		t.Errorf("%s: inconsistent with %d images and its kNN line", g[0], atoi(im[1]))
	}
	if h := atof(t, g[3]); h < 0.5 || h < 3*atof(t, g[4]) {
		t.Errorf("%s: the pixel 5-NN graph should be homophilous, far above chance", g[0])
	}
	if !strings.Contains(stdout, "headless: k=5") {
		t.Error("the headless class-mixing chart's line is missing")
	}
	// The committed Table 4: the paper's 20News numbers, ours in a sane range (chance is 10%).
	checkTableRows(t, stdout, map[string]paperRow{
		"20news-100/gcn":     {mean: 56.6, std: 0.3, low: 40, high: 80},
		"20news-100/geomix1": {mean: 58.6, std: 0.2, low: 40, high: 80},
		"20news-200/geomix3": {mean: 61.3, std: 0.4, low: 40, high: 80},
	}, false)
	columns, standIn := map[string]bool{}, 0
	for _, m := range tableRow.FindAllStringSubmatch(stdout, -1) {
		columns[m[1]] = true
		if strings.HasPrefix(m[1], "fmnist") {
			standIn++
			if m[7] != "none" || m[9] != "none" || m[10] != "false" {
				t.Errorf("%s: the stand-in has no paper number to compare with", m[0])
			}
			if acc := atof(t, m[3]); acc < 20 || acc > 100 {
				t.Errorf("%s: accuracy out of range", m[0])
			}
		}
	}
	if s := standInLine.FindStringSubmatch(stdout); s == nil || atoi(s[1]) != standIn {
		t.Errorf("stand-in line %q, want %d cells labelled as a stand-in", s, standIn)
	}
	// 20News: homophily and class mixing; the images; Fashion-MNIST: homophily and class mixing; a
	// chart per column with results.
	if n, want := countCharts(t, html), 5+len(columns); n != want {
		t.Errorf("%d charts, want %d", n, want)
	}
}
