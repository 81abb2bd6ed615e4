package tables

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"time"

	"github.com/geomix-go/geomix/geomix"
	"github.com/geomix-go/geomix/geomix/training"
	"github.com/geomix-go/geomix/internal/atomicfile"
)

// Record is one finished cell as stored in DIR/<table>/<dataset>-<method>.json: the keys of
// geomix.Result (dataset, method, backbone, runs, test_acc_mean, test_acc_std, val_acc_mean,
// epoch_ms_median, seconds_total, per_run, params, trainable_params) plus how the cell was produced.
type Record struct {
	geomix.Result
	// Table is the table id, e.g. "table2".
	Table string `json:"table"`
	// Quick is true for --quick cells (1 run, few epochs): NOT the paper's protocol.
	Quick bool `json:"quick"`
	// Command is the command line that produced the cell.
	Command string `json:"command"`
	// Seed is Result.Params[training.ParamSeed] when the runner reported it, else null.
	Seed *int64 `json:"seed"`
	// GitRevision is the repository revision (see GitRevision).
	GitRevision string `json:"git_revision"`
	// TestAccs holds each run's test accuracy in percent, in run order: [Runs].
	TestAccs []float64 `json:"test_accs"`
	// WallSeconds is the cell's wall time measured around the runner call.
	WallSeconds float64 `json:"wall_seconds"`
	// FinishedAt is when the cell finished (UTC).
	FinishedAt time.Time `json:"finished_at"`
	// SharedFrom is set when the cell was not trained for this table but copied from the record of
	// another table's identical cell (same dataset, method, runs and quick setting, hence the same
	// preset): the path of that record.
	SharedFrom string `json:"shared_from,omitempty"`
	// Pileup holds a figure-pileup point's metrics beside the accuracy and where its events came
	// from; nil for every other record.
	Pileup *PileupCell `json:"pileup,omitempty"`
	// Tuning says how the record's settings were chosen by a validation grid search (RunTune); nil
	// for every other record.
	Tuning *Tuning `json:"tuning,omitempty"`
}

// RecordPath is where the cell (dataset, method) of table is stored under dir.
func RecordPath(dir, table, dataset, method string) string {
	return filepath.Join(dir, table, dataset+"-"+method+".json")
}

// CheckpointPath is where a sweep over dir keeps the state of cell (dataset, method) of table
// between its runs (Cell.Checkpoint): dir/<table>/<dataset>-<method>.ckpt, beside its record.
func CheckpointPath(dir, table, dataset, method string) string {
	return filepath.Join(dir, table, dataset+"-"+method+".ckpt")
}

// checkpointProgress returns how many of how many runs the checkpoint at path holds, with ok false
// when there is none, it cannot be read or it belongs to another cell than (dataset, method).
func checkpointProgress(path, dataset, method string) (done, runs int, ok bool) {
	d, m, done, runs, err := training.CheckpointProgress(path)
	if err != nil || d != dataset || m != method {
		return 0, 0, false
	}
	return done, runs, true
}

// newRecord wraps a runner's result for cell (dataset, method) of table. It checks that the result
// belongs to that cell and holds the requested number of runs.
func newRecord(table, dataset, method string, runs int, quick bool, res *geomix.Result) (*Record, error) {
	if res == nil {
		return nil, fmt.Errorf("runner returned no result and no error")
	}
	if res.Dataset != "" && res.Dataset != dataset {
		return nil, fmt.Errorf("runner returned a result for dataset %q, want %q", res.Dataset, dataset)
	}
	if res.Method != "" && res.Method != method {
		return nil, fmt.Errorf("runner returned a result for method %q, want %q", res.Method, method)
	}
	if res.Runs != runs {
		return nil, fmt.Errorf("runner returned %d runs, want %d", res.Runs, runs)
	}
	if len(res.PerRun) != runs {
		return nil, fmt.Errorf("runner returned %d per-run results for %d runs", len(res.PerRun), runs)
	}
	if math.IsNaN(res.TestAccMean) || math.IsNaN(res.TestAccStd) {
		return nil, fmt.Errorf("runner returned a NaN test accuracy (mean %v, std %v)", res.TestAccMean, res.TestAccStd)
	}
	r := &Record{Result: *res, Table: table, Quick: quick, Seed: seedParam(res.Params)}
	r.Dataset, r.Method = dataset, method
	for _, run := range res.PerRun {
		r.TestAccs = append(r.TestAccs, run.TestAcc)
	}
	return r, nil
}

// seedParam returns params[training.ParamSeed] as an integer when present and integral.
func seedParam(params map[string]any) *int64 {
	var s int64
	switch v := params[training.ParamSeed].(type) {
	case int:
		s = int64(v)
	case int64:
		s = v
	case int32:
		s = int64(v)
	case float64:
		if v != math.Trunc(v) {
			return nil
		}
		s = int64(v)
	default:
		return nil
	}
	return &s
}

// writeRecord stores r atomically at path.
func writeRecord(path string, r *Record) error {
	data, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		return fmt.Errorf("encoding %s: %w", path, err)
	}
	data = append(data, '\n')
	return atomicfile.Write(path, func(w io.Writer) error {
		_, err := w.Write(data)
		return err
	})
}

// ReadRecord reads the cell stored at path and checks it is complete: a known table, dataset and
// method, at least one run, one test accuracy per run, and per_run entries that agree with them
// (which also rejects a per_run written with other keys than geomix.RunResult's).
func ReadRecord(path string) (*Record, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	var r Record
	if err := dec.Decode(&r); err != nil {
		return nil, fmt.Errorf("%s: not a result record: %w", path, err)
	}
	switch {
	case r.Table == "" || r.Dataset == "" || r.Method == "":
		return nil, fmt.Errorf("%s: record lacks table/dataset/method (got %q/%q/%q)", path, r.Table, r.Dataset, r.Method)
	case r.Runs < 1:
		return nil, fmt.Errorf("%s: record has runs=%d, want >= 1", path, r.Runs)
	case len(r.TestAccs) != r.Runs:
		return nil, fmt.Errorf("%s: record has %d test accuracies for runs=%d", path, len(r.TestAccs), r.Runs)
	case len(r.PerRun) != r.Runs:
		return nil, fmt.Errorf("%s: record has %d per_run entries for runs=%d", path, len(r.PerRun), r.Runs)
	}
	for i, run := range r.PerRun {
		if run.Run != i || run.TestAcc != r.TestAccs[i] {
			return nil, fmt.Errorf("%s: per_run[%d] holds run %d with test_acc %v, want run %d with test_accs[%d] = %v (keys run, split, best_epoch, val_acc, test_acc)",
				path, i, run.Run, run.TestAcc, i, i, r.TestAccs[i])
		}
	}
	return &r, nil
}

// readCell reads the record of cell (dataset, method) of table at path and checks it is that cell's.
func readCell(path, table, dataset, method string) (*Record, error) {
	r, err := ReadRecord(path)
	if err != nil {
		return nil, err
	}
	if r.Table != table || r.Dataset != dataset || r.Method != method {
		return nil, fmt.Errorf("%s: holds cell %s %s/%s, want %s %s/%s", path, r.Table, r.Dataset, r.Method, table, dataset, method)
	}
	return r, nil
}
