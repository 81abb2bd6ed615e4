package tables

import (
	"fmt"
	"path/filepath"
)

// PlanCost is the training a planned sweep still needs, from the committed cells' measured costs.
type PlanCost struct {
	// Cells is how many planned cells are not finished (to run, in progress or stale); Measured
	// how many of them have a committed record whose cost is known, the others being estimated
	// from their data set's mean cost per run (cellCost).
	Cells, Measured int
	// Seconds is their training time on one core: an in-progress cell counts its remaining runs.
	Seconds float64
}

// CostOf returns the training the cells not yet finished still need: each cell's committed
// record's seconds per run (measuredCost; else its data set's mean, as the shards balance cells)
// times its runs left.
func CostOf(cells []PlannedCell) PlanCost {
	var c PlanCost
	for _, p := range cells {
		if p.State == StateFinished || p.State == StateShared {
			continue
		}
		runs := p.Runs
		if p.State == StateInProgress {
			runs -= p.Done
		}
		c.Cells++
		if m, ok := measuredCost(p.Path); ok {
			c.Measured++
			c.Seconds += m.Seconds / float64(m.Runs) * float64(runs)
			continue
		}
		c.Seconds += cellCost(p.Path, p.Dataset, runs)
	}
	return c
}

// measuredCost is the committed cost of the record at path: its own, or for a configuration of a
// tuning (DIR/tune/<table>/<dataset>-<method>/<id>.json) the cost of the cell it tunes
// (<table>/<dataset>-<method>), whose protocol it shares.
func measuredCost(path string) (CellCost, bool) {
	if c, ok := committedCosts[costKey(path)]; ok {
		return c, true
	}
	cellDir := filepath.Dir(path)
	if filepath.Base(filepath.Dir(filepath.Dir(cellDir))) != "tune" {
		return CellCost{}, false
	}
	c, ok := committedCosts[filepath.Base(filepath.Dir(cellDir))+"/"+filepath.Base(cellDir)]
	return c, ok
}

// Add returns the sum of two plans' costs.
func (c PlanCost) Add(o PlanCost) PlanCost {
	return PlanCost{Cells: c.Cells + o.Cells, Measured: c.Measured + o.Measured, Seconds: c.Seconds + o.Seconds}
}

// Text says how many of the sweep's units ("cells", "points", "configurations") are left and
// their training time on one core.
func (c PlanCost) Text(units string) string {
	if c.Cells == 0 {
		return "nothing left to train"
	}
	return fmt.Sprintf("%d %s to train, about %s of training on one core (%d at their committed record's measured cost, %d at their data set's mean cost per run)",
		c.Cells, units, Duration(c.Seconds), c.Measured, c.Cells-c.Measured)
}
