package tables

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/geomix-go/geomix/geomix"
	"github.com/geomix-go/geomix/geomix/methods"
	"github.com/geomix-go/geomix/geomix/training"
	"github.com/geomix-go/geomix/geomix/tsne"
	"github.com/geomix-go/geomix/internal/atomicfile"
)

// FigureTSNE is the id of the t-SNE figures: points in DIR/figure-tsne/, the report in
// DIR/figure-tsne.md.
const FigureTSNE = "figure-tsne"

// TSNEMethods are the methods of the paper's t-SNE figures, GCN first: the others are compared
// with it.
var TSNEMethods = []string{"gcn", "geomix1", "geomix2", "geomix3"}

// TSNESweep is the paper's t-SNE figures ("the learned representations of the nodes in the Cora and
// CiteSeer datasets by GCN and Geometric Mixup"): one run of each method with its preset, the
// final-layer output at the run's selected epoch embedded in 2-D.
type TSNESweep struct {
	// Datasets and Methods are embedded in this order, GCN first when present (the others are compared with it).
	Datasets, Methods []string
	// Config is t-SNE's; tsne.DefaultConfig with Seed 0 unless set.
	Config tsne.Config
}

// DefaultTSNESweep is what `reproduce figure-tsne` makes without flags: GCN and GeoMix-I/II/III
// on Cora and CiteSeer, t-SNE's defaults.
func DefaultTSNESweep() TSNESweep {
	return TSNESweep{Datasets: []string{"cora", "citeseer"}, Methods: slices.Clone(TSNEMethods), Config: tsne.DefaultConfig()}
}

// Check returns an error naming the first data set or method the sweep cannot run.
func (s TSNESweep) Check() error {
	if len(s.Datasets) == 0 || len(s.Methods) == 0 {
		return fmt.Errorf("tables: %s needs at least one data set and method", FigureTSNE)
	}
	for _, d := range s.Datasets {
		if _, err := geomix.PresetFor(d, s.Methods[0]); err != nil {
			return fmt.Errorf("tables: %s: %w", FigureTSNE, err)
		}
	}
	for _, m := range s.Methods {
		if _, err := methods.New(m); err != nil {
			return fmt.Errorf("tables: %s: %w", FigureTSNE, err)
		}
	}
	if hasDuplicate(s.Datasets) || hasDuplicate(s.Methods) {
		return fmt.Errorf("tables: %s: a data set or method is given twice", FigureTSNE)
	}
	return nil
}

// RepresentationRunner trains one run of c (c.Runs is 1) and returns its result with the
// final-layer representations [N, C] at the run's selected epoch, and the nodes' labels [N].
type RepresentationRunner func(c Cell) (res *geomix.Result, representations [][]float32, labels []int32, err error)

// Embedding is one stored point of the t-SNE figures: the run, its representations' class
// separation and their 2-D embedding.
type Embedding struct {
	// Dataset and Method are the point's data set and method ids.
	Dataset string `json:"dataset"`
	Method  string `json:"method"`
	// TestAcc is the run's test accuracy in percent at its selected epoch BestEpoch.
	TestAcc   float64 `json:"test_acc"`
	BestEpoch int     `json:"best_epoch"`
	// Quick marks a point trained with QuickEpochs epochs: NOT the paper's protocol.
	Quick bool `json:"quick"`
	// Silhouette is the mean silhouette coefficient of the representations [N, C] grouped by the
	// true labels; SilhouetteTSNE the same of the 2-D embedding.
	Silhouette     float64 `json:"silhouette"`
	SilhouetteTSNE float64 `json:"silhouette_tsne"`
	// TSNE is the configuration the embedding used.
	TSNE tsne.Config `json:"tsne"`
	// X, Y are the embedding's coordinates [N] (rounded to 1e-3), Labels the nodes' classes [N].
	X      []float64 `json:"x"`
	Y      []float64 `json:"y"`
	Labels []int32   `json:"labels"`
	// Params are the training's hyper-parameters; Command, GitRevision, Seconds (training and
	// embedding) and FinishedAt say how the point was made.
	Params      map[string]any `json:"params"`
	Command     string         `json:"command"`
	GitRevision string         `json:"git_revision"`
	Seconds     float64        `json:"seconds"`
	FinishedAt  time.Time      `json:"finished_at"`
}

