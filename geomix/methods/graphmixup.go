package methods

import (
	"fmt"

	"github.com/geomix-go/geomix/datasets"
	"github.com/geomix-go/geomix/geomix/backbones"
	"github.com/geomix-go/geomix/geomix/mixing"
	"github.com/gomlx/gomlx/pkg/core/dtypes"
	. "github.com/gomlx/gomlx/pkg/core/graph"
	"github.com/gomlx/gomlx/pkg/core/tensors"
	"github.com/gomlx/gomlx/pkg/ml/context"
)

// graphMixupNet is the network GraphMixup trains (backbones.GraphMixup).
type graphMixupNet interface {
	backbones.Backbone
	Encode(ctx *context.Context, adj *mixing.AdjacencyNodes, xw *Node, dims backbones.Dims) (z, semantic *Node)
	NeighbourSum(adj *mixing.AdjacencyNodes, z *Node) (sum, degree *Node)
	Classify(ctx *context.Context, z, nbrSum, degree *Node, dims backbones.Dims) *Node
	DecoderProjection(ctx *context.Context, z *Node) *Node
	ContextHead(ctx *context.Context, name string, x *Node, out int) *Node
}

// graphMixup is GraphMixup (Wu et al., ECML-PKDD'22, its code's src/main.py in the "joint" setting,
// the one that trains everything in one stage): every epoch the encoder embeds the graph, train
// nodes are mixed with their nearest same-class train node in the embedding (semantic feature
// mixup), the edge predictor connects each synthetic node to the union of its two parents'
// neighbours weighted by the decoder's edge probabilities, and the classifier runs on the
// augmented graph. The loss is the cross-entropy over the train and synthetic nodes plus the edge
// reconstruction, local-path (pairwise distance class) and global-path (distance to cluster
// centres) losses, each of weight 1 (the GeoMix appendix's α = 1.0), plus the semantic loss of the
// heads. The upsampling scale k is learned by Q-learning from the validation accuracy (qLearner).
//
// Where we differ from its code, for class-balanced semi-supervised splits and graphs of up to
// 34,000 nodes: every class is mixed (its code mixes the last num_im_class "minority" classes), at
// most one round per class (syntheticCounts); the reconstruction's non-edge term is estimated on
// |E| node pairs drawn every epoch instead of the dense N × N matrix, and scaled by 1/N (its code
// scales by 1e-3 on Cora, 1/N elsewhere); distance pairs are drawn by searches from random sources
// (sampleDistancePairs); clusters are farthest-first Voronoi cells, not METIS (clusterTargets); the
// nearest same-class partner is taken among the class's train nodes (its code indexes the
// embedding with the position inside the class, a slip); the reward is the change of validation
// accuracy one epoch later than its code's validation macro-F1 of the training pass.
type graphMixup struct {
	net      graphMixupNet
	nbrs     [][]int32
	clusters *tensors.Tensor // [N, 15] global-path targets

	layout linkLayout

	// per run, set at its first update
	ql                    *qLearner
	trainIdx              *tensors.Tensor
	pairs, parents        []any   // distance pairs; the train nodes' neighbours (linkLayout.inputs)
	byClass               [][]int // positions in Run.Train of each class's train nodes, in order
	numTrain, numNegative int
}

// Backbone is GraphMixup's own network.
func (*graphMixup) Backbone(string) string { return "graphmixup" }

// Prepare checks the backbone and the graph (full-batch only) and computes the graph's neighbour
// lists, global-path targets and the layout of the synthetic nodes' links.
func (gm *graphMixup) Prepare(_ *context.Context, m *Model, g *datasets.Graph) error {
	net, ok := m.Backbone.(graphMixupNet)
	if !ok {
		return fmt.Errorf("graphmixup needs the graphmixup backbone, got %T", m.Backbone)
	}
	if len(g.TrainBatches) > 0 {
		return fmt.Errorf("graphmixup trains full-batch, but %s has %d train batches", g.Name, len(g.TrainBatches))
	}
	gm.net = net
	gm.nbrs = neighbourLists(g)
	gm.clusters = tensors.FromValue(clusterTargets(gm.nbrs, graphMixupClusters))
	gm.layout = newLinkLayout(g, gm.nbrs)
	gm.numNegative = 0
	for _, l := range gm.nbrs {
		gm.numNegative += len(l)
	}
	gm.numNegative = max(gm.numNegative, 1)
	return nil
}

