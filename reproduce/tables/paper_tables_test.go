package tables

import (
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// paperPath is the paper's .tex: $GEOMIX_PAPER, else the shared copy beside the repository.
func paperPath() string {
	if p := os.Getenv("GEOMIX_PAPER"); p != "" {
		return p
	}
	return filepath.Join("..", "..", "..", "shared", "paper", "geomix-kdd24.tex")
}

var (
	statRE     = regexp.MustCompile(`(\d+\.\d+) ± (\d+\.\d+)`)
	relRE      = regexp.MustCompile(`\((-?\d+\.\d+)\\%\)`)
	multirowRE = regexp.MustCompile(`\\multirow\{\d+\}\{\*\}\{\\textbf\{(\w+)\}\}`)
)

// parsedTable is what the test reads back from the .tex: cells[method][dataset] and Table 5's Δ.
type parsedTable struct {
	cells map[string]map[string]Stat
	rel   map[string]map[string]float64
}

// tabularRows returns the rows (split on \\) of the tabular of the table labelled label.
func tabularRows(t *testing.T, tex, label string) []string {
	t.Helper()
	i := strings.Index(tex, `\label{`+label+`}`)
	if i < 0 {
		t.Fatalf("label %q not in the paper", label)
	}
	body := tex[i:]
	body = body[:strings.Index(body, `\end{tabular}`)]
	return strings.Split(body, `\\`)
}

// methodID maps a printed row name back to our method id.
func methodID(t *testing.T, printed string) string {
	t.Helper()
	name := strings.TrimSpace(strings.ReplaceAll(printed, `\ours`, "GeoMix"))
	for id, n := range MethodNames {
		if n == name {
			return id
		}
	}
	t.Fatalf("row name %q is not a known method", name)
	return ""
}

// parseTable re-reads one table of the .tex independently of the transcription in paper.go.
func parseTable(t *testing.T, tex string, pt *PaperTable) parsedTable {
	t.Helper()
	out := parsedTable{cells: map[string]map[string]Stat{}, rel: map[string]map[string]float64{}}
	lastMethod, dataset := "", ""
	for _, row := range tabularRows(t, tex, pt.Label) {
		cols := strings.Split(row, "&")
		if len(cols) < 2 {
			continue
		}
		if m := relRE.FindAllStringSubmatch(row, -1); len(m) > 0 && strings.Contains(cols[0], `\Delta`) {
			out.rel[lastMethod] = map[string]float64{}
			for i, v := range m {
				out.rel[lastMethod][pt.Datasets[i]], _ = strconv.ParseFloat(v[1], 64)
			}
			continue
		}
		stats := statRE.FindAllStringSubmatch(row, -1)
		if len(stats) == 0 {
			continue
		}
		put := func(method, dataset string, s []string) {
			mean, _ := strconv.ParseFloat(s[1], 64)
			std, _ := strconv.ParseFloat(s[2], 64)
			if out.cells[method] == nil {
				out.cells[method] = map[string]Stat{}
			}
			out.cells[method][dataset] = Stat{mean, std}
		}
		if pt.ID == "table4" { // rows are data sets × label counts, columns are methods
			if m := multirowRE.FindStringSubmatch(cols[0]); m != nil {
				dataset = strings.ToLower(m[1])
			}
			col := dataset + "-" + strings.TrimSpace(cols[1])
			for i, s := range stats {
				put(pt.Methods[i], col, s)
			}
			continue
		}
		lines := strings.Split(strings.TrimSpace(cols[0]), "\n") // drop \midrule and the like
		lastMethod = methodID(t, lines[len(lines)-1])
		if len(stats) != len(pt.Datasets) {
			t.Fatalf("%s row %q: %d cells, want %d", pt.ID, lastMethod, len(stats), len(pt.Datasets))
		}
		for i, s := range stats {
			put(lastMethod, pt.Datasets[i], s)
		}
	}
	return out
}

// TestPaperMatchesTex re-parses Tables 2-5 from the paper's .tex and compares every cell (and Table
// 5's printed relative changes) with the transcription.
func TestPaperMatchesTex(t *testing.T) {
	data, err := os.ReadFile(paperPath())
	if err != nil {
		t.Skipf("paper .tex not available (set GEOMIX_PAPER to geomix-kdd24.tex): %v", err)
	}
	tex := string(data)
	for _, pt := range PaperTables() {
		got := parseTable(t, tex, pt)
		n := 0
		for m, row := range got.cells {
			for d, s := range row {
				n++
				if want, ok := pt.Cell(m, d); !ok || want != s {
					t.Errorf("%s %s/%s: .tex prints %v, transcription has %v (present=%v)", pt.ID, m, d, s, want, ok)
				}
			}
		}
		if want := len(pt.Methods) * len(pt.Datasets); n != want {
			t.Errorf("%s: parsed %d cells from the .tex, transcription has %d", pt.ID, n, want)
		}
		for m, row := range got.rel {
			for d, v := range row {
				if pt.RelChange[m][d] != v {
					t.Errorf("%s Δ %s/%s: .tex prints %v, transcription has %v", pt.ID, m, d, v, pt.RelChange[m][d])
				}
			}
		}
		if len(got.rel) != len(pt.RelChange) {
			t.Errorf("%s: parsed Δ rows %v, transcription has %d", pt.ID, got.rel, len(pt.RelChange))
		}
	}
}

// TestPaperSpotChecks checks hand-read cells of every table (no .tex needed).
func TestPaperSpotChecks(t *testing.T) {
	for _, c := range []struct {
		table, method, dataset string
		want                   Stat
	}{
		{"table2", "gcn", "cora", Stat{81.63, 0.45}},
		{"table2", "geomix3", "cora", Stat{84.22, 0.85}},
		{"table2", "geomix2", "chameleon", Stat{42.67, 2.44}},
		{"table2", "glognn", "physics", Stat{92.79, 0.67}},
		{"table3", "dann", "twitch-fr", Stat{52.16, 5.29}},
		{"table3", "geomix2", "twitch-ru", Stat{69.95, 2.67}},
		{"table4", "mlp", "stl10-10", Stat{66.6, 0.8}},
		{"table4", "geomix1", "20news-200", Stat{61.5, 0.4}},
		{"table4", "graphmixup", "cifar10-10", Stat{69.7, 1.4}},
		{"table5", "nolocality", "squirrel", Stat{38.3, 1.6}},
		{"table5", "randommix", "citeseer", Stat{69.8, 1.3}},
	} {
		pt, err := Paper(c.table)
		if err != nil {
			t.Fatal(err)
		}
		if got, ok := pt.Cell(c.method, c.dataset); !ok || got != c.want {
			t.Errorf("%s %s/%s = %v (present=%v), want %v", c.table, c.method, c.dataset, got, ok, c.want)
		}
	}
	if _, err := Paper("table9"); err == nil {
		t.Error("Paper(table9) returned no error")
	}
}

// TestPaperTable5RelativeChange recomputes Table 5's printed Δ from its printed means: the paper's
// Δ is 100·(mean − GeoMix-I)/GeoMix-I, rounded to two decimals (e.g. (82.1−84.1)/84.1 = −2.378%).
func TestPaperTable5RelativeChange(t *testing.T) {
	pt, _ := Paper("table5")
	if got := RelativeChange(82.1, 84.1); math.Abs(got-(-2.3781212842)) > 1e-9 {
		t.Errorf("RelativeChange(82.1, 84.1) = %v, want -2.3781212842", got)
	}
	for m, row := range pt.RelChange {
		for d, printed := range row {
			s, _ := pt.Cell(m, d)
			ref, _ := pt.Cell("geomix1", d)
			if got := RelativeChange(s.Mean, ref.Mean); math.Abs(got-printed) > 0.005+1e-9 {
				t.Errorf("Δ %s/%s: recomputed %.4f, printed %.2f", m, d, got, printed)
			}
		}
	}
}

// TestPaperTable5RoundsTable2 checks that Table 5's GCN and GeoMix-I rows are Table 2's rounded to
// one decimal, as printed.
func TestPaperTable5RoundsTable2(t *testing.T) {
	t2, _ := Paper("table2")
	t5, _ := Paper("table5")
	for _, m := range []string{"gcn", "geomix1"} {
		for _, d := range t5.Datasets {
			a, _ := t2.Cell(m, d)
			b, _ := t5.Cell(m, d)
			if math.Abs(a.Mean-b.Mean) > 0.05+1e-9 || math.Abs(a.Std-b.Std) > 0.05+1e-9 {
				t.Errorf("%s/%s: Table 2 %v does not round to Table 5 %v", m, d, a, b)
			}
		}
	}
}

// TestNamesCoverTables checks every row and column id of every table has a printed name.
func TestNamesCoverTables(t *testing.T) {
	for _, pt := range PaperTables() {
		for _, m := range pt.Methods {
			if MethodNames[m] == "" {
				t.Errorf("%s: method %q has no name", pt.ID, m)
			}
		}
		for _, d := range pt.Datasets {
			if DatasetNames[d] == "" {
				t.Errorf("%s: dataset %q has no name", pt.ID, d)
			}
		}
	}
}
