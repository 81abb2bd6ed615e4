package cdp_test

import (
	"context"
	"net/url"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/geomix-go/geomix/internal/cdp"
)

func TestEvalAndErrors(t *testing.T) {
	chromium, err := exec.LookPath("chromium")
	if err != nil {
		t.Skip("no chromium on PATH: `apt-get install -y chromium` to run the DevTools protocol test")
	}
	b, err := cdp.Launch(chromium, filepath.Join(t.TempDir(), "profile"), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	page := `<p id="x">hello</p><script>setTimeout(function () { console.error("bad", 7); undefinedFunction(); }, 10);</script>`
	p, err := b.NewPage(ctx, "data:text/html,"+url.PathEscape(page))
	if err != nil {
		t.Fatal(err)
	}
	var got struct {
		Sum  int    `json:"sum"`
		Text string `json:"text"`
	}
	expr := `new Promise(function (ok) { setTimeout(function () { ok({sum: 1 + 2, text: document.getElementById('x').textContent}); }, 100); })`
	if err := p.Eval(ctx, expr, &got); err != nil {
		t.Fatal(err)
	}
	if got.Sum != 3 || got.Text != "hello" {
		t.Errorf("Eval = %+v, want sum 3 and text hello", got)
	}
	errs := strings.Join(p.Errors(), "\n")
	if !strings.Contains(errs, "console.error: bad 7") || !strings.Contains(errs, "undefinedFunction is not defined") {
		t.Errorf("page errors = %q, want the console error and the ReferenceError", errs)
	}
	if err := p.Eval(ctx, `(function () { throw new Error("boom"); })()`, nil); err == nil || !strings.Contains(err.Error(), "boom") {
		t.Errorf("a throwing expression: got %v, want an error saying boom", err)
	}
}
