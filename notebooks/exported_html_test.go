package notebooks_test

import (
	"context"
	"encoding/json"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/geomix-go/geomix/internal/cdp"
)

// openExports returns the HTML exports scripts/notebooks.sh wrote and a headless Chromium to open
// them in (closed when the test ends), skipping the test when there are none or no chromium.
func openExports(t *testing.T) ([]string, *cdp.Browser) {
	t.Helper()
	pages, err := filepath.Glob(filepath.Join(executedDir, "*.html"))
	if err != nil || len(pages) == 0 {
		t.Skipf("no HTML export in %s: run scripts/notebooks.sh first (GEOMIX_QUICK=1 for a short run)", executedDir)
	}
	chromium, err := exec.LookPath("chromium")
	if err != nil {
		t.Skip("no chromium on PATH: `apt-get install -y chromium` (scripts/test.sh does, as root) to check the HTML exports")
	}
	b, err := cdp.Launch(chromium, filepath.Join(t.TempDir(), "profile"), nil, "--window-size=1280,1000")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { b.Close() })
	return pages, b
}

// openPage opens the file path in b, with a minute for the test to use it.
func openPage(t *testing.T, b *cdp.Browser, path string) (context.Context, *cdp.Page) {
	t.Helper()
	abs, err := filepath.Abs(path)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	t.Cleanup(cancel)
	page, err := b.NewPage(ctx, "file://"+abs)
	if err != nil {
		t.Fatal(err)
	}
	return ctx, page
}

// TestExportedHTMLChartsDraw opens each HTML export that scripts/notebooks.sh wrote (nbconvert's
// template loads RequireJS where it is installed, as Debian's libjs-requirejs) in headless Chromium and
// checks that every chart on it is drawn.
func TestExportedHTMLChartsDraw(t *testing.T) {
	pages, b := openExports(t)
	for _, path := range pages {
		t.Run(filepath.Base(path), func(t *testing.T) {
			ctx, page := openPage(t, b, path)
			status := chartStatsJS + `;
				JSON.stringify({amd: typeof define === 'function' && !!define.amd, ready: document.readyState === 'complete',
					charts: Array.prototype.map.call(document.querySelectorAll('.geomix-chart'), geomixChartStats)})`
			var got struct {
				AMD, Ready bool
				Charts     []liveChart
			}
			for {
				var raw string
				if err := page.Eval(ctx, status, &raw); err != nil {
					t.Fatal(err)
				}
				if err := json.Unmarshal([]byte(raw), &got); err != nil {
					t.Fatal(err)
				}
				drawn := 0
				for i, c := range got.Charts {
					if strings.Contains(c.Text, "cannot be drawn") {
						t.Fatalf("chart %d of %d: %s (page errors: %q)", i, len(got.Charts), c.Text, page.Errors())
					}
					if c.Pixels >= minSeriesPixels {
						drawn++
					}
				}
				if got.Ready && len(got.Charts) > 0 && drawn == len(got.Charts) {
					break
				}
				if ctx.Err() != nil {
					t.Fatalf("%d of %d charts drawn (page loaded: %v; errors: %q)", drawn, len(got.Charts), got.Ready, page.Errors())
				}
				time.Sleep(500 * time.Millisecond)
			}
			t.Logf("%d charts drawn, fewest series pixels %d; AMD loader on the page: %v", len(got.Charts), fewestPixels([]liveCell{{Charts: got.Charts}}), got.AMD)
		})
	}
}
