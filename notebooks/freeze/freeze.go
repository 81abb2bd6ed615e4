package main

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"time"

	"github.com/geomix-go/geomix/internal/atomicfile"
	"github.com/geomix-go/geomix/internal/cdp"
)

// chartMarker is in every chart output of viz (Chart.Display and Chart.Update).
const chartMarker = `class="geomix-chart"`

// Freeze returns the notebook nb (nbformat 4 JSON) with every chart output replaced by an image (see draw)
// drawn by the Chromium at chromium (profile and pages under tmp), stderr streams and execution
// timestamps removed, and the number of charts it drew. A chart that does not draw is an error.
func Freeze(nb []byte, chromium, tmp string) ([]byte, int, error) {
	var doc map[string]any
	if err := json.Unmarshal(nb, &doc); err != nil {
		return nil, 0, fmt.Errorf("not a notebook: %w", err)
	}
	cells, _ := doc["cells"].([]any)
	var browser *cdp.Browser
	defer func() {
		if browser != nil {
			browser.Close()
		}
	}()
	charts := 0
	for i, c := range cells {
		cell, _ := c.(map[string]any)
		if meta, ok := cell["metadata"].(map[string]any); ok {
			delete(meta, "execution")
		}
		outputs, _ := cell["outputs"].([]any)
		kept := []any{}
		for _, o := range outputs {
			output, _ := o.(map[string]any)
			if output["output_type"] == "stream" && output["name"] == "stderr" {
				continue
			}
			data, _ := output["data"].(map[string]any)
			html := text(data["text/html"])
			if !strings.Contains(html, chartMarker) {
				kept = append(kept, output)
				continue
			}
			if browser == nil {
				var err error
				if browser, err = cdp.Launch(chromium, filepath.Join(tmp, "profile"), nil, "--window-size=1000,600"); err != nil {
					return nil, 0, err
				}
			}
			mime, image, title, err := draw(browser, html, filepath.Join(tmp, fmt.Sprintf("chart%d.html", charts)))
			if err != nil {
				return nil, 0, fmt.Errorf("cell %d: %w", i, err)
			}
			charts++
			output["data"] = map[string]any{mime: base64.StdEncoding.EncodeToString(image), "text/plain": "chart: " + title}
			output["metadata"] = map[string]any{}
			delete(output, "transient")
			kept = append(kept, output)
		}
		if cell["cell_type"] == "code" {
			cell["outputs"] = kept
		}
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", " ")
	if err := enc.Encode(doc); err != nil {
		return nil, 0, err
	}
	return b.Bytes(), charts, nil
}

// text is nbformat's string-or-list-of-strings as one string.
func text(v any) string {
	switch v := v.(type) {
	case string:
		return v
	case []any:
		var b strings.Builder
		for _, s := range v {
			str, _ := s.(string)
			b.WriteString(str)
		}
		return b.String()
	}
	return ""
}

// drawJS waits for the page's chart and returns its title and a PNG data URL of it.
const drawJS = `new Promise(function (resolve, reject) {
  var waited = 0;
  (function poll() {
    var el = document.querySelector('.geomix-chart'), chart = el && window.echarts && echarts.getInstanceByDom(el);
    if (chart) {
      var title = chart.getOption().title;
      var canvas = chart.getRenderedCanvas({pixelRatio: 1, backgroundColor: '#fff'});
      resolve(JSON.stringify({title: (title && title[0] && title[0].text) || '',
        png: canvas.toDataURL('image/png'), jpeg: canvas.toDataURL('image/jpeg', 0.85)}));
    } else if ((waited += 50) > 20000) {
      reject(new Error('the chart did not draw: ' + (el ? el.textContent : 'no chart element')));
    } else {
      setTimeout(poll, 50);
    }
  })();
})`

// maxPNG is the size above which a chart is saved as a JPEG (quality 0.85) when that is smaller:
// dense scatters, whose PNG of thousands of anti-aliased points is about 200 KB.
const maxPNG = 100 << 10

// draw opens the chart output html as the page file path and returns the chart's image (its MIME
// type, "image/png", or "image/jpeg" for a PNG over maxPNG) and its title.
func draw(browser *cdp.Browser, html, path string) (mime string, image []byte, title string, err error) {
	page := "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"></head><body style=\"margin:0;background:#fff\">\n" + html + "\n</body></html>\n"
	if err := writeFile(path, []byte(page)); err != nil {
		return "", nil, "", err
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	p, err := browser.NewPage(ctx, "file://"+path)
	if err != nil {
		return "", nil, "", err
	}
	var raw string
	if err := p.Eval(ctx, drawJS, &raw); err != nil {
		return "", nil, "", fmt.Errorf("drawing a chart: %w (page errors: %q)", err, p.Errors())
	}
	var got struct{ Title, PNG, JPEG string }
	if err := json.Unmarshal([]byte(raw), &got); err != nil {
		return "", nil, "", err
	}
	png, err := decodeDataURL(got.PNG, "image/png")
	if err != nil || len(png) <= maxPNG {
		return "image/png", png, got.Title, err
	}
	jpeg, err := decodeDataURL(got.JPEG, "image/jpeg")
	if err != nil || len(jpeg) >= len(png) {
		return "image/png", png, got.Title, err
	}
	return "image/jpeg", jpeg, got.Title, nil
}

// decodeDataURL returns the bytes of a base64 data URL of type mime.
func decodeDataURL(url, mime string) ([]byte, error) {
	b64, ok := strings.CutPrefix(url, "data:"+mime+";base64,")
	if !ok {
		return nil, fmt.Errorf("not a %s data URL: %.40q", mime, url)
	}
	return base64.StdEncoding.DecodeString(b64)
}

// writeFile writes b to path atomically.
func writeFile(path string, b []byte) error {
	return atomicfile.Write(path, func(w io.Writer) error { _, err := w.Write(b); return err })
}
