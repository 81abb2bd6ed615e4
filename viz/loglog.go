package viz

import (
	"fmt"

	"github.com/go-echarts/go-echarts/v2/charts"
	"github.com/go-echarts/go-echarts/v2/opts"
)

// LogLog is a line chart of positive (x, y) points on logarithmic axes, each series with x values
// of its own: measures against a size, where a power law is a straight line (e.g. time against
// edges, with fitted lines).
type LogLog struct {
	// ID is the chart's element id (a JavaScript identifier); empty derives a stable one from the
	// content.
	ID              string
	Title, Subtitle string
	XName, YName    string
	Series          []XYSeries
}

// XYSeries is one line of a LogLog through the points (X[i], Y[i]), in order.
type XYSeries struct {
	Name string
	// X and Y are [P], positive.
	X, Y []float64
	// Dashed draws the line dashed and without symbols (e.g. a fit), and leaves it out of the legend.
	Dashed bool
	// Color is the line's colour; empty takes the next of Palette.
	Color string
}

// Chart validates the data and builds the chart.
func (l LogLog) Chart() (*Chart, error) {
	if len(l.Series) == 0 {
		return nil, fmt.Errorf("viz: LogLog %q needs at least one series", l.Title)
	}
	id, err := chartID(l.ID, l)
	if err != nil {
		return nil, err
	}
	line := charts.NewLine()
	line.SetGlobalOptions(globalOptions(id, l.Title, l.Subtitle, defaultGrid)...)
	var names []string
	for si, s := range l.Series {
		if !s.Dashed {
			names = append(names, s.Name)
		}
		what := fmt.Sprintf("LogLog %q series %q", l.Title, s.Name)
		if len(s.X) == 0 || len(s.X) != len(s.Y) {
			return nil, fmt.Errorf("viz: %s needs x and y values of one non-zero length, got %d and %d", what, len(s.X), len(s.Y))
		}
		data := make([]opts.LineData, len(s.X))
		for i := range s.X {
			if !(s.X[i] > 0 && s.Y[i] > 0) || checkFinite(what, []float64{s.X[i], s.Y[i]}, false) != nil {
				return nil, fmt.Errorf("viz: %s point %d is (%g, %g), want positive finite values on log axes", what, i, s.X[i], s.Y[i])
			}
			data[i] = opts.LineData{Value: []float64{s.X[i], s.Y[i]}}
		}
		color := s.Color
		if color == "" {
			color = Palette[si%len(Palette)]
		}
		style := opts.LineStyle{Color: color, Width: 2}
		if s.Dashed {
			style.Type, style.Width = "dashed", 1
		}
		line.AddSeries(s.Name, data,
			charts.WithLineChartOpts(opts.LineChart{ShowSymbol: opts.Bool(!s.Dashed)}),
			charts.WithLineStyleOpts(style),
			charts.WithItemStyleOpts(opts.ItemStyle{Color: color}))
	}
	line.SetGlobalOptions(
		charts.WithLegendOpts(opts.Legend{Show: opts.Bool(true), Top: "40", Data: names}),
		charts.WithTooltipOpts(opts.Tooltip{Show: opts.Bool(true), Trigger: "item"}),
		charts.WithXAxisOpts(opts.XAxis{Name: l.XName, NameLocation: "middle", NameGap: 30, Type: "log"}),
		charts.WithYAxisOpts(opts.YAxis{Name: l.YName, Type: "log"}),
	)
	return &Chart{id: id, title: l.Title, r: line}, nil
}
