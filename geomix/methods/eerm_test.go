package methods

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/geomix-go/geomix/datasets"
	"github.com/geomix-go/geomix/geomix/mixing"
	"github.com/geomix-go/geomix/internal/testutil"
	"github.com/gomlx/gomlx/pkg/core/dtypes"
	. "github.com/gomlx/gomlx/pkg/core/graph"
	"github.com/gomlx/gomlx/pkg/core/shapes"
	"github.com/gomlx/gomlx/pkg/core/tensors"
	"github.com/gomlx/gomlx/pkg/ml/context"
)

// pathTables are candidate tables on testutil.PathGraph (0 - 1 - 2, node 3 isolated), two
// candidates per node, every node in the domain. Its adjacency lists 0→1, 1→0, 1→2, 2→1, then the
// self-loops 0..3 (entries 4-7): 8 entries, so 8 marks "no edge".
var pathTables = struct {
	cand, edge [][]int32
	exists     [][]float64
	dst        [][]int32
}{
	cand:   [][]int32{{1, 3}, {3, 2}, {0, 3}, {0, 1}},
	edge:   [][]int32{{1, 8}, {8, 3}, {8, 8}, {8, 8}},
	exists: [][]float64{{1, 0}, {0, 1}, {0, 0}, {0, 0}},
	dst:    [][]int32{{0}, {1}, {2}, {3}},
}

// pathInputs are the executor inputs of the path graph's adjacency (float64 weights) and tables.
func pathInputs() []any {
	adj := mixing.BuildAdjacency(testutil.PathGraph(), mixing.NormSymmetric)
	src, dst, _ := adj.Inputs()
	w := make([]float64, len(adj.Weight))
	for i, v := range adj.Weight {
		w[i] = float64(v)
	}
	return []any{src, dst, tensors.FromFlatDataAndDimensions(w, len(w), 1), pathTables.cand, pathTables.edge, pathTables.exists, pathTables.dst}
}

// pathAdjacency wraps an executor's first seven inputs (pathInputs) as the adjacency and tables.
func pathAdjacency(in []*Node) (*mixing.AdjacencyNodes, eermTables) {
	return mixing.NewAdjacencyNodes(4, in[0], in[1], in[2]), eermTables{cand: in[3], edge: in[4], exists: in[5], dst: in[6]}
}

// picksOf returns constant pick vectors [D] (int32) in g.
func picksOf(g *Graph, picks ...[]int32) []*Node {
	out := make([]*Node, len(picks))
	for i, p := range picks {
		out[i] = Const(g, p)
	}
	return out
}

// TestEditAdjacencyByHand: flipping 1→0 and 2→1 (present: removed) and 0→2, 1→3 (absent: added)
// leaves 0→1, 1→2, 0→2, 1→3 and the self-loops, with in-degrees 1, 2, 3, 2 (self-loop included)
// and weights 1/√(deg u · deg v).
func TestEditAdjacencyByHand(t *testing.T) {
	exec := MustNewExec(testutil.Backend(t), func(in []*Node) *Node {
		adj, tables := pathAdjacency(in)
		edited := editAdjacency(adj, picksOf(in[0].Graph(), []int32{0, 1, 0, 1}), tables)
		flat := Add(MulScalar(edited.Dst, 4), edited.Src)
		return ScatterSum(Zeros(in[0].Graph(), shapes.Make(dtypes.Float64, 16, 1)), flat, edited.Weight, false, false)
	})
	got := tensors.MustCopyFlatData[float64](exec.MustExec(pathInputs()...)[0])
	r2, r3, r6 := 1/math.Sqrt(2), 1/math.Sqrt(3), 1/math.Sqrt(6)
	want := []float64{ // [dst, src]
		1, 0, 0, 0,
		r2, 0.5, 0, 0,
		r3, r6, 1.0 / 3, 0,
		0, 0.5, 0, 0.5,
	}
	testutil.AssertNear(t, "edited Â", got, want, 1e-12)
}

