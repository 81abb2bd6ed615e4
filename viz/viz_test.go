package viz_test

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/geomix-go/geomix/viz"
)

// fakeECharts writes a stand-in echarts.min.js (with the version marker viz checks) and points
// GEOMIX_ECHARTS at it; marker identifies it in rendered pages.
func fakeECharts(t *testing.T, marker string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "echarts.min.js")
	js := `/* ` + marker + ` */ var echarts = {version:"x"}; t.version="5.4.3"; "</script>";`
	if err := os.WriteFile(path, []byte(js), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv(viz.EnvECharts, path)
	return path
}

// noLocalECharts makes viz find no local asset: no GEOMIX_ECHARTS and an empty user cache.
func noLocalECharts(t *testing.T) {
	t.Setenv(viz.EnvECharts, "")
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	t.Setenv("HOME", t.TempDir())
}

func accuracyBars() viz.Bars {
	return viz.Bars{
		Title:      "test accuracy",
		YName:      "accuracy (%)",
		Categories: []string{"cora", "citeseer"},
		Series: []viz.BarSeries{
			{Name: "ours", Values: []float64{81.25, 70.5}, Errors: []float64{0.75, math.NaN()}},
			{Name: "paper", Values: []float64{83.1, math.NaN()}},
		},
	}
}

func mustChart(t *testing.T, build func() (*viz.Chart, error)) *viz.Chart {
	t.Helper()
	c, err := build()
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func TestHTMLInlinesLocalECharts(t *testing.T) {
	fakeECharts(t, "FAKE-ECHARTS-7731")
	c := mustChart(t, accuracyBars().Chart)
	page, err := c.HTML()
	if err != nil {
		t.Fatal(err)
	}
	html := string(page)
	for _, want := range []string{"FAKE-ECHARTS-7731", `"<\/script>"`, `id="` + c.ID() + `"`, "echarts.init", `"animation":false`} {
		if !strings.Contains(html, want) {
			t.Errorf("page lacks %q", want)
		}
	}
	for _, bad := range []string{"<script src=", "cdn.jsdelivr", "go-echarts-assets", "geomix-viz-notice"} {
		if strings.Contains(html, bad) {
			t.Errorf("page with a local ECharts contains %q", bad)
		}
	}
}

func TestHTMLFindsEChartsInTheCache(t *testing.T) {
	noLocalECharts(t)
	path, err := viz.CachedEChartsPath()
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(`/* CACHED-ECHARTS */ t.version="5.4.3"`), 0o644); err != nil {
		t.Fatal(err)
	}
	page, err := mustChart(t, accuracyBars().Chart).HTML()
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(page), "CACHED-ECHARTS") || strings.Contains(string(page), viz.EChartsCDN) {
		t.Errorf("page does not inline the cached %s", path)
	}
}

func TestHTMLFallsBackToCDNVisibly(t *testing.T) {
	noLocalECharts(t)
	page, err := mustChart(t, accuracyBars().Chart).HTML()
	if err != nil {
		t.Fatal(err)
	}
	html := string(page)
	if !strings.Contains(html, `s.src = '`+viz.EChartsCDN+`'`) {
		t.Error("page without a local ECharts does not load it from the CDN")
	}
	if !strings.Contains(html, "was not found locally") || !strings.Contains(html, viz.EnvECharts) {
		t.Error("page without a local ECharts does not say so visibly")
	}
}

