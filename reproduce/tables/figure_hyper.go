package tables

import (
	"fmt"
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
	// Datasets and Methods are the panels' data sets and GridMethods, in sweep order.
	Datasets, Methods []string
	// Alphas are the values of α in [0, 1], Hops the numbers of mixup hops K >= 1.
	Alphas []float64
	Hops   []int
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
