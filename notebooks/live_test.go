package notebooks_test

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/geomix-go/geomix/internal/atomicfile"
	"github.com/geomix-go/geomix/internal/cdp"
	"github.com/geomix-go/geomix/viz"
)

// liveNotebook is the notebook the live test runs whole in a browser.
const liveNotebook = "01-theory.ipynb"

// TestLiveNotebookInBrowser opens 01-theory in Debian's classic Jupyter Notebook (which loads
// RequireJS) with the GoNB kernel, served on loopback, in headless Chromium driven through the
// DevTools protocol, as a student would: it runs every cell, checks that every cell that shows a chart
// shows a drawn one (a canvas with series colours on it), then moves the first slider of the
// interactive cell and checks that its readout and its chart change. When GoNB's front end misses the
// kernel's comm handshake (it allows 500 ms), it restarts the kernel and runs all again, at most
// maxHandshakeRetries times, as a student would. It runs in quick mode
// (GEOMIX_QUICK=1) and skips only when chromium or the notebook server cannot be installed.
func TestLiveNotebookInBrowser(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: the live notebook test needs a browser and a notebook server")
	}
	chromium, err := exec.LookPath("chromium")
	if err != nil {
		t.Skip("no chromium on PATH: `apt-get install -y chromium` (scripts/test.sh does, as root) to run the live notebook test")
	}
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	jupyter := liveSetup(t, root)
	echartsJS := os.Getenv(viz.EnvECharts)
	if echartsJS == "" {
		if echartsJS, err = viz.CachedEChartsPath(); err != nil {
			t.Fatal(err)
		}
	}

	source := filepath.Join(root, "notebooks", liveNotebook)
	original, err := os.ReadFile(source)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { // the page never saves; should anything write the notebook, put it back
		if now, err := os.ReadFile(source); err != nil || !bytes.Equal(now, original) {
			t.Errorf("%s changed during the live test; restored", source)
			if err := os.WriteFile(source, original, 0o644); err != nil {
				t.Error(err)
			}
		}
	})

	base := startNotebookServer(t, jupyter, root, echartsJS)
	b, err := cdp.Launch(chromium, filepath.Join(t.TempDir(), "profile"), nil, "--window-size=1280,1000")
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	page, err := b.NewPage(ctx, base.url("/notebooks/"+liveNotebook))
	if err != nil {
		t.Fatal(err)
	}
	defer func() {
		for _, e := range page.Errors() {
			t.Logf("page: %s", e)
		}
		// What the student sees of the last cell, for a look after a failure.
		shot := filepath.Join(root, "build", "notebooks", "live-"+strings.TrimSuffix(liveNotebook, ".ipynb")+".png")
		page.Eval(context.Background(), `Jupyter.notebook.get_cells()[Jupyter.notebook.ncells() - 1].output_area.element[0].scrollIntoView()`, nil)
		if png, err := page.Screenshot(context.Background()); err != nil {
			t.Logf("screenshot: %v", err)
		} else if err := atomicfile.Write(shot, func(w io.Writer) error { _, err := w.Write(png); return err }); err != nil {
			t.Logf("screenshot: %v", err)
		} else {
			t.Logf("the page as the test left it: %s", shot)
		}
	}()

	start := time.Now()
	waitFor(ctx, t, page, "the notebook and its GoNB kernel", `!!(window.Jupyter && Jupyter.notebook && Jupyter.notebook._fully_loaded &&
		Jupyter.notebook.kernel && Jupyter.notebook.kernel.is_connected())`)
	if err := page.Eval(ctx, `Jupyter.notebook.set_autosave_interval(0); Jupyter.notebook.clear_all_output();
		Jupyter.notebook.execute_all_cells(); true`, nil); err != nil {
		t.Fatal(err)
	}
	if err := page.Eval(ctx, liveStatusJS, nil); err != nil {
		t.Fatal(err)
	}

	// Run all: every cell but the interactive last one finishes, the last shows its sliders, and
	// every chart is drawn.
	var cells []liveCell
	for retries, since := 0, start; ; {
		cells = liveStatus(ctx, t, page)
		ready, why := allDrawn(cells)
		if ready {
			break
		}
		if missed := handshakeTimeouts(page); missed > retries && retries < maxHandshakeRetries {
			retries++
			t.Logf("after %s: GoNB's front end gave up on the kernel's comm_open_ack (it waits 500 ms; a loaded machine can miss that), so the sliders cannot talk to the kernel: restarting the kernel and running all cells again (retry %d of %d)",
				time.Since(start).Round(time.Second), retries, maxHandshakeRetries)
			restartRunAll(ctx, t, page)
			since = time.Now()
			continue
		}
		if e := echartsErrors(page); len(e) > 0 || time.Since(since) > 4*time.Minute {
			t.Fatalf("after %s: %s; page errors about ECharts: %q; GoNB comm handshakes missed: %d", time.Since(start).Round(time.Second), why, e, handshakeTimeouts(page))
		}
		time.Sleep(time.Second)
	}
	charts := 0
	for _, c := range cells {
		charts += len(c.Charts)
	}
	last := cells[len(cells)-1]
	t.Logf("run all: %d code cells, %d charts drawn (fewest series pixels %d) in %s", len(cells), charts, fewestPixels(cells), time.Since(start).Round(time.Second))
	if e := echartsErrors(page); len(e) > 0 {
		t.Errorf("page errors about ECharts: %q", e)
	}

	// Move the first slider of the interactive cell to position 10 (p = 0.1): its readout and its
	// chart follow.
	before := last.Charts[0].Signature
	if err := page.Eval(ctx, `(function () {
		var cells = Jupyter.notebook.get_cells().filter(function (c) { return c.cell_type === 'code'; });
		var input = cells[cells.length - 1].element[0].querySelector('.geomix-slider input[type=range]');
		input.value = 10;
		input.dispatchEvent(new Event('input', {bubbles: true}));
		input.dispatchEvent(new Event('change', {bubbles: true}));
		return true; })()`, nil); err != nil {
		t.Fatal(err)
	}
	moved := time.Now()
	for {
		cells = liveStatus(ctx, t, page)
		last = cells[len(cells)-1]
		if len(last.Readouts) > 0 && last.Readouts[0] == "0.1" && len(last.Charts) == 1 &&
			last.Charts[0].Signature != before && last.Charts[0].Pixels >= minSeriesPixels {
			break
		}
		if ctx.Err() != nil || time.Since(moved) > time.Minute {
			t.Fatalf("slider moved to p = 0.1: readouts %v, chart %+v (before: signature %d)", last.Readouts, last.Charts, before)
		}
		time.Sleep(500 * time.Millisecond)
	}
	t.Logf("slider moved: readout %s, chart redrawn in %s", last.Readouts[0], time.Since(moved).Round(100*time.Millisecond))
}

