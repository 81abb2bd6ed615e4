package backbones

import (
	"math"
	"testing"

	"github.com/geomix-go/geomix/geomix/mixing"
	"github.com/geomix-go/geomix/internal/testutil"
	"github.com/gomlx/gomlx/pkg/core/dtypes"
	. "github.com/gomlx/gomlx/pkg/core/graph"
)

// gatAlphas computes gatAttention on adj for the per-node scores [N, heads] and returns α
// [E+N, heads] with the attention edges' sources and targets.
func gatAlphas(t *testing.T, adj *mixing.Adjacency, scoreSrc, scoreDst [][]float32) (alpha [][]float32, src, dst []int32) {
	t.Helper()
	srcIn, dstIn, w := adj.Inputs()
	exec, err := NewExec(testutil.Backend(t), func(s, d, wt, ss, sd *Node) []*Node {
		edges := newGATEdges(mixing.NewAdjacencyNodes(adj.NumNodes, s, d, wt), dtypes.Float32)
		return []*Node{gatAttention(edges, ss, sd), Reshape(edges.src, -1), Reshape(edges.dst, -1)}
	})
	if err != nil {
		t.Fatal(err)
	}
	out, err := exec.Exec(srcIn, dstIn, w, scoreSrc, scoreDst)
	if err != nil {
		t.Fatal(err)
	}
	return out[0].Value().([][]float32), out[1].Value().([]int32), out[2].Value().([]int32)
}

func TestGATAttentionSumsToOne(t *testing.T) {
	// Large scores of both signs: the per-target maximum keeps exp finite.
	scoreSrc := [][]float32{{60, -3}, {-80, 1}, {5, 90}, {0.5, -40}}
	scoreDst := [][]float32{{2, 0}, {-1, 7}, {30, -2}, {0, 0}}
	for _, norm := range []mixing.Normalization{mixing.NormSymmetric, mixing.NormRow} {
		adj := mixing.BuildAdjacency(cycle4(), norm)
		alpha, src, dst := gatAlphas(t, adj, scoreSrc, scoreDst)
		if want := len(adj.Src) + 4; len(alpha) != want {
			t.Fatalf("%s: %d attention edges, want %d (adjacency entries + one self-loop per node)", norm, len(alpha), want)
		}
		sums := make([][2]float64, 4)
		loops := make([]int, 4)
		for e, a := range alpha {
			for h := range 2 {
				if math.IsNaN(float64(a[h])) || a[h] < 0 {
					t.Fatalf("%s: α[%d][%d] = %g", norm, e, h, a[h])
				}
				sums[dst[e]][h] += float64(a[h])
			}
			if src[e] == dst[e] && a[0] > 0 {
				loops[dst[e]]++
			}
		}
		for v, s := range sums {
			if loops[v] != 1 {
				t.Errorf("%s: node %d attends to itself through %d edges, want 1", norm, v, loops[v])
			}
			for h := range 2 {
				if math.Abs(s[h]-1) > 1e-5 {
					t.Errorf("%s: Σ α into node %d, head %d = %g, want 1", norm, v, h, s[h])
				}
			}
		}
	}
}

func TestGATAttentionHandComputed(t *testing.T) {
	// One head on the 4-cycle; node 3 hears from 2, 0 and itself with scores
	// LeakyReLU(s_j + 0.5): e(0→3) = 1.5, e(2→3) = 2.5, e(3→3) = LeakyReLU(−0.5) = −0.1.
	scoreSrc := [][]float32{{1}, {7}, {2}, {-1}}
	scoreDst := [][]float32{{0}, {0}, {0}, {0.5}}
	den := math.Exp(1.5) + math.Exp(2.5) + math.Exp(-0.1)
	want := map[int32]float64{0: math.Exp(1.5) / den, 2: math.Exp(2.5) / den, 3: math.Exp(-0.1) / den}
	alpha, src, dst := gatAlphas(t, mixing.BuildAdjacency(cycle4(), mixing.NormSymmetric), scoreSrc, scoreDst)
	got := map[int32]float64{}
	for e := range alpha {
		if dst[e] == 3 {
			got[src[e]] += float64(alpha[e][0])
		}
	}
	for j, w := range want {
		if math.Abs(got[j]-w) > 1e-6 {
			t.Errorf("α(%d→3) = %.7f, want %.7f", j, got[j], w)
		}
	}
}

