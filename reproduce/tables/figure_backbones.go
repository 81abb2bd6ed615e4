package tables

import (
	"fmt"
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
// variant's preset with backbones.ParamBackbone set to it), on each data set; on twitch-ood each
// point is also tested on the OOD graphs FR, PTBR and RU (its OOD panel). The .tex holds no
// numbers, only the claim that GeoMix consistently enhances GAT and APPNP on standard and OOD tasks.
type BackboneSweep struct {
	// Datasets, Backbones and Methods (BackboneMixings) are swept in this order.
	Datasets, Backbones, Methods []string
}

// DefaultBackboneSweep is what `reproduce figure-backbones` trains without flags: GAT and APPNP,
// plain and under GeoMix-I/II/III, on Cora, CiteSeer and twitch-ood (the paper's OOD panel, with
// the Twitch script's settings; its records hold the FR, PTBR and RU accuracies).
func DefaultBackboneSweep() BackboneSweep {
	return BackboneSweep{Datasets: []string{"cora", "citeseer", "twitch-ood"}, Backbones: []string{"gat", "appnp"}, Methods: slices.Clone(BackboneMixings)}
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
