// Package viz draws the GeoMix charts (bars with error bars, lines with bands, class-coloured
// scatters, heatmaps and grids of small grayscale images) with go-echarts v2.6.7, from plain
// numbers: it knows nothing of training.
//
// Build a Chart from a Bars, Lines, Scatter, Heatmap or ImageGrid value, then Save it as a standalone HTML file
// or Display it in a GoNB notebook. ECharts 5.4.3 is inlined from a local copy (see EnvECharts and
// CachedEChartsPath), so pages work offline; without one they load it from a CDN and say so on the
// page. Animation is off and element ids are stable, so the same input renders the same page. Charts
// draw whether or not the page has an AMD loader (RequireJS, as in the classic Jupyter Notebook and
// nbconvert's HTML export). In a notebook, a Slider sets what a chart redrawn with Update shows.
package viz

import (
	"fmt"
	"hash/fnv"
	"html"
	"html/template"
	"io"
	"math"
	"regexp"
	"strings"

	"github.com/geomix-go/geomix/internal/atomicfile"
	"github.com/go-echarts/go-echarts/v2/charts"
	"github.com/go-echarts/go-echarts/v2/opts"
	"github.com/go-echarts/go-echarts/v2/render"
	"github.com/janpfeifer/gonb/gonbui"
)

// Palette holds the series colours, in order (ECharts' default palette).
var Palette = []string{"#5470c6", "#91cc75", "#fac858", "#ee6666", "#73c0de", "#3ba272", "#fc8452", "#9a60b4", "#ea7ccc"}

// Chart is one chart ready to be saved or displayed. Build it with Bars.Chart, Lines.Chart,
// Scatter.Chart, Heatmap.Chart or ImageGrid.Chart.
type Chart struct {
	id, title string
	r         echartsChart
}

// echartsChart is what viz uses of a go-echarts chart.
type echartsChart interface {
	RenderSnippet() render.ChartSnippet
	JSONNotEscaped() template.HTML
}

