package training

import (
	"bytes"
	"crypto/sha256"
	"encoding/gob"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"slices"
	"strconv"
	"strings"

	"github.com/geomix-go/geomix/internal/atomicfile"
	"github.com/gomlx/gomlx/pkg/core/tensors"
	"github.com/gomlx/gomlx/pkg/ml/context"
)

// checkpointVersion is the layout version of checkpoint files; another version is refused.
const checkpointVersion = 2

// A checkpoint file is a gob stream (the checkpointHeader, then every variable's tensor in the order
// of its Vars) followed by a trailer: the SHA-256 of the stream, checkpointSumSize bytes. The
// trailer is verified before anything in the file is used, so a flipped bit or an edited value is an
// error naming the file, never a silent resume.
const checkpointSumSize = sha256.Size

// checkpointHeader is the state Train needs to start run NextRun exactly as an uninterrupted Train
// would: the finished runs, the host RNG (RandomMix's pairings) and, serialised after the header in
// the order of Vars, the value of every context variable (fresh model parameters of run NextRun,
// Adam's state carried over, frozen attention, the graph RNG).
type checkpointHeader struct {
	Version         int
	Dataset, Method string
	// Data summarises the graph (nodes, edges, non-zeros, splits) to catch a different data file.
	Data string
	// Params are the effective hyper-parameters, formatted with %v.
	Params  map[string]string
	NextRun int
	Runs    []RunResult
	// Seconds is the wall time of the finished runs.
	Seconds float64
	HostRNG []byte
	Vars    []variableName
}

// variableName locates a context variable.
type variableName struct{ Scope, Name string }

// checkpointIdentity returns the header fields that must match for t to resume from a checkpoint.
func (t *trainer) checkpointIdentity() checkpointHeader {
	params := make(map[string]string, len(t.params))
	for k, v := range t.params {
		params[k] = fmt.Sprintf("%v", v)
	}
	return checkpointHeader{Version: checkpointVersion, Dataset: t.g.Name, Method: t.method, Params: params,
		Data: fmt.Sprintf("%d nodes, %d edges, %d feature non-zeros, %d splits",
			t.g.NumNodes, len(t.g.Src), t.g.Features.NNZ(), len(t.g.Splits))}
}

// saveCheckpoint writes, atomically, the state at the start of run nextRun (after its model was
// re-initialised) with the finished runs before it.
func (t *trainer) saveCheckpoint(path string, nextRun int, runs []RunResult, seconds float64) error {
	h := t.checkpointIdentity()
	h.NextRun, h.Runs, h.Seconds = nextRun, runs, seconds
	var err error
	if h.HostRNG, err = t.pcg.MarshalBinary(); err != nil {
		return err
	}
	var values []*tensors.Tensor
	for v := range t.ctx.IterVariables() {
		value, err := v.Value()
		if err != nil {
			return fmt.Errorf("checkpoint: reading variable %s/%s: %w", v.Scope(), v.Name(), err)
		}
		h.Vars = append(h.Vars, variableName{Scope: v.Scope(), Name: v.Name()})
		values = append(values, value)
	}
	var body bytes.Buffer
	if err := encodeCheckpoint(&body, &h, values); err != nil {
		return fmt.Errorf("checkpoint %s: %w", path, err)
	}
	sum := sha256.Sum256(body.Bytes())
	return atomicfile.Write(path, func(w io.Writer) error {
		if _, err := w.Write(body.Bytes()); err != nil {
			return err
		}
		_, err := w.Write(sum[:])
		return err
	})
}

// encodeCheckpoint writes the gob stream of a checkpoint: h, then values in the order of h.Vars.
func encodeCheckpoint(w io.Writer, h *checkpointHeader, values []*tensors.Tensor) error {
	enc := gob.NewEncoder(w)
	if err := enc.Encode(h); err != nil {
		return err
	}
	for _, value := range values {
		if err := value.GobSerialize(enc); err != nil {
			return err
		}
	}
	return nil
}

// verifiedBody returns the gob stream of the checkpoint file data after checking its SHA-256
// trailer; path names the file in the error.
func verifiedBody(path string, data []byte) ([]byte, error) {
	if len(data) < checkpointSumSize {
		return nil, fmt.Errorf("checkpoint %s is damaged (%d bytes, shorter than its %d-byte checksum): delete it to start over", path, len(data), checkpointSumSize)
	}
	body, trailer := data[:len(data)-checkpointSumSize], data[len(data)-checkpointSumSize:]
	if sum := sha256.Sum256(body); !bytes.Equal(sum[:], trailer) {
		return nil, fmt.Errorf("checkpoint %s is damaged or was edited: the SHA-256 of its content is %s, its trailer says %s; delete it to start over",
			path, hex.EncodeToString(sum[:8]), hex.EncodeToString(trailer[:8]))
	}
	return body, nil
}

// readCheckpoint reads the checkpoint at path after verifying its checksum; it returns (nil, nil,
// nil) when there is none.
func readCheckpoint(path string) (*checkpointHeader, map[variableName]*tensors.Tensor, error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil, nil
	} else if err != nil {
		return nil, nil, err
	}
	body, err := verifiedBody(path, data)
	if err != nil {
		return nil, nil, err
	}
	return decodeCheckpoint(path, bytes.NewReader(body))
}

