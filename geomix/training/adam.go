package training

import (
	. "github.com/gomlx/gomlx/pkg/core/graph"
	"github.com/gomlx/gomlx/pkg/core/shapes"
	"github.com/gomlx/gomlx/pkg/ml/context"
	"github.com/gomlx/gomlx/pkg/ml/context/initializers"
)

// AdamScope is the absolute context scope holding Adam's step count and moments.
const AdamScope = "/adam"

// AdamConfig is torch.optim.Adam with its coupled L2 weight decay: the gradient becomes
// g + WeightDecay·w for every trainable parameter, biases and BatchNorm included (unlike GoMLX's
// regularizers.L2, which adds 2a·w to kernels only, or AdamW's decoupled decay).
//
// With DecayEvery > 0 the learning rate follows torch's StepLR stepped once per update: LR ·
// DecayFactor^⌊(step−1) / DecayEvery⌋, step counting the updates since Adam's state was created.
type AdamConfig struct {
	LR, Beta1, Beta2, Epsilon, WeightDecay float64
	DecayEvery                             int
	DecayFactor                            float64
}

// NewAdamConfig returns lr and weightDecay with torch's defaults β1 0.9, β2 0.999, ε 1e-8.
func NewAdamConfig(lr, weightDecay float64) AdamConfig {
	return AdamConfig{LR: lr, Beta1: 0.9, Beta2: 0.999, Epsilon: 1e-8, WeightDecay: weightDecay}
}

// AdamStep is one Adam update of param with gradient grad, moments m and v (all of param's shape)
// at step (a scalar of param's dtype, 1 on the first update):
//
//	g = grad + wd·p;  m = β1 m + (1−β1) g;  v = β2 v + (1−β2) g²
//	p = p − lr · (m / (1−β1^step)) / (√(v / (1−β2^step)) + ε)
func AdamStep(cfg AdamConfig, param, grad, m, v, step *Node) (newParam, newM, newV *Node) {
	g := grad
	if cfg.WeightDecay != 0 {
		g = Add(g, MulScalar(param, cfg.WeightDecay))
	}
	newM = Add(MulScalar(m, cfg.Beta1), MulScalar(g, 1-cfg.Beta1))
	newV = Add(MulScalar(v, cfg.Beta2), MulScalar(Square(g), 1-cfg.Beta2))
	dtype := param.DType()
	bias1 := OneMinus(Pow(Scalar(param.Graph(), dtype, cfg.Beta1), step))
	bias2 := OneMinus(Pow(Scalar(param.Graph(), dtype, cfg.Beta2), step))
	denom := AddScalar(Sqrt(Div(newV, bias2)), cfg.Epsilon)
	update := Div(Div(newM, bias1), denom)
	if cfg.DecayEvery > 0 {
		epochs := Floor(MulScalar(AddScalar(step, -1), 1/float64(cfg.DecayEvery)))
		lr := MulScalar(Pow(Scalar(param.Graph(), dtype, cfg.DecayFactor), epochs), cfg.LR)
		return Sub(param, Mul(update, lr)), newM, newV
	}
	newParam = Sub(param, MulScalar(update, cfg.LR))
	return newParam, newM, newV
}

// ApplyAdam differentiates loss with respect to every trainable variable of ctx used by loss's
// graph and updates them in the graph with AdamStep. The step count and moments live under
// AdamScope, so they persist across executions (and across runs unless reset).
func ApplyAdam(ctx *context.Context, loss *Node, cfg AdamConfig) {
	g := loss.Graph()
	var params []*context.Variable
	for v := range ctx.IterVariables() {
		if v.Trainable && v.InUseByGraph(g) {
			params = append(params, v)
		}
	}
	values := make([]*Node, len(params))
	for i, v := range params {
		values[i] = v.ValueGraph(g)
	}
	grads := Gradient(loss, values...)
	actx := ctx.InAbsPath(AdamScope).Checked(false).WithInitializer(initializers.Zero)
	stepVar := actx.VariableWithShape("step", shapes.Make(loss.DType())).SetTrainable(false)
	step := OnePlus(stepVar.ValueGraph(g))
	stepVar.SetValueGraph(step)
	for i, v := range params {
		pctx := ctx.InAbsPath(AdamScope + v.Scope()).In(v.Name()).Checked(false).WithInitializer(initializers.Zero)
		mVar := pctx.VariableWithShape("m", v.Shape()).SetTrainable(false)
		vVar := pctx.VariableWithShape("v", v.Shape()).SetTrainable(false)
		p, m, vv := AdamStep(cfg, values[i], grads[i], mVar.ValueGraph(g), vVar.ValueGraph(g), ConvertDType(step, v.DType()))
		v.SetValueGraph(p)
		mVar.SetValueGraph(m)
		vVar.SetValueGraph(vv)
	}
}
