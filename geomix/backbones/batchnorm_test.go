package backbones

import (
	"math"
	"testing"

	"github.com/geomix-go/geomix/internal/testutil"
	. "github.com/gomlx/gomlx/pkg/core/graph"
	"github.com/gomlx/gomlx/pkg/ml/context"
)

// BatchNorm in training mode on x = [[1, 10], [3, 10], [5, 40]] by hand: column means [3, 20],
// biased variances [8/3, 200], so column 0 normalises to (−2, 0, 2)/√(8/3 + 1e-5). Like torch, the
// gradient flows through the batch statistics: the gradient of Σ c_v · BN(x)_v0 with respect to
// x[:, 0] is orthogonal to both 1 and x[:, 0] (shift and scale invariance, up to ε). The running statistics
// move by a tenth towards the batch's mean and unbiased variance [4, 300].
func TestBatchNormTrainingByHand(t *testing.T) {
	ctx := context.New()
	x := [][]float32{{1, 10}, {3, 10}, {5, 40}}
	exec := context.MustNewExec(testutil.Backend(t), ctx, func(ctx *context.Context, x *Node) []*Node {
		ctx.SetTraining(x.Graph(), true)
		y := BatchNorm(ctx.In("bn"), x)
		c := Const(x.Graph(), [][]float32{{1, 0}, {-2, 0}, {7, 0}})
		grad := Gradient(ReduceAllSum(Mul(y, c)), x)[0]
		return []*Node{y, grad}
	})
	out := exec.MustExec(x)
	y := out[0].Value().([][]float32)
	s := float32(1 / math.Sqrt(8.0/3+1e-5))
	testutil.AssertNear(t, "BN column 0", testutil.To64([]float32{y[0][0], y[1][0], y[2][0]}), testutil.To64([]float32{-2 * s, 0, 2 * s}), 1e-6)
	grad := out[1].Value().([][]float32)
	var sum, dot float64
	for v := range 3 {
		sum += float64(grad[v][0])
		dot += float64(grad[v][0] * x[v][0])
	}
	testutil.AssertNear(t, "Σ_v grad_v0 and Σ_v grad_v0·x_v0", []float64{sum, dot}, []float64{0, 0}, 1e-4) // up to ε and float32 rounding
	if grad[0][0] == 0 {
		t.Errorf("gradient through BatchNorm is zero: %v", grad)
	}
	mean := ctx.GetVariableByScopeAndName("/bn", "mean").MustValue().Value().([]float32)
	variance := ctx.GetVariableByScopeAndName("/bn", "variance").MustValue().Value().([]float32)
	testutil.AssertNear(t, "running mean", testutil.To64(mean), []float64{0.3, 2}, 1e-6)
	testutil.AssertNear(t, "running variance", testutil.To64(variance), []float64{0.9 + 0.4, 0.9 + 30}, 1e-5)
}

// In evaluation mode BatchNorm uses the running statistics: at initialisation (mean 0, variance 1)
// it is x / √(1 + 1e-5).
func TestBatchNormEvaluationUsesRunningStats(t *testing.T) {
	ctx := context.New()
	exec := context.MustNewExec(testutil.Backend(t), ctx, func(ctx *context.Context, x *Node) *Node {
		return BatchNorm(ctx.In("bn"), x)
	})
	y := exec.MustExec([][]float32{{1, 10}, {3, 10}})[0].Value().([][]float32)
	s := 1 / math.Sqrt(1+1e-5)
	testutil.AssertNear(t, "eval BN", testutil.To64([]float32{y[0][0], y[0][1], y[1][0], y[1][1]}), []float64{s, 10 * s, 3 * s, 10 * s}, 1e-6)
}
