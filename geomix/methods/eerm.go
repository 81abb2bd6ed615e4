package methods

import (
	"fmt"
	"slices"

	"github.com/geomix-go/geomix/datasets"
	"github.com/geomix-go/geomix/geomix/mixing"
	"github.com/gomlx/gomlx/pkg/core/dtypes"
	. "github.com/gomlx/gomlx/pkg/core/graph"
	"github.com/gomlx/gomlx/pkg/core/shapes"
	"github.com/gomlx/gomlx/pkg/core/tensors"
	"github.com/gomlx/gomlx/pkg/ml/context"
	"github.com/gomlx/gomlx/pkg/ml/context/initializers"
)

// Keys of the trainer's hyper-parameters EERM reads (training.ParamLR, ParamWeightDecay and
// ParamNormalization; package training imports this one, so they are repeated here).
const (
	eermParamLR            = "lr"
	eermParamWeightDecay   = "weight_decay"
	eermParamNormalization = "normalization"
)

// eermEditorScope is where the editors' logits live, under ModelScope so that every run starts
// them afresh.
const eermEditorScope = "eerm_editor"

// eerm is EERM (Wu et al., "Handling Distribution Shifts on Graphs: An Invariance Perspective",
// ICLR'22; its code's multigraph/model.py and main.py). K graph editors generate K environments
// per update: editor k holds logits B_k, and for every node v it draws s sources u without
// replacement from softmax(B_k[v, ·]) and flips the edge u→v (adds it, or removes it if present).
// The GCN runs on each edited graph (its symmetric normalisation with self-loops recomputed), giving
// the train-node risks L_1..L_K. The GCN descends Var(L) + β_t Mean(L), β_t = β (1 − t/E) + 10β t/E
// over the E epochs (its Twitch schedule); the editors ascend Var(L) by REINFORCE, the surrogate
// −Var(L)·Σ_k log p_k with the variance held constant.
//
// One update, one Adam step. EERM's loop with its Twitch setting T = 1 takes one sample of the K
// graphs per epoch and steps the GCN's optimizer on the first objective and the editors' own
// optimizer (lr_a, no weight decay) on the surrogate, both from that sample. Here Loss returns
// Var + β_t Mean plus (S − StopGradient(S)), where S is the surrogate plus −(wd/2)‖B̃‖²: S adds
// nothing to the loss's value and gives the editors' variables exactly the surrogate's gradient,
// and the GCN's variables receive none of it. The editors' variables are B̃ = B / ρ with
// ρ = lr_a / lr: Adam's step is invariant to the scale of a gradient, so the trainer's one Adam (lr)
// moves B by lr_a times Adam's direction, and −(wd/2)‖B̃‖² cancels the coupled weight decay the
// trainer adds to every gradient (EERM's editors have their own AdamW(lr_a), whose default
// decoupled decay shrinks B by a factor 1 − 1e-2·lr_a per step; that shrinkage is left out).
//
// Differences from EERM's code, all deliberate:
//   - Its editor holds a dense n×n logit matrix per environment (1.8 GB of float32 per view on the
//     pooled DE+ENGB+ES, plus Adam's moments).
//     Here each node's row holds ParamEERMCandidates candidate sources, drawn without replacement
//     at the start of every run, uniformly among the training-domain nodes (every node not in an
//     extra test set: on twitch-ood the pooled DE+ENGB+ES); its B starts U(0, 1) as its
//     reset_parameters intends (its code leaves B uninitialised).
//   - Sampling is Gumbel-top-s, and log p_k is that sample's exact Plackett–Luce log-probability
//     (Σ_t B[v, u_t] − logsumexp over the candidates not yet drawn); its code draws from rows of a
//     column softmax and subtracts one logsumexp per node.
//   - The risks are the cross-entropy on the run's train nodes (the table's protocol), not its
//     BCE-with-logits on one-hot labels; the GCN is this project's (normalised, self-loops), not its
//     GCNConv(normalize=False); the optimizer is the trainer's Adam with coupled weight decay, not
//     AdamW.
type eerm struct {
	k, samples, candidates int
	beta, scale, decay     float64
	// domain are the editable nodes (sorted); sources[v] are the in-neighbours of node v with the
	// index of their edge in the trainer's adjacency, sorted by source.
	domain  []int32
	sources [][]eermEdge
	// numEdges is the adjacency's entry count (self-loops included).
	numEdges int
	// tables are the current run's candidate tables (Draw's inputs after β_t).
	tables []*tensors.Tensor
}

