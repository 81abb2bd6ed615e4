package geomix

import (
	"fmt"
	"io"

	"github.com/geomix-go/geomix/datasets"
	"github.com/geomix-go/geomix/geomix/methods"
	"github.com/geomix-go/geomix/geomix/mixing"
	"github.com/geomix-go/geomix/geomix/presets"
	"github.com/geomix-go/geomix/geomix/training"
	"github.com/gomlx/gomlx/backends"
	. "github.com/gomlx/gomlx/pkg/core/graph"
	"github.com/gomlx/gomlx/pkg/ml/context"
)

// Result summarises the runs of one training: mean and standard deviation of the test accuracy at
// each run's best validation epoch, in percent, and every run's curve.
type Result = training.Result

// RunResult is one run of a Result: its selected epoch, accuracies and per-epoch curve.
type RunResult = training.RunResult

// EpochStats is what one epoch measured (see WithEpochCallback).
type EpochStats = training.EpochStats

// MeanStd is a mean and its standard deviation over runs, in percent.
type MeanStd = training.MeanStd

// Option configures Train and TrainPreset beyond the hyper-parameters in the context.
type Option = training.Option

// Preset is the configuration of the authors' run script for one (data set, method).
type Preset = presets.Preset

// WithProgress sends the progress bar to w (default os.Stderr; io.Discard silences it).
func WithProgress(w io.Writer) Option { return training.WithProgress(w) }

// WithEpochCallback calls fn after every epoch of every run (0-based run), e.g. to plot curves live.
func WithEpochCallback(fn func(run int, s EpochStats)) Option { return training.WithEpochCallback(fn) }

// WithCheckpoint keeps the training's state between runs in the file at path, so that a training
// stopped mid-way resumes at the run it was in with the numbers an uninterrupted one gives.
func WithCheckpoint(path string) Option { return training.WithCheckpoint(path) }

// WithStop makes a training stop at its next safe point (between epochs, or at a run's start once
// its checkpoint is written) once stop is closed; the error then wraps ErrStopped and says what the
// checkpoint keeps.
func WithStop(stop <-chan struct{}) Option { return training.WithStop(stop) }

// ErrStopped is wrapped by the error of a training stopped through WithStop.
var ErrStopped = training.ErrStopped

// WithRepresentations calls fn after every run with the model's logits [N, C] in evaluation mode at
// the run's selected epoch (the node representations of the paper's t-SNE figures).
func WithRepresentations(fn func(run, epoch int, logits [][]float32)) Option {
	return training.WithRepresentations(fn)
}

// Train runs method (see Methods) on g with the hyper-parameters in ctx (the reference's argparse
// defaults where unset; see PresetFor for the authors' scripts' values) and returns the summary of
// its runs. ctx is only read: the same seed gives the same numbers.
func Train(ctx *context.Context, backend backends.Backend, g *datasets.Graph, method string, opts ...Option) (*Result, error) {
	return training.Train(ctx, backend, g, method, opts...)
}

// Methods lists the method ids Train accepts: the baselines, GeoMix-I/II/III (geomix1, geomix2,
// geomix3, geomix3-paper) and the ablations (randommix, nolocality).
func Methods() []string { return methods.Names() }

// PresetFor returns the authors' script configuration of (dataset, method); its Params are keyed by
// the hyper-parameter names (see ParamNames).
func PresetFor(dataset, method string) (*Preset, error) { return presets.For(dataset, method) }

// ParamNames lists every hyper-parameter a training reads, sorted: the keys of ctx.SetParam and of
// the CLI's `--set key=value`.
func ParamNames() []string { return training.ParamNames() }

// ParseParam converts the text value of hyper-parameter key to the Go type training expects (int,
// float64, bool or string); unknown keys and malformed values are errors naming the key.
func ParseParam(key, value string) (any, error) { return training.ParseParam(key, value) }

// Mix applies one GeoMix mixing to the node values x [N, D] (features, or label distributions
// [N, C]) over g's normalised adjacency Â = D̃^-1/2 (A+I) D̃^-1/2 and returns the mixed values
// [N, D]: "geomix1" is GeoMix-I, h ← α h + (1−α) Â h repeated hops times (the paper's Eq. 4-5),
// "geomix2" is GeoMix-II, h ← (1−α) Â h + α x (Eq. 6-7). Training mixes features and labels alike.
func Mix(backend backends.Backend, g *datasets.Graph, x [][]float32, method string, alpha float64, hops int) ([][]float32, error) {
	var mix func(a *mixing.AdjacencyNodes, h *Node) *Node
	switch method {
	case "geomix1":
		mix = func(a *mixing.AdjacencyNodes, h *Node) *Node { return mixing.MixI(a, h, alpha, hops) }
	case "geomix2":
		mix = func(a *mixing.AdjacencyNodes, h *Node) *Node { return mixing.MixII(a, h, alpha, hops) }
	default:
		return nil, fmt.Errorf("Mix: method %q: want geomix1 or geomix2", method)
	}
	if len(x) != g.NumNodes {
		return nil, fmt.Errorf("Mix: x has %d rows, want one per node of %q (%d)", len(x), g.Name, g.NumNodes)
	}
	if hops < 1 {
		return nil, fmt.Errorf("Mix: hops = %d, want >= 1", hops)
	}
	src, dst, w := mixing.BuildAdjacency(g, mixing.NormSymmetric).Inputs()
	exec, err := NewExec(backend, func(xs, s, d, wt *Node) *Node {
		return mix(mixing.NewAdjacencyNodes(g.NumNodes, s, d, wt), xs)
	})
	if err != nil {
		return nil, fmt.Errorf("Mix: %w", err)
	}
	out, err := exec.Exec(x, src, dst, w)
	if err != nil {
		return nil, fmt.Errorf("Mix: %w", err)
	}
	return out[0].Value().([][]float32), nil
}
