package viz

import (
	"fmt"

	"github.com/go-echarts/go-echarts/v2/charts"
	"github.com/go-echarts/go-echarts/v2/opts"
)

// Scatter is a 2-D point cloud coloured by class, e.g. a t-SNE embedding of node representations.
type Scatter struct {
	// ID is the chart's element id (a JavaScript identifier); empty derives a stable one from the
	// content.
	ID              string
	Title, Subtitle string
	// X, Y and Class are [N]; classes are in [0, C).
	X, Y  []float64
	Class []int32
	// ClassNames is nil (classes are called "class 0", "class 1", ...) or [C].
	ClassNames []string
}

// Chart validates the data and builds the chart: one series (colour) per class.
func (s Scatter) Chart() (*Chart, error) {
	if len(s.X) == 0 || len(s.X) != len(s.Y) || len(s.X) != len(s.Class) {
		return nil, fmt.Errorf("viz: Scatter %q needs X, Y and Class of one non-zero length, got %d, %d and %d", s.Title, len(s.X), len(s.Y), len(s.Class))
	}
	if err := checkFinite(fmt.Sprintf("Scatter %q X", s.Title), s.X, false); err != nil {
		return nil, err
	}
	if err := checkFinite(fmt.Sprintf("Scatter %q Y", s.Title), s.Y, false); err != nil {
		return nil, err
	}
	numClasses := len(s.ClassNames)
	if s.ClassNames == nil {
		for _, c := range s.Class {
			numClasses = max(numClasses, int(c)+1)
		}
	}
	points := make([][]opts.ScatterData, numClasses)
	for i, c := range s.Class {
		if c < 0 || int(c) >= numClasses {
			return nil, fmt.Errorf("viz: Scatter %q Class[%d] = %d, want a class in [0, %d)", s.Title, i, c, numClasses)
		}
		points[c] = append(points[c], opts.ScatterData{Value: []float64{s.X[i], s.Y[i]}})
	}
	id, err := chartID(s.ID, s)
	if err != nil {
		return nil, err
	}
	sc := charts.NewScatter()
	sc.SetGlobalOptions(globalOptions(id, s.Title, s.Subtitle, defaultGrid)...)
	sc.SetGlobalOptions(
		charts.WithLegendOpts(opts.Legend{Show: opts.Bool(true), Top: "40"}),
		charts.WithXAxisOpts(opts.XAxis{Type: "value", Scale: opts.Bool(true)}),
		charts.WithYAxisOpts(opts.YAxis{Type: "value", Scale: opts.Bool(true)}),
	)
	for c := range numClasses {
		name := fmt.Sprintf("class %d", c)
		if s.ClassNames != nil {
			name = s.ClassNames[c]
		}
		sc.AddSeries(name, points[c],
			charts.WithScatterChartOpts(opts.ScatterChart{SymbolSize: 5}),
			charts.WithItemStyleOpts(opts.ItemStyle{Color: Palette[c%len(Palette)], Opacity: opts.Float(0.8)}))
	}
	return &Chart{id: id, title: s.Title, r: sc}, nil
}
