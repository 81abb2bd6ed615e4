package methods

import (
	"fmt"
	"strings"

	"github.com/geomix-go/geomix/geomix/backbones"
	"github.com/geomix-go/geomix/geomix/internal/ops"
	"github.com/geomix-go/geomix/geomix/mixing"
	. "github.com/gomlx/gomlx/pkg/core/graph"
	"github.com/gomlx/gomlx/pkg/core/shapes"
	"github.com/gomlx/gomlx/pkg/ml/context"
)

// ModelScope is the context scope of the model's variables (input projection, attention, backbone),
// the ones re-initialised at every run.
const ModelScope = "/model"

// Model is a backbone built for one graph's dimensions, with its input projection: logits =
// backbone.Rest(X W_in). Mixing methods exploit that the first operation is linear: they mix the
// projected blocks X W_in (and GeoMix-III's X W_q, X W_k) in the small projected width.
type Model struct {
	// Backbone is the classifier; Dims the sizes it is built for.
	Backbone backbones.Backbone
	Dims     backbones.Dims

	inputWidth   int
	inputDropout float64
	// attnHops > 0 adds GeoMix-III's per-hop W_q, W_k [F, attnDim] (and biases) to the projection;
	// trainAttention makes them trainable (else frozen at their first initialisation).
	attnHops, attnDim int
	trainAttention    bool
}

// NewModel reads ParamInputDropout from ctx and returns the model of backbone b for dims.
func NewModel(ctx *context.Context, b backbones.Backbone, dims backbones.Dims) (*Model, error) {
	m := &Model{Backbone: b, Dims: dims, inputWidth: b.InputWidth(ctx, dims),
		inputDropout: context.GetParamOr(ctx, ParamInputDropout, 0.0)}
	if m.inputDropout < 0 || m.inputDropout >= 1 {
		return nil, fmt.Errorf("%s = %g: want [0, 1)", ParamInputDropout, m.inputDropout)
	}
	return m, nil
}

// addAttention makes Project add GeoMix-III's query and key projections of hops hops, of width
// dim, trainable or frozen.
func (m *Model) addAttention(hops, dim int, trainable bool) {
	m.attnHops, m.attnDim, m.trainAttention = hops, dim, trainable
}

// Frozen reports whether the variable at scope keeps its first initialisation across runs:
// GeoMix-III's attention weights when they are not trained (the hetero code's frozen W_q, W_k).
func (m *Model) Frozen(scope string) bool {
	return m.attnHops > 0 && !m.trainAttention && strings.HasPrefix(scope, ModelScope+"/attention")
}

// Project returns the projected blocks Z = [X W_in, X W_q¹, X W_k¹, …] and their attention biases;
// with withAttention false (evaluation), or without attention, only [X W_in]. In training mode with
// ParamInputDropout p > 0, X is dropout(X): every non-zero dropped with probability p, the others
// scaled by 1/(1−p), one fresh mask per call for all blocks. W_q^t, W_k^t and their biases are
// U(±1/√F), torch's nn.Linear default.
func (m *Model) Project(ctx *context.Context, x *backbones.Features, withAttention bool) ([]*Node, Projection) {
	g := x.Graph()
	dtype := x.DType()
	f := m.Dims.Features
	ictx := ctx.InAbsPath(ModelScope).In("input")
	weights := []*Node{ictx.WithInitializer(m.Backbone.InputInitializer(ictx, m.Dims)).
		VariableWithShape("weight", shapes.Make(dtype, f, m.inputWidth)).ValueGraph(g)}
	var proj Projection
	if withAttention {
		for t := range m.attnHops {
			actx := ctx.InAbsPath(ModelScope).In("attention").Inf("hop_%d", t)
			actx = actx.WithInitializer(backbones.UniformFanIn(actx, f))
			variable := func(name string, dims ...int) *Node {
				return actx.VariableWithShape(name, shapes.Make(dtype, dims...)).SetTrainable(m.trainAttention).ValueGraph(g)
			}
			weights = append(weights, variable("w_q", f, m.attnDim), variable("w_k", f, m.attnDim))
			proj.QBias = append(proj.QBias, variable("b_q", m.attnDim))
			proj.KBias = append(proj.KBias, variable("b_k", m.attnDim))
		}
	}
	if m.inputDropout > 0 && ctx.IsTraining(g) {
		x = x.Dropout(ctx.InAbsPath(ModelScope).In("input_dropout"), m.inputDropout)
	}
	return x.ProjectBlocks(weights), proj
}

// Logits runs the backbone on the projected input xw [N, H0] and returns logits [N, C].
func (m *Model) Logits(ctx *context.Context, adj *mixing.AdjacencyNodes, xw *Node) *Node {
	return m.Backbone.Rest(BackboneContext(ctx), adj, xw, m.Dims)
}

// BackboneContext is the scope of the backbone's variables.
func BackboneContext(ctx *context.Context) *context.Context {
	return ctx.InAbsPath(ModelScope).In("backbone")
}

// Projection holds GeoMix-III's per-hop query and key biases [AttnDim]. The model's projected blocks
// are [X W_in, X W_q¹, X W_k¹, …, X W_qᴷ, X W_kᴷ] followed by any extra blocks mixed along (labels).
type Projection struct {
	QBias, KBias []*Node
}

// QueryKey returns the mixing.QueryKeyFn that reads hop t's queries and keys from the (mixed) blocks, plus
// bias, and returns the rest to mix: the earlier hops' blocks are gone by then, so hop t's are
// blocks 1 and 2, and they are dropped too, as no later hop reads them.
func (p Projection) QueryKey() mixing.QueryKeyFn {
	return func(hop int, hs []*Node) (q, k *Node, rest []*Node) {
		if hop >= len(p.QBias) || len(hs) < 3 {
			panic(fmt.Sprintf("Projection.QueryKey: hop %d of %d projected hops, with %d blocks (want X W_in, q, k, ...)", hop, len(p.QBias), len(hs)))
		}
		return ops.AddRow(hs[1], p.QBias[hop]), ops.AddRow(hs[2], p.KBias[hop]), append([]*Node{hs[0]}, hs[3:]...)
	}
}

// SoftCrossEntropy is mean over the masked rows of −Σ_c y_c log softmax(logits)_c, for logits and
// targets y [N, C] and mask [N, 1] of 0/1 weights. With one-hot y it is the usual cross-entropy.
func SoftCrossEntropy(logits, y, mask *Node) *Node {
	if !logits.Shape().Equal(y.Shape()) || mask.Rank() != 2 || mask.Shape().Dim(0) != logits.Shape().Dim(0) || mask.Shape().Dim(1) != 1 {
		panic(fmt.Sprintf("SoftCrossEntropy: want logits, y [N, C] and mask [N, 1], got %s, %s, %s", logits.Shape(), y.Shape(), mask.Shape()))
	}
	perRow := Neg(ReduceSum(Mul(y, LogSoftmax(logits, -1)), -1)) // [N]
	m := Reshape(mask, mask.Shape().Dim(0))
	return Div(ReduceAllSum(Mul(perRow, m)), Max(ReduceAllSum(m), OnesLike(ReduceAllSum(m))))
}
