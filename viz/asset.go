package viz

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
)

const (
	// EnvECharts names the environment variable that points at a local echarts.min.js (ECharts
	// 5.4.3). When unset, viz looks in CachedEChartsPath.
	EnvECharts = "GEOMIX_ECHARTS"

	// EChartsVersion is the ECharts release go-echarts v2.6.7 targets; the local asset must be it.
	EChartsVersion = "5.4.3"

	// EChartsCDN is where a page loads ECharts from when no local copy exists (it then needs internet).
	EChartsCDN = "https://cdn.jsdelivr.net/npm/echarts@" + EChartsVersion + "/dist/echarts.min.js"
)

// CachedEChartsPath is where the set-up step (scripts/notebooks.sh, which runs
// `npm install --prefix <dir> echarts@5.4.3`) puts ECharts:
// <os.UserCacheDir()>/geomix/echarts-5.4.3/node_modules/echarts/dist/echarts.min.js.
func CachedEChartsPath() (string, error) {
	cache, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("viz: no user cache directory to look for ECharts in: %w", err)
	}
	return filepath.Join(cache, "geomix", "echarts-"+EChartsVersion, "node_modules", "echarts", "dist", "echarts.min.js"), nil
}

// loadECharts returns the contents of the local echarts.min.js, or nil (and no error) when there
// is none, in which case pages fall back to EChartsCDN. A file named by EnvECharts that is missing,
// unreadable or not ECharts 5.4.3 is an error.
func loadECharts() ([]byte, error) {
	path, explicit := os.LookupEnv(EnvECharts)
	if !explicit || path == "" {
		cached, err := CachedEChartsPath()
		if err != nil {
			return nil, nil
		}
		if _, err := os.Stat(cached); err != nil {
			return nil, nil
		}
		path = cached
	}
	js, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("viz: reading ECharts from %s (set by %s or the cache): %w", path, EnvECharts, err)
	}
	if !bytes.Contains(js, []byte(`version="`+EChartsVersion+`"`)) {
		return nil, fmt.Errorf("viz: %s is not echarts.min.js version %s, which go-echarts v2.6.7 targets", path, EChartsVersion)
	}
	return js, nil
}

// scriptTags returns the HTML that makes the global `echarts` available: the inlined library, or a
// loader of the CDN copy and a visible notice saying the page needs internet.
//
// Pages with an AMD loader (RequireJS: the classic Jupyter Notebook, nbconvert's HTML export) would
// make the UMD library register an AMD module instead of the global, so the library runs where
// `define`, `exports` and `module` are undefined: in a function taking them as (absent) parameters
// when inlined, with window.define hidden until the download ends when loaded from the CDN. The
// inlined copy is skipped when the page already holds ECharts EChartsVersion (a notebook redrawing a
// chart). Chart scripts wait for the global (see chartScript).
func scriptTags() (script, notice string, err error) {
	js, err := loadECharts()
	if err != nil {
		return "", "", err
	}
	if js == nil {
		script = "<script>(function () {\n" +
			"  if (window.echarts) { return; }\n" +
			"  var amd = window.define, s = document.createElement('script');\n" +
			"  window.define = undefined;\n" +
			"  s.onload = s.onerror = function () { if (window.define === undefined) { window.define = amd; } };\n" +
			"  s.src = '" + EChartsCDN + "';\n" +
			"  document.head.appendChild(s);\n" +
			"})();</script>"
		notice = `<p class="geomix-viz-notice" style="font:14px sans-serif;border:1px solid #999;padding:6px">` +
			`ECharts ` + EChartsVersion + ` was not found locally (set ` + EnvECharts + ` to an echarts.min.js, or run ` +
			`scripts/notebooks.sh, which installs it with npm); this chart loads it from ` + EChartsCDN +
			` and stays blank without internet.</p>`
		return script, notice, nil
	}
	// A literal "</script" inside the library would end the inline element early.
	js = bytes.ReplaceAll(js, []byte("</script"), []byte(`<\/script`))
	return "<script>/* ECharts " + EChartsVersion + ", inlined; sets window.echarts even where an AMD loader defines `define` */\n" +
		"if (!(window.echarts && window.echarts.version === '" + EChartsVersion + "')) (function (define, exports, module) {\n" +
		string(js) + "\n}).call(window);\n</script>", "", nil
}