func TestBadLocalEChartsIsAnError(t *testing.T) {
	c := mustChart(t, accuracyBars().Chart)
	missing := filepath.Join(t.TempDir(), "nope.js")
	t.Setenv(viz.EnvECharts, missing)
	if _, err := c.HTML(); err == nil || !strings.Contains(err.Error(), missing) {
		t.Errorf("missing %s: got error %v, want one naming the file", missing, err)
	}
	wrong := filepath.Join(t.TempDir(), "echarts.min.js")
	if err := os.WriteFile(wrong, []byte(`t.version="5.5.0"`), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv(viz.EnvECharts, wrong)
	if _, err := c.HTML(); err == nil || !strings.Contains(err.Error(), "5.4.3") {
		t.Errorf("ECharts 5.5.0: got error %v, want one asking for 5.4.3", err)
	}
}

// option parses a chart's option, which must be plain JSON (no JavaScript functions).
func option(t *testing.T, c *viz.Chart) map[string]any {
	t.Helper()
	var opt map[string]any
	if err := json.Unmarshal([]byte(c.Option()), &opt); err != nil {
		t.Fatalf("option is not JSON: %v\n%s", err, c.Option())
	}
	return opt
}

// seriesValues returns the "value" of each data item of series i.
func seriesValues(t *testing.T, opt map[string]any, i int) (name string, values []any) {
	t.Helper()
	s := opt["series"].([]any)[i].(map[string]any)
	for _, d := range s["data"].([]any) {
		values = append(values, d.(map[string]any)["value"])
	}
	return s["name"].(string), values
}

func TestBarsOption(t *testing.T) {
	fakeECharts(t, "x")
	opt := mustChart(t, accuracyBars().Chart).Option()
	for _, want := range []string{
		`"name":"ours","type":"bar"`, `"data":[{"value":81.25},{"value":70.5}]`,
		`"data":[{"value":83.1},{"value":"-"}]`, // NaN is a missing bar
		`"type":"custom","renderItem":function (params, api)`,
		`"data":[{"value":[0,80.5,82]}]`, // one error bar: 81.25 ± 0.75; the NaN error draws none
		`"z":3`, `"xAxis":[{"data":["cora","citeseer"]}]`,
		`"min":57`, // y axis from 70.5 - (83.1 - 70.5) = 57.9, rounded down
	} {
		if !strings.Contains(opt, want) {
			t.Errorf("bars option lacks %s:\n%s", want, opt)
		}
	}
}

func TestLinesOptionHasBands(t *testing.T) {
	c := mustChart(t, viz.Lines{
		Title: "training", XName: "epoch", YName: "accuracy",
		X: []float64{1, 2, 3},
		Series: []viz.LineSeries{
			{Name: "gcn", Y: []float64{0.5, 0.625, 0.75}, Lower: []float64{0.25, 0.5, 0.5}, Upper: []float64{0.75, 0.75, 1}},
			{Name: "bound", Y: []float64{0.875, 0.875, 0.875}, Dashed: true},
		},
	}.Chart)
	opt := option(t, c)
	want := []struct {
		name   string
		values []any
	}{
		{"gcn band low", []any{0.25, 0.5, 0.5}},
		{"gcn band width", []any{0.5, 0.25, 0.5}}, // Upper - Lower, stacked on the low line
		{"gcn", []any{0.5, 0.625, 0.75}},
		{"bound", []any{0.875, 0.875, 0.875}},
	}
	for i, w := range want {
		name, values := seriesValues(t, opt, i)
		if name != w.name || !equalAny(values, w.values) {
			t.Errorf("series %d = %q %v, want %q %v", i, name, values, w.name, w.values)
		}
	}
	if got := opt["legend"].(map[string]any)["data"]; !equalAny(got.([]any), []any{"gcn", "bound"}) {
		t.Errorf("legend = %v, want only the lines", got)
	}
	if got := opt["xAxis"].([]any)[0].(map[string]any)["data"]; !equalAny(got.([]any), []any{"1", "2", "3"}) {
		t.Errorf("x axis = %v", got)
	}
}

func TestScatterOptionGroupsByClass(t *testing.T) {
	c := mustChart(t, viz.Scatter{
		Title: "t-SNE", X: []float64{0, 1, 2, 3}, Y: []float64{0.5, 1, 0, 1}, Class: []int32{0, 1, 1, 2},
		ClassNames: []string{"a", "b", "c"},
	}.Chart)
	opt := option(t, c)
	for i, w := range [][]any{{[]any{0.0, 0.5}}, {[]any{1.0, 1.0}, []any{2.0, 0.0}}, {[]any{3.0, 1.0}}} {
		name, values := seriesValues(t, opt, i)
		if name != []string{"a", "b", "c"}[i] || !equalAny(values, w) {
			t.Errorf("series %d = %q %v, want %v", i, name, values, w)
		}
	}
}

func TestHeatmapOption(t *testing.T) {
	c := mustChart(t, viz.Heatmap{
		Title: "alpha x K", XName: "alpha", YName: "K",
		XLabels: []string{"0.1", "0.5"}, YLabels: []string{"1", "2"},
		Values: [][]float64{{80.123, 81}, {math.NaN(), 83.5}},
	}.Chart)
	opt := option(t, c)
	_, values := seriesValues(t, opt, 0)
	want := []any{[]any{0.0, 0.0, 80.12}, []any{1.0, 0.0, 81.0}, []any{1.0, 1.0, 83.5}}
	if !equalAny(values, want) {
		t.Errorf("heatmap data = %v, want %v (NaN cell dropped, values rounded)", values, want)
	}
	vm := opt["visualMap"].([]any)[0].(map[string]any)
	if vm["min"] != 80.123 && math.Abs(vm["min"].(float64)-80.123) > 1e-4 || vm["max"] != 83.5 {
		t.Errorf("visualMap range = [%v, %v], want [80.123, 83.5]", vm["min"], vm["max"])
	}
	if got := opt["xAxis"].([]any)[0].(map[string]any)["data"]; !equalAny(got.([]any), []any{"0.1", "0.5"}) {
		t.Errorf("x axis = %v", got)
	}
	// One plot area, with room under the x axis for its name above the colour scale (go-echarts
	// appends a grid per option: a second one would be ignored by ECharts).
	if grids := opt["grid"].([]any); len(grids) != 1 || grids[0].(map[string]any)["bottom"] != "110" {
		t.Errorf("grids = %v, want one with bottom 110", grids)
	}
}

func equalAny(a, b []any) bool {
	x, _ := json.Marshal(a)
	y, _ := json.Marshal(b)
	return string(x) == string(y)
}

func TestInvalidInputsAreErrors(t *testing.T) {
	for name, build := range map[string]func() (*viz.Chart, error){
		"bars length":     viz.Bars{Categories: []string{"a", "b"}, Series: []viz.BarSeries{{Name: "s", Values: []float64{1}}}}.Chart,
		"bars errors":     viz.Bars{Categories: []string{"a"}, Series: []viz.BarSeries{{Name: "s", Values: []float64{1}, Errors: []float64{1, 2}}}}.Chart,
		"bars inf":        viz.Bars{Categories: []string{"a"}, Series: []viz.BarSeries{{Name: "s", Values: []float64{math.Inf(1)}}}}.Chart,
		"bars empty":      viz.Bars{}.Chart,
		"bad id":          viz.Bars{ID: "my chart", Categories: []string{"a"}, Series: []viz.BarSeries{{Name: "s", Values: []float64{1}}}}.Chart,
		"lines length":    viz.Lines{X: []float64{1, 2}, Series: []viz.LineSeries{{Name: "s", Y: []float64{1}}}}.Chart,
		"lines half band": viz.Lines{X: []float64{1}, Series: []viz.LineSeries{{Name: "s", Y: []float64{1}, Lower: []float64{0}}}}.Chart,
		"lines band":      viz.Lines{X: []float64{1}, Series: []viz.LineSeries{{Name: "s", Y: []float64{1}, Lower: []float64{2}, Upper: []float64{1}}}}.Chart,
		"lines nan":       viz.Lines{X: []float64{1}, Series: []viz.LineSeries{{Name: "s", Y: []float64{math.NaN()}}}}.Chart,
		"scatter class":   viz.Scatter{X: []float64{1}, Y: []float64{1}, Class: []int32{3}, ClassNames: []string{"a"}}.Chart,
		"scatter length":  viz.Scatter{X: []float64{1, 2}, Y: []float64{1}, Class: []int32{0, 0}}.Chart,
		"heatmap row":     viz.Heatmap{XLabels: []string{"a", "b"}, YLabels: []string{"r"}, Values: [][]float64{{1}}}.Chart,
		"heatmap all nan": viz.Heatmap{XLabels: []string{"a"}, YLabels: []string{"r"}, Values: [][]float64{{math.NaN()}}}.Chart,
	} {
		if _, err := build(); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}

func TestRendersAreRepeatable(t *testing.T) {
	fakeECharts(t, "x")
	a, err := mustChart(t, accuracyBars().Chart).HTML()
	if err != nil {
		t.Fatal(err)
	}
	b, _ := mustChart(t, accuracyBars().Chart).HTML()
	if string(a) != string(b) {
		t.Error("the same input rendered two different pages")
	}
	other := accuracyBars()
	other.Series[0].Values[0] = 81
	if mustChart(t, other.Chart).ID() == mustChart(t, accuracyBars().Chart).ID() {
		t.Error("different data got the same default chart id")
	}
	named := accuracyBars()
	named.ID = "acc_chart"
	if id := mustChart(t, named.Chart).ID(); id != "acc_chart" {
		t.Errorf("ID = %q, want acc_chart", id)
	}
}

func TestSaveWritesAtomically(t *testing.T) {
	fakeECharts(t, "x")
	c := mustChart(t, accuracyBars().Chart)
	dir := t.TempDir()
	path := filepath.Join(dir, "acc.html")
	if err := os.WriteFile(path, []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := c.Save(path); err != nil {
		t.Fatal(err)
	}
	got, _ := os.ReadFile(path)
	want, _ := c.HTML()
	if string(got) != string(want) {
		t.Error("saved file differs from HTML()")
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("%d files in the folder after Save, want 1 (no temporary left)", len(entries))
	}
	if err := c.Save(filepath.Join(dir, "new", "acc.html")); err != nil {
		t.Errorf("Save into a new folder: %v", err)
	}
	blocker := filepath.Join(dir, "file")
	if err := os.WriteFile(blocker, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := c.Save(filepath.Join(blocker, "acc.html")); err == nil || !strings.Contains(err.Error(), blocker) {
		t.Errorf("Save below a file: got %v, want an error naming %s", err, blocker)
	}
}

func TestDisplayOutsideNotebookIsAnError(t *testing.T) {
	c := mustChart(t, accuracyBars().Chart)
	if err := c.Display(); err == nil || !strings.Contains(err.Error(), "GoNB") {
		t.Errorf("Display outside GoNB: got %v, want an error saying it needs GoNB", err)
	}
	if err := c.Update("block1"); err == nil || !strings.Contains(err.Error(), "GoNB") {
		t.Errorf("Update outside GoNB: got %v, want an error saying it needs GoNB", err)
	}
	if err := c.Update(""); err == nil {
		t.Error("Update without a display id: no error")
	}
}

// A band below zero is drawn shifted up (ECharts 5.4 stacks negative values apart), and the axis
// labels subtract the same offset again.
func TestLinesShiftNegativeBands(t *testing.T) {
	c := mustChart(t, viz.Lines{
		Title: "theorem", X: []float64{1, 2},
		Series: []viz.LineSeries{{Name: "mean", Y: []float64{-0.5, 0.25}, Lower: []float64{-1, 0}, Upper: []float64{0, 0.5}}},
	}.Chart)
	// low + 1, width, y + 1
	for _, want := range []string{`"data":[{"value":0},{"value":1}]`, `"data":[{"value":1},{"value":0.5}]`, `"data":[{"value":0.5},{"value":1.25}]`} {
		if !strings.Contains(c.Option(), want) {
			t.Errorf("option lacks %s:\n%s", want, c.Option())
		}
	}
	html, err := c.HTML()
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(html), "return +(v - 1).toPrecision(6)") {
		t.Error("the y axis labels do not undo the offset of 1")
	}
}

// The inlined library runs where an AMD loader's define is hidden, so it always sets window.echarts,
// and it is skipped when the page already has this version.
func TestInlinedEChartsIgnoresAMD(t *testing.T) {
	fakeECharts(t, "FAKE-ECHARTS-7731")
	page, err := mustChart(t, accuracyBars().Chart).HTML()
	if err != nil {
		t.Fatal(err)
	}
	html := string(page)
	for _, want := range []string{
		"if (!(window.echarts && window.echarts.version === '5.4.3')) (function (define, exports, module) {\n/* FAKE-ECHARTS-7731 */",
		"\n}).call(window);\n</script>",
	} {
		if !strings.Contains(html, want) {
			t.Errorf("page lacks %q", want)
		}
	}
}

func TestUpdateIDIsStableAndItsOwn(t *testing.T) {
	c := mustChart(t, accuracyBars().Chart)
	a, b := c.UpdateID("tsne_1"), c.UpdateID("tsne_2")
	if a == c.ID() || a == b || !strings.HasPrefix(a, c.ID()+"_") {
		t.Errorf("UpdateID: %q and %q for chart %q, want two new ids starting with the chart's", a, b, c.ID())
	}
	if again := mustChart(t, accuracyBars().Chart).UpdateID("tsne_1"); again != a {
		t.Errorf("UpdateID of the same chart and block: %q then %q", a, again)
	}
}

// negativeBars has a bar below zero, as 01-theory's class separation at low homophily.
func negativeBars() viz.Bars {
	return viz.Bars{Title: "separation", Categories: []string{"p = 0.1", "p = 0.5", "p = 1"},
		Series: []viz.BarSeries{{Name: "λ", Values: []float64{-0.6, -0.2, 1}}}}
}

func TestBarsAxisShowsNegativeValues(t *testing.T) {
	opt := option(t, mustChart(t, negativeBars().Chart))
	y := opt["yAxis"].([]any)[0].(map[string]any)
	if m, ok := y["min"]; ok {
		t.Errorf("y axis of bars down to -0.6 starts at %v, want it scaled to the data (no min)", m)
	}
	// An error bar reaching below zero counts too; a bar at exactly zero keeps the axis at zero.
	low := viz.Bars{Title: "x", Categories: []string{"a"}, Series: []viz.BarSeries{{Name: "s", Values: []float64{0.5}, Errors: []float64{1}}}}
	if opt := mustChart(t, low.Chart).Option(); !strings.Contains(opt, `"yAxis":[{}]`) {
		t.Errorf("error bar down to -0.5: want a y axis without min:\n%s", opt)
	}
	zero := viz.Bars{Title: "x", Categories: []string{"a", "b"}, Series: []viz.BarSeries{{Name: "s", Values: []float64{0, 3}}}}
	if y := option(t, mustChart(t, zero.Chart))["yAxis"].([]any)[0].(map[string]any); y["min"] != 0.0 {
		t.Errorf("bars 0 and 3: y axis min %v, want 0", y["min"])
	}
}
