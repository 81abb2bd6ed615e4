package tables

import (
	"fmt"
	"io"
	"math"
	"strings"
)

// BackboneReport is a BackboneSweep's stored points: one panel per (data set, backbone).
type BackboneReport struct {
	// Figure is FigureBackbones.
	Figure string `json:"figure"`
	Provenance
	// Methods are the mixing methods of every panel, in sweep order.
	Methods []string        `json:"methods"`
	Panels  []BackbonePanel `json:"panels"`
}

// BackbonePanel is one backbone on one data set, plainly and under each mixing method.
type BackbonePanel struct {
	// Dataset and Backbone are the panel's data set and backbone ids.
	Dataset  string `json:"dataset"`
	Backbone string `json:"backbone"`
	// Plain is the plain backbone's test accuracy, Mixed[i] under the report's Methods[i]: mean ± std
	// in percent, nil where no point is stored.
	Plain *Stat   `json:"plain"`
	Mixed []*Stat `json:"mixed"`
	pointTally
}

// LoadBackbones reads sweep's stored points under dir (a missing point is nil; an unreadable record
// is an error naming it).
func LoadBackbones(dir string, sweep BackboneSweep) (*BackboneReport, error) {
	if err := sweep.Check(); err != nil {
		return nil, err
	}
	r := &BackboneReport{Figure: FigureBackbones, Provenance: newProvenance(), Methods: sweep.Methods}
	for _, d := range sweep.Datasets {
		for _, b := range sweep.Backbones {
			p := BackbonePanel{Dataset: d, Backbone: b, Mixed: make([]*Stat, len(sweep.Methods))}
			for i, m := range append([]string{b}, sweep.Methods...) {
				s, err := loadPoint(BackboneRecordPath(dir, d, b, m), FigureBackbones, backbonePoint(d, b, m), &p.pointTally, &r.Provenance)
				if err != nil {
					return nil, err
				}
				if i == 0 {
					p.Plain = s
				} else {
					p.Mixed[i-1] = s
				}
			}
			r.Panels = append(r.Panels, p)
		}
	}
	return r, nil
}

// WriteBackboneReport renders OutDir/figure-backbones.md (atomically) from sweep's stored points
// without training anything, and returns the report and its path.
func WriteBackboneReport(sweep BackboneSweep, opts Options) (*BackboneReport, string, error) {
	opts = opts.withOutDir()
	report, err := LoadBackbones(opts.OutDir, sweep)
	if err != nil {
		return nil, "", err
	}
	report.Command = opts.Command
	path, err := writeFigureReport(opts, FigureBackbones, report.Markdown())
	return report, path, err
}

// Gains counts the (panel, method) pairs with both points stored, those where the mixing method's
// mean is above the plain backbone's, and those where it is above by more than the plain
// backbone's std.
func (r *BackboneReport) Gains() (compared, above, aboveStd int) {
	for _, p := range r.Panels {
		for _, s := range p.Mixed {
			if s == nil || p.Plain == nil {
				continue
			}
			compared++
			if s.Mean > p.Plain.Mean {
				above++
			}
			if s.Mean > p.Plain.Mean+p.Plain.Std {
				aboveStd++
			}
		}
	}
	return compared, above, aboveStd
}

// Bars returns the panels of dataset as bar-chart data: one category per backbone, one series for
// the plain backbones and one per mixing method, mean ± std (no error bar for a single run, zero
// height where no point is stored).
func (r *BackboneReport) Bars(dataset string) (categories []string, series []BarValues) {
	series = append(series, BarValues{Name: "plain"})
	for _, m := range r.Methods {
		series = append(series, BarValues{Name: MethodNames[m]})
	}
	for _, p := range r.Panels {
		if p.Dataset != dataset {
			continue
		}
		categories = append(categories, BackboneNames[p.Backbone])
		for i, s := range append([]*Stat{p.Plain}, p.Mixed...) {
			v, e := 0.0, math.NaN()
			if s != nil {
				v = s.Mean
				if p.Runs > 1 {
					e = s.Std
				}
			}
			series[i].Values, series[i].Errors = append(series[i].Values, v), append(series[i].Errors, e)
		}
	}
	return categories, series
}

// Markdown renders the report: one row per (data set, backbone) with the plain backbone and each
// mixing method (mean ± std, Δ against the plain backbone in points), the count of gains against
// the paper's claim, the notes (Notes(FigureBackbones)) and a folded provenance block.
func (r *BackboneReport) Markdown() string {
	var b strings.Builder
	b.WriteString("# Figure: GeoMix on other backbones (GAT, APPNP)\n\nTest accuracy of each backbone trained plainly and under GeoMix-I/II/III (the variant's preset with the backbone swapped in). Accuracies in percent, mean ± std over runs; (Δ) is the difference to the plain backbone in points.\n")
	r.Provenance.writeQuickWarning(&b)
	b.WriteString("\n| Dataset | Backbone | plain |")
	for _, m := range r.Methods {
		fmt.Fprintf(&b, " %s |", MethodNames[m])
	}
	b.WriteString(" Time |\n|---|---|---|" + strings.Repeat("---|", len(r.Methods)) + "---|\n")
	for _, p := range r.Panels {
		cols := []string{DatasetNames[p.Dataset], BackboneNames[p.Backbone], "not run"}
		if p.Plain != nil {
			cols[2] = fmt.Sprintf("%.2f ± %.2f", p.Plain.Mean, p.Plain.Std)
		}
		for _, s := range p.Mixed {
			cell := "not run"
			if s != nil {
				cell = fmt.Sprintf("%.2f ± %.2f", s.Mean, s.Std)
				if p.Plain != nil {
					cell += fmt.Sprintf(" (%+.2f)", s.Mean-p.Plain.Mean)
				}
			}
			cols = append(cols, cell)
		}
		cols = append(cols, Duration(p.TrainSeconds))
		fmt.Fprintf(&b, "| %s |\n", strings.Join(cols, " | "))
	}
	compared, above, aboveStd := r.Gains()
	fmt.Fprintf(&b, "\nGeoMix is above the plain backbone in %d of %d comparisons, by more than the plain backbone's std in %d (the paper: \"Geometric Mixup consistently enhances the performance of GAT and APPNP\").\n",
		above, compared, aboveStd)
	r.Provenance.writeFigureFooter(&b, FigureBackbones)
	return b.String()
}

// Points counts the stored points, plain and mixed, of every panel.
func (r *BackboneReport) Points() int {
	n := 0
	for _, p := range r.Panels {
		for _, s := range append([]*Stat{p.Plain}, p.Mixed...) {
			if s != nil {
				n++
			}
		}
	}
	return n
}

// WritePanels writes one line per (data set, backbone) with a stored point, in key=value form (what
// notebooks print and their tests parse); a missing point is "none":
//
//	backbone cora gat: plain=80.14 std=1.70 geomix1=82.10 std=0.90 runs=5 quick=false
func (r *BackboneReport) WritePanels(w io.Writer) error {
	for _, p := range r.Panels {
		if p.Runs == 0 {
			continue
		}
		line := fmt.Sprintf("backbone %s %s: plain=%s", p.Dataset, p.Backbone, statWords(p.Plain))
		for i, m := range r.Methods {
			line += fmt.Sprintf(" %s=%s", m, statWords(p.Mixed[i]))
		}
		if _, err := fmt.Fprintf(w, "%s runs=%d quick=%v\n", line, p.Runs, r.Quick); err != nil {
			return err
		}
	}
	return nil
}
