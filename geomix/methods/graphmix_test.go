package methods

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/geomix-go/geomix/datasets"
	"github.com/geomix-go/geomix/geomix/backbones"
	"github.com/geomix-go/geomix/geomix/mixing"
	"github.com/geomix-go/geomix/internal/testutil"
	. "github.com/gomlx/gomlx/pkg/core/graph"
	"github.com/gomlx/gomlx/pkg/ml/context"
)

// TestGraphMixWeight: w(t) ramps from γ e⁻⁵ before epoch 500 to γ from epoch 1000.
func TestGraphMixWeight(t *testing.T) {
	for _, c := range []struct {
		epoch int
		want  float64
	}{{0, 10 * math.Exp(-5)}, {500, 10 * math.Exp(-5)}, {750, 10 * math.Exp(-1.25)}, {1000, 10}, {1999, 10}} {
		if got := graphMixWeight(10, c.epoch); math.Abs(got-c.want) > 1e-12 {
			t.Errorf("w(%d) = %v, want %v", c.epoch, got, c.want)
		}
	}
}

// TestDrawGraphMix: train partners permute the train nodes; the T sampled nodes are non-train
// nodes, their partners a permutation of the sample; both λ are in [0, 1).
func TestDrawGraphMix(t *testing.T) {
	train := []int32{0, 1, 10, 11, 20, 21}
	d := drawGraphMix(rand.New(rand.NewPCG(1, 1)), train, []int32{2, 3, 4, 5, 6, 7, 8, 9, 12, 13, 14, 15, 16, 17, 18, 19, 22, 23, 24, 25, 26, 27, 28, 29}, 1, 0)
	if p := slices.Sorted(slices.Values(d.trainPartner)); !slices.Equal(p, train) {
		t.Errorf("train partners %v: not a permutation of %v", d.trainPartner, train)
	}
	if len(d.unlab) != len(train) || !slices.Equal(slices.Sorted(slices.Values(d.unlab)), slices.Sorted(slices.Values(d.unlabPartner))) {
		t.Errorf("sample %v, partners %v: want %d nodes and a permutation of them", d.unlab, d.unlabPartner, len(train))
	}
	for _, v := range d.unlab {
		if slices.Contains(train, v) {
			t.Errorf("sampled train node %d as unlabelled", v)
		}
	}
	if d.lambdaSup < 0 || d.lambdaSup >= 1 || d.lambdaUnsup < 0 || d.lambdaUnsup >= 1 {
		t.Errorf("λ %v, %v outside [0, 1)", d.lambdaSup, d.lambdaUnsup)
	}
}

// TestBinaryCrossEntropy against torch's BCELoss on a hand example.
func TestBinaryCrossEntropy(t *testing.T) {
	out, err := ExecOnce(testutil.Backend(t), func(p, y *Node) *Node { return binaryCrossEntropy(p, y) },
		[][]float32{{0.8, 0.2}, {0.5, 0.5}}, [][]float32{{1, 0}, {0.25, 0.75}})
	if err != nil {
		t.Fatal(err)
	}
	got := out.Value().(float32)
	want := -(math.Log(0.8) + math.Log(0.8) + 0.25*math.Log(0.5) + 0.75*math.Log(0.5) + 0.75*math.Log(0.5) + 0.25*math.Log(0.5)) / 4
	if math.Abs(float64(got)-want) > 1e-6 {
		t.Errorf("BCE = %v, want %v", got, want)
	}
}

// TestGraphMixFCNSharesTheGCN: on a graph without edges Â = I, so the GCN and its parameter-shared
// FCN give the same logits.
func TestGraphMixFCNSharesTheGCN(t *testing.T) {
	ctx := testutil.NewContext(t, map[string]any{backbones.ParamHidden: 2})
	adj := mixing.BuildAdjacency(&datasets.Graph{NumNodes: 3}, mixing.NormSymmetric)
	src, dst, w := adj.Inputs()
	xw := [][]float32{{1, -2}, {0.5, 3}, {-1, 1}}
	dims := backbones.Dims{Features: 4, Classes: 3}
	exec, err := context.NewExec(testutil.Backend(t), ctx, func(ctx *context.Context, x, s, d, wt *Node) []*Node {
		b := backbones.GraphMixGCN{}
		return []*Node{b.Rest(ctx, mixing.NewAdjacencyNodes(3, s, d, wt), x, dims), b.FCNOutput(ctx, b.FCNHidden(ctx, x, dims), dims)}
	})
	if err != nil {
		t.Fatal(err)
	}
	out, err := exec.Exec(xw, src, dst, w)
	if err != nil {
		t.Fatal(err)
	}
	gcn, fcn := out[0].Value().([][]float32), out[1].Value().([][]float32)
	for i := range gcn {
		for c := range gcn[i] {
			if math.Abs(float64(gcn[i][c]-fcn[i][c])) > 1e-6 || (i == 1 && gcn[i][c] == 0) {
				t.Fatalf("row %d: GCN %v, FCN %v", i, gcn[i], fcn[i])
			}
		}
	}
}
