package tables

import (
	"errors"
	"io"
	"math/rand/v2"
	"os"
	"strings"
	"testing"

	"github.com/geomix-go/geomix/geomix"
	"github.com/geomix-go/geomix/geomix/training"
	"github.com/geomix-go/geomix/geomix/tsne"
)

// fakeRepresentations returns 120 nodes of 3 classes whose representations are the class's corner
// plus noise of scale spread[method] (GCN noisier than GeoMix-I), and counts its calls.
func fakeRepresentations(spread map[string]float64, calls *int) RepresentationRunner {
	return func(c Cell) (*geomix.Result, [][]float32, []int32, error) {
		*calls++
		if c.Runs != 1 {
			return nil, nil, nil, errors.New("want 1 run")
		}
		rng := rand.New(rand.NewPCG(1, 2))
		var reps [][]float32
		var labels []int32
		for i := range 120 {
			class := int32(i % 3)
			x := make([]float32, 3)
			for j := range x {
				x[j] = float32(spread[c.Method] * rng.NormFloat64())
			}
			x[class] += 5
			reps, labels = append(reps, x), append(labels, class)
		}
		res := &geomix.Result{Dataset: c.Dataset, Method: c.Method, Runs: 1, PerRun: []geomix.RunResult{{TestAcc: 80, BestEpoch: 7}}, Params: map[string]any{training.ParamSeed: 123}}
		return res, reps, labels, nil
	}
}

// TestRunTSNE embeds GCN and GeoMix-I on Cora, checks the record, the report's silhouettes and
// claim count, that a rerun skips both and that another t-SNE setting remakes them.
func TestRunTSNE(t *testing.T) {
	dir := t.TempDir()
	calls := 0
	runner := fakeRepresentations(map[string]float64{"gcn": 3, "geomix1": 1}, &calls)
	cfg := tsne.DefaultConfig()
	cfg.Iterations = 200
	sweep := TSNESweep{Datasets: []string{"cora"}, Methods: []string{"gcn", "geomix1"}, Config: cfg}
	opts := Options{OutDir: dir, Progress: io.Discard, Command: "test", GitRevision: "abc"}
	report, path, err := RunTSNE(sweep, runner, opts)
	if err != nil {
		t.Fatal(err)
	}
	e, err := ReadEmbedding(TSNERecordPath(dir, "cora", "geomix1"))
	if err != nil {
		t.Fatal(err)
	}
	if len(e.X) != 120 || e.TestAcc != 80 || e.BestEpoch != 7 || e.TSNE != cfg || e.GitRevision != "abc" {
		t.Errorf("record: %d points, acc %v, epoch %d, config %+v, revision %q", len(e.X), e.TestAcc, e.BestEpoch, e.TSNE, e.GitRevision)
	}
	gcn := report.Embeddings[0][0]
	if !(e.Silhouette > gcn.Silhouette && e.Silhouette > 0.5 && e.SilhouetteTSNE > 0.5) {
		t.Errorf("silhouettes: GeoMix-I %.3f (2-D %.3f), GCN %.3f; want GeoMix-I's tighter classes above GCN's and 0.5", e.Silhouette, e.SilhouetteTSNE, gcn.Silhouette)
	}
	if c, a := report.Separation(); c != 1 || a != 1 {
		t.Errorf("separation %d of %d, want 1 of 1", a, c)
	}
	md, _ := os.ReadFile(path)
	for _, want := range []string{"| Cora | GeoMix-I | 80.00 | 7 |", "perplexity 30, 200 iterations, seed 0", "above GCN's for 1 of 1"} {
		if !strings.Contains(string(md), want) {
			t.Errorf("report lacks %q:\n%s", want, md)
		}
	}
	if _, _, err := RunTSNE(sweep, runner, opts); err != nil || calls != 2 {
		t.Errorf("rerun: err %v, %d trainings in all, want 2", err, calls)
	}
	sweep.Config.Seed = 1
	if _, _, err := RunTSNE(sweep, runner, opts); err != nil || calls != 4 {
		t.Errorf("another seed: err %v, %d trainings in all, want 4", err, calls)
	}
	failing := func(Cell) (*geomix.Result, [][]float32, []int32, error) { return nil, nil, nil, errors.New("no data") }
	opts.Force = true
	if _, _, err := RunTSNE(sweep, failing, opts); err == nil || !strings.Contains(err.Error(), "2 of 2 points of figure-tsne failed") {
		t.Errorf("failing runner: %v", err)
	}
	if _, err := ReadEmbedding(TSNERecordPath(dir, "cora", "gcn")); err != nil {
		t.Errorf("a failed remake must leave the stored embedding: %v", err)
	}
}
