package tables

import (
	"fmt"
	"io"
	"strings"

	"github.com/geomix-go/geomix/geomix/theory"
	"github.com/geomix-go/geomix/viz"
)

// WriteCheck writes a theory check's summary line (what notebooks/01-theory prints and its test
// parses) and its note:
//
//	check theorem1/expected-feature: predicted=0.1 observed=0.101 tolerance=0.01 compare=equal pass=true
//	  note: ...
func WriteCheck(w io.Writer, c theory.Check) error {
	_, err := fmt.Fprintf(w, "check %s: predicted=%.6g observed=%.6g tolerance=%.3g compare=%s pass=%v\n  note: %s\n",
		c.Name, c.Predicted, c.Observed, c.Tolerance, c.Comparison, c.Pass, c.Note)
	return err
}

// TheoryCurve returns the points of c whose label ends with suffix (one per x, in grid order) as
// lines named after name: the predicted line (dashed) and the observed line with the band
// observed ± tolerance.
func TheoryCurve(c theory.Check, name, suffix string) (x []float64, predicted, observed viz.LineSeries, err error) {
	predicted = viz.LineSeries{Name: name + " predicted", Dashed: true}
	observed = viz.LineSeries{Name: name + " observed"}
	for _, p := range c.Series {
		if !strings.HasSuffix(p.Label, suffix) {
			continue
		}
		x = append(x, p.X)
		predicted.Y = append(predicted.Y, p.Predicted)
		observed.Y = append(observed.Y, p.Observed)
		observed.Lower = append(observed.Lower, p.Observed-p.Tolerance)
		observed.Upper = append(observed.Upper, p.Observed+p.Tolerance)
	}
	if len(x) == 0 {
		return nil, predicted, observed, fmt.Errorf("tables: check %s has no point whose label ends with %q", c.Name, suffix)
	}
	return x, predicted, observed, nil
}

// TheorySetting is one choice of the sliders of notebooks/01-theory: homophily P, pseudo-label
// error Eps, residual weight Alpha and node degree.
type TheorySetting struct {
	P, Eps, Alpha float64
	Degree        int
}

// Predictions are the paper's predictions at s for C = 4 classes and F = 4 features bounded by B = 1,
// with the tail bounds at distance t = 1.5: the expected mixed label's mass on the own class and on
// another class (Theorem 2), the class separation of basic mixup and with α, and the feature and
// label tail bounds (Theorems 1, 2).
func (s TheorySetting) Predictions() (names []string, values []float64) {
	const numC, numF, bound, t = 4, 4, 1.0, 1.5
	label := theory.ExpectedMixedLabel(numC, 0, s.P, s.Eps)
	return []string{"E[ȳ] own class", "E[ȳ] other class", "separation λ", "separation with α", "feature tail bound", "label tail bound"},
		[]float64{label[0], label[1], theory.ClassSeparation(numC, s.P), theory.ResidualSeparation(numC, s.P, s.Alpha),
			theory.FeatureTailBound(s.Degree, numF, bound, t), theory.LabelTailBound(s.Degree, numC, t)}
}

// Chart charts s.Predictions() as bars; the chart's ID is "theory_predictions".
func (s TheorySetting) Chart() (*viz.Chart, error) {
	names, values := s.Predictions()
	return viz.Bars{ID: "theory_predictions", Title: "The paper's predictions (C = 4, F = 4, B = 1, tail bounds at t = 1.5)",
		Subtitle:   fmt.Sprintf("p = %g, ε = %g, α = %g, degree %d", s.P, s.Eps, s.Alpha, s.Degree),
		Categories: names, Series: []viz.BarSeries{{Name: "predicted", Values: values}}}.Chart()
}
