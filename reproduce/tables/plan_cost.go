package tables

import "fmt"

// PlanCost is the training a planned sweep still needs, from the committed cells' measured costs.
type PlanCost struct {
	// Cells is how many planned cells are not finished (to run, in progress or stale); Measured
	// how many of them have a committed record whose cost is known, the others being estimated
	// from the committed cells of their data set and of their kind (estimatedPerRun).
	Cells, Measured int
	// Seconds is their training time on one core: an in-progress cell counts its remaining runs.
	Seconds float64
}

// CostOf returns the training the cells not yet finished still need, as the shards weigh them
// (cellCost): each cell's committed seconds per run (measuredCost), else its estimate
// (estimatedPerRun), times its runs left.
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
		if _, ok := measuredCost(p.Path); ok {
			c.Measured++
		}
		c.Seconds += cellCost(p.Path, p.Dataset, runs)
	}
	return c
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
	return fmt.Sprintf("%d %s to train, about %s of training on one core (%d at their committed record's measured cost, %d estimated from their data set's and their method's other cells)",
		c.Cells, units, Duration(c.Seconds), c.Measured, c.Cells-c.Measured)
}
