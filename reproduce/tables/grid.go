package tables

import (
	"fmt"
	"math"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/geomix-go/geomix/geomix"
	"github.com/geomix-go/geomix/geomix/methods"
)

// FigureHyper is the id of the hyper-parameter figure: its points are stored in
// DIR/figure-hyper/, its report in DIR/figure-hyper.md.
const FigureHyper = "figure-hyper"

// GridMethods are the methods a Grid sweeps: the GeoMix variants whose mixing α weighs
// (GeoMix-III's residual is ParamResWeight).
var GridMethods = []string{"geomix1", "geomix2"}

// Grid is a sweep of GeoMix-I/II over the locality weight α (methods.ParamAlpha) and the number of
// mixup hops K (methods.ParamHops), every other hyper-parameter from the data set's preset: the
// paper's appendix figure "Impacts of α and Mixup hop on Geometric Mixup", whose numbers the .tex
// does not hold (only its claim that 2 hops generally do best).
type Grid struct {
	Datasets, Methods []string
	Alphas            []float64
	Hops              []int
}

// DefaultGrid is what `reproduce figure-hyper` sweeps without flags: GeoMix-I and -II on Cora and
// CiteSeer, α ∈ {0, 0.1, 0.3, 0.5, 0.7, 0.9} and K ∈ {1, 2, 3, 4}.
func DefaultGrid() Grid {
	return Grid{Datasets: []string{"cora", "citeseer"}, Methods: slices.Clone(GridMethods),
		Alphas: []float64{0, 0.1, 0.3, 0.5, 0.7, 0.9}, Hops: []int{1, 2, 3, 4}}
}

// Check returns an error naming the first data set, method, α or K a sweep cannot run, or a value
// given twice.
func (g Grid) Check() error {
	if len(g.Datasets) == 0 || len(g.Methods) == 0 || len(g.Alphas) == 0 || len(g.Hops) == 0 {
		return fmt.Errorf("tables: %s needs at least one data set, method, alpha and hop count, got %d, %d, %d, %d",
			FigureHyper, len(g.Datasets), len(g.Methods), len(g.Alphas), len(g.Hops))
	}
	for _, d := range g.Datasets {
		if _, err := geomix.PresetFor(d, g.Methods[0]); err != nil {
			return fmt.Errorf("tables: %s: %w", FigureHyper, err)
		}
	}
	for _, m := range g.Methods {
		if !slices.Contains(GridMethods, m) {
			return fmt.Errorf("tables: %s sweeps alpha, which only %s weigh; got method %q", FigureHyper, strings.Join(GridMethods, " and "), m)
		}
	}
	for _, a := range g.Alphas {
		if !(a >= 0 && a <= 1) {
			return fmt.Errorf("tables: %s: alpha %v outside [0, 1]", FigureHyper, a)
		}
	}
	for _, k := range g.Hops {
		if k < 1 {
			return fmt.Errorf("tables: %s: hops %d, want >= 1", FigureHyper, k)
		}
	}
	for name, dup := range map[string]bool{"data set": hasDuplicate(g.Datasets), "method": hasDuplicate(g.Methods),
		"alpha": hasDuplicate(g.Alphas), "hop count": hasDuplicate(g.Hops)} {
		if dup {
			return fmt.Errorf("tables: %s: a %s is given twice", FigureHyper, name)
		}
	}
	return nil
}

// hasDuplicate reports whether a value occurs twice in list.
func hasDuplicate[T comparable](list []T) bool {
	seen := map[T]bool{}
	for _, v := range list {
		if seen[v] {
			return true
		}
		seen[v] = true
	}
	return false
}

// GridRecordPath is where the point (alpha, hops) of method on dataset is stored under dir:
// dir/figure-hyper/<dataset>-<method>-alpha<α>-hops<K>.json.
func GridRecordPath(dir, dataset, method string, alpha float64, hops int) string {
	return filepath.Join(dir, FigureHyper, gridPointName(dataset, method, alpha, hops)+".json")
}

// gridPointName is a point's file name without extension.
func gridPointName(dataset, method string, alpha float64, hops int) string {
	return fmt.Sprintf("%s-%s-alpha%s-hops%d", dataset, method, strconv.FormatFloat(alpha, 'g', -1, 64), hops)
}

