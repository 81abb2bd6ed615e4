package methods

import (
	"math"
	"testing"

	"github.com/geomix-go/geomix/geomix/backbones"
	"github.com/geomix-go/geomix/geomix/mixing"
	"github.com/geomix-go/geomix/internal/testutil"
	. "github.com/gomlx/gomlx/pkg/core/graph"
	"github.com/gomlx/gomlx/pkg/core/tensors"
	"github.com/gomlx/gomlx/pkg/ml/context"
)

// lossAndInputGrad builds GeoMix-I's training loss (no dropout) on the 4-node path graph in float64
// and returns an executor of (loss, ∂loss/∂W_in) and the W_in variable.
func lossAndInputGrad(t *testing.T, labelGrad bool) (*context.Exec, *context.Variable, []any) {
	ctx := context.New().Checked(false)
	ctx.SetParams(map[string]any{backbones.ParamHidden: 3, backbones.ParamLayers: 2, backbones.ParamDropout: 0.0, ParamHops: 2, ParamAlpha: 0.3, ParamLabelGrad: labelGrad})
	if err := ctx.SetRNGStateFromSeed(5); err != nil {
		t.Fatal(err)
	}
	b, err := backbones.ByName("gcn")
	if err != nil {
		t.Fatal(err)
	}
	m, err := NewModel(ctx, b, backbones.Dims{Features: 3, Classes: 2})
	if err != nil {
		t.Fatal(err)
	}
	gm := &geoMix{variant: geoMixI}
	if err := gm.Prepare(ctx, m, nil); err != nil {
		t.Fatal(err)
	}
	adj := mixing.BuildAdjacency(testutil.PathGraph(), mixing.NormSymmetric)
	src, dst, w := adj.Inputs()
	rows := [][]int32{{0}, {0}, {1}, {2}, {2}, {3}}
	cols := [][]int32{{0}, {2}, {1}, {0}, {1}, {2}}
	vals := [][]float64{{1}, {2}, {1}, {0.5}, {1}, {1}}
	oneHot := [][]float64{{1, 0}, {0, 1}, {1, 0}, {0, 1}}
	mask := [][]float64{{1}, {0}, {0}, {1}}
	exec := context.MustNewExec(testutil.Backend(t), ctx, func(ctx *context.Context, in []*Node) []*Node {
		g := in[0].Graph()
		ctx.SetTraining(g, true)
		x := backbones.NewFeatures(4, 3, in[3:6])
		zs, proj := m.Project(ctx, x, true)
		loss := gm.Loss(ctx, 0, NewInputs(m, x, mixing.NewAdjacencyNodes(4, in[0], in[1], in[2]), in[6], in[7], OneMinus(in[7]), nil, zs, proj))
		wIn := ctx.GetVariableByScopeAndName(ModelScope+"/input", "weight")
		return []*Node{loss, Gradient(loss, wIn.ValueGraph(g))[0]}
	})
	args := []any{src, dst, w, rows, cols, vals, oneHot, mask}
	exec.MustExec(args...)
	return exec, ctx.GetVariableByScopeAndName(ModelScope+"/input", "weight"), args
}

// TestLabelGradMatchesFiniteDifferences: with label_grad the analytic gradient of the loss with
// respect to W_in equals central finite differences (the loss depends on W_in through the
// pseudo-labels too); without it, it does not (pseudo-labels are constants for the gradient).
func TestLabelGradMatchesFiniteDifferences(t *testing.T) {
	for _, labelGrad := range []bool{true, false} {
		exec, wVar, args := lossAndInputGrad(t, labelGrad)
		out := exec.MustExec(args...)
		grad := out[1].Value().([][]float64)
		w0 := wVar.MustValue().Value().([][]float64)
		maxDiff := 0.0
		const eps = 1e-6
		for i := range w0 {
			for j := range w0[i] {
				lossAt := func(delta float64) float64 {
					w := make([][]float64, len(w0))
					for r := range w0 {
						w[r] = append([]float64(nil), w0[r]...)
					}
					w[i][j] += delta
					wVar.MustSetValue(tensors.FromValue(w))
					return exec.MustExec(args...)[0].Value().(float64)
				}
				fd := (lossAt(eps) - lossAt(-eps)) / (2 * eps)
				maxDiff = math.Max(maxDiff, math.Abs(fd-grad[i][j]))
			}
		}
		wVar.MustSetValue(tensors.FromValue(w0))
		if labelGrad && maxDiff > 1e-6 {
			t.Errorf("label_grad: analytic gradient differs from finite differences by %g", maxDiff)
		}
		if !labelGrad && maxDiff < 1e-4 {
			t.Errorf("without label_grad the gradient should miss the pseudo-label path, but matches FD within %g", maxDiff)
		}
	}
}