// TSNERecordPath is where the embedding of method on dataset is stored under dir.
func TSNERecordPath(dir, dataset, method string) string {
	return filepath.Join(dir, FigureTSNE, dataset+"-"+method+".json")
}

// ReadEmbedding reads the embedding stored at path and checks it is complete.
func ReadEmbedding(path string) (*Embedding, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var e Embedding
	if err := json.Unmarshal(data, &e); err != nil {
		return nil, fmt.Errorf("%s: not an embedding record: %w", path, err)
	}
	if e.Dataset == "" || e.Method == "" || len(e.X) == 0 || len(e.X) != len(e.Y) || len(e.X) != len(e.Labels) {
		return nil, fmt.Errorf("%s: embedding record lacks dataset/method or has %d x, %d y, %d labels", path, len(e.X), len(e.Y), len(e.Labels))
	}
	return &e, nil
}

// RunTSNE makes every embedding of sweep not stored yet (or all with opts.Force), one after the
// other: one run of the method with its preset (QuickEpochs epochs with opts.Quick) through
// runner, t-SNE of its representations, and the record written atomically to TSNERecordPath. It
// then renders OutDir/figure-tsne.md from every stored embedding. A failed point does not stop the
// others; RunTSNE then returns a *FigureError. Like Run, it checks OutDir is writable first, makes
// only opts.Shard's points, each under its lock (waiting for one another sweep is making), and
// stops once opts.Stop is closed with an error wrapping ErrStopped. opts.Runs, opts.Jobs,
// opts.Datasets and opts.Methods are ignored.
func RunTSNE(sweep TSNESweep, runner RepresentationRunner, opts Options) (*TSNEReport, string, error) {
	if err := sweep.Check(); err != nil {
		return nil, "", err
	}
	opts, err := sweepDefaults(opts)
	if err != nil {
		return nil, "", err
	}
	if err := opts.Shard.Check(); err != nil {
		return nil, "", err
	}
	if err := checkWritable(filepath.Join(opts.OutDir, FigureTSNE)); err != nil {
		return nil, "", err
	}
	var points []cell
	for _, d := range sweep.Datasets {
		for _, m := range sweep.Methods {
			points = append(points, cell{Cell: Cell{Dataset: d, Method: m, Runs: 1, Quick: opts.Quick, Stop: opts.Stop}, path: TSNERecordPath(opts.OutDir, d, m)})
		}
	}
	markShard(points, opts)
	start := time.Now()
	progress := progressOf(opts)
	var failed []CellError
	var done Sweep
	for i, c := range points {
		prefix := fmt.Sprintf("%s point %d of %d, %s", FigureTSNE, i+1, len(points), c.Cell)
		// finished reports whether c's embedding is stored, written after since.
		finished := func(since time.Time) bool {
			e, err := ReadEmbedding(c.path)
			return err == nil && e.Quick == opts.Quick && e.TSNE == sweep.Config && e.FinishedAt.After(since)
		}
		switch {
		case c.otherShard:
			done.OtherShards++
			fmt.Fprintf(progress, "%s: another shard's (this is shard %s), skipped\n", prefix, opts.Shard)
			continue
		case !opts.Force && finished(time.Time{}):
			done.Skipped++
			fmt.Fprintf(progress, "%s: finished earlier (%s), skipped\n", prefix, c.path)
			continue
		case training.StopRequested(opts.Stop):
			done.NotStarted++
			continue
		}
		since := time.Time{}
		if opts.Force {
			since = start
		}
		e, err := lockedEmbedding(c, prefix, func() bool { return finished(since) }, runner, sweep.Config, opts, &done)
		switch {
		case errors.Is(err, training.ErrStopped):
			done.Stopped = append(done.Stopped, CellError{Dataset: c.Dataset, Method: c.Method, Err: err})
			fmt.Fprintf(progress, "%s: STOPPED: %v\n", prefix, err)
		case err != nil:
			failed = append(failed, CellError{Dataset: c.Dataset, Method: c.Method, Err: err})
			fmt.Fprintf(progress, "%s: FAILED: %v\n", prefix, err)
		case e != nil:
			done.Ran++
			fmt.Fprintf(progress, "%s: test %.2f%%, silhouette %.3f (t-SNE %.3f) in %s -> %s\n",
				prefix, e.TestAcc, e.Silhouette, e.SilhouetteTSNE, roundDuration(time.Duration(e.Seconds*float64(time.Second))), c.path)
		}
	}
	report, path, err := WriteTSNEReport(sweep, opts)
	if err != nil {
		return report, path, err
	}
	done.Failed = failed
	if err := done.stopError(FigureTSNE, len(points)); err != nil {
		return report, path, err
	}
	if len(failed) > 0 {
		return report, path, &FigureError{Figure: FigureTSNE, Failed: failed, Of: len(points)}
	}
	return report, path, nil
}

