package tables

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"github.com/geomix-go/geomix/datasets/pileup"
	"github.com/geomix-go/geomix/geomix"
)

// FigurePileup is the id of the Pileup figure: its points are stored in DIR/figure-pileup/, its
// report in DIR/figure-pileup.md.
const FigurePileup = "figure-pileup"

// PileupMethods are the methods of the Pileup figure, ERM (GCN) first: the others are compared
// with it.
var PileupMethods = []string{"gcn", "dann", "mixup", "graphmix", "geomix1", "geomix2", "geomix3"}

// PileupSweep is the paper's figure "generalization task in Pileup Mitigation": each method trained
// on each shift's source events with the shift's preset and scored on its target events.
type PileupSweep struct {
	// Shifts (pileup.Shifts' names) and Methods (PileupMethods) are swept in this order.
	Shifts, Methods []string
}

// DefaultPileupSweep is what `reproduce figure-pileup` trains without flags: the six shifts and
// the seven methods.
func DefaultPileupSweep() PileupSweep {
	s := PileupSweep{Methods: slices.Clone(PileupMethods)}
	for _, sh := range pileup.Shifts {
		s.Shifts = append(s.Shifts, sh.Name)
	}
	return s
}

// QuickPileupShifts are the shifts a quick sweep trains unless shifts are named.
var QuickPileupShifts = []string{"gg-pu10-pu30"}

// Check returns an error naming the first shift or method the sweep cannot run, or one given twice.
func (s PileupSweep) Check() error {
	if len(s.Shifts) == 0 || len(s.Methods) == 0 {
		return fmt.Errorf("tables: %s needs at least one shift and method, got %d and %d", FigurePileup, len(s.Shifts), len(s.Methods))
	}
	for _, sh := range s.Shifts {
		if _, err := pileup.ShiftByName(sh); err != nil {
			return fmt.Errorf("tables: %s: %w", FigurePileup, err)
		}
	}
	for _, m := range s.Methods {
		if !slices.Contains(PileupMethods, m) {
			return fmt.Errorf("tables: %s trains %s; got method %q", FigurePileup, strings.Join(PileupMethods, ", "), m)
		}
	}
	if hasDuplicate(s.Shifts) || hasDuplicate(s.Methods) {
		return fmt.Errorf("tables: %s: a shift or method is given twice", FigurePileup)
	}
	return nil
}

// PileupRecordPath is where method on shift is stored under dir: dir/figure-pileup/<shift>-<method>.json.
func PileupRecordPath(dir, shift, method string) string {
	return filepath.Join(dir, FigurePileup, shift+"-"+method+".json")
}

// id is FigurePileup.
func (s PileupSweep) id() string { return FigurePileup }

// points lists the sweep's points shift by shift. They have no checkpoint: each run's metrics are
// taken when it ends, so an interrupted point reruns whole.
func (s PileupSweep) points(opts Options) []cell {
	var points []cell
	for _, sh := range s.Shifts {
		for _, m := range s.Methods {
			c := newPoint(opts, PileupPrefix+sh, m, nil, strings.TrimSuffix(PileupRecordPath(opts.OutDir, sh, m), ".json"))
			c.Checkpoint = ""
			points = append(points, c)
		}
	}
	return points
}

// RunPileup trains every point of sweep through runner, opts.Jobs at a time, writing each finished
// point (its Result and PileupCell) atomically to PileupRecordPath, then renders
// OutDir/figure-pileup.md from every stored point. Finished points are skipped unless opts.Force;
// opts.Datasets and opts.Methods are ignored (sweep names them). A failed point does not stop the
// others; RunPileup then returns a *FigureError.
func RunPileup(sweep PileupSweep, runner PileupRunner, opts Options) (*PileupReport, string, error) {
	var mu sync.Mutex
	cells := map[string]*PileupCell{}
	cellRunner := func(c Cell) (*geomix.Result, error) {
		res, pc, err := runner(c)
		if err == nil && (pc == nil || len(pc.Runs) != c.Runs) {
			return nil, fmt.Errorf("pileup runner returned metrics of %d runs, want %d", pileupRuns(pc), c.Runs)
		}
		mu.Lock()
		defer mu.Unlock()
		cells[c.String()] = pc
		return res, err
	}
	opts.annotate = func(c Cell, r *Record) error {
		mu.Lock()
		defer mu.Unlock()
		r.Pileup = cells[c.String()]
		return nil
	}
	return sweepFigure(sweep, cellRunner, opts, func(o Options) (*PileupReport, string, error) { return WritePileupReport(sweep, o) })
}

// pileupRuns is the number of runs pc holds (0 for nil).
func pileupRuns(pc *PileupCell) int {
	if pc == nil {
		return 0
	}
	return len(pc.Runs)
}

// PlanPileup returns what RunPileup would do with sweep and opts, point by point.
func PlanPileup(sweep PileupSweep, opts Options) ([]PlannedCell, error) {
	return planFigure(sweep, opts)
}