// neighbourLists returns every node's neighbours (the graph's edges, without self-loops).
func neighbourLists(g *datasets.Graph) [][]int32 {
	nbrs := make([][]int32, g.NumNodes)
	for i, s := range g.Src {
		if d := g.Dst[i]; s != d {
			nbrs[d] = append(nbrs[d], s)
		}
	}
	return nbrs
}

// Draw makes update number epoch's inputs (graphMixupInputs): at a run's first update it starts the
// Q-learning at k = 0, samples the distance pairs and lays out the train nodes; every update draws
// one δ ~ U(0, 1) per class and the reconstruction's random pairs, and then lets Q-learning move k
// for the next update.
func (gm *graphMixup) Draw(r *Run, epoch int) Step {
	n := r.Graph.NumNodes
	if epoch == 0 || gm.ql == nil {
		gm.startRun(r)
	}
	active := make([]float32, len(r.Train))
	delta := make([]float32, len(r.Train))
	counts := make([]int, len(gm.byClass))
	for c, pos := range gm.byClass {
		counts[c] = len(pos)
	}
	for c, k := range syntheticCounts(counts, gm.ql.k) {
		d := float32(r.RNG.Float64())
		for _, p := range gm.byClass[c][:k] {
			active[p], delta[p] = 1, d
		}
	}
	negU, negV := make([]int32, gm.numNegative), make([]int32, gm.numNegative)
	for i := range negU {
		negU[i], negV[i] = int32(r.RNG.IntN(n)), int32(r.RNG.IntN(n))
	}
	current, previous := 0.0, 0.0
	if l := len(r.ValAcc); l >= 1 {
		current = r.ValAcc[l-1]
		if l >= 2 {
			previous = r.ValAcc[l-2]
		}
	}
	gm.ql.update(r.RNG, epoch, current, previous)
	in := append([]any{gm.trainIdx, column(active), column(delta)}, gm.pairs...)
	in = append(in, indexColumn(negU), indexColumn(negV), gm.clusters)
	return Step{Inputs: append(in, gm.parents...)}
}

// startRun resets the per-run state for run r: Q-learning at k = 0, the distance pairs (drawn from
// r.RNG), the train nodes [T, 1] by class and their neighbours in the links' layout.
func (gm *graphMixup) startRun(r *Run) {
	gm.ql = newQLearner()
	a, b, class, weight := sampleDistancePairs(r.RNG, gm.nbrs, graphMixupPairsPerClass)
	gm.pairs = []any{indexColumn(a), indexColumn(b), indexColumn(class), column(weight)}
	gm.trainIdx = indexColumn(r.Train)
	gm.byClass = make([][]int, r.Graph.NumClasses)
	for p, v := range r.Train {
		y := r.Graph.Labels[v]
		gm.byClass[y] = append(gm.byClass[y], p)
	}
	gm.parents = gm.layout.inputs(gm.nbrs, r.Train, r.Graph.NumNodes)
	gm.numTrain = len(r.Train)
}

// column returns values as a [len, 1] float32 tensor.
func column(values []float32) *tensors.Tensor {
	return tensors.FromFlatDataAndDimensions(values, len(values), 1)
}

