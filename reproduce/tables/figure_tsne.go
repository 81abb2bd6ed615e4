package tables

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"time"

	"github.com/geomix-go/geomix/geomix"
	"github.com/geomix-go/geomix/geomix/methods"
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
// others; RunTSNE then returns a *FigureError. opts.Runs, opts.Jobs, opts.Datasets and
// opts.Methods are ignored.
func RunTSNE(sweep TSNESweep, runner RepresentationRunner, opts Options) (*TSNEReport, string, error) {
	if err := sweep.Check(); err != nil {
		return nil, "", err
	}
	opts, err := sweepDefaults(opts)
	if err != nil {
		return nil, "", err
	}
	progress := progressOf(opts)
	var failed []CellError
	total := len(sweep.Datasets) * len(sweep.Methods)
	i := 0
	for _, d := range sweep.Datasets {
		for _, m := range sweep.Methods {
			i++
			path := TSNERecordPath(opts.OutDir, d, m)
			if e, err := ReadEmbedding(path); err == nil && !opts.Force && e.Quick == opts.Quick && e.TSNE == sweep.Config {
				fmt.Fprintf(progress, "%s point %d of %d, %s/%s: finished earlier (%s), skipped\n", FigureTSNE, i, total, d, m, path)
				continue
			}
			fmt.Fprintf(progress, "%s point %d of %d, %s/%s: training 1 run, then t-SNE of %d iterations\n", FigureTSNE, i, total, d, m, sweep.Config.Iterations)
			e, err := embedPoint(Cell{Dataset: d, Method: m, Runs: 1, Quick: opts.Quick}, runner, sweep.Config, opts)
			if err == nil {
				err = writeJSON(path, e)
			}
			if err != nil {
				failed = append(failed, CellError{Dataset: d, Method: m, Err: err})
				fmt.Fprintf(progress, "%s point %d of %d, %s/%s: FAILED: %v\n", FigureTSNE, i, total, d, m, err)
				continue
			}
			fmt.Fprintf(progress, "%s point %d of %d, %s/%s: test %.2f%%, silhouette %.3f (t-SNE %.3f) in %s -> %s\n",
				FigureTSNE, i, total, d, m, e.TestAcc, e.Silhouette, e.SilhouetteTSNE, roundDuration(time.Duration(e.Seconds*float64(time.Second))), path)
		}
	}
	report, path, err := WriteTSNEReport(sweep, opts)
	if err != nil {
		return report, path, err
	}
	if len(failed) > 0 {
		return report, path, &FigureError{Figure: FigureTSNE, Failed: failed, Of: total}
	}
	return report, path, nil
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
