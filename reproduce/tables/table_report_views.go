package tables

import (
	"cmp"
	"fmt"
	"io"
	"math"
	"slices"
)

// WithResults returns a copy of r holding only the rows that have our numbers.
func (r *Report) WithResults() *Report {
	out := *r
	out.Rows = nil
	for _, row := range r.Rows {
		if row.Ours != nil {
			out.Rows = append(out.Rows, row)
		}
	}
	return &out
}

// SelectedGroup returns the validation-selected group as a report of its own: a copy of r whose
// Rows are r.Selected and whose Claims are r.SelectedClaims, without a group of its own; nil when
// no cell of the table was tuned.
func (r *Report) SelectedGroup() *Report {
	if r.Selected == nil {
		return nil
	}
	out := *r
	out.Rows, out.Claims = r.Selected, r.SelectedClaims
	out.Selected, out.SelectedClaims, out.TuningTime, out.ScriptRows = nil, nil, nil, nil
	return &out
}

// Only returns a copy of r holding only the rows of the given data sets (columns), in r's order.
func (r *Report) Only(datasets ...string) *Report {
	out := *r
	out.Rows = nil
	for _, row := range r.Rows {
		if slices.Contains(datasets, row.Dataset) {
			out.Rows = append(out.Rows, row)
		}
	}
	return &out
}

// WriteRows writes one line per row with results, every field of the comparison in key=value form
// (what notebooks print and their tests parse; "none" where the paper prints no number):
//
//	row cora geomix1: ours=83.82 std=0.72 runs=5 quick=false paper=84.08 std=0.74 diff=-0.26 flagged=false rel=none paper_rel=none
func (r *Report) WriteRows(w io.Writer) error {
	sign := func(v *float64) string { return cmp.Or(signed(v, "%+.2f"), "none") }
	for _, row := range r.WithResults().Rows {
		if _, err := fmt.Fprintf(w, "row %s %s: ours=%.2f std=%.2f runs=%d quick=%v paper=%s diff=%s flagged=%v rel=%s paper_rel=%s\n",
			row.Dataset, row.Method, row.Ours.Mean, row.Ours.Std, row.Runs, row.Quick,
			statWords(row.Paper), sign(row.Diff), row.Flagged, sign(row.RelChange), sign(row.PaperRelChange)); err != nil {
			return err
		}
	}
	return nil
}

// BarValues is one series of a bar chart: a value and an error half-length (NaN for none) per
// category. It converts to viz.BarSeries.
type BarValues struct {
	// Name labels the series in the chart's legend.
	Name string
	// Values are the bar heights and Errors the error half-lengths, [categories].
	Values, Errors []float64
}

// Bars returns the rows with results as bar-chart data: one category per row ("Cora GeoMix-I"),
// our mean ± std (no error bar for a single run) and the paper's mean ± std (no bar where it prints
// none).
func (r *Report) Bars() (categories []string, ours, paper BarValues) {
	ours.Name, paper.Name = "ours", "paper"
	if r.Quick {
		ours.Name = fmt.Sprintf("ours (quick: 1 run, %d epochs, NOT the paper's protocol)", QuickEpochs)
	}
	for _, row := range r.WithResults().Rows {
		categories = append(categories, DatasetNames[row.Dataset]+" "+MethodNames[row.Method])
		std := row.Ours.Std
		if row.Runs < 2 {
			std = math.NaN()
		}
		ours.Values, ours.Errors = append(ours.Values, row.Ours.Mean), append(ours.Errors, std)
		p := Stat{Mean: math.NaN(), Std: math.NaN()}
		if row.Paper != nil {
			p = *row.Paper
		}
		paper.Values, paper.Errors = append(paper.Values, p.Mean), append(paper.Errors, p.Std)
	}
	return categories, ours, paper
}