var validID = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9_]*$`)

// chartID returns id if set (it must be a JavaScript identifier: it names a DOM element and a
// variable), or a stable id derived from the chart's whole input.
func chartID(id string, input any) (string, error) {
	if id != "" {
		if !validID.MatchString(id) {
			return "", fmt.Errorf("viz: chart ID %q must match %s", id, validID)
		}
		return id, nil
	}
	h := fnv.New64a()
	fmt.Fprintf(h, "%#v", input)
	return fmt.Sprintf("geomix_%016x", h.Sum64()), nil
}

// globalOptions are the options every chart shares: stable id, no animation, title and tooltip.
func globalOptions(id, title, subtitle string, grid opts.Grid) []charts.GlobalOpts {
	return []charts.GlobalOpts{
		charts.WithInitializationOpts(opts.Initialization{ChartID: id, PageTitle: title, Width: "900px", Height: "500px"}),
		charts.WithAnimation(false),
		charts.WithTitleOpts(opts.Title{Title: title, Subtitle: subtitle}),
		charts.WithTooltipOpts(opts.Tooltip{Show: opts.Bool(true)}),
		charts.WithGridOpts(grid),
	}
}

// defaultGrid is the plot area of bars, lines and scatters: room for the title and legend above,
// the axis names below and left. go-echarts appends every grid option as another grid, so a chart
// sets its grid once, through globalOptions.
var defaultGrid = opts.Grid{Top: "80", Bottom: "60", Left: "70", Right: "40"}

// checkFinite returns an error naming what and i when v is infinite (NaN means missing and is allowed
// where the caller says so).
func checkFinite(what string, values []float64, allowNaN bool) error {
	for i, v := range values {
		if math.IsInf(v, 0) || (!allowNaN && math.IsNaN(v)) {
			return fmt.Errorf("viz: %s[%d] = %v, want a finite number", what, i, v)
		}
	}
	return nil
}

// ID is the chart's id: the DOM id of its element on a page (HTML, Save) and in a notebook (Display).
// Update draws into an element whose id also derives from the display id (see Update), so a chart
// redrawn in place never shares its element id with the same data shown statically.
func (c *Chart) ID() string { return c.id }

// Option returns the chart's ECharts option as a JavaScript object literal: JSON, except for
// JavaScript functions (e.g. the error bars' renderItem).
func (c *Chart) Option() string {
	c.r.RenderSnippet() // runs the chart's one-time validation, which places the x-axis data
	return strings.TrimSpace(funcMarkers.ReplaceAllString(string(c.r.JSONNotEscaped()), ""))
}

// funcMarkers are go-echarts' markers (with the JSON string quotes) around JavaScript functions in
// the option JSON, which its page templates strip.
var funcMarkers = regexp.MustCompile(`"?__f__"?`)

// body returns the chart's element, with DOM id elementID, and the script that draws it (see
// chartScript).
func (c *Chart) body(elementID string) string {
	// "</" inside a string of the option would end the script element early.
	option := strings.ReplaceAll(c.Option(), "</", `<\/`)
	return fmt.Sprintf(chartScript, elementID, option)
}

// chartScript is a chart's element and drawing script, given the element id and the option. The
// script runs in its own function scope, so re-running a notebook cell on the same page does not
// redeclare its variables. It finds its element (the one just before it, or else the first element
// with the id: the classic Notebook runs scripts away from their place) and takes the id off, so that
// a later chart with the same id, e.g. the same data shown again in another cell, finds its own
// element. It waits for the global echarts (see scriptTags) for up to 30 s, then says it is missing.
const chartScript = `<div class="geomix-chart" id="%[1]s" data-chart-id="%[1]s" style="width:900px;height:500px;margin:auto"></div>
<script>(function () {
  var id = '%[1]s', here = document.currentScript, el = here && here.previousElementSibling;
  if (!el || el.id !== id) { el = document.getElementById(id); }
  if (!el) { return; }
  el.removeAttribute('id');
  var option = %[2]s;
  var waited = 0;
  (function draw() {
    if (window.echarts && window.echarts.init) {
      window.echarts.init(el, null, {renderer: 'canvas'}).setOption(option);
    } else if ((waited += 50) > 30000) {
      el.textContent = 'This chart cannot be drawn: ECharts did not load.';
    } else {
      setTimeout(draw, 50);
    }
  })();
})();</script>
`

// HTML returns a standalone page holding the chart, with ECharts inlined (or loaded from the CDN
// with a visible notice, when there is no local copy).
func (c *Chart) HTML() ([]byte, error) {
	script, notice, err := scriptTags()
	if err != nil {
		return nil, err
	}
	var b strings.Builder
	b.WriteString("<!DOCTYPE html>\n<html>\n<head>\n<meta charset=\"utf-8\">\n<title>")
	b.WriteString(html.EscapeString(c.title))
	b.WriteString("</title>\n")
	b.WriteString(script)
	b.WriteString("\n</head>\n<body>\n")
	b.WriteString(notice)
	b.WriteString(c.body(c.id))
	b.WriteString("</body>\n</html>\n")
	return []byte(b.String()), nil
}

// Save writes the standalone page (see HTML) to path atomically (see atomicfile.Write), creating
// its folder if needed.
func (c *Chart) Save(path string) error {
	page, err := c.HTML()
	if err != nil {
		return err
	}
	if err := atomicfile.Write(path, func(w io.Writer) error { _, err := w.Write(page); return err }); err != nil {
		return fmt.Errorf("viz: saving chart: %w", err)
	}
	return nil
}

// Display shows the chart as the output of the current GoNB notebook cell, with ECharts inlined
// (every displayed chart carries its own copy, about 1 MB, so the exported notebook stands alone).
// It returns once the kernel has received the output. Outside a GoNB kernel it returns an error:
// use Save there.
func (c *Chart) Display() error { return c.display("") }

// Update is Display into the cell output block named displayID (any string, e.g. from
// gonbui.UniqueID): the first call creates the block, later calls replace its content. It redraws a
// chart in place from an interactive widget. The chart's element id is UpdateID(displayID).
func (c *Chart) Update(displayID string) error {
	if displayID == "" {
		return fmt.Errorf("viz: Update of chart %q needs a display id", c.title)
	}
	return c.display(displayID)
}

// UpdateID is the DOM id of the chart's element when Update draws it into the block displayID:
// ID() and a hash of displayID, the same for every redraw of that block.
func (c *Chart) UpdateID(displayID string) string {
	h := fnv.New32a()
	h.Write([]byte(displayID))
	return fmt.Sprintf("%s_%08x", c.id, h.Sum32())
}

// output is the notebook output of the chart with DOM id elementID: ECharts (or its loader and the
// notice), the element and its script.
func (c *Chart) output(elementID string) (string, error) {
	script, notice, err := scriptTags()
	if err != nil {
		return "", err
	}
	return "<div>" + notice + script + c.body(elementID) + "</div>", nil
}

func (c *Chart) display(displayID string) error {
	if !gonbui.IsNotebook {
		return fmt.Errorf("viz: displaying chart %q works only inside a GoNB notebook kernel; use Save", c.title)
	}
	elementID := c.id
	if displayID != "" {
		elementID = c.UpdateID(displayID)
	}
	output, err := c.output(elementID)
	if err != nil {
		return err
	}
	if displayID == "" {
		gonbui.DisplayHTML(output)
	} else {
		gonbui.UpdateHTML(displayID, output)
	}
	// Wait until the kernel has taken the (large) output: a cell program that exits right after
	// displaying can otherwise lose it.
	gonbui.Sync()
	if err := gonbui.Error(); err != nil {
		return fmt.Errorf("viz: displaying chart %q: %w", c.title, err)
	}
	return nil
}
