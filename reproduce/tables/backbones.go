package tables

import (
	"fmt"
	"math"
	"path/filepath"
	"slices"
	"strings"

	"github.com/geomix-go/geomix/geomix"
	"github.com/geomix-go/geomix/geomix/backbones"
	"github.com/geomix-go/geomix/geomix/methods"
)

// FigureBackbones is the id of the backbone figure: its points are stored in
// DIR/figure-backbones/, its report in DIR/figure-backbones.md.
const FigureBackbones = "figure-backbones"

// BackboneMixings are the methods a BackboneSweep puts on each backbone.
var BackboneMixings = []string{"geomix1", "geomix2", "geomix3"}

// BackboneSweep is the paper's figure "Results with other underlying GNN architectures": each
// backbone trained plainly (its baseline preset, as in Table 2) and under each GeoMix variant (the
// variant's preset with backbones.ParamBackbone set to it), on each data set. The .tex holds no
// numbers, only the claim that GeoMix consistently enhances GAT and APPNP.
type BackboneSweep struct {
	Datasets, Backbones, Methods []string
}

// DefaultBackboneSweep is what `reproduce figure-backbones` trains without flags: GAT and APPNP,
// plain and under GeoMix-I/II/III, on Cora and CiteSeer.
func DefaultBackboneSweep() BackboneSweep {
	return BackboneSweep{Datasets: []string{"cora", "citeseer"}, Backbones: []string{"gat", "appnp"}, Methods: slices.Clone(BackboneMixings)}
}

// Check returns an error naming the first data set, backbone or method the sweep cannot run, or a
// value given twice.
func (s BackboneSweep) Check() error {
	if len(s.Datasets) == 0 || len(s.Backbones) == 0 || len(s.Methods) == 0 {
		return fmt.Errorf("tables: %s needs at least one data set, backbone and method, got %d, %d, %d",
			FigureBackbones, len(s.Datasets), len(s.Backbones), len(s.Methods))
	}
	for _, d := range s.Datasets {
		if _, err := geomix.PresetFor(d, s.Methods[0]); err != nil {
			return fmt.Errorf("tables: %s: %w", FigureBackbones, err)
		}
	}
	for _, b := range s.Backbones {
		if m, err := methods.New(b); err != nil || !methods.IsBaseline(b) || m.Backbone("") != b {
			return fmt.Errorf("tables: %s: %q is not a backbone with its own baseline (e.g. gat, appnp, sgc, gcn)", FigureBackbones, b)
		}
		if _, err := backbones.ByName(b); err != nil {
			return fmt.Errorf("tables: %s: %w", FigureBackbones, err)
		}
	}
	for _, m := range s.Methods {
		if !slices.Contains(BackboneMixings, m) {
			return fmt.Errorf("tables: %s puts %s on a backbone; got method %q", FigureBackbones, strings.Join(BackboneMixings, ", "), m)
		}
	}
	for name, dup := range map[string]bool{"data set": hasDuplicate(s.Datasets), "backbone": hasDuplicate(s.Backbones), "method": hasDuplicate(s.Methods)} {
		if dup {
			return fmt.Errorf("tables: %s: a %s is given twice", FigureBackbones, name)
		}
	}
	return nil
}

// BackboneRecordPath is where backbone on dataset is stored under dir: plain (method == backbone)
// in dir/figure-backbones/<dataset>-<backbone>.json, under a mixing method in
// dir/figure-backbones/<dataset>-<backbone>-<method>.json.
func BackboneRecordPath(dir, dataset, backbone, method string) string {
	name := dataset + "-" + backbone
	if method != backbone {
		name += "-" + method
	}
	return filepath.Join(dir, FigureBackbones, name+".json")
}

// backbonePoint is the cell of backbone on dataset, plainly (method == backbone) or under method.
func backbonePoint(dataset, backbone, method string) Cell {
	return Cell{Dataset: dataset, Method: method, Params: map[string]any{backbones.ParamBackbone: backbone}}
}

// id is FigureBackbones.
func (s BackboneSweep) id() string { return FigureBackbones }

// points lists the sweep's points data set by data set and backbone by backbone, the plain
// backbone first.
func (s BackboneSweep) points(opts Options) []cell {
	var points []cell
	for _, d := range s.Datasets {
		for _, b := range s.Backbones {
			for _, m := range append([]string{b}, s.Methods...) {
				c := backbonePoint(d, b, m)
				points = append(points, newPoint(opts, d, m, c.Params, strings.TrimSuffix(BackboneRecordPath(opts.OutDir, d, b, m), ".json")))
			}
		}
	}
	return points
}

// RunBackbones trains every point of sweep through runner, opts.Jobs at a time, writing each
// finished point atomically to BackboneRecordPath, then renders OutDir/figure-backbones.md from
// every stored point. Finished points are skipped unless opts.Force and interrupted ones resume
// from their checkpoints, as in Run; opts.Datasets and opts.Methods are ignored (sweep names them).
// A failed point does not stop the others; RunBackbones then returns a *FigureError.
func RunBackbones(sweep BackboneSweep, runner CellRunner, opts Options) (*BackboneReport, string, error) {
	return sweepFigure(sweep, runner, opts, func(o Options) (*BackboneReport, string, error) { return WriteBackboneReport(sweep, o) })
}

// PlanBackbones returns what RunBackbones would do with sweep and opts, point by point.
func PlanBackbones(sweep BackboneSweep, opts Options) ([]PlannedCell, error) {
	return planFigure(sweep, opts)
}

// BackboneReport is a BackboneSweep's stored points: one panel per (data set, backbone).
type BackboneReport struct {
	Figure string `json:"figure"`
	Provenance
	// Methods are the mixing methods of every panel, in sweep order.
	Methods []string        `json:"methods"`
	Panels  []BackbonePanel `json:"panels"`
}

// BackbonePanel is one backbone on one data set, plainly and under each mixing method.
type BackbonePanel struct {
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

// BackboneNames are the backbones' printed names.
var BackboneNames = map[string]string{"gat": "GAT", "appnp": "APPNP", "sgc": "SGC", "gcn": "GCN", "mlp": "MLP", "gcnconv": "GCN (PyG GCNConv)"}

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

// Markdown renders the report: a header (command, date, machine, revisions, quick warning, notes),
// one row per (data set, backbone) with the plain backbone and each mixing method (mean ± std, Δ
// against the plain backbone in points), and the count of gains against the paper's claim.
func (r *BackboneReport) Markdown() string {
	var b strings.Builder
	b.WriteString("# Figure: GeoMix on other backbones (GAT, APPNP)\n\nTest accuracy of each backbone trained plainly and under GeoMix-I/II/III (the variant's preset with the backbone swapped in).\n\n")
	r.Provenance.writeFigureHeader(&b, FigureBackbones)
	b.WriteString("\nAccuracies in percent, mean ± std over runs; (Δ) is the difference to the plain backbone in points.\n\n| Dataset | Backbone | plain |")
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
	return b.String()
}
