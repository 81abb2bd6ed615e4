package backbones

import (
	"fmt"

	"github.com/geomix-go/geomix/geomix/internal/ops"
	"github.com/geomix-go/geomix/geomix/mixing"
	. "github.com/gomlx/gomlx/pkg/core/graph"
	"github.com/gomlx/gomlx/pkg/core/shapes"
	"github.com/gomlx/gomlx/pkg/ml/context"
	"github.com/gomlx/gomlx/pkg/ml/layers"
	"github.com/gomlx/gomlx/pkg/ml/layers/activations"
)

// GraphConv is the backbone of node Mixup (Wang et al., WWW'21): ParamLayers graph
// convolutions of ParamHidden units,
//
//	conv(h_nbr, h_cen)_i = mean_{j→i} h_nbr[j] W + h_cen[i] W_c + b,
//
// each followed by ReLU and dropout(ParamDropout), then a linear output layer to C logits. The mean
// runs over in-neighbours without self-loops: the row-normalised adjacency D⁻¹A, so the trainer's
// adjacency must be built with ParamNormalization "row" (the mixup preset sets it). W, W_c and b
// are U(±1/√in), torch's default for the reference's weights. The input projection X W_in is
// [X W_1 | X W_c1], 2 × ParamHidden wide.
//
// Trained plainly, the neighbour and centre inputs are the same h; MixupLogits runs the two-stage
// forward of node Mixup, where they differ.
type GraphConv struct{}

func init() { Register("graphconv", GraphConv{}) }

// graphConvShape returns the number of convolutions and their width, checked.
func graphConvShape(ctx *context.Context) (numLayers, hidden int) {
	numLayers = context.GetParamOr(ctx, ParamLayers, 3)
	hidden = context.GetParamOr(ctx, ParamHidden, 256)
	if numLayers < 1 || hidden < 1 {
		panic(fmt.Sprintf("GraphConv: want %s >= 1 and %s >= 1, got %d and %d", ParamLayers, ParamHidden, numLayers, hidden))
	}
	return numLayers, hidden
}

// InputWidth is 2 × ParamHidden: the first convolution's neighbour and centre projections.
func (GraphConv) InputWidth(ctx *context.Context, _ Dims) int {
	_, hidden := graphConvShape(ctx)
	return 2 * hidden
}

// InputInitializer is U(±1/√F).
func (GraphConv) InputInitializer(ctx *context.Context, dims Dims) context.VariableInitializer {
	return UniformFanIn(ctx, dims.Features)
}

// Rest runs the convolutions on xw = [X W_1 | X W_c1] [N, 2H] and returns logits [N, C].
func (b GraphConv) Rest(ctx *context.Context, adj *mixing.AdjacencyNodes, xw *Node, dims Dims) *Node {
	l := b.layers(ctx, xw, dims, "Rest")
	h := xw
	for i := range l.n {
		nbr, cen := l.project(i, h, h)
		h = l.dropout(i, activations.Relu(Add(mixing.Propagate(adj, nbr), l.center(i, cen))))
	}
	return l.output(h)
}

// MixupLogits is node Mixup's training forward on xw [N, 2H] with the mixing weight
// lambda (a scalar) and the partner of every node perm [N, 1] (a permutation of the train nodes,
// the identity elsewhere). A first pass computes the clean hidden states x_1 … x_{L-1} (dropout on);
// then, from x_mix_0 = λ x_0 + (1−λ) x_0[π], every layer mixes the convolution of the node's own
// neighbourhood with its partner's, both centred on the mixed state:
//
//	x_mix_l = dropout(λ ReLU(conv(x_{l-1}, x_mix_{l-1})) + (1−λ) ReLU(conv(x_{l-1}, x_mix_{l-1}) with the neighbour mean of π(i)))
//
// and returns the logits of x_mix_L [N, C]. With λ = 1 it is Rest; with λ = 0 it is Rest's
// logits permuted by π (in evaluation mode).
func (b GraphConv) MixupLogits(ctx *context.Context, adj *mixing.AdjacencyNodes, xw, lambda, perm *Node, dims Dims) *Node {
	l := b.layers(ctx, xw, dims, "MixupLogits")
	l.nbrProducts = map[int]nbrProduct{} // the mixed pass's x_l W_l are the clean pass's
	if lambda.Rank() != 0 || perm.Rank() != 2 || perm.Shape().Dim(0) != xw.Shape().Dim(0) || perm.Shape().Dim(1) != 1 {
		panic(fmt.Sprintf("GraphConv.MixupLogits: want a scalar lambda and perm [N=%d, 1], got %s and %s", xw.Shape().Dim(0), lambda.Shape(), perm.Shape()))
	}
	lambda = ConvertDType(lambda, xw.DType())
	mix := func(a, b *Node) *Node { return Add(Mul(a, lambda), Mul(b, OneMinus(lambda))) }
	clean := make([]*Node, l.n) // clean[i] is the input of convolution i: x_0 = xw, then x_1 …
	clean[0] = xw
	for i := 0; i+1 < l.n; i++ {
		nbr, cen := l.project(i, clean[i], clean[i])
		clean[i+1] = l.dropout(i, activations.Relu(Add(mixing.Propagate(adj, nbr), l.center(i, cen))))
	}
	mixed := xw // only its centre columns are read at layer 0, mixed below
	for i := range l.n {
		nbr, cen := l.project(i, clean[i], mixed)
		if i == 0 {
			cen = mix(cen, Gather(cen, perm)) // (λ x_0 + (1−λ) x_0[π]) W_c1, by linearity
		}
		own := mixing.Propagate(adj, nbr)
		cen = l.center(i, cen)
		a := activations.Relu(Add(own, cen))
		partner := activations.Relu(Add(Gather(own, perm), cen))
		mixed = l.dropout(i, mix(a, partner))
	}
	return l.output(mixed)
}