// eermEdge is one entry of the adjacency: its source and its index.
type eermEdge struct{ src, index int32 }

// Backbone is the GCN (PyG's GCNConv where the preset configures "gcnconv"), EERM's Twitch backbone.
func (e *eerm) Backbone(configured string) string {
	if configured == "gcnconv" {
		return configured
	}
	return "gcn"
}

// Prepare reads EERM's hyper-parameters, takes every node outside the extra test sets as the
// training domain and indexes the adjacency's edges by target.
func (e *eerm) Prepare(ctx *context.Context, _ *Model, g *datasets.Graph) error {
	e.k = context.GetParamOr(ctx, ParamEERMEnvironments, 3)
	e.samples = context.GetParamOr(ctx, ParamEERMSamples, 5)
	e.candidates = context.GetParamOr(ctx, ParamEERMCandidates, 64)
	e.beta = context.GetParamOr(ctx, ParamEERMBeta, 1.0)
	lrA, lr := context.GetParamOr(ctx, ParamEERMEditorLR, 0.005), context.GetParamOr(ctx, eermParamLR, 0.01)
	e.decay = context.GetParamOr(ctx, eermParamWeightDecay, 5e-4)
	switch norm := context.GetParamOr(ctx, eermParamNormalization, "sym"); {
	case norm != "sym":
		return fmt.Errorf("eerm recomputes the symmetric normalisation of every edited graph: want %s \"sym\", got %q", eermParamNormalization, norm)
	case e.k < 2:
		return fmt.Errorf("%s = %d: the variance of the risks needs at least 2 environments", ParamEERMEnvironments, e.k)
	case lrA <= 0 || lr <= 0:
		return fmt.Errorf("eerm: want positive learning rates, got %s %g and %s %g", ParamEERMEditorLR, lrA, eermParamLR, lr)
	}
	e.scale = lrA / lr
	outside := make([]bool, g.NumNodes)
	for _, set := range g.ExtraTests {
		for _, v := range set.Nodes {
			outside[v] = true
		}
	}
	e.domain = e.domain[:0]
	for v := range int32(g.NumNodes) {
		if !outside[v] {
			e.domain = append(e.domain, v)
		}
	}
	e.candidates = min(e.candidates, len(e.domain)-1)
	if e.samples < 1 || e.samples > e.candidates {
		return fmt.Errorf("%s = %d: want 1 to %d (the candidates of a node, %s, within a training domain of %d nodes)",
			ParamEERMSamples, e.samples, e.candidates, ParamEERMCandidates, len(e.domain))
	}
	adj := mixing.BuildAdjacency(g, mixing.NormSymmetric)
	e.numEdges = len(adj.Src)
	e.sources = make([][]eermEdge, g.NumNodes)
	for i := range adj.Src {
		e.sources[adj.Dst[i]] = append(e.sources[adj.Dst[i]], eermEdge{adj.Src[i], int32(i)})
	}
	for _, s := range e.sources {
		slices.SortFunc(s, func(a, b eermEdge) int { return int(a.src - b.src) })
	}
	return nil
}

// Draw gives β_t and the run's candidate tables, drawn at the run's first update (see
// drawCandidates).
func (e *eerm) Draw(r *Run, epoch int) Step {
	if epoch == 0 || e.tables == nil {
		e.tables = e.drawCandidates(r)
	}
	frac := float64(epoch) / float64(r.Epochs)
	betaT := float32(e.beta*(1-frac) + 10*e.beta*frac)
	inputs := []any{betaT}
	for _, t := range e.tables {
		inputs = append(inputs, t)
	}
	return Step{Inputs: inputs}
}

