package backbones

import (
	"fmt"
	"math"
	"sort"
	"strings"
	"sync"

	"github.com/geomix-go/geomix/geomix/mixing"
	. "github.com/gomlx/gomlx/pkg/core/graph"
	"github.com/gomlx/gomlx/pkg/core/shapes"
	"github.com/gomlx/gomlx/pkg/ml/context"
)

// Dims are the sizes a backbone is built for.
type Dims struct {
	// Features is F, the input feature width.
	Features int
	// Classes is C, the number of output logits.
	Classes int
}

// Backbone is a node classifier whose first operation is linear in the node features: logits =
// Rest(X W_in). Mixing methods exploit this: mix(X) W_in == mix(X W_in), so the trainer projects the
// sparse features once, mixes in the small width H0, and hands the result to Rest.
//
// Implementations read their hyper-parameters from ctx (ParamHidden, ParamLayers, ParamDropout,
// ParamUseBN...), create their variables under ctx, and know train/eval mode from ctx.IsTraining(g).
// Register one with Register from an init function.
type Backbone interface {
	// InputWidth is H0, the output width of the input projection W_in [F, H0].
	InputWidth(ctx *context.Context, dims Dims) int
	// InputInitializer initialises W_in [F, H0] (e.g. GlorotUniform).
	InputInitializer(ctx *context.Context, dims Dims) context.VariableInitializer
	// Rest maps the projected input xw = X W_in [N, H0] (no bias added yet: the first layer adds its
	// own) to logits [N, C], using the normalised adjacency adj where the model propagates.
	Rest(ctx *context.Context, adj *mixing.AdjacencyNodes, xw *Node, dims Dims) *Node
}

var (
	backbonesMu sync.Mutex
	backbones   = map[string]Backbone{}
)

// Register makes b available to the trainer under name (ParamBackbone). It panics if the name
// is taken: registration happens in init functions, where a clash is a programming error.
func Register(name string, b Backbone) {
	backbonesMu.Lock()
	defer backbonesMu.Unlock()
	if _, ok := backbones[name]; ok {
		panic(fmt.Sprintf("geomix: backbone %q registered twice", name))
	}
	backbones[name] = b
}

// ByName returns the registered backbone name, or an error listing the valid names.
func ByName(name string) (Backbone, error) {
	backbonesMu.Lock()
	defer backbonesMu.Unlock()
	if b, ok := backbones[name]; ok {
		return b, nil
	}
	return nil, fmt.Errorf("unknown backbone %q: valid backbones are %s", name, strings.Join(backboneNamesLocked(), ", "))
}

// Names lists the registered backbones, sorted.
func Names() []string {
	backbonesMu.Lock()
	defer backbonesMu.Unlock()
	return backboneNamesLocked()
}

func backboneNamesLocked() []string {
	names := make([]string, 0, len(backbones))
	for n := range backbones {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// GlorotUniform initialises a [in, out] weight with U(±√(6/(in+out))), like PyG's glorot and
// PyTorch's xavier_uniform_, from the context's RNG.
func GlorotUniform(ctx *context.Context) context.VariableInitializer {
	return func(g *Graph, shape shapes.Shape) *Node {
		if shape.Rank() != 2 {
			panic(fmt.Sprintf("GlorotUniform: want a [in, out] weight shape, got %s", shape))
		}
		limit := math.Sqrt(6 / float64(shape.Dim(0)+shape.Dim(1)))
		return AddScalar(MulScalar(ctx.RandomUniform(g, shape), 2*limit), -limit)
	}
}

// UniformFanIn initialises any shape with U(±1/√fanIn): PyTorch's nn.Linear default for weights and
// biases, and PyG Linear's bias.
func UniformFanIn(ctx *context.Context, fanIn int) context.VariableInitializer {
	return func(g *Graph, shape shapes.Shape) *Node {
		limit := 1 / math.Sqrt(float64(fanIn))
		return AddScalar(MulScalar(ctx.RandomUniform(g, shape), 2*limit), -limit)
	}
}
