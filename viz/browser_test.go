package viz_test

import (
	"context"
	"fmt"
	"image"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
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

// screenshot saves c as a page and renders it with headless Chromium, with every host name
// unresolvable so that a page needing the CDN fails as it would offline.
func screenshot(t *testing.T, chromium string, c *viz.Chart) image.Image {
	t.Helper()
	dir := t.TempDir()
	page, shot := filepath.Join(dir, "chart.html"), filepath.Join(dir, "chart.png")
	if err := c.Save(page); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, chromium, "--headless", "--no-sandbox", "--disable-gpu",
		"--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run",
		"--host-resolver-rules=MAP * ~NOTFOUND", "--user-data-dir="+filepath.Join(dir, "profile"),
		"--screenshot="+shot, "--window-size=1000,700", "file://"+page)
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
func barsDrawn(img image.Image) error {
	for _, colour := range viz.Palette[:2] {
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
