package viz_test

import (
	"context"
	"encoding/json"
	"fmt"
	"image"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/geomix-go/geomix/viz"
)

// chromiumPath returns a headless-capable Chromium, or skips the test.
func chromiumPath(t *testing.T) string {
	t.Helper()
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if path, err := exec.LookPath(name); err == nil {
			return path
		}
	}
	t.Skip("no chromium on PATH: `apt-get install -y chromium` to run the real-browser chart test")
	return ""
}

// requireLocalECharts skips the test when viz has no local ECharts to inline.
func requireLocalECharts(t *testing.T) {
	t.Helper()
	path := os.Getenv(viz.EnvECharts)
	if path == "" {
		path, _ = viz.CachedEChartsPath()
	}
	if _, err := os.Stat(path); err != nil {
		t.Skipf("no local ECharts at %q: run scripts/notebooks.sh (or npm install echarts@5.4.3 there) for the real-browser test", path)
	}
}

// screenshot saves c as a page and renders it with headless Chromium (see screenshotPage).
func screenshot(t *testing.T, chromium string, c *viz.Chart) image.Image {
	t.Helper()
	html, err := c.HTML()
	if err != nil {
		t.Fatal(err)
	}
	return screenshotPage(t, chromium, html, 700)
}

// screenshotPage renders html with headless Chromium in a window 1000 pixels wide and height high,
// with every host name unresolvable so that a page needing the CDN fails as it would offline.
func screenshotPage(t *testing.T, chromium string, html []byte, height int) image.Image {
	t.Helper()
	dir := t.TempDir()
	page, shot := filepath.Join(dir, "chart.html"), filepath.Join(dir, "chart.png")
	if err := os.WriteFile(page, html, 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, chromium, "--headless", "--no-sandbox", "--disable-gpu",
		"--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run",
		"--host-resolver-rules=MAP * ~NOTFOUND", "--user-data-dir="+filepath.Join(dir, "profile"),
		"--screenshot="+shot, fmt.Sprintf("--window-size=1000,%d", height), "file://"+page)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%s: %v\n%s", chromium, err, out)
	}
	f, err := os.Open(shot)
	if err != nil {
		t.Fatalf("chromium wrote no screenshot: %v", err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatalf("decoding %s: %v", shot, err)
	}
	return img
}

// pixelsNear counts the pixels within 12 of hex colour "#rrggbb" on every channel.
func pixelsNear(img image.Image, hex string) int {
	v, _ := strconv.ParseUint(hex[1:], 16, 32)
	want := [3]int{int(v >> 16), int(v >> 8 & 0xff), int(v & 0xff)}
	n := 0
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			r, g, bl, _ := img.At(x, y).RGBA()
			got := [3]int{int(r >> 8), int(g >> 8), int(bl >> 8)}
			near := true
			for i := range got {
				near = near && got[i] >= want[i]-12 && got[i] <= want[i]+12
			}
			if near {
				n++
			}
		}
	}
	return n
}

// distinctColours counts the different colours in img.
func distinctColours(img image.Image) int {
	seen := map[[4]uint32]bool{}
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			r, g, bl, a := img.At(x, y).RGBA()
			seen[[4]uint32{r, g, bl, a}] = true
		}
	}
	return len(seen)
}

// barsDrawn says whether both series' bars of accuracyBars are on the screenshot: each bar series
// fills tens of thousands of pixels at 1000x700, text and axes almost none of those colours.
func barsDrawn(img image.Image) error { return seriesDrawn(img, 2) }

// seriesDrawn says whether the bars of the first n series fill >= 5000 pixels each of img.
func seriesDrawn(img image.Image, n int) error {
	for _, colour := range viz.Palette[:n] {
		if n := pixelsNear(img, colour); n < 5000 {
			return fmt.Errorf("%d pixels of bar colour %s, want >= 5000 (%d distinct colours on the page)", n, colour, distinctColours(img))
		}
	}
	return nil
}

func TestChromiumDrawsInlinedChart(t *testing.T) {
	chromium := chromiumPath(t)
	requireLocalECharts(t)
	img := screenshot(t, chromium, mustChart(t, accuracyBars().Chart))
	if err := barsDrawn(img); err != nil {
		t.Errorf("inlined chart not drawn: %v", err)
	}
	t.Logf("bar pixels %d and %d, %d distinct colours", pixelsNear(img, viz.Palette[0]), pixelsNear(img, viz.Palette[1]), distinctColours(img))
	if n := distinctColours(img); n < 20 {
		t.Errorf("%d distinct colours, want a drawn chart (>= 20: bars, anti-aliased text and lines)", n)
	}
}

func TestChromiumBlankPagesAreDetected(t *testing.T) {
	chromium := chromiumPath(t)
	t.Run("CDN offline", func(t *testing.T) {
		noLocalECharts(t)
		if err := barsDrawn(screenshot(t, chromium, mustChart(t, accuracyBars().Chart))); err == nil {
			t.Error("a page whose ECharts CDN is unreachable passed as drawn")
		}
	})
	t.Run("broken asset", func(t *testing.T) {
		fakeECharts(t, "not really ECharts")
		if err := barsDrawn(screenshot(t, chromium, mustChart(t, accuracyBars().Chart))); err == nil {
			t.Error("a page whose ECharts is broken passed as drawn")
		}
	})
}