// lockedEmbedding makes and stores point c under its lock, waiting for another sweep holding it;
// it returns nil and no error when the point needs no training after all (finished reports it
// stored by another sweep meanwhile, counted in done.ByOthers, or the sweep stopped while waiting,
// in done.NotStarted).
func lockedEmbedding(c cell, prefix string, finished func() bool, runner RepresentationRunner, cfg tsne.Config, opts Options, done *Sweep) (*Embedding, error) {
	progress := progressOf(opts)
	lock, holder, err := tryLock(c.path)
	if err != nil {
		return nil, err
	}
	if lock == nil {
		fmt.Fprintf(progress, "%s: in progress in another sweep (%s, lock %s): waiting for it\n", prefix, holder, lockFile(c.path))
		if lock, err = waitLock(c.path, opts.Stop); err != nil {
			return nil, err
		} else if lock == nil {
			done.NotStarted++
			return nil, nil
		}
	}
	defer lock.unlock()
	if finished() {
		done.ByOthers++
		fmt.Fprintf(progress, "%s: finished by another sweep (%s), skipped\n", prefix, c.path)
		return nil, nil
	}
	if removed, err := removeOrphanTemps(c.path); err != nil {
		return nil, err
	} else if len(removed) > 0 {
		fmt.Fprintf(progress, "%s: removed %d orphaned temporary file(s) of an interrupted write: %s\n", FigureTSNE, len(removed), strings.Join(removed, ", "))
	}
	fmt.Fprintf(progress, "%s: training 1 run, then t-SNE of %d iterations\n", prefix, cfg.Iterations)
	e, err := embedPoint(c.Cell, runner, cfg, opts)
	if err == nil {
		err = writeJSON(c.path, e)
	}
	return e, err
}

// embedPoint trains c through runner and embeds its representations.
func embedPoint(c Cell, runner RepresentationRunner, cfg tsne.Config, opts Options) (e *Embedding, err error) {
	start := time.Now()
	defer func() {
		if p := recover(); p != nil {
			e, err = nil, fmt.Errorf("runner panicked: %v", p)
		}
	}()
	res, reps, labels, err := runner(c)
	if err != nil {
		return nil, err
	}
	if len(res.PerRun) != 1 || len(reps) == 0 || len(reps) != len(labels) {
		return nil, fmt.Errorf("runner returned %d runs, %d representations and %d labels; want 1 run and one representation per label", len(res.PerRun), len(reps), len(labels))
	}
	points := make([][]float64, len(reps))
	for i, r := range reps {
		points[i] = make([]float64, len(r))
		for j, v := range r {
			points[i][j] = float64(v)
		}
	}
	sil, err := tsne.Silhouette(points, labels)
	if err != nil {
		return nil, err
	}
	emb, err := tsne.Embed(points, cfg)
	if err != nil {
		return nil, err
	}
	flat := make([][]float64, len(emb))
	e = &Embedding{Dataset: c.Dataset, Method: c.Method, TestAcc: res.PerRun[0].TestAcc, BestEpoch: res.PerRun[0].BestEpoch,
		Quick: c.Quick, Silhouette: sil, TSNE: cfg, Labels: labels, Params: res.Params, Command: opts.Command, GitRevision: opts.GitRevision}
	for i, p := range emb {
		flat[i] = p[:]
		e.X, e.Y = append(e.X, math.Round(p[0]*1000)/1000), append(e.Y, math.Round(p[1]*1000)/1000)
	}
	if e.SilhouetteTSNE, err = tsne.Silhouette(flat, labels); err != nil {
		return nil, err
	}
	e.Seconds, e.FinishedAt = time.Since(start).Seconds(), time.Now().UTC()
	return e, nil
}

// writeJSON stores v atomically at path as indented JSON.
func writeJSON(path string, v any) error {
	data, err := json.MarshalIndent(v, "", " ")
	if err != nil {
		return err
	}
	return atomicfile.Write(path, func(w io.Writer) error {
		_, err := w.Write(append(data, '\n'))
		return err
	})
}
