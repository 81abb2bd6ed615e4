package notebooks_test

import (
	"encoding/json"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// mathStatusJS waits for MathJax to typeset the page and reports, over the Markdown cells, the
// number of typeset formulas and the text of any formula left raw ($...$ in the visible text).
const mathStatusJS = `new Promise(function (resolve) {
  var waited = 0;
  (function poll() {
    var mj = window.MathJax;
    if (mj && mj.startup && mj.startup.promise) {
      mj.startup.promise.then(function () {
        var cells = document.querySelectorAll('.jp-MarkdownCell'), raw = [], typeset = 0;
        for (var i = 0; i < cells.length; i++) {
          typeset += cells[i].querySelectorAll('mjx-container svg').length;
          raw = raw.concat(cells[i].innerText.match(/\$[^$\n]+\$/g) || []);
        }
        resolve(JSON.stringify({loaded: true, typeset: typeset, raw: raw}));
      });
    } else if ((waited += 100) > 30000) {
      resolve(JSON.stringify({loaded: false}));
    } else {
      setTimeout(poll, 100);
    }
  })();
})`

// codeSpan matches Markdown code spans, whose $ (e.g. `$GEOMIX_DATA`) is no formula.
var codeSpan = regexp.MustCompile("`[^`]*`")

// TestExportedHTMLMathRenders opens each HTML export of scripts/notebooks.sh whose notebook has
// formulas in its Markdown in headless Chromium, offline, and checks that MathJax (the npm copy the
// script puts beside the pages) typesets them: SVG formulas present, no $...$ left raw.
func TestExportedHTMLMathRenders(t *testing.T) {
	pages, b := openExports(t)
	withMath := 0
	for _, path := range pages {
		name := strings.TrimSuffix(filepath.Base(path), ".html")
		src := readNotebook(t, name+".ipynb")
		formulas := 0
		for _, c := range src.Cells {
			if c.CellType == "markdown" {
				formulas += strings.Count(codeSpan.ReplaceAllString(string(c.Source), ""), "$")
			}
		}
		if formulas == 0 {
			continue
		}
		withMath++
		t.Run(name, func(t *testing.T) {
			ctx, page := openPage(t, b, path)
			var raw string
			if err := page.Eval(ctx, mathStatusJS, &raw); err != nil {
				t.Fatal(err)
			}
			var got struct {
				Loaded  bool
				Typeset int
				Raw     []string
			}
			if err := json.Unmarshal([]byte(raw), &got); err != nil {
				t.Fatal(err)
			}
			if !got.Loaded {
				t.Fatalf("MathJax did not load (is %s beside the page? page errors: %q)", filepath.Join(executedDir, "mathjax"), page.Errors())
			}
			if got.Typeset == 0 || len(got.Raw) > 0 {
				t.Errorf("%d formulas typeset, %d left raw (first: %q); page errors: %q", got.Typeset, len(got.Raw), append(got.Raw, "")[0], page.Errors())
			}
			t.Logf("%d formulas typeset by MathJax", got.Typeset)
		})
	}
	if withMath == 0 {
		t.Skip("no exported notebook has formulas")
	}
}