// A page whose AMD loader defines `define` (as RequireJS in the classic Notebook and nbconvert's
// HTML export) before the inlined UMD library runs still gets the global echarts and draws.
func TestChromiumDrawsUnderAMDLoader(t *testing.T) {
	chromium := chromiumPath(t)
	requireLocalECharts(t)
	html, err := mustChart(t, accuracyBars().Chart).HTML()
	if err != nil {
		t.Fatal(err)
	}
	const amd = `<script>var amdModules = []; function define() { amdModules.push(arguments); } define.amd = {};</script>`
	page := strings.Replace(string(html), "<head>", "<head>\n"+amd, 1)
	if page == string(html) {
		t.Fatal("the page has no <head> to put the AMD loader in")
	}
	if err := barsDrawn(screenshotPage(t, chromium, []byte(page), 700)); err != nil {
		t.Errorf("chart under an AMD loader not drawn: %v", err)
	}
}

// The same chart shown twice on one page (one element id twice, as a static chart and its
// interactive copy in a notebook) draws into two elements, not twice into the first.
func TestChromiumDrawsTwoChartsWithOneID(t *testing.T) {
	chromium := chromiumPath(t)
	requireLocalECharts(t)
	c := mustChart(t, accuracyBars().Chart)
	html, err := c.HTML()
	if err != nil {
		t.Fatal(err)
	}
	body := c.Body(c.ID())
	page := strings.Replace(string(html), body, body+body, 1)
	if page == string(html) {
		t.Fatal("the page does not hold the chart's body")
	}
	img := screenshotPage(t, chromium, []byte(page), 1100)
	b := img.Bounds()
	for i, half := range []image.Rectangle{image.Rect(b.Min.X, b.Min.Y, b.Max.X, b.Min.Y+520), image.Rect(b.Min.X, b.Min.Y+520, b.Max.X, b.Max.Y)} {
		if err := barsDrawn(subImage(img, half)); err != nil {
			t.Errorf("chart %d of 2: %v", i+1, err)
		}
	}
}

// A bar below zero is drawn beside positive ones: the y axis reaches down to it.
func TestChromiumDrawsNegativeBars(t *testing.T) {
	chromium := chromiumPath(t)
	requireLocalECharts(t)
	bars := viz.Bars{Title: "separation", Categories: []string{"p = 0.1", "p = 0.5", "p = 1"},
		Series: []viz.BarSeries{{Name: "λ", Values: []float64{-0.6, 0.5, 1}}}}
	img := screenshot(t, chromium, mustChart(t, bars.Chart))
	// The plot area spans x 120-910 of the 1000-pixel page: its left third holds the first bar only.
	first := subImage(img, image.Rect(120, 0, 383, img.Bounds().Max.Y))
	if n := pixelsNear(first, viz.Palette[0]); n < 5000 {
		t.Errorf("bar at -0.6 not drawn: %d pixels of its colour, want >= 5000", n)
	}
}

// subImage is img cropped to r.
func subImage(img image.Image, r image.Rectangle) image.Image {
	return img.(interface {
		SubImage(image.Rectangle) image.Image
	}).SubImage(r)
}

// Notebook outputs rendered the way JupyterLab renders HTML (innerHTML into a detached node, each
// script replaced by a fresh copy, then the node attached), twice for the same chart and with an AMD
// loader on the page, both draw.
func TestChromiumDrawsJupyterLabStyleOutputs(t *testing.T) {
	chromium := chromiumPath(t)
	requireLocalECharts(t)
	c := mustChart(t, accuracyBars().Chart)
	output, err := c.Output(c.ID())
	if err != nil {
		t.Fatal(err)
	}
	js, err := json.Marshal(output)
	if err != nil {
		t.Fatal(err)
	}
	page := `<!DOCTYPE html><html><head><meta charset="utf-8">
<script>function define() {} define.amd = {};</script></head><body style="margin:0"><script>
function render(html) {
  var host = document.createElement('div');
  host.innerHTML = html;
  host.querySelectorAll('script').forEach(function (old) {
    var s = document.createElement('script');
    s.text = old.textContent;
    old.parentNode.replaceChild(s, old);
  });
  document.body.appendChild(host);
}
render(` + string(js) + `);
render(` + string(js) + `);
</script></body></html>`
	img := screenshotPage(t, chromium, []byte(page), 1100)
	b := img.Bounds()
	for i, half := range []image.Rectangle{image.Rect(b.Min.X, b.Min.Y, b.Max.X, b.Min.Y+520), image.Rect(b.Min.X, b.Min.Y+520, b.Max.X, b.Max.Y)} {
		if err := barsDrawn(subImage(img, half)); err != nil {
			t.Errorf("output %d of 2: %v", i+1, err)
		}
	}
}
