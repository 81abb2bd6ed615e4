package tables

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
)

// figureCommittedOrQuick returns what a notebook shows of figure id: the report load(resultsDir)
// when quick is false and it holds a point (count > 0); otherwise (quick, or nothing committed yet)
// the report run(dir) of a quick sweep into a temporary folder, removed afterwards, which it
// describes as quickSweep on log. A quick sweep whose every failed point lacks its data (no data
// root, offline) falls back to the committed points when there are any. It says which on log.
func figureCommittedOrQuick[R any](resultsDir, id string, quick bool, count func(R) int, load func(dir string) (R, error),
	quickSweep string, run func(dir string) (R, error), log io.Writer) (R, error) {
	committed, err := load(resultsDir)
	if err != nil {
		return committed, err
	}
	hasCommitted := count(committed) > 0
	if !quick {
		if hasCommitted {
			fmt.Fprintf(log, "committed points: %s/%s\n", resultsDir, id)
			return committed, nil
		}
		fmt.Fprintf(log, "no committed points under %s/%s yet: running the quick sweep instead\n", resultsDir, id)
	}
	dir, err := os.MkdirTemp("", "geomix-"+id)
	if err != nil {
		return committed, err
	}
	defer os.RemoveAll(dir)
	fmt.Fprintf(log, "quick sweep (NOT the paper's protocol: 1 run, %d epochs): %s\n", QuickEpochs, quickSweep)
	report, err := run(dir)
	var failed *FigureError
	if err != nil && hasCommitted && errors.As(err, &failed) && allMissingData(failed.Failed) {
		fmt.Fprintf(log, "the quick sweep has no data (%v): showing the committed points under %s/%s instead\n", failed.Failed[0].Err, resultsDir, id)
		return committed, nil
	}
	return report, err
}

// GridCommittedOrQuick returns the grid report a notebook shows: the points of grid stored under
// resultsDir when quick is false and at least one is there; otherwise (quick, or nothing committed
// yet) a quick sweep of quickGrid through runner into a temporary folder (see
// figureCommittedOrQuick). command and revision are recorded in the quick sweep's points.
func GridCommittedOrQuick(resultsDir string, grid Grid, quick bool, quickGrid Grid, runner CellRunner, command, revision string, log io.Writer) (*GridReport, error) {
	return figureCommittedOrQuick(resultsDir, FigureHyper, quick, (*GridReport).Points,
		func(dir string) (*GridReport, error) { return LoadGrid(dir, grid) },
		fmt.Sprintf("%v x %v, alpha %v, K %v", quickGrid.Datasets, quickGrid.Methods, quickGrid.Alphas, quickGrid.Hops),
		func(dir string) (*GridReport, error) {
			r, _, err := RunGrid(quickGrid, runner, Options{Quick: true, OutDir: dir, Command: command, GitRevision: revision, Progress: log})
			return r, err
		}, log)
}

// BackboneCommittedOrQuick is GridCommittedOrQuick for the backbone figure: sweep's committed
// points, or a quick sweep of quickSweep.
func BackboneCommittedOrQuick(resultsDir string, sweep BackboneSweep, quick bool, quickSweep BackboneSweep, runner CellRunner, command, revision string, log io.Writer) (*BackboneReport, error) {
	return figureCommittedOrQuick(resultsDir, FigureBackbones, quick, (*BackboneReport).Points,
		func(dir string) (*BackboneReport, error) { return LoadBackbones(dir, sweep) },
		fmt.Sprintf("%v x %v x plain, %v", quickSweep.Datasets, quickSweep.Backbones, quickSweep.Methods),
		func(dir string) (*BackboneReport, error) {
			r, _, err := RunBackbones(quickSweep, runner, Options{Quick: true, OutDir: dir, Command: command, GitRevision: revision, Progress: log})
			return r, err
		}, log)
}

// TSNECommittedOrQuick is GridCommittedOrQuick for the t-SNE figures: sweep's committed
// embeddings, or a quick sweep of quickSweep (QuickEpochs epochs, quickSweep's t-SNE settings).
func TSNECommittedOrQuick(resultsDir string, sweep TSNESweep, quick bool, quickSweep TSNESweep, runner RepresentationRunner, command, revision string, log io.Writer) (*TSNEReport, error) {
	return figureCommittedOrQuick(resultsDir, FigureTSNE, quick, (*TSNEReport).Points,
		func(dir string) (*TSNEReport, error) { return LoadTSNE(dir, sweep) },
		fmt.Sprintf("%v x %v, t-SNE %d iterations", quickSweep.Datasets, quickSweep.Methods, quickSweep.Config.Iterations),
		func(dir string) (*TSNEReport, error) {
			r, _, err := RunTSNE(quickSweep, runner, Options{Quick: true, OutDir: dir, Command: command, GitRevision: revision, Progress: log})
			return r, err
		}, log)
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

// Points counts the stored embeddings.
func (r *TSNEReport) Points() int {
	n := 0
	for _, row := range r.Embeddings {
		for _, e := range row {
			if e != nil {
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

// statWords is "mean std=std" with two decimals, or "none std=none".
func statWords(s *Stat) string {
	if s == nil {
		return "none std=none"
	}
	return fmt.Sprintf("%.2f std=%.2f", s.Mean, s.Std)
}

// WriteEmbeddings writes one line per stored embedding, in key=value form (what notebooks print and
// their tests parse):
//
//	embedding cora gcn: test=81.50 epoch=120 silhouette=0.245 silhouette_tsne=0.226 nodes=2708 quick=false
func (r *TSNEReport) WriteEmbeddings(w io.Writer) error {
	for i, d := range r.Datasets {
		for j, m := range r.Methods {
			if e := r.Embeddings[i][j]; e != nil {
				if _, err := fmt.Fprintf(w, "embedding %s %s: test=%.2f epoch=%d silhouette=%.3f silhouette_tsne=%.3f nodes=%d quick=%v\n",
					d, m, e.TestAcc, e.BestEpoch, e.Silhouette, e.SilhouetteTSNE, len(e.X), e.Quick); err != nil {
					return err
				}
			}
		}
	}
	return nil
}