// RunGrid trains every point of grid through runner (methods.ParamAlpha and methods.ParamHops set in
// Cell.Params over the preset), opts.Jobs at a time, writing each finished point atomically to
// GridRecordPath, then renders OutDir/figure-hyper.md from every stored point. Points with a record
// of the same runs and quick setting are skipped unless opts.Force, and an interrupted point resumes
// at its run from its checkpoint, as in Run. opts.Datasets and opts.Methods are ignored (grid
// names them). A failed point does not stop the others; RunGrid then returns a *FigureError.
func RunGrid(grid Grid, runner CellRunner, opts Options) (*GridReport, string, error) {
	return sweepFigure(grid, runner, opts, func(o Options) (*GridReport, string, error) { return WriteGridReport(grid, o) })
}

// PlanGrid returns what RunGrid would do with grid and opts, point by point, without training.
func PlanGrid(grid Grid, opts Options) ([]PlannedCell, error) {
	return planFigure(grid, opts)
}

// id is FigureHyper.
func (g Grid) id() string { return FigureHyper }

// points lists the grid's points data set by data set, method by method, K by K and α by α.
func (g Grid) points(opts Options) []cell {
	var points []cell
	for _, d := range g.Datasets {
		for _, m := range g.Methods {
			for _, k := range g.Hops {
				for _, a := range g.Alphas {
					path := strings.TrimSuffix(GridRecordPath(opts.OutDir, d, m, a, k), ".json")
					points = append(points, newPoint(opts, d, m, map[string]any{methods.ParamAlpha: a, methods.ParamHops: k}, path))
				}
			}
		}
	}
	return points
}

// GridReport is a Grid's stored points: one panel per (data set, method).
type GridReport struct {
	Figure string `json:"figure"`
	Provenance
	Panels []GridPanel `json:"panels"`
}

// GridPanel is the test accuracy of one method on one data set at every (K, α) of a Grid.
type GridPanel struct {
	Dataset string    `json:"dataset"`
	Method  string    `json:"method"`
	Alphas  []float64 `json:"alphas"`
	Hops    []int     `json:"hops"`
	// Acc is [len(Hops)][len(Alphas)]: mean ± std over runs in percent, nil where no point is stored.
	Acc [][]*Stat `json:"acc"`
	pointTally
	// PresetAlpha and PresetHops are the point of the authors' script row.
	PresetAlpha float64 `json:"preset_alpha"`
	PresetHops  int     `json:"preset_hops"`
}

// LoadGrid reads grid's stored points under dir (a missing point is a nil Acc entry; an unreadable
// record is an error naming it).
func LoadGrid(dir string, grid Grid) (*GridReport, error) {
	if err := grid.Check(); err != nil {
		return nil, err
	}
	r := &GridReport{Figure: FigureHyper, Provenance: newProvenance()}
	for _, d := range grid.Datasets {
		for _, m := range grid.Methods {
			preset, err := geomix.PresetFor(d, m)
			if err != nil {
				return nil, err
			}
			p := GridPanel{Dataset: d, Method: m, Alphas: grid.Alphas, Hops: grid.Hops, Acc: make([][]*Stat, len(grid.Hops))}
			p.PresetAlpha, _ = preset.Params[methods.ParamAlpha].(float64)
			p.PresetHops, _ = preset.Params[methods.ParamHops].(int)
			for i, k := range grid.Hops {
				p.Acc[i] = make([]*Stat, len(grid.Alphas))
				for j, a := range grid.Alphas {
					point := Cell{Dataset: d, Method: m, Params: map[string]any{methods.ParamAlpha: a, methods.ParamHops: k}}
					if p.Acc[i][j], err = loadPoint(GridRecordPath(dir, d, m, a, k), FigureHyper, point, &p.pointTally, &r.Provenance); err != nil {
						return nil, err
					}
				}
			}
			r.Panels = append(r.Panels, p)
		}
	}
	return r, nil
}

// WriteGridReport renders OutDir/figure-hyper.md (atomically) from grid's stored points without
// training anything, and returns the report and its path.
func WriteGridReport(grid Grid, opts Options) (*GridReport, string, error) {
	opts = opts.withOutDir()
	report, err := LoadGrid(opts.OutDir, grid)
	if err != nil {
		return nil, "", err
	}
	report.Command = opts.Command
	path, err := writeFigureReport(opts, FigureHyper, report.Markdown())
	return report, path, err
}

