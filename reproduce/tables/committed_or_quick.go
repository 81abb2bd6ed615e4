package tables

import (
	"errors"
	"fmt"
	"io"
	"os"

	geodata "github.com/geomix-go/geomix/datasets"
)

// CommittedOrQuick returns the comparison of table with the paper that a notebook or a preview
// shows: the records under resultsDir when quick is false and at least one cell has results there;
// otherwise (quick, or nothing committed yet) a quick sweep of datasets × methods through runner
// into a temporary folder, removed afterwards. A quick sweep whose every failed cell lacks its
// data (datasets.ErrMissing: no data root, offline) falls back to the committed records when there
// are any. It says which on log. command and revision are recorded in the quick sweep's cells.
func CommittedOrQuick(resultsDir, table string, quick bool, datasets, methods []string, runner CellRunner, command, revision string, log io.Writer) (*Report, error) {
	committed, err := LoadReport(resultsDir, table)
	if err != nil {
		return nil, err
	}
	hasCommitted := len(committed.WithResults().Rows) > 0
	if !quick {
		if hasCommitted {
			fmt.Fprintf(log, "committed results: %s/%s\n", resultsDir, table)
			return committed, nil
		}
		fmt.Fprintf(log, "no committed results under %s/%s yet: running the quick subset instead\n", resultsDir, table)
	}
	spec, err := SpecFor(table)
	if err != nil {
		return nil, err
	}
	dir, err := os.MkdirTemp("", "geomix-"+table)
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	fmt.Fprintf(log, "quick sweep (NOT the paper's protocol: 1 run, %d epochs): %v x %v\n", QuickEpochs, datasets, methods)
	sweep, err := Run(spec, runner, Options{Datasets: datasets, Methods: methods, Quick: true,
		OutDir: dir, Command: command, GitRevision: revision, Progress: log})
	if err != nil {
		if hasCommitted && sweep != nil && len(sweep.Failed) > 0 && allMissingData(sweep.Failed) {
			fmt.Fprintf(log, "the quick sweep has no data (%v): showing the committed results under %s/%s instead\n", sweep.Failed[0].Err, resultsDir, table)
			return committed, nil
		}
		return nil, err
	}
	return sweep.Report, nil
}

// allMissingData reports whether every failed cell failed for a missing data file.
func allMissingData(failed []CellError) bool {
	for _, f := range failed {
		if !errors.Is(f.Err, geodata.ErrMissing) {
			return false
		}
	}
	return true
}

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
