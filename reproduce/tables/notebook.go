package tables

import (
	"io"
	"path/filepath"
	"strings"

	"github.com/geomix-go/geomix/datasets"
	"github.com/geomix-go/geomix/geomix"
)

// Notebook is what a notebook shows of a table or figure: the results committed under the
// repository's results/ folder, or a quick sweep (see CommittedOrQuick) trained with PresetCells on
// geomix.NewBackend. Its methods are the notebooks' one-line entry points.
type Notebook struct {
	// RepoDir is the repository root: results are read from RepoDir/results, and the quick
	// sweep's cells record RepoDir's git revision.
	RepoDir string
	// Data is how quick sweeps read their data sets (Root: the data root).
	Data datasets.Options
	// Quick asks for the quick sweep even when results are committed (GEOMIX_QUICK=1).
	Quick bool
	// Source names the notebook in the quick sweep's records, e.g. "notebooks/02-table2.ipynb".
	Source string
	// Log receives which results are shown (nil: discarded), with paths under RepoDir written
	// relative to it; Progress the quick sweep's training progress (nil: discarded).
	Log, Progress io.Writer
}

// with calls f with the results folder, a fresh backend's cell runner and the record fields.
func with[R any](n Notebook, f func(results string, cells CellRunner, reps RepresentationRunner, command, revision string, log io.Writer) (R, error)) (R, error) {
	var zero R
	log := n.log()
	backend, err := geomix.NewBackend()
	if err != nil {
		return zero, err
	}
	defer backend.Finalize()
	return f(filepath.Join(n.RepoDir, "results"), PresetCells(backend, n.Data, n.Progress), PresetRepresentations(backend, n.Data, n.Progress),
		n.Source+" (quick sweep)", GitRevision(n.RepoDir), log)
}

// Table is CommittedOrQuick of table with the quick subset datasets × methods.
func (n Notebook) Table(table string, datasetIDs, methods []string) (*Report, error) {
	return with(n, func(results string, cells CellRunner, _ RepresentationRunner, command, revision string, log io.Writer) (*Report, error) {
		return CommittedOrQuick(results, table, n.Quick, datasetIDs, methods, cells, command, revision, log)
	})
}

// Grid is GridCommittedOrQuick of DefaultGrid with the quick grid quick.
func (n Notebook) Grid(quick Grid) (*GridReport, error) {
	return with(n, func(results string, cells CellRunner, _ RepresentationRunner, command, revision string, log io.Writer) (*GridReport, error) {
		return GridCommittedOrQuick(results, DefaultGrid(), n.Quick, quick, cells, command, revision, log)
	})
}

// Backbones is BackboneCommittedOrQuick of DefaultBackboneSweep with the quick sweep quick.
func (n Notebook) Backbones(quick BackboneSweep) (*BackboneReport, error) {
	return with(n, func(results string, cells CellRunner, _ RepresentationRunner, command, revision string, log io.Writer) (*BackboneReport, error) {
		return BackboneCommittedOrQuick(results, DefaultBackboneSweep(), n.Quick, quick, cells, command, revision, log)
	})
}

// TSNE is TSNECommittedOrQuick of DefaultTSNESweep with the quick sweep quick.
func (n Notebook) TSNE(quick TSNESweep) (*TSNEReport, error) {
	return with(n, func(results string, _ CellRunner, reps RepresentationRunner, command, revision string, log io.Writer) (*TSNEReport, error) {
		return TSNECommittedOrQuick(results, DefaultTSNESweep(), n.Quick, quick, reps, command, revision, log)
	})
}

// log is n.Log with the paths under RepoDir made relative to it, or io.Discard.
func (n Notebook) log() io.Writer {
	if n.Log == nil {
		return io.Discard
	}
	return relPaths{n.Log, strings.NewReplacer(filepath.Clean(n.RepoDir)+string(filepath.Separator), "")}
}

// relPaths writes to w with r's replacements: the repository's paths made relative to it.
type relPaths struct {
	w io.Writer
	r *strings.Replacer
}

// Write implements io.Writer.
func (p relPaths) Write(b []byte) (int, error) {
	if _, err := p.r.WriteString(p.w, string(b)); err != nil {
		return 0, err
	}
	return len(b), nil
}