// graphConvLayers holds what one forward needs: ctx, the sizes, and the graph; nbrProducts, where
// not nil, keeps each convolution's last neighbour product x W for a later projection of the same
// x to reuse.
type graphConvLayers struct {
	ctx                          *context.Context
	g                            *Graph
	n, hidden, features, classes int
	dropRate                     float64
	nbrProducts                  map[int]nbrProduct
}

// nbrProduct is a convolution's neighbour product x W of the input x, without gradient (ops.Product).
type nbrProduct struct{ in, product *Node }

// layers checks xw [N, 2H] and returns the layer helpers; who names the caller in panics.
func (GraphConv) layers(ctx *context.Context, xw *Node, dims Dims, who string) graphConvLayers {
	n, hidden := graphConvShape(ctx)
	if xw.Rank() != 2 || xw.Shape().Dim(1) != 2*hidden {
		panic(fmt.Sprintf("GraphConv.%s: want xw [N, 2×%d], got %s", who, hidden, xw.Shape()))
	}
	return graphConvLayers{ctx: ctx, g: xw.Graph(), n: n, hidden: hidden, features: dims.Features, classes: dims.Classes,
		dropRate: context.GetParamOr(ctx, ParamDropout, 0.0)}
}

// project returns convolution i's neighbour projection of nbrIn and centre projection of cenIn
// (without bias), each [N, H]; for i = 0 both inputs are xw and the projections are its halves.
// The neighbour product is computed once per input when l.nbrProducts is set, each use with its
// own gradients (ops.MatMulFastGradOf): the same values as computing it again.
func (l graphConvLayers) project(i int, nbrIn, cenIn *Node) (nbr, cen *Node) {
	if i == 0 {
		return Columns(nbrIn, 0, l.hidden), Columns(cenIn, l.hidden, 2*l.hidden)
	}
	lctx := l.ctx.Inf("layer_%d", i)
	lctx = lctx.WithInitializer(UniformFanIn(lctx, l.hidden))
	w := lctx.VariableWithShape("weight", shapes.Make(nbrIn.DType(), l.hidden, l.hidden)).ValueGraph(l.g)
	wc := lctx.VariableWithShape("center_weight", shapes.Make(nbrIn.DType(), l.hidden, l.hidden)).ValueGraph(l.g)
	p, ok := l.nbrProducts[i]
	if !ok || p.in != nbrIn {
		p = nbrProduct{in: nbrIn, product: ops.Product(nbrIn, w)}
		if l.nbrProducts != nil {
			l.nbrProducts[i] = p
		}
	}
	return ops.MatMulFastGradOf(p.product, nbrIn, w), ops.MatMulFastGrad(cenIn, wc)
}

// center adds convolution i's bias to its centre projection cen [N, H].
func (l graphConvLayers) center(i int, cen *Node) *Node {
	fanIn := l.hidden
	if i == 0 {
		fanIn = l.features
	}
	lctx := l.ctx.Inf("layer_%d", i)
	lctx = lctx.WithInitializer(UniformFanIn(lctx, fanIn))
	bias := lctx.VariableWithShape("bias", shapes.Make(cen.DType(), l.hidden)).ValueGraph(l.g)
	return ops.AddRow(cen, bias)
}

// dropout applies convolution i's dropout to h.
func (l graphConvLayers) dropout(i int, h *Node) *Node {
	return layers.DropoutStatic(l.ctx.Inf("layer_%d", i), h, l.dropRate)
}

// output is the linear layer from h [N, H] to logits [N, C].
func (l graphConvLayers) output(h *Node) *Node {
	octx := l.ctx.In("output")
	octx = octx.WithInitializer(UniformFanIn(octx, l.hidden))
	w := octx.VariableWithShape("weight", shapes.Make(h.DType(), l.hidden, l.classes)).ValueGraph(l.g)
	bias := octx.VariableWithShape("bias", shapes.Make(h.DType(), l.classes)).ValueGraph(l.g)
	return ops.AddRow(ops.MatMulFastGrad(h, w), bias)
}
