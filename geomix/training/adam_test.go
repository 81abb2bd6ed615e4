package training

import (
	"fmt"
	"math"
	"testing"

	"github.com/geomix-go/geomix/geomix/methods"
	"github.com/geomix-go/geomix/internal/testutil"
	. "github.com/gomlx/gomlx/pkg/core/graph"
	"github.com/gomlx/gomlx/pkg/ml/context"
)

// Two Adam steps by hand, p = 1, grad = 0.5 at both steps, lr 0.01, wd 0.1 (coupled):
// step 1: g = 0.6, m = 0.06, v = 0.00036, m̂ = 0.6, v̂ = 0.36, p = 1 − 0.01·0.6/(0.6+1e-8).
func TestAdamStepByHand(t *testing.T) {
	cfg := NewAdamConfig(0.01, 0.1)
	step := func(p, m, v, s float64) []float64 {
		out := MustExecOnceN(testutil.Backend(t), func(p, m, v, s *Node) []*Node {
			np, nm, nv := AdamStep(cfg, p, ConstAs(p, 0.5), m, v, s)
			return []*Node{np, nm, nv}
		}, p, m, v, s)
		return []float64{out[0].Value().(float64), out[1].Value().(float64), out[2].Value().(float64)}
	}
	p1 := 1 - 0.01*0.6/(0.6+1e-8)
	got := step(1, 0, 0, 1)
	testutil.AssertNear(t, "step 1 (p, m, v)", got, []float64{p1, 0.06, 0.00036}, 1e-15)
	// step 2: g = 0.5 + 0.1·p1; m = 0.9·0.06 + 0.1 g; v = 0.999·0.00036 + 0.001 g².
	g2 := 0.5 + 0.1*p1
	m2, v2 := 0.9*0.06+0.1*g2, 0.999*0.00036+0.001*g2*g2
	p2 := p1 - 0.01*(m2/(1-0.81))/(math.Sqrt(v2/(1-0.999*0.999))+1e-8)
	testutil.AssertNear(t, "step 2 (p, m, v)", step(got[0], got[1], got[2], 2), []float64{p2, m2, v2}, 1e-15)
}

// ApplyAdam decays every trainable variable, a bias included: with loss = 0 the only gradient is
// wd·w, so the first step moves each entry by lr·sign(w) (m̂/√v̂ = ±1).
func TestApplyAdamCoupledDecayOnBias(t *testing.T) {
	ctx := context.New()
	exec := context.MustNewExec(testutil.Backend(t), ctx, func(ctx *context.Context, g *Graph) *Node {
		bias := ctx.In("layer").VariableWithValue("bias", []float32{2, -3}).ValueGraph(g)
		loss := MulScalar(ReduceAllSum(bias), 0)
		ApplyAdam(ctx, loss, NewAdamConfig(0.1, 0.5))
		return loss
	})
	exec.MustExec()
	got := ctx.GetVariableByScopeAndName("/layer", "bias").MustValue().Value().([]float32)
	testutil.AssertNear(t, "bias after one step", testutil.To64(got), []float64{1.9, -2.9}, 1e-6)
}

// SoftCrossEntropy by hand: logits [0, ln 3] → softmax [1/4, 3/4]; target [1/2, 1/2] gives
// ½ ln 4 + ½ ln(4/3) = ½ ln(16/3); the second row is masked out; the third is a one-hot CE −ln(1/2).
func TestSoftCrossEntropyByHand(t *testing.T) {
	logits := [][]float64{{0, math.Log(3)}, {5, -5}, {1, 1}}
	y := [][]float64{{0.5, 0.5}, {0, 1}, {1, 0}}
	mask := [][]float64{{1}, {0}, {1}}
	got := MustExecOnce(testutil.Backend(t), methods.SoftCrossEntropy, logits, y, mask).Value().(float64)
	want := (0.5*math.Log(16.0/3) + math.Log(2)) / 2
	if math.Abs(got-want) > 1e-12 {
		t.Fatalf("SoftCrossEntropy = %.15g, want %.15g", got, want)
	}
}

// TestAdamStepLR: with StepLR (every 2, factor 0.5) the update of steps 1-2 uses lr, of steps 3-4
// lr/2, of step 5 lr/4: with zero moments and the same gradient the step's move is lr_t·(m̂/√v̂).
func TestAdamStepLR(t *testing.T) {
	cfg := NewAdamConfig(0.01, 0)
	cfg.DecayEvery, cfg.DecayFactor = 2, 0.5
	for step, lr := range map[float64]float64{1: 0.01, 2: 0.01, 3: 0.005, 4: 0.005, 5: 0.0025} {
		out := MustExecOnceN(testutil.Backend(t), func(p, s *Node) []*Node {
			np, _, _ := AdamStep(cfg, p, ConstAs(p, 0.5), ConstAs(p, 0), ConstAs(p, 0), s)
			return []*Node{np}
		}, 1.0, step)
		// m̂ = 0.05/(1−0.9^s), v̂ = 0.00025/(1−0.999^s).
		mHat, vHat := 0.05/(1-math.Pow(0.9, step)), 0.00025/(1-math.Pow(0.999, step))
		want := 1 - lr*mHat/(math.Sqrt(vHat)+1e-8)
		testutil.AssertNear(t, fmt.Sprintf("step %v", step), []float64{out[0].Value().(float64)}, []float64{want}, 1e-12)
	}
}