// BestHops returns, for every α of the panel, the K of the highest mean test accuracy (the smaller
// K on a tie), or 0 when a point of that α is missing.
func (p GridPanel) BestHops() []int {
	best := make([]int, len(p.Alphas))
	for j := range p.Alphas {
		top := math.Inf(-1)
		for i, k := range p.Hops {
			s := p.Acc[i][j]
			if s == nil {
				best[j] = 0
				break
			}
			if s.Mean > top {
				top, best[j] = s.Mean, k
			}
		}
	}
	return best
}

// Heatmap returns the panel's mean test accuracies as labelled rows (K, [len(Hops)]) and columns
// (α, [len(Alphas)]), NaN where a point is missing: the input of a viz.Heatmap.
func (p GridPanel) Heatmap() (alphaLabels, hopLabels []string, values [][]float64) {
	for _, a := range p.Alphas {
		alphaLabels = append(alphaLabels, strconv.FormatFloat(a, 'g', -1, 64))
	}
	for i, k := range p.Hops {
		hopLabels = append(hopLabels, strconv.Itoa(k))
		row := make([]float64, len(p.Alphas))
		for j, s := range p.Acc[i] {
			row[j] = math.NaN()
			if s != nil {
				row[j] = s.Mean
			}
		}
		values = append(values, row)
	}
	return alphaLabels, hopLabels, values
}

// Title names the panel, e.g. "Cora, GeoMix-I".
func (p GridPanel) Title() string {
	return DatasetNames[p.Dataset] + ", " + MethodNames[p.Method]
}

// Markdown renders the report: a header (command, date, machine, revisions, quick warning, notes),
// then per panel a K × α table of mean ± std with the best mean in bold and the preset's point
// marked †, and the best K for every α against the paper's claim.
func (r *GridReport) Markdown() string {
	var b strings.Builder
	b.WriteString("# Figure (appendix): impact of α and mixup hops K on GeoMix\n\n")
	b.WriteString("Test accuracy of GeoMix-I/II over a grid of the locality weight α and the number of mixup hops K; every other hyper-parameter is the data set's preset.\n\n")
	r.Provenance.writeFigureHeader(&b, FigureHyper)
	for _, p := range r.Panels {
		fmt.Fprintf(&b, "\n## %s\n\n", p.Title())
		fmt.Fprintf(&b, "Preset point † α = %g, K = %d; %d runs per point; training time %s.\n\n", p.PresetAlpha, p.PresetHops, p.Runs, Duration(p.TrainSeconds))
		b.WriteString("| K \\ α |")
		for _, a := range p.Alphas {
			fmt.Fprintf(&b, " %g |", a)
		}
		b.WriteString("\n|---|" + strings.Repeat("---|", len(p.Alphas)) + "\n")
		best := p.BestHops()
		for i, k := range p.Hops {
			fmt.Fprintf(&b, "| %d |", k)
			for j, a := range p.Alphas {
				cell := "not run"
				if s := p.Acc[i][j]; s != nil {
					cell = fmt.Sprintf("%.2f ± %.2f", s.Mean, s.Std)
					if best[j] == k {
						cell = "**" + cell + "**"
					}
				}
				if a == p.PresetAlpha && k == p.PresetHops {
					cell += " †"
				}
				fmt.Fprintf(&b, " %s |", cell)
			}
			b.WriteString("\n")
		}
		b.WriteString("\n" + bestHopsLine(p, best) + "\n")
	}
	return b.String()
}

// bestHopsLine says which K does best at every complete α of p (best is p.BestHops()), how often
// that is K = 2 (the paper's claim), and how often K = 2's mean is within the best point's std of
// the best mean.
func bestHopsLine(p GridPanel, best []int) string {
	two := slices.Index(p.Hops, 2)
	var parts []string
	complete, isBest, near := 0, 0, 0
	for j, k := range best {
		if k == 0 {
			continue
		}
		complete++
		parts = append(parts, fmt.Sprintf("α %g: K = %d", p.Alphas[j], k))
		if two < 0 {
			continue
		}
		top := p.Acc[slices.Index(p.Hops, k)][j]
		if k == 2 {
			isBest++
		}
		if top.Mean-p.Acc[two][j].Mean <= top.Std {
			near++
		}
	}
	if complete == 0 {
		return "Best K per α: no α has all its points yet."
	}
	line := fmt.Sprintf("Best K per α (bold): %s.", strings.Join(parts, ", "))
	if two >= 0 {
		line += fmt.Sprintf(" K = 2 is the best at %d of %d α values, and within one std (the best point's) of the best at %d (the paper: \"using 2 hops generally yields the most competitive performance\").",
			isBest, complete, near)
	}
	return line
}