// Loss is the joint loss of one update, from in.Drawn: train [T, 1], active [T, 1], delta [T, 1],
// pair ends a, b [P, 1], pair classes [P, 1], pair weights [P, 1], reconstruction pairs u, v
// [S, 1], cluster targets [N, 15], then the train nodes' neighbours (linkLayout.inputs).
func (gm *graphMixup) Loss(ctx *context.Context, _ int, in *Inputs) *Node {
	d := in.Drawn
	train, active, delta := d[0], d[1], d[2]
	pairA, pairB, pairClass, pairWeight, negU, negV, clusters := d[3], d[4], d[5], d[6], d[7], d[8], d[9]
	m, bctx := in.Model, BackboneContext(ctx)
	zs, _ := in.TrainingBlocks(ctx)
	z, semantic := gm.net.Encode(bctx, in.Adj, zs[0], m.Dims)
	dtype := z.DType()
	active, delta = ConvertDType(active, dtype), ConvertDType(delta, dtype)

	zTrain := Gather(z, train)                                 // [T, H]
	yTrain := Gather(in.OneHot, train)                         // [T, C]
	partner := sameClassNearest(StopGradient(zTrain), yTrain)  // [T, 1]
	synth := MixHidden(zTrain, Gather(zTrain, partner), delta) // [T, H]
	c := gm.net.DecoderProjection(bctx, z)
	link := links(gm.net.DecoderProjection(bctx, synth), c, z, synth, partner, active, d[10:])

	nbrSum, degree := gm.net.NeighbourSum(in.Adj, z)
	logits := gm.net.Classify(bctx, z, Add(nbrSum, link.toNodes), Add(degree, link.nodeDegree), m.Dims)
	synthLogits := gm.net.Classify(bctx, synth, link.toSynth, link.synthDegree, m.Dims)
	ceSum := func(lg, y, mask *Node) *Node {
		return ReduceAllSum(Mul(Neg(ReduceSum(Mul(y, LogSoftmax(lg, -1)), -1)), Reshape(mask, mask.Shape().Dim(0))))
	}
	ce := Div(Add(ceSum(logits, in.OneHot, in.TrainMask), ceSum(synthLogits, yTrain, active)),
		Add(ReduceAllSum(in.TrainMask), ReduceAllSum(active)))

	rec := reconstructionLoss(c, in.Adj.Src, in.Adj.Dst, negU, negV, in.Adj.NumNodes)
	local := gm.net.ContextHead(bctx, "local_path", Abs(Sub(Gather(z, pairA), Gather(z, pairB))), graphMixupDistClasses)
	pw := ConvertDType(pairWeight, dtype)
	localLoss := Div(ceSum(local, OneHot(Reshape(pairClass, pairClass.Shape().Dim(0)), graphMixupDistClasses, dtype), pw), Max(ReduceAllSum(pw), OnesLike(ReduceAllSum(pw))))
	global := ReduceAllMean(Square(Sub(gm.net.ContextHead(bctx, "global_path", z, graphMixupClusters), ConvertDType(clusters, dtype))))
	return Add(Add(Add(ce, rec), Add(localLoss, global)), semantic)
}

// MixHidden is GraphMixup's semantic feature mixup: e + δ (e_partner − e) for rows e, e_partner
// [T, H] and δ [T, 1].
func MixHidden(e, partner, delta *Node) *Node {
	return Add(e, Mul(Sub(partner, e), delta))
}

// sameClassNearest returns, for each of T rows z [T, H] with one-hot labels y [T, C], the row of
// its nearest other row of the same class in Euclidean distance [T, 1] (int32; ties: the first),
// or the row itself when its class has no other row.
func sameClassNearest(z, y *Node) *Node {
	t := z.Shape().Dim(0)
	sq := ReduceSum(Square(z), -1)
	dist := Sub(Add(InsertAxes(sq, -1), InsertAxes(sq, 0)), MulScalar(MatMul(z, Transpose(z, 0, 1)), 2)) // [T, T]
	same := MatMul(y, Transpose(y, 0, 1))
	big := Add(ReduceAllMax(dist), ScalarOne(z.Graph(), z.DType()))
	self := DiagonalWithValue(ScalarOne(z.Graph(), z.DType()), t)
	// other classes cost 2·big, the row itself big, its class mates their distance.
	masked := Add(Mul(dist, Mul(same, OneMinus(self))), Mul(big, Add(MulScalar(OneMinus(same), 2), self)))
	return InsertAxes(ArgMin(masked, 1, dtypes.Int32), -1)
}

// reconstructionLoss is the edge predictor's weighted MSE from decoder projections c [N, H]: over
// the edges src→dst [E, 1], Σ (σ(c_s·c_d) − 1)², plus the non-edges' weight |E| / (N² − |E|) times
// their Σ σ(c_u·c_v)², estimated as |E| times its mean over the random pairs u, v [S, 1]; divided by
// N.
func reconstructionLoss(c, src, dst, u, v *Node, n int) *Node {
	score := func(a, b *Node) *Node { return Sigmoid(ReduceSum(Mul(Gather(c, a), Gather(c, b)), -1)) }
	numEdges := float64(src.Shape().Dim(0))
	pos := ReduceAllSum(Square(OneMinus(score(src, dst))))
	neg := MulScalar(ReduceAllMean(Square(score(u, v))), numEdges)
	return MulScalar(Add(pos, neg), 1/float64(n))
}
