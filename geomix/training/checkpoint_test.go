package training

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/geomix-go/geomix/geomix/backbones"
	"github.com/geomix-go/geomix/geomix/methods"
	"github.com/geomix-go/geomix/internal/testutil"
	"github.com/gomlx/gomlx/pkg/core/tensors"
	"github.com/gomlx/gomlx/pkg/ml/context"
)

// checkpointCtx is the tiny training of the checkpoint tests: 3 runs, so that a checkpoint is
// written at the start of runs 1 and 2.
func checkpointCtx(runs int, lr float64) *context.Context {
	ctx := context.New()
	ctx.SetParams(map[string]any{ParamEpochs: 10, ParamRuns: runs, backbones.ParamDropout: 0.5, backbones.ParamHidden: 8, methods.ParamHops: 2,
		methods.ParamAlpha: 0.3, ParamSeed: 5, backbones.ParamUseBN: true, ParamLR: lr})
	return ctx
}

// sameRuns fails unless a and b have the same runs, epoch by epoch.
func sameRuns(t *testing.T, what string, a, b *Result) {
	t.Helper()
	if len(a.PerRun) != len(b.PerRun) {
		t.Fatalf("%s: %d runs vs %d", what, len(a.PerRun), len(b.PerRun))
	}
	for r := range a.PerRun {
		ra, rb := a.PerRun[r], b.PerRun[r]
		if ra.TestAcc != rb.TestAcc || ra.BestEpoch != rb.BestEpoch || len(ra.Curve) != len(rb.Curve) {
			t.Fatalf("%s run %d: test %v at epoch %d vs %v at %d", what, r, ra.TestAcc, ra.BestEpoch, rb.TestAcc, rb.BestEpoch)
		}
		for e := range ra.Curve {
			if ca, cb := ra.Curve[e], rb.Curve[e]; ca.Loss != cb.Loss || ca.ValAcc != cb.ValAcc {
				t.Fatalf("%s run %d epoch %d: loss %v val %v vs loss %v val %v", what, r, e, ca.Loss, ca.ValAcc, cb.Loss, cb.ValAcc)
			}
		}
	}
	if a.TestAccMean != b.TestAccMean || a.TestAccStd != b.TestAccStd {
		t.Errorf("%s: %v ± %v vs %v ± %v", what, a.TestAccMean, a.TestAccStd, b.TestAccMean, b.TestAccStd)
	}
}

// TestCheckpointResumesExactly: writing checkpoints does not change the numbers, and a Train that
// finds the checkpoint of run 2 (Adam's state carried over, frozen or trained attention, RandomMix's
// host RNG, EERM's candidate tables and editors) recomputes run 2 exactly as the uninterrupted Train did.
func TestCheckpointResumesExactly(t *testing.T) {
	for _, method := range []string{"geomix1", "geomix3", "randommix", "mixup", "graphmix", "eerm", "graphmixup"} {
		plain, err := Train(checkpointCtx(3, 0.01), testutil.Backend(t), testutil.TinyGraph(), method, WithProgress(io.Discard))
		if err != nil {
			t.Fatal(err)
		}
		path := filepath.Join(t.TempDir(), "cell.ckpt")
		saving, err := Train(checkpointCtx(3, 0.01), testutil.Backend(t), testutil.TinyGraph(), method, WithProgress(io.Discard), WithCheckpoint(path))
		if err != nil {
			t.Fatal(err)
		}
		sameRuns(t, method+" with checkpoints vs without", plain, saving)
		var log strings.Builder
		resumed, err := Train(checkpointCtx(3, 0.01), testutil.Backend(t), testutil.TinyGraph(), method, WithProgress(&log), WithCheckpoint(path))
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(log.String(), "resuming at run 3 of 3") {
			t.Errorf("%s: progress %q does not say it resumed at run 3", method, log.String())
		}
		sameRuns(t, method+" resumed vs uninterrupted", plain, resumed)
	}
}

// TestCheckpointRefusesOtherTraining: a checkpoint written for other hyper-parameters, another
// method or another number of runs, or a damaged one, is an error naming the file and the cause.
func TestCheckpointRefusesOtherTraining(t *testing.T) {
	path := filepath.Join(t.TempDir(), "cell.ckpt")
	if _, err := Train(checkpointCtx(3, 0.01), testutil.Backend(t), testutil.TinyGraph(), "geomix1", WithProgress(io.Discard), WithCheckpoint(path)); err != nil {
		t.Fatal(err)
	}
	if d, m, done, runs, err := CheckpointProgress(path); d != "tiny" || m != "geomix1" || done != 2 || runs != 3 || err != nil {
		t.Errorf("CheckpointProgress = %s/%s %d of %d, %v; want tiny/geomix1 2 of 3", d, m, done, runs, err)
	}
	for _, c := range []struct {
		ctx    *context.Context
		method string
		want   string
	}{
		{checkpointCtx(3, 0.05), "geomix1", "lr=0.01 (now 0.05)"},
		{checkpointCtx(3, 0.01), "geomix2", "it is for tiny/geomix1, not tiny/geomix2"},
		{checkpointCtx(2, 0.01), "geomix1", "resumes at run 2"},
	} {
		_, err := Train(c.ctx, testutil.Backend(t), testutil.TinyGraph(), c.method, WithProgress(io.Discard), WithCheckpoint(path))
		if err == nil || !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: got %v, want an error naming %s and %q", c.method, err, path, c.want)
		}
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, data[:len(data)/2], 0o644); err != nil {
		t.Fatal(err)
	}
	_, err = Train(checkpointCtx(3, 0.01), testutil.Backend(t), testutil.TinyGraph(), "geomix1", WithProgress(io.Discard), WithCheckpoint(path))
	if err == nil || !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), "damaged") {
		t.Errorf("truncated checkpoint: got %v, want an error naming %s as damaged", err, path)
	}
}

