package viz

import (
	"fmt"
	"strconv"

	"github.com/go-echarts/go-echarts/v2/charts"
	"github.com/go-echarts/go-echarts/v2/opts"
)

// Lines is a line chart over a shared x axis, each line with an optional shaded band (e.g. mean ±
// std over runs, or a theorem's bound): training curves, theorem checks, hyper-parameter sweeps.
// X values are shown as evenly spaced category labels, in the given order.
type Lines struct {
	// ID is the chart's element id (a JavaScript identifier); empty derives a stable one from the
	// content.
	ID              string
	Title, Subtitle string
	XName, YName    string
	// X is the shared x axis, [P].
	X      []float64
	Series []LineSeries
}

// LineSeries is one line, with an optional band from Lower to Upper.
type LineSeries struct {
	Name string
	// Y is [P].
	Y []float64
	// Lower and Upper are both nil or both [P], with Lower[i] <= Upper[i].
	Lower, Upper []float64
	// Dashed draws the line dashed (e.g. a reference or a bound).
	Dashed bool
}

// Chart validates the data and builds the chart.
func (l Lines) Chart() (*Chart, error) {
	if len(l.X) == 0 || len(l.Series) == 0 {
		return nil, fmt.Errorf("viz: Lines %q needs x values and at least one series, got %d and %d", l.Title, len(l.X), len(l.Series))
	}
	if err := checkFinite(fmt.Sprintf("Lines %q X", l.Title), l.X, false); err != nil {
		return nil, err
	}
	id, err := chartID(l.ID, l)
	if err != nil {
		return nil, err
	}
	labels := make([]string, len(l.X))
	for i, x := range l.X {
		labels[i] = strconv.FormatFloat(x, 'g', -1, 64)
	}
	// ECharts 5.4 stacks negative values apart from positive ones, so a band that dips below zero
	// would be drawn from 0. Every value is shifted up by offset instead, and the axis labels and the
	// tooltip subtract it again: the chart is a translation of the data, its labels are the data's.
	offset := 0.0
	for _, s := range l.Series {
		for _, v := range append(append([]float64{}, s.Y...), s.Lower...) {
			offset = max(offset, -v)
		}
	}
	names := make([]string, len(l.Series))
	line := charts.NewLine()
	line.SetGlobalOptions(globalOptions(id, l.Title, l.Subtitle, defaultGrid)...)
	line.SetXAxis(labels)
	for si, s := range l.Series {
		names[si] = s.Name
		what := fmt.Sprintf("Lines %q series %q", l.Title, s.Name)
		if len(s.Y) != len(l.X) {
			return nil, fmt.Errorf("viz: %s has %d y values, want one per x (%d)", what, len(s.Y), len(l.X))
		}
		if (s.Lower == nil) != (s.Upper == nil) || (s.Lower != nil && (len(s.Lower) != len(l.X) || len(s.Upper) != len(l.X))) {
			return nil, fmt.Errorf("viz: %s band has %d lower and %d upper values, want none or %d of each", what, len(s.Lower), len(s.Upper), len(l.X))
		}
		for _, c := range []struct {
			name   string
			values []float64
		}{{"Y", s.Y}, {"Lower", s.Lower}, {"Upper", s.Upper}} {
			if err := checkFinite(what+" "+c.name, c.values, false); err != nil {
				return nil, err
			}
		}
		color := Palette[si%len(Palette)]
		if s.Lower != nil {
			// The band is two stacked invisible lines, Lower then Upper-Lower with its area filled,
			// which the tooltip lists as "<name> band low" and "<name> band width"; the legend omits them.
			stack := fmt.Sprintf("band%d", si)
			lower := make([]opts.LineData, len(l.X))
			width := make([]opts.LineData, len(l.X))
			for i := range l.X {
				if s.Lower[i] > s.Upper[i] {
					return nil, fmt.Errorf("viz: %s band at x=%s: Lower %g > Upper %g", what, labels[i], s.Lower[i], s.Upper[i])
				}
				lower[i] = opts.LineData{Value: s.Lower[i] + offset}
				width[i] = opts.LineData{Value: s.Upper[i] - s.Lower[i]}
			}
			hidden := []charts.SeriesOpts{
				charts.WithLineChartOpts(opts.LineChart{Stack: stack, ShowSymbol: opts.Bool(false)}),
				charts.WithLineStyleOpts(opts.LineStyle{Opacity: opts.Float(0)}),
			}
			line.AddSeries(s.Name+" band low", lower, hidden...)
			line.AddSeries(s.Name+" band width", width, append(hidden,
				charts.WithAreaStyleOpts(opts.AreaStyle{Color: color, Opacity: opts.Float(0.2)}))...)
		}
		data := make([]opts.LineData, len(s.Y))
		for i, y := range s.Y {
			data[i] = opts.LineData{Value: y + offset}
		}
		style := opts.LineStyle{Color: color, Width: 2}
		if s.Dashed {
			style.Type = "dashed"
		}
		line.AddSeries(s.Name, data,
			charts.WithLineChartOpts(opts.LineChart{ShowSymbol: opts.Bool(len(l.X) <= 30)}),
			charts.WithLineStyleOpts(style),
			charts.WithItemStyleOpts(opts.ItemStyle{Color: color}))
	}
	tooltip := opts.Tooltip{Show: opts.Bool(true), Trigger: "axis"}
	yAxis := opts.YAxis{Name: l.YName, Scale: opts.Bool(true)}
	if offset > 0 {
		tooltip.Formatter = opts.FuncOpts(fmt.Sprintf(`function (ps) { var s = ps[0].axisValueLabel; ps.forEach(function (p) {`+
			` var v = p.value; if (p.seriesName.indexOf(' band width') < 0) { v = v - %v; }`+
			` s += '<br/>' + p.marker + p.seriesName + ': ' + (+v.toPrecision(6)); }); return s; }`, offset))
		yAxis.AxisLabel = &opts.AxisLabel{Formatter: opts.FuncOpts(fmt.Sprintf("function (v) { return +(v - %v).toPrecision(6); }", offset))}
	}
	line.SetGlobalOptions(
		charts.WithLegendOpts(opts.Legend{Show: opts.Bool(true), Top: "40", Data: names}),
		charts.WithTooltipOpts(tooltip),
		charts.WithXAxisOpts(opts.XAxis{Name: l.XName, NameLocation: "middle", NameGap: 30, Type: "category"}),
		charts.WithYAxisOpts(yAxis),
	)
	return &Chart{id: id, title: l.Title, r: line}, nil
}