// minSeriesPixels is how many pixels in series colours (saturated, unlike the grey axes and text) a
// drawn chart has at least: the quick notebooks' charts have 1080 (a two-point line chart) to tens of
// thousands; a chart that is not drawn has none.
const minSeriesPixels = 500

// liveCell is what liveStatusJS reports of one code cell.
type liveCell struct {
	Prompt   string      `json:"prompt"`
	Source   string      `json:"source"`
	Errors   []string    `json:"errors"`
	Charts   []liveChart `json:"charts"`
	Sliders  int         `json:"sliders"`
	Readouts []string    `json:"readouts"`
}

// liveChart is one chart element: the pixels of its canvas in series colours, a hash of them, and
// its text (where a chart script says why it cannot draw).
type liveChart struct {
	Pixels    int    `json:"pixels"`
	Signature uint32 `json:"signature"`
	Text      string `json:"text"`
}

// chartStatsJS defines window.geomixChartStats, which reports a chart element as a liveChart.
const chartStatsJS = `window.geomixChartStats = function (el) {
  var cv = el.querySelector('canvas');
  if (!cv || !cv.width || !cv.height) { return {pixels: 0, signature: 0, text: el.textContent}; }
  var d = cv.getContext('2d').getImageData(0, 0, cv.width, cv.height).data, n = 0, h = 0;
  for (var i = 0; i < d.length; i += 4) {
    if (d[i + 3] > 128 && Math.max(d[i], d[i + 1], d[i + 2]) - Math.min(d[i], d[i + 1], d[i + 2]) > 40) { n++; }
    h = (Math.imul(h, 31) + d[i] + 3 * d[i + 1] + 7 * d[i + 2] + 11 * d[i + 3]) >>> 0;
  }
  return {pixels: n, signature: h, text: el.textContent};
};`

// liveStatusJS defines window.geomixLiveStatus, which reports every code cell as a liveCell.
const liveStatusJS = chartStatsJS + `
window.geomixLiveStatus = function () {
  var chart = window.geomixChartStats;
  return JSON.stringify(Jupyter.notebook.get_cells().filter(function (c) { return c.cell_type === 'code'; }).map(function (c) {
    var el = c.element[0];
    return {
      prompt: String(c.input_prompt_number),
      source: c.get_text(),
      errors: c.output_area.outputs.filter(function (o) { return o.output_type === 'error'; }).map(function (o) {
        return o.ename + ': ' + o.evalue + '\n' + (o.traceback || []).join('\n'); }),
      charts: Array.prototype.map.call(el.querySelectorAll('.geomix-chart'), chart),
      sliders: el.querySelectorAll('.geomix-slider input[type=range]').length,
      readouts: Array.prototype.map.call(el.querySelectorAll('.geomix-slider output'), function (o) { return o.textContent; })
    };
  }));
};`

