package backbones

import (
	"fmt"

	. "github.com/gomlx/gomlx/pkg/core/graph"
	"github.com/gomlx/gomlx/pkg/core/shapes"
	"github.com/gomlx/gomlx/pkg/ml/context"
	"github.com/gomlx/gomlx/pkg/ml/context/initializers"
)

// BatchNorm is torch.nn.BatchNorm1d (momentum 0.1, eps 1e-5, affine) over the rows of x [N, H],
// with its variables in ctx: trainable "scale" (γ, init 1) and "offset" (β, init 0), and the
// running "mean" (init 0) and "variance" (init 1).
//
// In training mode (ctx.IsTraining) it normalises by the batch mean and biased batch variance and
// differentiates through both, as torch does; GoMLX's batchnorm layer stops the gradient at the
// batch statistics, which changes training markedly under strong weight decay (the CiteSeer preset's
// 0.1). It then updates the running mean and the running unbiased variance:
// r ← 0.9 r + 0.1 batch. In evaluation mode it normalises by the running statistics.
//
// Every call in training mode updates the running statistics, so GeoMix's two forward passes per
// step (pseudo-labels, then mixed features) update them twice, as the reference's two train-mode
// forward calls do.
func BatchNorm(ctx *context.Context, x *Node) *Node {
	if x.Rank() != 2 {
		panic(fmt.Sprintf("BatchNorm: want x [N, H], got %s", x.Shape()))
	}
	const momentum, eps = 0.1, 1e-5
	g := x.Graph()
	n, h := x.Shape().Dim(0), x.Shape().Dim(1)
	varShape := shapes.Make(x.DType(), h)
	scale := ctx.WithInitializer(initializers.One).VariableWithShape("scale", varShape).ValueGraph(g)
	offset := ctx.WithInitializer(initializers.Zero).VariableWithShape("offset", varShape).ValueGraph(g)
	meanVar := ctx.WithInitializer(initializers.Zero).VariableWithShape("mean", varShape).SetTrainable(false)
	varianceVar := ctx.WithInitializer(initializers.One).VariableWithShape("variance", varShape).SetTrainable(false)

	var mean, variance *Node
	if ctx.IsTraining(g) {
		mean = ReduceMean(x, 0)                                       // [H]
		variance = ReduceMean(Square(Sub(x, InsertAxes(mean, 0))), 0) // [H], biased
		unbiased := variance
		if n > 1 {
			unbiased = MulScalar(variance, float64(n)/float64(n-1))
		}
		meanVar.SetValueGraph(Add(MulScalar(meanVar.ValueGraph(g), 1-momentum), MulScalar(StopGradient(mean), momentum)))
		varianceVar.SetValueGraph(Add(MulScalar(varianceVar.ValueGraph(g), 1-momentum), MulScalar(StopGradient(unbiased), momentum)))
	} else {
		mean, variance = meanVar.ValueGraph(g), varianceVar.ValueGraph(g)
	}
	row := func(v *Node) *Node { return InsertAxes(v, 0) } // [H] → [1, H]
	normalized := Div(Sub(x, row(mean)), row(Sqrt(AddScalar(variance, eps))))
	return Add(Mul(normalized, row(scale)), row(offset))
}
