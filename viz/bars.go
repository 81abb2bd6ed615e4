package viz

import (
	"fmt"
	"math"

	"github.com/go-echarts/go-echarts/v2/charts"
	"github.com/go-echarts/go-echarts/v2/opts"
	"github.com/go-echarts/go-echarts/v2/types"
)

// Bars is a grouped bar chart with optional error bars: one group per category (e.g. a data set),
// one bar per series (e.g. "ours" and "paper"). When no bar or error bar reaches below zero, the y axis
// starts at max(0, lo - (hi - lo)), where lo and hi are the lowest and highest ends of the bars and
// error bars, rounded down: small differences between accuracies stay visible, and every bar keeps a
// visible height. When one does, ECharts scales the axis to the data, zero and the negative values
// included.
type Bars struct {
	// ID is the chart's element id (a JavaScript identifier); empty derives a stable one from the
	// content. Set it when one page shows the same chart twice.
	ID              string
	Title, Subtitle string
	// YName labels the y axis, e.g. "test accuracy (%)".
	YName string
	// Categories name the groups along the x axis.
	Categories []string
	Series     []BarSeries
}

// BarSeries is one bar per category.
type BarSeries struct {
	Name string
	// Values is [len(Categories)]; NaN marks a missing value (no bar).
	Values []float64
	// Errors is nil or [len(Categories)]: the half-length of each error bar (e.g. a standard
	// deviation), drawn as Values[i] ± Errors[i]; NaN draws none.
	Errors []float64
}

// barGroupWidth is the fraction of each category's width the bars of a group fill.
const barGroupWidth = 0.7

// errorBarJS draws one error bar at value [category index, low, high] for series i of n; it mirrors
// the bar layout set in Chart (barCategoryGap 30%, barGap 0).
const errorBarJS = `function (params, api) {
  var band = api.size([1, 0])[0], barW = band * %g / %d, off = (%d - (%d - 1) / 2) * barW;
  var lo = api.coord([api.value(0), api.value(1)]), hi = api.coord([api.value(0), api.value(2)]);
  var x = lo[0] + off, hw = barW / 4, style = {stroke: '#222', lineWidth: 1.5};
  return {type: 'group', children: [
    {type: 'line', shape: {x1: x, y1: lo[1], x2: x, y2: hi[1]}, style: style},
    {type: 'line', shape: {x1: x - hw, y1: lo[1], x2: x + hw, y2: lo[1]}, style: style},
    {type: 'line', shape: {x1: x - hw, y1: hi[1], x2: x + hw, y2: hi[1]}, style: style}]};
}`

// Chart validates the data and builds the chart.
func (b Bars) Chart() (*Chart, error) {
	if len(b.Categories) == 0 || len(b.Series) == 0 {
		return nil, fmt.Errorf("viz: Bars %q needs at least one category and one series, got %d and %d", b.Title, len(b.Categories), len(b.Series))
	}
	id, err := chartID(b.ID, b)
	if err != nil {
		return nil, err
	}
	n := len(b.Series)
	bar := charts.NewBar()
	bar.SetGlobalOptions(globalOptions(id, b.Title, b.Subtitle, defaultGrid)...)
	bar.SetGlobalOptions(
		charts.WithLegendOpts(opts.Legend{Show: opts.Bool(true), Top: "40"}),
	)
	bar.SetXAxis(b.Categories)
	var errorBars []charts.SingleSeries
	for si, s := range b.Series {
		if len(s.Values) != len(b.Categories) {
			return nil, fmt.Errorf("viz: Bars %q series %q has %d values, want one per category (%d)", b.Title, s.Name, len(s.Values), len(b.Categories))
		}
		if s.Errors != nil && len(s.Errors) != len(b.Categories) {
			return nil, fmt.Errorf("viz: Bars %q series %q has %d errors, want none or one per category (%d)", b.Title, s.Name, len(s.Errors), len(b.Categories))
		}
		if err := checkFinite(fmt.Sprintf("Bars %q series %q Values", b.Title, s.Name), s.Values, true); err != nil {
			return nil, err
		}
		if err := checkFinite(fmt.Sprintf("Bars %q series %q Errors", b.Title, s.Name), s.Errors, true); err != nil {
			return nil, err
		}
		data := make([]opts.BarData, len(s.Values))
		var ranges []opts.CustomData
		for i, v := range s.Values {
			if math.IsNaN(v) {
				data[i] = opts.BarData{Value: "-"}
				continue
			}
			data[i] = opts.BarData{Value: v}
			if s.Errors != nil && !math.IsNaN(s.Errors[i]) {
				ranges = append(ranges, opts.CustomData{Value: []float64{float64(i), v - s.Errors[i], v + s.Errors[i]}})
			}
		}
		color := Palette[si%len(Palette)]
		bar.AddSeries(s.Name, data,
			charts.WithBarChartOpts(opts.BarChart{BarGap: "0%", BarCategoryGap: fmt.Sprintf("%g%%", 100*(1-barGroupWidth))}),
			charts.WithItemStyleOpts(opts.ItemStyle{Color: color}))
		if len(ranges) > 0 {
			errorBars = append(errorBars, charts.SingleSeries{
				Name:       s.Name,
				Type:       types.ChartCustom,
				Data:       ranges,
				RenderItem: opts.FuncOpts(fmt.Sprintf(errorBarJS, barGroupWidth, n, si, n)),
				Encode:     &opts.Encode{X: 0, Y: []int{1, 2}},
			})
		}
	}
	bar.SetGlobalOptions(charts.WithYAxisOpts(opts.YAxis{Name: b.YName, Min: axisMin(b.Series)}))
	bar.MultiSeries = append(bar.MultiSeries, errorBars...)
	bar.Accept(errorBarsOnTop{})
	return &Chart{id: id, title: b.Title, r: bar}, nil
}

// axisMin is where the bars' y axis starts: max(0, lo - (hi - lo)) rounded down, with lo and hi the
// lowest and highest ends of the bars and error bars; 0 when there are no values or lo is 0; nil (the
// axis scales to the data) when lo is negative.
func axisMin(series []BarSeries) any {
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, s := range series {
		for i, v := range s.Values {
			if math.IsNaN(v) {
				continue
			}
			e := 0.0
			if s.Errors != nil && !math.IsNaN(s.Errors[i]) {
				e = math.Abs(s.Errors[i])
			}
			lo, hi = min(lo, v-e), max(hi, v+e)
		}
	}
	if lo < 0 {
		return nil
	}
	if math.IsInf(lo, 0) || lo == 0 {
		return 0
	}
	return math.Max(0, math.Floor(lo-(hi-lo)))
}

// errorBarsOnTop draws the error bar (custom) series above the bars, setting their "z", which
// go-echarts' series options lack.
type errorBarsOnTop struct {
	charts.BaseConfigurationVisitor
}

// VisitSeriesOpt implements charts.ConfigurationVisitor.
func (errorBarsOnTop) VisitSeriesOpt(series charts.MultiSeries) any {
	out := make([]any, len(series))
	for i, s := range series {
		out[i] = s
		if s.Type == types.ChartCustom {
			out[i] = struct {
				charts.SingleSeries
				Z int `json:"z"`
			}{s, 3}
		}
	}
	return out
}
