package viz

import (
	"fmt"
	"math"

	"github.com/go-echarts/go-echarts/v2/charts"
	"github.com/go-echarts/go-echarts/v2/opts"
)

// Heatmap is a grid of values with labelled rows and columns, e.g. accuracy over GeoMix's alpha (x)
// and number of hops K (y). Each cell shows its value rounded to two decimals.
type Heatmap struct {
	// ID is the chart's element id (a JavaScript identifier); empty derives a stable one from the
	// content.
	ID              string
	Title, Subtitle string
	XName, YName    string
	// XLabels name the columns, [X]; YLabels the rows, [Y] (drawn bottom to top).
	XLabels, YLabels []string
	// Values is [Y][X]; NaN marks a missing cell.
	Values [][]float64
}

// Chart validates the data and builds the chart; the colour scale spans the finite values.
func (h Heatmap) Chart() (*Chart, error) {
	if len(h.XLabels) == 0 || len(h.YLabels) == 0 || len(h.Values) != len(h.YLabels) {
		return nil, fmt.Errorf("viz: Heatmap %q needs [%d][%d] values with both sides non-zero, got %d rows", h.Title, len(h.YLabels), len(h.XLabels), len(h.Values))
	}
	lo, hi := math.Inf(1), math.Inf(-1)
	var data []opts.HeatMapData
	for y, row := range h.Values {
		if len(row) != len(h.XLabels) {
			return nil, fmt.Errorf("viz: Heatmap %q row %d (%s) has %d values, want %d", h.Title, y, h.YLabels[y], len(row), len(h.XLabels))
		}
		if err := checkFinite(fmt.Sprintf("Heatmap %q row %d", h.Title, y), row, true); err != nil {
			return nil, err
		}
		for x, v := range row {
			if math.IsNaN(v) {
				continue
			}
			lo, hi = min(lo, v), max(hi, v)
			data = append(data, opts.HeatMapData{Value: []float64{float64(x), float64(y), math.Round(v*100) / 100}})
		}
	}
	if len(data) == 0 {
		return nil, fmt.Errorf("viz: Heatmap %q has no finite values", h.Title)
	}
	id, err := chartID(h.ID, h)
	if err != nil {
		return nil, err
	}
	hm := charts.NewHeatMap()
	// Room under the x axis for its name above the colour scale.
	hm.SetGlobalOptions(globalOptions(id, h.Title, h.Subtitle, opts.Grid{Top: "80", Bottom: "110", Left: "90", Right: "40"})...)
	hm.SetGlobalOptions(
		charts.WithXAxisOpts(opts.XAxis{Name: h.XName, NameLocation: "middle", NameGap: 30, Type: "category", Data: h.XLabels, SplitArea: &opts.SplitArea{Show: opts.Bool(true)}}),
		charts.WithYAxisOpts(opts.YAxis{Name: h.YName, Type: "category", Data: h.YLabels, SplitArea: &opts.SplitArea{Show: opts.Bool(true)}}),
		charts.WithVisualMapOpts(opts.VisualMap{
			Calculable: opts.Bool(true), Min: float32(lo), Max: float32(hi), Orient: "horizontal", Left: "center", Bottom: "0",
			InRange: &opts.VisualMapInRange{Color: []string{"#313695", "#74add1", "#e0f3f8", "#fee090", "#f46d43", "#a50026"}},
		}),
		charts.WithLegendOpts(opts.Legend{Show: opts.Bool(false)}),
	)
	hm.AddSeries(h.Title, data, charts.WithLabelOpts(opts.Label{Show: opts.Bool(true)}))
	return &Chart{id: id, title: h.Title, r: hm}, nil
}