// drawCandidates draws, for every domain node v, ParamEERMCandidates distinct other domain nodes
// from r.RNG and returns the tables Loss reads: the candidates [D, c] (int32), the index of the
// edge candidate→v in the adjacency or numEdges where there is none [D, c] (int32), 1 where that
// edge exists [D, c] (float32), and the domain nodes [D, 1] (int32).
func (e *eerm) drawCandidates(r *Run) []*tensors.Tensor {
	d, c := len(e.domain), e.candidates
	cand, edge := make([]int32, d*c), make([]int32, d*c)
	exists := make([]float32, d*c)
	seen := make(map[int32]bool, c)
	for i, v := range e.domain {
		clear(seen)
		seen[v] = true
		for j := 0; j < c; {
			u := e.domain[r.RNG.IntN(d)]
			if seen[u] {
				continue
			}
			seen[u] = true
			cand[i*c+j], edge[i*c+j] = u, int32(e.numEdges)
			srcs := e.sources[v]
			if at, found := slices.BinarySearchFunc(srcs, u, func(a eermEdge, u int32) int { return int(a.src - u) }); found {
				edge[i*c+j], exists[i*c+j] = srcs[at].index, 1
			}
			j++
		}
	}
	return []*tensors.Tensor{tensors.FromFlatDataAndDimensions(cand, d, c), tensors.FromFlatDataAndDimensions(edge, d, c),
		tensors.FromFlatDataAndDimensions(exists, d, c), tensors.FromFlatDataAndDimensions(slices.Clone(e.domain), d, 1)}
}

// Loss is Var + β_t Mean of the risks on the K edited graphs, plus the editors' zero-valued
// REINFORCE term (see eerm and eermObjective).
func (e *eerm) Loss(ctx *context.Context, _ int, in *Inputs) *Node {
	zs, _ := in.TrainingBlocks(ctx)
	g := zs[0].Graph()
	dtype := zs[0].DType()
	betaT, tables := in.Drawn[0], eermTables{cand: in.Drawn[1], edge: in.Drawn[2], exists: in.Drawn[3], dst: in.Drawn[4]}
	d, c := tables.cand.Shape().Dim(0), tables.cand.Shape().Dim(1)
	ectx := ctx.InAbsPath(ModelScope).In(eermEditorScope)
	ectx = ectx.WithInitializer(initializers.RandomUniformFn(ectx, 0, 1/e.scale))
	risks, scaled := make([]*Node, e.k), make([]*Node, e.k)
	var logP *Node
	for k := range e.k {
		scaled[k] = ectx.VariableWithShape(fmt.Sprintf("logits_%d", k), shapes.Make(dtype, d, c)).ValueGraph(g)
		u := Max(ectx.RandomUniform(g, shapes.Make(dtype, d, c)), Scalar(g, dtype, 1e-20))
		picks, lp := editorSample(MulScalar(scaled[k], e.scale), Neg(Log(Neg(Log(u)))), e.samples)
		adj := editAdjacency(in.Adj, picks, tables)
		risks[k] = SoftCrossEntropy(in.Model.Logits(ctx, adj, zs[0]), in.OneHot, in.TrainMask)
		if logP == nil {
			logP = lp
		} else {
			logP = Add(logP, lp)
		}
	}
	variance, mean := riskVariance(risks)
	return eermObjective(variance, mean, ConvertDType(betaT, dtype), logP, scaled, e.decay)
}

// eermTables are the candidate tables of drawCandidates, as graph nodes.
type eermTables struct {
	cand, edge, exists, dst *Node
}

// editorSample draws s distinct candidates per row of the editor logits b [D, c] by Gumbel-top-s
// with gumbel noise [D, c] and returns them, in order, as s index vectors [D] (int32), with the
// sample's log-probability Σ_rows Σ_t (b[v, u_t] − logsumexp of b[v, ·] over the candidates not
// drawn before t), differentiable in b.
func editorSample(b, gumbel *Node, s int) (picks []*Node, logP *Node) {
	if b.Rank() != 2 || !b.Shape().Equal(gumbel.Shape()) || s > b.Shape().Dim(1) {
		panic(fmt.Sprintf("editorSample: want logits and noise [D, c] with c >= s = %d, got %s and %s", s, b.Shape(), gumbel.Shape()))
	}
	g, dtype, c := b.Graph(), b.DType(), b.Shape().Dim(1)
	scores := Add(StopGradient(b), gumbel)
	taken := ZerosLike(b)
	veryLow := Scalar(g, dtype, -1e30)
	logP = ScalarZero(g, dtype)
	for range s {
		isTaken := GreaterThan(taken, ZerosLike(taken))
		pick := ArgMax(Where(isTaken, BroadcastToShape(veryLow, b.Shape()), scores), -1, dtypes.Int32)
		oneHot := OneHot(pick, c, dtype)
		remaining := Where(isTaken, BroadcastToShape(veryLow, b.Shape()), b)
		top := StopGradient(ReduceAndKeep(remaining, ReduceMax, -1))
		logSumExp := Add(Log(ReduceSum(Exp(Sub(remaining, top)), -1)), Squeeze(top, -1))
		logP = Add(logP, ReduceAllSum(Sub(ReduceSum(Mul(oneHot, b), -1), logSumExp)))
		taken = Add(taken, oneHot)
		picks = append(picks, pick)
	}
	return picks, logP
}

