package viz

import (
	"fmt"
	"math"

	"github.com/go-echarts/go-echarts/v2/charts"
	"github.com/go-echarts/go-echarts/v2/opts"
)

// ImageGrid draws small grayscale images in rows, e.g. a few images of each class with the class
// named on the left of its row. Intensity 0 is white, 1 dark blue (a tinted ink: the notebook tests
// tell a drawn chart from a blank one by its coloured pixels).
type ImageGrid struct {
	// ID is the chart's element id (a JavaScript identifier); empty derives a stable one from the
	// content.
	ID              string
	Title, Subtitle string
	// Width and Height are each image's size in pixels.
	Width, Height int
	// RowLabels name the rows, [R]; Images is [R][C][Height × Width]: row r's C images, each row-major
	// (pixel rows top to bottom) with intensities in [0, 1]. Every row has the same C.
	RowLabels []string
	Images    [][][]float64
}

// imageGap is the number of blank pixels between two images.
const imageGap = 2

// Chart validates the images and builds the chart: one heatmap cell per pixel, square, scaled to fit
// the chart; zero pixels are left blank.
func (g ImageGrid) Chart() (*Chart, error) {
	rows := len(g.Images)
	if g.Width < 1 || g.Height < 1 || rows == 0 || len(g.RowLabels) != rows || len(g.Images[0]) == 0 {
		return nil, fmt.Errorf("viz: ImageGrid %q needs images of at least 1 × 1 pixels in at least one labelled row, got %d × %d, %d rows, %d labels",
			g.Title, g.Width, g.Height, rows, len(g.RowLabels))
	}
	cols := len(g.Images[0])
	nx, ny := cols*(g.Width+imageGap)-imageGap, rows*(g.Height+imageGap)-imageGap
	var data []opts.HeatMapData
	for r, images := range g.Images {
		if len(images) != cols {
			return nil, fmt.Errorf("viz: ImageGrid %q row %d (%s) has %d images, want %d like row 0", g.Title, r, g.RowLabels[r], len(images), cols)
		}
		for c, img := range images {
			if len(img) != g.Width*g.Height {
				return nil, fmt.Errorf("viz: ImageGrid %q row %d image %d has %d pixels, want %d × %d", g.Title, r, c, len(img), g.Width, g.Height)
			}
			for p, v := range img {
				if !(v >= 0 && v <= 1) {
					return nil, fmt.Errorf("viz: ImageGrid %q row %d image %d pixel %d is %v, want an intensity in [0, 1]", g.Title, r, c, p, v)
				}
				if v == 0 {
					continue
				}
				x, y := c*(g.Width+imageGap)+p%g.Width, r*(g.Height+imageGap)+p/g.Width
				data = append(data, opts.HeatMapData{Value: []float64{float64(x), float64(y), math.Round(v*100) / 100}})
			}
		}
	}
	id, err := chartID(g.ID, g)
	if err != nil {
		return nil, err
	}
	// Category labels: the row's label at the middle of each image row, nothing elsewhere.
	xLabels, yLabels := make([]string, nx), make([]string, ny)
	for r, label := range g.RowLabels {
		yLabels[r*(g.Height+imageGap)+g.Height/2] = label
	}
	// Square pixels within the chart's 900 × 500 canvas, beside the labels and below the title.
	const left, top, width, height = 130, 70, 900 - 130 - 20, 500 - 70 - 15
	cell := math.Min(float64(width)/float64(nx), float64(height)/float64(ny))
	grid := opts.Grid{Left: fmt.Sprint(left), Top: fmt.Sprint(top), Width: fmt.Sprintf("%.0f", cell*float64(nx)), Height: fmt.Sprintf("%.0f", cell*float64(ny))}
	hm := charts.NewHeatMap()
	hm.SetGlobalOptions(globalOptions(id, g.Title, g.Subtitle, grid)...)
	hidden := &opts.AxisLine{Show: opts.Bool(false)}
	hm.SetGlobalOptions(
		charts.WithXAxisOpts(opts.XAxis{Type: "category", Data: xLabels, AxisLabel: &opts.AxisLabel{Show: opts.Bool(false)},
			AxisTick: &opts.AxisTick{Show: opts.Bool(false)}, AxisLine: hidden}),
		charts.WithYAxisOpts(opts.YAxis{Type: "category", Data: yLabels, Inverse: opts.Bool(true),
			AxisLabel: &opts.AxisLabel{Show: opts.Bool(true), Interval: "0"}, AxisLine: hidden}),
		charts.WithVisualMapOpts(opts.VisualMap{Show: opts.Bool(false), Min: 0, Max: 1, InRange: &opts.VisualMapInRange{Color: []string{"#ffffff", "#08306b"}}}),
		charts.WithLegendOpts(opts.Legend{Show: opts.Bool(false)}),
	)
	hm.AddSeries(g.Title, data)
	hm.Accept(imageGridOptions{})
	return &Chart{id: id, title: g.Title, r: hm}, nil
}

// imageGridOptions sets what go-echarts' options lack: the y axis without ticks (every pixel row is
// a category: its ticks would draw a solid bar beside the images), and the pixels drawn in one frame
// (ECharts draws a heatmap of more than 3,000 cells progressively, over several frames, so a
// screenshot could catch it half drawn).
type imageGridOptions struct {
	charts.BaseConfigurationVisitor
}

// VisitYAxis implements charts.ConfigurationVisitor.
func (imageGridOptions) VisitYAxis(axes []opts.YAxis) any {
	out := make([]any, len(axes))
	for i, a := range axes {
		out[i] = struct {
			opts.YAxis
			AxisTick opts.AxisTick `json:"axisTick"`
		}{a, opts.AxisTick{Show: opts.Bool(false)}}
	}
	return out
}

// VisitSeriesOpt implements charts.ConfigurationVisitor.
func (imageGridOptions) VisitSeriesOpt(series charts.MultiSeries) any {
	out := make([]any, len(series))
	for i, s := range series {
		out[i] = struct {
			charts.SingleSeries
			Progressive int `json:"progressive"`
		}{s, 0}
	}
	return out
}
