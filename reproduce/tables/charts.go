package tables

import (
	"fmt"
	"math"
	"slices"

	"github.com/geomix-go/geomix/viz"
)

// Chart charts the rows with results, ours beside the paper's, as grouped bars with ± std error
// bars (see Bars).
func (r *Report) Chart() (*viz.Chart, error) {
	categories, ours, paper := r.Bars()
	return viz.Bars{Title: fmt.Sprintf("Table %d: test accuracy, ours vs paper", r.Number), Subtitle: "error bars: ± std over runs",
		YName: "test accuracy (%)", Categories: categories, Series: []viz.BarSeries{viz.BarSeries(ours), viz.BarSeries(paper)}}.Chart()
}

// Columns returns the data sets (columns) with at least one row with results, in row order.
func (r *Report) Columns() []string {
	var columns []string
	for _, row := range r.WithResults().Rows {
		columns = appendNew(columns, row.Dataset)
	}
	return columns
}

// ColumnChart charts the rows with results of one column (data set) as grouped bars, one group per
// method: ours beside the paper's, whose series is left out when the paper prints no number for the
// column, with ± std error bars (see Bars). note, when not empty, ends the subtitle (e.g. which
// features the cells used). A column without results is an error.
func (r *Report) ColumnChart(dataset, note string) (*viz.Chart, error) {
	column := r.Only(dataset).WithResults()
	if len(column.Rows) == 0 {
		return nil, fmt.Errorf("tables: %s has no results in column %q", r.Table, dataset)
	}
	_, ours, paper := column.Bars()
	var categories []string
	for _, row := range column.Rows {
		categories = append(categories, MethodNames[row.Method])
	}
	series, title := []viz.BarSeries{viz.BarSeries(ours)}, fmt.Sprintf("Table %d, %s: ours", r.Number, DatasetNames[dataset])
	if slices.ContainsFunc(paper.Values, func(v float64) bool { return !math.IsNaN(v) }) {
		series, title = append(series, viz.BarSeries(paper)), title+" vs paper"
	} else {
		title += " (the paper prints none)"
	}
	subtitle := "error bars: ± std over runs"
	if note != "" {
		subtitle += "; " + note
	}
	return viz.Bars{Title: title, Subtitle: subtitle, YName: "test accuracy (%)", Categories: categories, Series: series}.Chart()
}

// Chart charts the panel's mean test accuracy over α (x) and K (y) as a heatmap.
func (p GridPanel) Chart() (*viz.Chart, error) {
	alphas, hops, values := p.Heatmap()
	return viz.Heatmap{Title: "Test accuracy (%), " + p.Title(), Subtitle: fmt.Sprintf("preset: α %g, K %d; %d run(s) per point", p.PresetAlpha, p.PresetHops, p.Runs),
		XName: "α", YName: "mixup hops K", XLabels: alphas, YLabels: hops, Values: values}.Chart()
}

// PresetAlphaIndex is the index of the first panel's preset α among its Alphas (0 when absent).
func (r *GridReport) PresetAlphaIndex() int {
	for j, a := range r.Panels[0].Alphas {
		if a == r.Panels[0].PresetAlpha {
			return j
		}
	}
	return 0
}

// HopsChart charts test accuracy against K at the j-th α of the grid, one line (mean, band ± std)
// per panel that has every K there; the chart's ID is "hyper_hops".
func (r *GridReport) HopsChart(j int) (*viz.Chart, error) {
	if len(r.Panels) == 0 || j < 0 || j >= len(r.Panels[0].Alphas) {
		return nil, fmt.Errorf("tables: no α number %d in the grid", j)
	}
	var x []float64
	for _, k := range r.Panels[0].Hops { // every panel has the grid's hops
		x = append(x, float64(k))
	}
	var series []viz.LineSeries
	for _, p := range r.Panels {
		s := viz.LineSeries{Name: p.Title()}
		for i := range p.Hops {
			if acc := p.Acc[i][j]; acc != nil {
				s.Y, s.Lower, s.Upper = append(s.Y, acc.Mean), append(s.Lower, acc.Mean-acc.Std), append(s.Upper, acc.Mean+acc.Std)
			}
		}
		if len(s.Y) == len(x) { // panels missing a point at this α are left out
			series = append(series, s)
		}
	}
	return viz.Lines{ID: "hyper_hops", Title: "Test accuracy against mixup hops K", Subtitle: fmt.Sprintf("α = %g; band: ± std over runs", r.Panels[0].Alphas[j]),
		XName: "K", YName: "test accuracy (%)", X: x, Series: series}.Chart()
}

// StoredDatasets are the data sets with at least one point, in panel order.
func (r *BackboneReport) StoredDatasets() []string {
	var stored []string
	for _, p := range r.Panels {
		if p.Runs > 0 && !slices.Contains(stored, p.Dataset) {
			stored = append(stored, p.Dataset)
		}
	}
	return stored
}

// Chart charts the panels of dataset as grouped bars: one group per backbone (per backbone and OOD
// graph on an OOD data set), plain and with each mixing method, ± std error bars (see Bars).
func (r *BackboneReport) Chart(dataset string) (*viz.Chart, error) {
	categories, series := r.Bars(dataset)
	var bars []viz.BarSeries
	for _, s := range series {
		bars = append(bars, viz.BarSeries(s))
	}
	title := "Test accuracy on " + DatasetNames[dataset] + ": backbones plain and with GeoMix"
	if len(oodGraphs(dataset, 0)) > 0 {
		title = "OOD accuracy on Twitch FR, PT and RU (trained on DE+ENGB+ES): backbones plain and with GeoMix"
	}
	return viz.Bars{Title: title, Subtitle: "error bars: ± std over runs", YName: "test accuracy (%)", Categories: categories, Series: bars}.Chart()
}

// Chart charts the embedding as a scatter coloured by true class.
func (e *Embedding) Chart() (*viz.Chart, error) {
	return viz.Scatter{Title: fmt.Sprintf("t-SNE of %s on %s", MethodNames[e.Method], DatasetNames[e.Dataset]),
		Subtitle: fmt.Sprintf("test %.2f%%, silhouette %.3f (2-D: %.3f); colour: true class", e.TestAcc, e.Silhouette, e.SilhouetteTSNE),
		X:        e.X, Y: e.Y, Class: e.Labels}.Chart()
}

// Stored returns the embeddings of the i-th data set that are stored, in method order.
func (r *TSNEReport) Stored(i int) []*Embedding {
	var row []*Embedding
	for _, e := range r.Embeddings[i] {
		if e != nil {
			row = append(row, e)
		}
	}
	return row
}
