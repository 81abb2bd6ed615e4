package training

import (
	"fmt"
	"io"
	"math/rand/v2"
	"os"

	"github.com/geomix-go/geomix/datasets"
	"github.com/geomix-go/geomix/geomix/backbones"
	"github.com/geomix-go/geomix/geomix/methods"
	"github.com/geomix-go/geomix/geomix/mixing"
	"github.com/gomlx/gomlx/backends"
	"github.com/gomlx/gomlx/pkg/core/dtypes"
	. "github.com/gomlx/gomlx/pkg/core/graph"
	"github.com/gomlx/gomlx/pkg/core/tensors"
	"github.com/gomlx/gomlx/pkg/ml/context"
)

// Option configures Train beyond the hyper-parameters in the context.
type Option func(*trainOptions)

type trainOptions struct {
	progress        io.Writer
	onEpoch         func(run int, s EpochStats)
	checkpoint      string
	representations func(run, epoch int, logits [][]float32)
	stop            <-chan struct{}
}

// WithProgress sends the progress bar to w (default os.Stderr; io.Discard silences it).
func WithProgress(w io.Writer) Option { return func(o *trainOptions) { o.progress = w } }

// WithEpochCallback calls fn after every epoch of every run (0-based run), e.g. to plot curves live.
func WithEpochCallback(fn func(run int, s EpochStats)) Option {
	return func(o *trainOptions) { o.onEpoch = fn }
}

// WithRepresentations calls fn after every run with the model's final-layer output in evaluation
// mode on the original features, logits [N, C], at the run's selected epoch (the one whose test
// accuracy the run reports): the node representations of the paper's t-SNE figures. Every
// evaluation then also returns its logits; the numbers trained are the same.
func WithRepresentations(fn func(run, epoch int, logits [][]float32)) Option {
	return func(o *trainOptions) { o.representations = fn }
}

// WithCheckpoint keeps Train's state between runs in the file at path, so that a Train stopped
// mid-way (killed, failed) resumes at the run it was in, with the numbers an uninterrupted Train gives:
// at the start of every run after the first, path is rewritten atomically with the finished runs, the
// context's variables (the run's fresh parameters, Adam's carried state, the RNG) and the host RNG.
// A Train finding a checkpoint at path continues from it, or fails if it was written for another
// data set, method, graph or hyper-parameters. The caller deletes path once it has the Result.
func WithCheckpoint(path string) Option { return func(o *trainOptions) { o.checkpoint = path } }

// WithStop makes Train stop at its next safe point once stop is closed (e.g. on SIGINT): after the
// epoch in progress, or at the start of a run once the checkpoint (WithCheckpoint) holds the runs
// before it. Train then returns a *StoppedError saying what the checkpoint keeps.
func WithStop(stop <-chan struct{}) Option { return func(o *trainOptions) { o.stop = stop } }

// Train runs method (see MethodNames) on g for ParamRuns runs with the hyper-parameters in ctx
// (defaults: the reference's argparse defaults; see ApplyPreset for the scripts' values) and returns
// the summary. It follows the authors' protocol: every epoch is one update on all
// nodes, then an evaluation in eval mode on the original features; each run reports the test
// accuracy at its first best validation epoch; run r uses split r mod len(g.Splits).
//
// Variables live in a fresh context seeded with ParamSeed, so ctx itself is only read and the same
// seed gives the same numbers. Model parameters are re-initialised at every run; Adam's state
// carries over unless ParamResetAdam (the reference's behaviour); frozen W_q/W_k
// (ParamTrainAttention false) keep their first initialisation, as in the hetero code.
func Train(ctx *context.Context, backend backends.Backend, g *datasets.Graph, method string, opts ...Option) (*Result, error) {
	o := trainOptions{progress: os.Stderr}
	for _, opt := range opts {
		opt(&o)
	}
	t, err := newTrainer(ctx, backend, g, method, o.representations != nil)
	if err != nil {
		return nil, err
	}
	return t.run(o)
}

// trainer holds everything that lives outside the epoch loop: compiled executors and uploaded inputs.
type trainer struct {
	ctx       *context.Context
	backend   backends.Backend
	g         *datasets.Graph
	method    string
	backbone  string
	model     *methods.Model
	mth       methods.Method
	params    map[string]any
	epochs    int
	runs      int
	patience  int
	resetAdam bool
	// selectLast is ParamSelectLast.
	selectLast bool
	// pcg is the source of rng, kept to save and restore its state (see WithCheckpoint).
	pcg *rand.PCG
	rng *rand.Rand
	// loader, while set, hands a checkpoint's values to the variables the first step creates.
	loader *snapshotLoader

	// execs holds, per kind of update (methods.Step.Kind) and whether it first evaluates, the
	// update's executor, made on first use (newStepExec); evalExec only evaluates.
	execs    map[execKey]*context.Exec
	evalExec *context.Exec
	// newStepExec makes the executor of a kind of update, evaluating the parameters first (on the
	// same graph) when withEval.
	newStepExec func(kind int, withEval bool) (*context.Exec, error)
	// main holds the inputs of the graph trained on; batches, with TrainBatches, those of each
	// mini-batch (nil otherwise).
	main    *graphInputs
	batches []*batch
	// dense is the feature layout every graph's X is fed in (ParamFeatureLayout, decided on g).
	dense   bool
	adjNorm mixing.Normalization
	// withLogits makes every executor also return the evaluation's logits [N, C], kept in logits
	// by the last call (see WithRepresentations).
	withLogits bool
	logits     *tensors.Tensor
}