// liveStatus reports the notebook's code cells, failing the test on a cell error.
func liveStatus(ctx context.Context, t *testing.T, page *cdp.Page) []liveCell {
	t.Helper()
	var raw string
	if err := page.Eval(ctx, "geomixLiveStatus()", &raw); err != nil {
		t.Fatal(err)
	}
	var cells []liveCell
	if err := json.Unmarshal([]byte(raw), &cells); err != nil {
		t.Fatalf("status of the cells: %v", err)
	}
	for i, c := range cells {
		if len(c.Errors) > 0 {
			t.Fatalf("code cell %d failed:\n%s", i, strings.Join(c.Errors, "\n"))
		}
		for j, ch := range c.Charts {
			if strings.Contains(ch.Text, "cannot be drawn") {
				t.Fatalf("chart %d of code cell %d: %s (page errors about ECharts: %q)", j, i, ch.Text, echartsErrors(page))
			}
		}
	}
	if len(cells) == 0 {
		t.Fatal("the notebook has no code cell")
	}
	return cells
}

// allDrawn says whether every code cell but the last has run, the last shows its sliders, and every
// cell that displays charts (a main part calling show, Display or Update) has them all drawn; else why not.
func allDrawn(cells []liveCell) (bool, string) {
	for i, c := range cells {
		if i < len(cells)-1 && (c.Prompt == "*" || c.Prompt == "null" || c.Prompt == "undefined") {
			return false, fmt.Sprintf("code cell %d has not run (prompt %s)", i, c.Prompt)
		}
		charting := strings.Contains(c.Source, "%%") && (strings.Contains(c.Source, "show(") ||
			strings.Contains(c.Source, ".Display()") || strings.Contains(c.Source, ".Update("))
		if charting && len(c.Charts) == 0 {
			return false, fmt.Sprintf("code cell %d shows no chart", i)
		}
		for j, ch := range c.Charts {
			if ch.Pixels < minSeriesPixels {
				return false, fmt.Sprintf("chart %d of code cell %d is blank (%d pixels in series colours, want >= %d)", j, i, ch.Pixels, minSeriesPixels)
			}
		}
	}
	if last := cells[len(cells)-1]; last.Sliders == 0 {
		return false, "the interactive cell shows no slider"
	}
	return true, ""
}

// maxHandshakeRetries is how often the test restarts the kernel and runs all again after GoNB's front end
// missed the kernel's acknowledgement of its comm channel.
const maxHandshakeRetries = 2

// handshakeTimeouts counts the page's errors saying GoNB's front end did not receive the kernel's
// comm_open_ack in time.
func handshakeTimeouts(page *cdp.Page) int {
	n := 0
	for _, e := range page.Errors() {
		if strings.Contains(e, "gonb_comm: failed to connect to kernel") {
			n++
		}
	}
	return n
}

// restartRunAll restarts the kernel and runs every cell again, as a student does when the widgets do
// not answer (interrupting a GoNB cell that waits on its widgets can crash the kernel).
func restartRunAll(ctx context.Context, t *testing.T, page *cdp.Page) {
	t.Helper()
	if err := page.Eval(ctx, `Jupyter.notebook.clear_all_output(); Jupyter.notebook.restart_run_all({confirm: false}); true`, nil); err != nil {
		t.Fatal(err)
	}
}

// echartsErrors are the page's exceptions and console errors that mention ECharts.
func echartsErrors(page *cdp.Page) []string {
	var found []string
	for _, e := range page.Errors() {
		if strings.Contains(strings.ToLower(e), "echarts") {
			found = append(found, e)
		}
	}
	return found
}

// fewestPixels is the smallest count of series-colour pixels among the charts.
func fewestPixels(cells []liveCell) int {
	fewest := -1
	for _, c := range cells {
		for _, ch := range c.Charts {
			if fewest < 0 || ch.Pixels < fewest {
				fewest = ch.Pixels
			}
		}
	}
	return fewest
}

// waitFor evaluates the JavaScript condition once a second until it is true.
func waitFor(ctx context.Context, t *testing.T, page *cdp.Page, what, condition string) {
	t.Helper()
	for {
		var ok bool
		err := page.Eval(ctx, condition, &ok)
		if err == nil && ok {
			return
		}
		if ctx.Err() != nil {
			t.Fatalf("waiting for %s: %v (last error: %v)", what, ctx.Err(), err)
		}
		time.Sleep(time.Second)
	}
}