// decodeCheckpoint decodes the gob stream of a checkpoint (see encodeCheckpoint); path names the
// file in errors.
func decodeCheckpoint(path string, r io.Reader) (*checkpointHeader, map[variableName]*tensors.Tensor, error) {
	dec := gob.NewDecoder(r)
	var h checkpointHeader
	if err := dec.Decode(&h); err != nil {
		return nil, nil, fmt.Errorf("checkpoint %s is not a geomix checkpoint or is damaged (%w): delete it to start over", path, err)
	}
	if h.Version != checkpointVersion {
		return nil, nil, fmt.Errorf("checkpoint %s has version %d, want %d: delete it to start over", path, h.Version, checkpointVersion)
	}
	values := make(map[variableName]*tensors.Tensor, len(h.Vars))
	for _, name := range h.Vars {
		value, err := tensors.GobDeserialize(dec)
		if err != nil {
			return nil, nil, fmt.Errorf("checkpoint %s: variable %s/%s is damaged (%w): delete it to start over", path, name.Scope, name.Name, err)
		}
		values[name] = value
	}
	return &h, values, nil
}

// CheckpointProgress reads the checkpoint at path (see WithCheckpoint) and returns how many runs
// of how many it holds as finished, and for which data set and method.
func CheckpointProgress(path string) (dataset, method string, finished, runs int, err error) {
	h, _, err := readCheckpoint(path)
	if err == nil && h == nil {
		err = fmt.Errorf("no checkpoint at %s: %w", path, os.ErrNotExist)
	}
	if err != nil {
		return "", "", 0, 0, err
	}
	if runs, err = strconv.Atoi(h.Params[ParamRuns]); err != nil {
		return "", "", 0, 0, fmt.Errorf("checkpoint %s: %s = %q: %w", path, ParamRuns, h.Params[ParamRuns], err)
	}
	return h.Dataset, h.Method, len(h.Runs), runs, nil
}

// mismatch describes how checkpoint h differs from what t would write, or returns "" if it matches.
func (t *trainer) mismatch(h *checkpointHeader) string {
	want := t.checkpointIdentity()
	switch {
	case h.Dataset != want.Dataset || h.Method != want.Method:
		return fmt.Sprintf("it is for %s/%s, not %s/%s", h.Dataset, h.Method, want.Dataset, want.Method)
	case h.Data != want.Data:
		return fmt.Sprintf("its graph had %s, this one has %s", h.Data, want.Data)
	case h.NextRun < 1 || h.NextRun >= t.runs || len(h.Runs) != h.NextRun:
		return fmt.Sprintf("it resumes at run %d with %d finished runs, of %d runs", h.NextRun, len(h.Runs), t.runs)
	}
	var diffs []string
	for _, k := range slices.Sorted(maps.Keys(want.Params)) {
		if got, ok := h.Params[k]; !ok || got != want.Params[k] {
			diffs = append(diffs, fmt.Sprintf("%s=%s (now %s)", k, got, want.Params[k]))
		}
	}
	if len(diffs) > 0 {
		return "it was written with " + strings.Join(diffs, ", ")
	}
	return ""
}

// resume loads the checkpoint at path into t, if there is one: variables that exist already get
// their values now, the others when the executors create them (through a snapshotLoader checked by
// the first step). It returns the checkpoint, or nil to start at run 0.
func (t *trainer) resume(path string) (*checkpointHeader, error) {
	h, values, err := readCheckpoint(path)
	if err != nil || h == nil {
		return nil, err
	}
	if why := t.mismatch(h); why != "" {
		return nil, fmt.Errorf("checkpoint %s does not fit this training: %s; delete it to start over", path, why)
	}
	if err := t.pcg.UnmarshalBinary(h.HostRNG); err != nil {
		return nil, fmt.Errorf("checkpoint %s: host RNG state: %w", path, err)
	}
	for v := range t.ctx.IterVariables() {
		name := variableName{Scope: v.Scope(), Name: v.Name()}
		value, ok := values[name]
		if !ok {
			return nil, fmt.Errorf("checkpoint %s has no variable %s/%s", path, name.Scope, name.Name)
		}
		if err := v.SetValue(value); err != nil {
			return nil, err
		}
		delete(values, name)
	}
	t.loader = &snapshotLoader{path: path, values: values}
	t.ctx.SetLoader(t.loader)
	return h, nil
}

// snapshotLoader is the context.Loader that hands a checkpoint's values to the variables the
// executors create, and remembers the variables it did not have.
type snapshotLoader struct {
	path    string
	values  map[variableName]*tensors.Tensor
	missing []string
}

// LoadVariable implements context.Loader.
func (l *snapshotLoader) LoadVariable(_ *context.Context, scope, name string) (*tensors.Tensor, bool) {
	key := variableName{Scope: scope, Name: name}
	value, ok := l.values[key]
	if !ok {
		l.missing = append(l.missing, scope+"/"+name)
		return nil, false
	}
	delete(l.values, key)
	return value, true
}

// DeleteVariable implements context.Loader.
func (l *snapshotLoader) DeleteVariable(_ *context.Context, scope, name string) error {
	delete(l.values, variableName{Scope: scope, Name: name})
	return nil
}

// check returns an error if the model created a variable the checkpoint lacks or left one of the
// checkpoint's unused: the checkpoint was written by a different model.
func (l *snapshotLoader) check() error {
	var unused []string
	for k := range l.values {
		unused = append(unused, k.Scope+"/"+k.Name)
	}
	if len(l.missing) == 0 && len(unused) == 0 {
		return nil
	}
	slices.Sort(unused)
	return fmt.Errorf("checkpoint %s was written by another model (variables missing from it: %v; unused: %v): delete it to start over",
		l.path, l.missing, unused)
}