// TestEERMVarianceGradientMatchesFiniteDifferences: the gradient of Var(L) over three edited
// graphs with respect to the weights W of a one-layer GCN (logits = Â_k X W) equals central finite
// differences.
func TestEERMVarianceGradientMatchesFiniteDifferences(t *testing.T) {
	x := [][]float64{{1, 0, 0.5}, {0.2, 1, 0}, {0, 0.3, 1}, {0.7, 0.1, 0.4}}
	oneHot := [][]float64{{1, 0}, {0, 1}, {1, 0}, {0, 1}}
	mask := [][]float64{{1}, {0}, {1}, {1}}
	views := [][]int32{{0, 1, 0, 1}, {1, 0, 1, 0}, {0, 0, 0, 0}}
	exec := MustNewExec(testutil.Backend(t), func(in []*Node) []*Node {
		adj, tables := pathAdjacency(in)
		g := in[0].Graph()
		xw := MatMul(in[7], in[8])
		risks := make([]*Node, len(views))
		for k, pick := range views {
			risks[k] = SoftCrossEntropy(mixing.Propagate(editAdjacency(adj, picksOf(g, pick), tables), xw), in[9], in[10])
		}
		variance, _ := riskVariance(risks)
		return []*Node{variance, Gradient(variance, in[8])[0]}
	})
	rng := rand.New(rand.NewPCG(1, 2))
	w := testutil.RandomMatrix(rng, 3, 2, 0)
	at := func(w [][]float64) []*tensors.Tensor {
		return exec.MustExec(append(pathInputs(), x, w, oneHot, mask)...)
	}
	out := at(w)
	if v := tensors.ToScalar[float64](out[0]); v <= 1e-6 {
		t.Fatalf("variance of the risks %g: the three edited graphs should give different risks", v)
	}
	grad := tensors.MustCopyFlatData[float64](out[1])
	const h = 1e-6
	var numeric []float64
	for i := range w {
		for j := range w[i] {
			orig := w[i][j]
			w[i][j] = orig + h
			plus := tensors.ToScalar[float64](at(w)[0])
			w[i][j] = orig - h
			minus := tensors.ToScalar[float64](at(w)[0])
			w[i][j] = orig
			numeric = append(numeric, (plus-minus)/(2*h))
		}
	}
	testutil.AssertNear(t, "∂Var/∂W", grad, numeric, 1e-7)
}

// TestEERMReinforceUpdateByHand: one editor row of logits b = ρ·B̃ with noise that forces the draws
// (index 0, then 2), reward Var = 0.3, mean 0.7, β_t = 3, weight decay 1e-3. The loss's value is
// Var + β_t Mean; its gradient, plus the decay Adam adds, is ρ·(−Var)·∂log p/∂b with the
// Plackett–Luce log p = (b0 − lse(b0, b1, b2)) + (b2 − lse(b1, b2)); Adam's first step then moves
// b by −lr_a·sign of that gradient.
func TestEERMReinforceUpdateByHand(t *testing.T) {
	const rho, decay, reward, mean, beta, lr = 0.1, 1e-3, 0.3, 0.7, 3.0, 0.01
	scaled := []float64{5, 10, 20} // b = 0.5, 1, 2
	noise := []float64{10, 0, 5}
	exec := MustNewExec(testutil.Backend(t), func(in []*Node) []*Node {
		picks, logP := editorSample(MulScalar(in[0], rho), in[1], 2)
		g := in[0].Graph()
		loss := eermObjective(Scalar(g, dtypes.Float64, reward), Scalar(g, dtypes.Float64, mean), Scalar(g, dtypes.Float64, beta),
			logP, []*Node{in[0]}, decay)
		return []*Node{loss, logP, Gradient(loss, in[0])[0], Concatenate(picks, 0)}
	})
	out := exec.MustExec([][]float64{scaled}, [][]float64{noise})
	if got := tensors.MustCopyFlatData[int32](out[3]); !slices.Equal(got, []int32{0, 2}) {
		t.Fatalf("draws %v, want [0 2]", got)
	}
	b := []float64{0.5, 1, 2}
	lse := func(xs ...float64) float64 {
		s := 0.0
		for _, v := range xs {
			s += math.Exp(v)
		}
		return math.Log(s)
	}
	wantLogP := (b[0] - lse(b...)) + (b[2] - lse(b[1], b[2])) // Plackett–Luce, by hand
	testutil.AssertNear(t, "loss, log p", []float64{tensors.ToScalar[float64](out[0]), tensors.ToScalar[float64](out[1])},
		[]float64{reward + beta*mean, wantLogP}, 1e-12)
	// ∂log p/∂b_j = Σ_t (1[j = u_t] − softmax_t(j)), softmax_t over the candidates not drawn before t.
	z1, z2 := math.Exp(lse(b...)), math.Exp(lse(b[1], b[2]))
	dLogP := []float64{1 - math.Exp(b[0])/z1, -math.Exp(b[1])/z1 - math.Exp(b[1])/z2, -math.Exp(b[2])/z1 + 1 - math.Exp(b[2])/z2}
	grad := tensors.MustCopyFlatData[float64](out[2])
	var adamGrad, wantGrad, newB, wantB []float64
	for j := range b {
		g := grad[j] + decay*scaled[j] // the trainer's coupled weight decay
		adamGrad, wantGrad = append(adamGrad, g), append(wantGrad, rho*(-reward)*dLogP[j])
		// Adam's first step: m̂ = g, v̂ = g², so B̃ moves by −lr·g/(|g| + ε).
		newB = append(newB, rho*(scaled[j]-lr*g/(math.Abs(g)+1e-8)))
		wantB = append(wantB, b[j]-rho*lr*math.Copysign(1, wantGrad[j]))
	}
	testutil.AssertNear(t, "editor gradient", adamGrad, wantGrad, 1e-12)
	testutil.AssertNear(t, "editor logits after one update", newB, wantB, 1e-8)
	// With a positive reward the update makes the drawn sequence more likely.
	logP := func(b []float64) float64 { return (b[0] - lse(b...)) + (b[2] - lse(b[1], b[2])) }
	if logP(newB) <= logP(b) {
		t.Errorf("after one update log p = %g from %g: want it raised", logP(newB), logP(b))
	}
}