// liveSetup runs scripts/notebooks.sh --setup (GoNB tools, Jupyter and the classic Notebook when
// root, ECharts, the kernel in build/jupyter) and returns the jupyter executable, skipping the test
// when the notebook server is still missing.
func liveSetup(t *testing.T, root string) (jupyter string) {
	t.Helper()
	jupyter = os.Getenv("JUPYTER")
	if jupyter == "" {
		jupyter = "/usr/bin/jupyter"
	}
	cmd := exec.Command(filepath.Join(root, "scripts", "notebooks.sh"), "--setup")
	out, err := cmd.CombinedOutput()
	if exec.Command(jupyter, "notebook", "--version").Run() != nil {
		t.Skipf("no Jupyter Notebook server (%s notebook): `apt-get install -y jupyter-notebook` (scripts/notebooks.sh does, as root) to run the live notebook test", jupyter)
	}
	if err != nil {
		t.Fatalf("scripts/notebooks.sh --setup: %v\n%s", err, out)
	}
	return jupyter
}

// notebookServer is a running notebook server's address and token.
type notebookServer struct{ base, token string }

// url is the address of path on the server, with the token.
func (s notebookServer) url(path string) string { return s.base + path + "?token=" + s.token }

// startNotebookServer starts the classic Notebook on a free loopback port, serving root/notebooks
// with the GoNB kernel of build/jupyter in quick mode, and stops it (kernels first) when the test ends.
func startNotebookServer(t *testing.T, jupyter, root, echartsJS string) notebookServer {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := l.Addr().(*net.TCPAddr).Port
	l.Close()
	tok := make([]byte, 16)
	if _, err := rand.Read(tok); err != nil {
		t.Fatal(err)
	}
	s := notebookServer{base: fmt.Sprintf("http://127.0.0.1:%d", port), token: hex.EncodeToString(tok)}
	dir := t.TempDir()
	args := []string{"notebook", "--no-browser", "--ip=127.0.0.1", fmt.Sprintf("--port=%d", port),
		"--port-retries=0", "--NotebookApp.token=" + s.token, "--notebook-dir=" + filepath.Join(root, "notebooks")}
	if os.Geteuid() == 0 {
		args = append(args, "--allow-root") // CI containers run as root; the server listens on loopback only
	}
	cmd := exec.Command(jupyter, args...)
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "GEOMIX_HEADLESS=") && !strings.HasPrefix(kv, "JUPYTER_") {
			env = append(env, kv)
		}
	}
	cmd.Env = append(env, "GEOMIX_QUICK=1", viz.EnvECharts+"="+echartsJS,
		"PATH="+filepath.Join(root, "build", "bin")+string(os.PathListSeparator)+os.Getenv("PATH"),
		"JUPYTER_DATA_DIR="+filepath.Join(root, "build", "jupyter"),
		"JUPYTER_CONFIG_DIR="+filepath.Join(dir, "config"), "JUPYTER_RUNTIME_DIR="+filepath.Join(dir, "runtime"))
	logPath := filepath.Join(dir, "server.log")
	logFile, err := os.Create(logPath)
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stdout, cmd.Stderr = logFile, logFile
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		t.Fatalf("starting %s notebook: %v", jupyter, err)
	}
	exited := make(chan struct{})
	go func() { cmd.Wait(); logFile.Close(); close(exited) }()
	t.Cleanup(func() {
		s.shutdownKernels(t)
		syscall.Kill(-cmd.Process.Pid, syscall.SIGTERM)
		select {
		case <-exited:
		case <-time.After(15 * time.Second):
			syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
			<-exited
		}
		if log, _ := os.ReadFile(logPath); t.Failed() {
			t.Logf("notebook server log (its end):\n%s", log[max(0, len(log)-4000):])
		}
	})
	for deadline := time.Now().Add(time.Minute); ; {
		resp, err := http.Get(s.url("/api/status"))
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return s
			}
		}
		select {
		case <-exited:
			log, _ := os.ReadFile(logPath)
			t.Fatalf("%s notebook exited:\n%s", jupyter, log)
		default:
		}
		if time.Now().After(deadline) {
			t.Fatalf("the notebook server did not answer on %s within a minute (last error %v)", s.base, err)
		}
		time.Sleep(300 * time.Millisecond)
	}
}

// shutdownKernels asks the server to shut down its kernels (they run in sessions of their own, so
// stopping the server's process group would not end them).
func (s notebookServer) shutdownKernels(t *testing.T) {
	resp, err := http.Get(s.url("/api/kernels"))
	if err != nil {
		t.Logf("listing kernels: %v", err)
		return
	}
	defer resp.Body.Close()
	var kernels []struct {
		ID string `json:"id"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&kernels); err != nil {
		t.Logf("listing kernels: %v", err)
		return
	}
	for _, k := range kernels {
		req, _ := http.NewRequest(http.MethodDelete, s.url("/api/kernels/"+k.ID), nil)
		if resp, err := http.DefaultClient.Do(req); err != nil {
			t.Logf("shutting down kernel %s: %v", k.ID, err)
		} else {
			resp.Body.Close()
		}
	}
}
