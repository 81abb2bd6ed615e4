package backbones

import (
	"math"
	"testing"

	"github.com/geomix-go/geomix/geomix/mixing"
	"github.com/geomix-go/geomix/internal/testutil"
	. "github.com/gomlx/gomlx/pkg/core/graph"
	"github.com/gomlx/gomlx/pkg/ml/context"
)

// TestDANNGradientReversal: the domain logit is the domain classifier on the encoding, and its
// gradient with respect to the input is −c times the gradient without the reversal layer.
func TestDANNGradientReversal(t *testing.T) {
	ctx := testutil.NewContext(t, map[string]any{ParamHidden: 8})
	adj := mixing.BuildAdjacency(cycle4(), mixing.NormSymmetric)
	src, dst, w := adj.Inputs()
	xw := make([][]float32, 4)
	for i := range xw {
		for j := range 8 {
			xw[i] = append(xw[i], float32(math.Sin(float64(3*i+j+1))))
		}
	}
	dims := Dims{Features: 5, Classes: 2}
	b := DANNGCN{}
	exec, err := context.NewExec(testutil.Backend(t), ctx, func(ctx *context.Context, x, s, d, wt *Node) []*Node {
		a := mixing.NewAdjacencyNodes(4, s, d, wt)
		_, domain := b.Heads(ctx, a, x, Scalar(x.Graph(), x.DType(), 0.3), dims)
		plain := b.mlp(ctx.In("domain"), b.encode(ctx, a, x), 1)
		return []*Node{domain, plain, Gradient(ReduceAllSum(domain), x)[0], Gradient(ReduceAllSum(plain), x)[0]}
	})
	if err != nil {
		t.Fatal(err)
	}
	out, err := exec.Exec(xw, src, dst, w)
	if err != nil {
		t.Fatal(err)
	}
	domain, plain := out[0].Value().([][]float32), out[1].Value().([][]float32)
	reversed, straight := out[2].Value().([][]float32), out[3].Value().([][]float32)
	nonzero := false
	for i := range domain {
		if domain[i][0] != plain[i][0] {
			t.Fatalf("domain logit %d: %v with the reversal layer, %v without", i, domain[i][0], plain[i][0])
		}
		for j := range reversed[i] {
			if math.Abs(float64(reversed[i][j]+0.3*straight[i][j])) > 1e-6 {
				t.Fatalf("∂/∂x[%d][%d]: %v with reversal, want −0.3 × %v", i, j, reversed[i][j], straight[i][j])
			}
			nonzero = nonzero || straight[i][j] != 0
		}
	}
	if !nonzero {
		t.Errorf("the domain logit does not depend on the input: logits %v, gradients %v", plain, straight)
	}
}