// TestEERMCandidates: every domain node gets c distinct candidates from the domain (never itself
// nor an extra-test node), the edge tables match the adjacency, the draw is the RNG's, and Draw
// ramps β_t from β to 10β.
func TestEERMCandidates(t *testing.T) {
	g := testutil.TinyGraph()
	g.ExtraTests = []datasets.NodeSet{{Name: "ood", Nodes: []int32{26, 27, 28, 29}}}
	ctx := context.New()
	ctx.SetParams(map[string]any{ParamEERMCandidates: 6, ParamEERMSamples: 2, ParamEERMBeta: 2.0})
	e := &eerm{}
	if err := e.Prepare(ctx, nil, g); err != nil {
		t.Fatal(err)
	}
	adj := mixing.BuildAdjacency(g, mixing.NormSymmetric)
	draw := func(seed uint64) Step {
		return e.Draw(&Run{RNG: rand.New(rand.NewPCG(seed, 1)), Graph: g, Epochs: 10}, 0)
	}
	st := draw(9)
	if b := st.Inputs[0].(float32); b != 2 {
		t.Errorf("β_0 = %v, want 2", b)
	}
	cand := tensors.MustCopyFlatData[int32](st.Inputs[1].(*tensors.Tensor))
	edge := tensors.MustCopyFlatData[int32](st.Inputs[2].(*tensors.Tensor))
	exists := tensors.MustCopyFlatData[float32](st.Inputs[3].(*tensors.Tensor))
	dst := tensors.MustCopyFlatData[int32](st.Inputs[4].(*tensors.Tensor))
	if len(dst) != 26 || len(cand) != 26*6 {
		t.Fatalf("domain of %d nodes with %d candidates, want 26 and 26×6", len(dst), len(cand))
	}
	found := 0
	for i, v := range dst {
		row := cand[i*6 : (i+1)*6]
		for j, u := range row {
			if u == v || u >= 26 || slices.Contains(row[:j], u) {
				t.Fatalf("node %d's candidates %v: want 6 distinct domain nodes other than itself", v, row)
			}
			k := i*6 + j
			if exists[k] == 1 {
				found++
				if ei := edge[k]; adj.Src[ei] != u || adj.Dst[ei] != v {
					t.Errorf("candidate %d→%d: edge %d is %d→%d", u, v, ei, adj.Src[ei], adj.Dst[ei])
				}
			} else if edge[k] != int32(len(adj.Src)) || slices.ContainsFunc(e.sources[v], func(s eermEdge) bool { return s.src == u }) {
				t.Errorf("candidate %d→%d marked absent (edge %d)", u, v, edge[k])
			}
		}
	}
	if found == 0 {
		t.Error("no candidate is an existing edge: the tables cannot exercise removals")
	}
	if again := tensors.MustCopyFlatData[int32](draw(9).Inputs[1].(*tensors.Tensor)); !slices.Equal(again, cand) {
		t.Error("the same RNG state drew other candidates")
	}
	if b := e.Draw(&Run{RNG: rand.New(rand.NewPCG(9, 1)), Graph: g, Epochs: 10}, 5).Inputs[0].(float32); math.Abs(float64(b)-11) > 1e-6 {
		t.Errorf("β_5 of 10 epochs = %v, want 2·0.5 + 20·0.5 = 11", b)
	}
}