// effectiveParams returns every Param* value Train uses: ctx's if set, else the default.
func effectiveParams(ctx *context.Context) map[string]any {
	out := make(map[string]any, len(paramSpecs))
	for k, spec := range paramSpecs {
		out[k] = spec.def
		if v, ok := ctx.GetParam(k); ok {
			out[k] = v
		}
	}
	return out
}

func newTrainer(ctx *context.Context, backend backends.Backend, g *datasets.Graph, method string, withLogits bool) (*trainer, error) {
	if g == nil {
		return nil, fmt.Errorf("graph is nil")
	}
	if err := g.Validate(); err != nil {
		return nil, err
	}
	mth, err := methods.New(method)
	if err != nil {
		return nil, err
	}
	params := effectiveParams(ctx)
	if err := CheckParams(params); err != nil {
		return nil, err
	}
	backboneName := mth.Backbone(params[backbones.ParamBackbone].(string))
	params[backbones.ParamBackbone] = backboneName
	b, err := backbones.ByName(backboneName)
	if err != nil {
		return nil, err
	}
	norm, err := mixing.ParseNormalization(params[ParamNormalization].(string))
	if err != nil {
		return nil, err
	}
	rctx := context.New().Checked(false)
	rctx.SetParams(params)
	seed := int64(params[ParamSeed].(int))
	if err := rctx.SetRNGStateFromSeed(seed); err != nil {
		return nil, err
	}
	dims := backbones.Dims{Features: g.NumFeatures(), Classes: g.NumClasses}
	m, err := methods.NewModel(rctx, b, dims)
	if err != nil {
		return nil, err
	}
	if err := mth.Prepare(rctx, m, g); err != nil {
		return nil, err
	}
	t := &trainer{ctx: rctx, backend: backend, g: g, method: method, backbone: backboneName, model: m, mth: mth, params: params, withLogits: withLogits,
		epochs: params[ParamEpochs].(int), runs: params[ParamRuns].(int), patience: params[ParamPatience].(int),
		resetAdam: params[ParamResetAdam].(bool), selectLast: params[ParamSelectLast].(bool),
		pcg: rand.NewPCG(uint64(seed), 0x6765306d6978), execs: map[execKey]*context.Exec{}}
	t.rng = rand.New(t.pcg)
	if t.epochs < 1 || t.runs < 1 {
		return nil, fmt.Errorf("want %s >= 1 and %s >= 1, got %d and %d", ParamEpochs, ParamRuns, t.epochs, t.runs)
	}
	cfg := NewAdamConfig(params[ParamLR].(float64), params[ParamWeightDecay].(float64))
	cfg.DecayEvery, cfg.DecayFactor = params[ParamLRDecayEvery].(int), params[ParamLRDecayFactor].(float64)

	t.adjNorm = norm
	if t.dense, err = backbones.DenseLayout(params[backbones.ParamFeatureLayout].(string), g.Features); err != nil {
		return nil, err
	}
	t.main = t.graphInputs(g)
	for _, tb := range g.TrainBatches {
		t.batches = append(t.batches, t.newBatch(tb))
	}

	numX := len(t.main.args) - 3
	f := g.NumFeatures()
	// inputs splits an executor's inputs for a graph of n nodes: the adjacency, X, then the step's
	// own (rest).
	inputs := func(in []*Node, n int) (x *backbones.Features, a *mixing.AdjacencyNodes, rest []*Node) {
		return backbones.NewFeatures(n, f, in[3:3+numX]), mixing.NewAdjacencyNodes(n, in[0], in[1], in[2]), in[3+numX:]
	}
	// evalOutputs are an evaluation's outputs: the prediction [N] and, with withLogits, logits [N, C].
	evalOutputs := func(logits *Node) []*Node {
		if withLogits {
			return []*Node{ArgMax(logits, -1, dtypes.Int32), logits}
		}
		return []*Node{ArgMax(logits, -1, dtypes.Int32)}
	}
	// A step evaluates the current parameters and then updates them: the evaluation of one epoch's
	// update shares the next update's input projection X W (the same parameters). The evaluation is
	// in eval mode on the clean projection; the update in training mode.
	// The update's own inputs (rest) are the one-hot labels [N, C], the train and augmentation
	// masks [N, 1], then the method's draws; N is the graph's, read from the labels.
	t.newStepExec = func(kind int, withEval bool) (*context.Exec, error) {
		return context.NewExec(backend, rctx, func(ctx *context.Context, in []*Node) []*Node {
			x, a, rest := inputs(in, in[3+numX].Shape().Dim(0))
			zs, proj := m.Project(ctx, x, true)
			var eval []*Node
			if withEval {
				ctx.SetTraining(x.Graph(), false)
				eval = evalOutputs(m.Logits(ctx, a, zs[0]))
			}
			ctx.SetTraining(x.Graph(), true)
			loss := mth.Loss(ctx, kind, methods.NewInputs(m, x, a, rest[0], rest[1], rest[2], rest[3:], zs, proj))
			ApplyAdam(ctx, loss, cfg)
			return append([]*Node{loss}, eval...)
		})
	}
	t.evalExec, err = context.NewExec(backend, rctx, func(ctx *context.Context, in []*Node) []*Node {
		ctx.SetTraining(in[0].Graph(), false)
		x, a, _ := inputs(in, g.NumNodes)
		zs, _ := m.Project(ctx, x, false)
		return evalOutputs(m.Logits(ctx, a, zs[0]))
	})
	if err != nil {
		return nil, err
	}
	return t, nil
}