// TestCheckpointChecksum: a checkpoint whose content changed after it was written (one flipped bit
// in a tensor, or a finished run's accuracy edited and the file re-encoded) is refused before
// resuming, with an error naming the file; the untouched checkpoint resumes.
func TestCheckpointChecksum(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "cell.ckpt")
	if _, err := Train(checkpointCtx(3, 0.01), testutil.Backend(t), testutil.TinyGraph(), "geomix1", WithProgress(io.Discard), WithCheckpoint(path)); err != nil {
		t.Fatal(err)
	}
	good, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	body, trailer := good[:len(good)-checkpointSumSize], good[len(good)-checkpointSumSize:]

	// The last tensor's data ends the gob stream: flip one bit of its last value.
	flipped := bytes.Clone(good)
	flipped[len(body)-3] ^= 0x10

	// Edit the first finished run's test accuracy, re-encode, and keep the old trailer.
	h, values, err := decodeCheckpoint(path, bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	h.Runs[0].TestAcc += 10
	ordered := make([]*tensors.Tensor, len(h.Vars))
	for i, name := range h.Vars {
		ordered[i] = values[name]
	}
	var edited bytes.Buffer
	if err := encodeCheckpoint(&edited, h, ordered); err != nil {
		t.Fatal(err)
	}
	edited.Write(trailer)

	for name, data := range map[string][]byte{"bit flip": flipped, "edited accuracy": edited.Bytes()} {
		p := filepath.Join(dir, strings.ReplaceAll(name, " ", "-")+".ckpt")
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		_, err := Train(checkpointCtx(3, 0.01), testutil.Backend(t), testutil.TinyGraph(), "geomix1", WithProgress(io.Discard), WithCheckpoint(p))
		if err == nil || !strings.Contains(err.Error(), p) || !strings.Contains(err.Error(), "damaged or was edited") {
			t.Errorf("%s: got %v, want an error naming %s as damaged or edited", name, err, p)
		}
		if _, _, _, _, err := CheckpointProgress(p); err == nil {
			t.Errorf("%s: CheckpointProgress accepted the file", name)
		}
	}
	if _, err := Train(checkpointCtx(3, 0.01), testutil.Backend(t), testutil.TinyGraph(), "geomix1", WithProgress(io.Discard), WithCheckpoint(path)); err != nil {
		t.Errorf("the untouched checkpoint: %v", err)
	}
}

// TestStopKeepsCheckpoint: a training stopped through WithStop in its second run returns a
// StoppedError saying the checkpoint keeps the first run, and the same training resumes from it to
// the numbers of an uninterrupted one.
func TestStopKeepsCheckpoint(t *testing.T) {
	plain, err := Train(checkpointCtx(3, 0.01), testutil.Backend(t), testutil.TinyGraph(), "geomix1", WithProgress(io.Discard))
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "cell.ckpt")
	stop := make(chan struct{})
	_, err = Train(checkpointCtx(3, 0.01), testutil.Backend(t), testutil.TinyGraph(), "geomix1", WithProgress(io.Discard), WithCheckpoint(path), WithStop(stop),
		WithEpochCallback(func(run int, s EpochStats) {
			if run == 1 && s.Epoch == 3 {
				close(stop)
			}
		}))
	var stopped *StoppedError
	if !errors.As(err, &stopped) || !errors.Is(err, ErrStopped) || stopped.Run != 1 || stopped.Epoch != 4 || stopped.Kept != 1 {
		t.Fatalf("got %v (%+v), want a StoppedError in run 2 after 4 epochs keeping 1 run", err, stopped)
	}
	if !strings.Contains(err.Error(), path+" keeps 1 finished run(s); the same training resumes at run 2") {
		t.Errorf("message %q does not say what %s keeps", err, path)
	}
	resumed, err := Train(checkpointCtx(3, 0.01), testutil.Backend(t), testutil.TinyGraph(), "geomix1", WithProgress(io.Discard), WithCheckpoint(path))
	if err != nil {
		t.Fatal(err)
	}
	sameRuns(t, "stopped then resumed vs uninterrupted", plain, resumed)

	closed := make(chan struct{})
	close(closed)
	_, err = Train(checkpointCtx(3, 0.01), testutil.Backend(t), testutil.TinyGraph(), "geomix1", WithProgress(io.Discard), WithStop(closed))
	if !errors.As(err, &stopped) || stopped.Run != 0 || stopped.Epoch != 0 || !strings.Contains(err.Error(), "no checkpoint, nothing kept") {
		t.Errorf("stopped before the first epoch: %v", err)
	}
}
