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
	// OOD are the data set's OOD test graphs (twitch-ood: FR, PTBR, RU; none elsewhere) with each
	// point's accuracy on them; Features the twitch_features values of the stored points.
	OOD      []BackboneOOD `json:"ood,omitempty"`
	Features []string      `json:"twitch_features,omitempty"`
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
			p := BackbonePanel{Dataset: d, Backbone: b, Mixed: make([]*Stat, len(sweep.Methods)), OOD: oodGraphs(d, len(sweep.Methods))}
			for i, m := range append([]string{b}, sweep.Methods...) {
				path := BackboneRecordPath(dir, d, b, m)
				rec, err := loadPointRecord(path, FigureBackbones, backbonePoint(d, b, m), &p.pointTally, &r.Provenance)
				if err == nil {
					err = p.addOOD(i, rec, path)
				}
				if err != nil {
					return nil, err
				}
				var s *Stat
				if rec != nil {
					s = &Stat{Mean: rec.TestAccMean, Std: rec.TestAccStd}
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

// Gains counts the comparisons (Comparisons(ood): the standard data sets' test accuracy, or the OOD
// graphs') with both points stored, those where the mixing method's mean is above the plain
// backbone's, and those where it is above by more than the plain backbone's std.
func (r *BackboneReport) Gains(ood bool) (compared, above, aboveStd int) {
	for _, c := range r.Comparisons(ood) {
		if c.Mixed == nil || c.Plain == nil {
			continue
		}
		compared++
		if c.Mixed.Mean > c.Plain.Mean {
			above++
		}
		if c.Mixed.Mean > c.Plain.Mean+c.Plain.Std {
			aboveStd++
		}
	}
	return compared, above, aboveStd
}

// Bars returns the panels of dataset as bar-chart data: one category per backbone (per backbone and
// OOD graph on an OOD data set, with the OOD accuracies), one series for the plain backbones and one
// per mixing method, mean ± std (no error bar for a single run, zero height where no point is
// stored).
func (r *BackboneReport) Bars(dataset string) (categories []string, series []BarValues) {
	series = append(series, BarValues{Name: "plain"})
	for _, m := range r.Methods {
		series = append(series, BarValues{Name: MethodNames[m]})
	}
	add := func(category string, points []*Stat, runs int) {
		categories = append(categories, category)
		for i, s := range points {
			v, e := 0.0, math.NaN()
			if s != nil {
				v = s.Mean
				if runs > 1 {
					e = s.Std
				}
			}
			series[i].Values, series[i].Errors = append(series[i].Values, v), append(series[i].Errors, e)
		}
	}
	for _, p := range r.Panels {
		if p.Dataset != dataset {
			continue
		}
		if len(p.OOD) == 0 {
			add(BackboneNames[p.Backbone], append([]*Stat{p.Plain}, p.Mixed...), p.Runs)
		}
		for _, g := range p.OOD {
			add(BackboneNames[p.Backbone]+" · "+strings.TrimPrefix(DatasetNames[g.Column], "Twitch-"), append([]*Stat{g.Plain}, g.Mixed...), p.Runs)
		}
	}
	return categories, series
}

// Markdown renders the report: one row per (data set, backbone) with the plain backbone and each
// mixing method (mean ± std, Δ against the plain backbone in points), the OOD panel (writeOOD), the
// paper's claim counted (writeBackboneClaims), the notes (Notes(FigureBackbones)) and a folded
// provenance block.
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
		cols := []string{backboneDatasetName(p.Dataset), BackboneNames[p.Backbone], statOr(p.Plain, "not yet run")}
		for _, s := range p.Mixed {
			cols = append(cols, deltaCell(s, p.Plain))
		}
		if p.Runs == 0 {
			cols = append(cols, "—")
		} else {
			cols = append(cols, Duration(p.TrainSeconds))
		}
		fmt.Fprintf(&b, "| %s |\n", strings.Join(cols, " | "))
	}
	r.writeOOD(&b)
	r.writeBackboneClaims(&b)
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
// notebooks print and their tests parse; an OOD data set's line adds <set>_plain and <set>_<method>
// for each OOD graph); a missing point is "none":
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
		for _, g := range p.OOD {
			line += fmt.Sprintf(" %s_plain=%s", g.Set, statWords(g.Plain))
			for i, m := range r.Methods {
				line += fmt.Sprintf(" %s_%s=%s", g.Set, m, statWords(g.Mixed[i]))
			}
		}
		if _, err := fmt.Fprintf(w, "%s runs=%d quick=%v\n", line, p.Runs, r.Quick); err != nil {
			return err
		}
	}
	return nil
}