// editAdjacency returns the graph of adj with the edges candidate→v flipped for every pick (an index
// [D] into the candidate tables' rows): existing edges removed, missing ones added, and the symmetric
// normalisation with one self-loop per node recomputed on the result. adj must be the trainer's
// symmetric adjacency (self-loops included); the self-loops are never edited, as no node is its
// own candidate.
func editAdjacency(adj *mixing.AdjacencyNodes, picks []*Node, t eermTables) *mixing.AdjacencyNodes {
	g := adj.Src.Graph()
	d, c := t.cand.Shape().Dim(0), t.cand.Shape().Dim(1)
	e := adj.Src.Shape().Dim(0)
	dtype := adj.Weight.DType()
	rows := MulScalar(Iota(g, shapes.Make(dtypes.Int32, d), 0), c)
	flatCand, flatEdge := Reshape(t.cand, d*c, 1), Reshape(t.edge, d*c, 1)
	flatExists := Reshape(ConvertDType(t.exists, dtype), d*c, 1)
	srcs, dsts, weights := []*Node{adj.Src}, []*Node{adj.Dst}, []*Node{nil}
	var removedAt, removed []*Node
	for _, pick := range picks {
		at := Reshape(Add(rows, pick), d, 1)
		exists := Gather(flatExists, at)
		srcs, dsts, weights = append(srcs, Gather(flatCand, at)), append(dsts, t.dst), append(weights, OneMinus(exists))
		removedAt, removed = append(removedAt, Gather(flatEdge, at)), append(removed, exists)
	}
	// Edge numEdges is the slot of the candidates without an edge; their updates are 0.
	drop := ScatterSum(Zeros(g, shapes.Make(dtype, e+1, 1)), Concatenate(removedAt, 0), Concatenate(removed, 0), false, false)
	weights[0] = OneMinus(Min(Slice(drop, AxisRange(0, e)), OnesLike(Slice(drop, AxisRange(0, e)))))
	src, dst, w := Concatenate(srcs, 0), Concatenate(dsts, 0), Concatenate(weights, 0)
	deg := ScatterSum(Zeros(g, shapes.Make(dtype, adj.NumNodes, 1)), dst, w, false, false)
	inv := Rsqrt(deg)
	// The edits are discrete draws: no gradient reaches the logits through the graph.
	return mixing.NewAdjacencyNodes(adj.NumNodes, src, dst, StopGradient(Mul(Mul(w, Gather(inv, src)), Gather(inv, dst))))
}

// riskVariance returns the unbiased variance (torch.var_mean's) and the mean of the scalar risks.
func riskVariance(risks []*Node) (variance, mean *Node) {
	k := len(risks)
	if k < 2 {
		panic(fmt.Sprintf("riskVariance: want at least 2 risks, got %d", k))
	}
	all := Stack(risks, 0) // [K]
	mean = ReduceAllMean(all)
	variance = MulScalar(ReduceAllSum(Square(Sub(all, mean))), 1/float64(k-1))
	return variance, mean
}

// eermObjective is the loss of one EERM update: Var + β_t Mean in value; in gradient, also the
// REINFORCE surrogate −StopGradient(Var)·logP for the editors' scaled logits (one [D, c] variable per
// editor), whose −(wd/2)‖scaled‖²
// cancels the coupled weight decay the trainer's Adam adds (see eerm).
func eermObjective(variance, mean, betaT, logP *Node, scaled []*Node, decay float64) *Node {
	gnn := Add(variance, Mul(betaT, mean))
	editor := Mul(Neg(StopGradient(variance)), logP)
	for _, s := range scaled {
		editor = Sub(editor, MulScalar(ReduceAllSum(Square(s)), decay/2))
	}
	return Add(gnn, Sub(editor, StopGradient(editor)))
}
