package tables

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
)

// GridCommittedOrQuick returns the grid report a notebook shows: the points of grid stored under
// resultsDir when quick is false and at least one is there; otherwise (quick, or nothing committed
// yet) a quick sweep of quickGrid through runner into a temporary folder, removed afterwards. A
// quick sweep whose every failed point lacks its data (no data root, offline) falls back to the
// committed points when there are any. It says which on log; command and revision are recorded in
// the quick sweep's points.
func GridCommittedOrQuick(resultsDir string, grid Grid, quick bool, quickGrid Grid, runner CellRunner, command, revision string, log io.Writer) (*GridReport, error) {
	committed, err := LoadGrid(resultsDir, grid)
	if err != nil {
		return nil, err
	}
	hasCommitted := committed.Points() > 0
	if !quick {
		if hasCommitted {
			fmt.Fprintf(log, "committed points: %s/%s\n", resultsDir, FigureHyper)
			return committed, nil
		}
		fmt.Fprintf(log, "no committed points under %s/%s yet: running the quick grid instead\n", resultsDir, FigureHyper)
	}
	dir, err := os.MkdirTemp("", "geomix-"+FigureHyper)
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	fmt.Fprintf(log, "quick grid (NOT the paper's protocol: 1 run, %d epochs): %v x %v, alpha %v, K %v\n",
		QuickEpochs, quickGrid.Datasets, quickGrid.Methods, quickGrid.Alphas, quickGrid.Hops)
	report, _, err := RunGrid(quickGrid, runner, Options{Quick: true, OutDir: dir, Command: command, GitRevision: revision, Progress: log})
	var failed *FigureError
	if err != nil && hasCommitted && errors.As(err, &failed) && allMissingData(failed.Failed) {
		fmt.Fprintf(log, "the quick grid has no data (%v): showing the committed points under %s/%s instead\n", failed.Failed[0].Err, resultsDir, FigureHyper)
		return committed, nil
	}
	return report, err
}

// Points counts the stored points of every panel.
func (r *GridReport) Points() int {
	n := 0
	for _, p := range r.Panels {
		for _, row := range p.Acc {
			for _, s := range row {
				if s != nil {
					n++
				}
			}
		}
	}
	return n
}

// WritePoints writes one line per stored point, in key=value form (what notebooks print and their
// tests parse):
//
//	point cora geomix1 alpha=0.1 hops=3: acc=83.82 std=0.72 runs=5 quick=false preset=true best=true
//
// best marks the K of the highest mean at that α (GridPanel.BestHops).
func (r *GridReport) WritePoints(w io.Writer) error {
	for _, p := range r.Panels {
		best := p.BestHops()
		for i, k := range p.Hops {
			for j, a := range p.Alphas {
				s := p.Acc[i][j]
				if s == nil {
					continue
				}
				if _, err := fmt.Fprintf(w, "point %s %s alpha=%s hops=%d: acc=%.2f std=%.2f runs=%d quick=%v preset=%v best=%v\n",
					p.Dataset, p.Method, strconv.FormatFloat(a, 'g', -1, 64), k, s.Mean, s.Std, p.Runs, r.Quick,
					a == p.PresetAlpha && k == p.PresetHops, best[j] == k); err != nil {
					return err
				}
			}
		}
	}
	return nil
}