func TestGATHandComputed(t *testing.T) {
	// One layer with two averaged heads of width C = 1 on the path 0-1-2: xw [3, 2] holds head 0's
	// h = [1, −2, 3] and head 1's h = [2, 0, 4]. Head 0 has a_src = 1, a_dst = 0.5, so the edge j→i
	// scores LeakyReLU(h_j + 0.5 h_i); head 1 has zero attention vectors, so it averages uniformly.
	dims := Dims{Features: 5, Classes: 1}
	ctx := testutil.NewContext(t, map[string]any{ParamLayers: 1, ParamGATOutHeads: 2})
	if got := (GAT{}).InputWidth(ctx, dims); got != 2 {
		t.Fatalf("InputWidth = %d, want out heads × C = 2", got)
	}
	ctx.In("layer_0").VariableWithValue("att_src", [][]float32{{1}, {0}})
	ctx.In("layer_0").VariableWithValue("att_dst", [][]float32{{0.5}, {0}})
	ctx.In("layer_0").VariableWithValue("bias", []float32{0.25})
	xw := [][]float32{{1, 2}, {-2, 0}, {3, 4}}
	e := math.Exp
	head0 := []float64{
		(1*e(1.5) - 2*e(-0.3)) / (e(1.5) + e(-0.3)),             // from 0 (1.5) and 1 (LeakyReLU(−1.5) = −0.3)
		(1*e(0) - 2*e(-0.6) + 3*e(2)) / (e(0) + e(-0.6) + e(2)), // from 0 (0), 1 (−0.6) and 2 (2)
		(-2*e(-0.1) + 3*e(4.5)) / (e(-0.1) + e(4.5)),            // from 1 (−0.1) and 2 (4.5)
	}
	head1 := []float64{1, 2, 2}
	want := make([][]float64, 3)
	for i := range want {
		want[i] = []float64{(head0[i]+head1[i])/2 + 0.25}
	}
	for _, norm := range []mixing.Normalization{mixing.NormSymmetric, mixing.NormRow} {
		assertClose(t, runRest(t, ctx, GAT{}, mixing.BuildAdjacency(path3(), norm), xw, dims, false), want)
	}
}

func TestGATShapesAndGradient(t *testing.T) {
	dims := Dims{Features: 10, Classes: 3}
	ctx := testutil.NewContext(t, map[string]any{ParamLayers: 2, ParamHidden: 2, ParamGATHeads: 3, ParamUseBN: true, ParamDropout: 0.2})
	if got := (GAT{}).InputWidth(ctx, dims); got != 6 {
		t.Fatalf("InputWidth = %d, want heads × hidden = 6", got)
	}
	xw := make([][]float32, 4)
	for i := range xw {
		xw[i] = make([]float32, 6)
		for j := range xw[i] {
			xw[i][j] = float32(math.Sin(float64(3*i + j)))
		}
	}
	sym := runRest(t, ctx, GAT{}, mixing.BuildAdjacency(cycle4(), mixing.NormSymmetric), xw, dims, false)
	if len(sym) != 4 || len(sym[0]) != 3 {
		t.Fatalf("logits shape = [%d, %d], want [4, 3]", len(sym), len(sym[0]))
	}
	// GAT ignores the adjacency's weights and self-loops: the same variables give the same logits.
	row := runRest(t, ctx, GAT{}, mixing.BuildAdjacency(cycle4(), mixing.NormRow), xw, dims, false)
	want := make([][]float64, 4)
	for i := range want {
		want[i] = []float64{float64(sym[i][0]), float64(sym[i][1]), float64(sym[i][2])}
	}
	assertClose(t, row, want)
	assertGradientsFlow(t, gradientSums(t, ctx, GAT{}, mixing.BuildAdjacency(cycle4(), mixing.NormSymmetric), xw, dims),
		"/layer_0/att_src", "/layer_0/att_dst", "/layer_0/bias", "/layer_0/batch_norm/scale",
		"/layer_1/weight", "/layer_1/att_src", "/layer_1/att_dst", "/layer_1/bias")
}

func TestELU(t *testing.T) {
	exec, err := NewExec(testutil.Backend(t), elu)
	if err != nil {
		t.Fatal(err)
	}
	got := exec.MustExec([]float32{-1, 0, 2, -100})[0].Value().([]float32)
	want := []float64{math.Exp(-1) - 1, 0, 2, -1}
	for i := range want {
		if math.Abs(float64(got[i])-want[i]) > 1e-6 {
			t.Errorf("elu[%d] = %g, want %g", i, got[i], want[i])
		}
	}
}
