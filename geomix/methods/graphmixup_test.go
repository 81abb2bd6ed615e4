package methods

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/geomix-go/geomix/geomix/backbones"
	"github.com/geomix-go/geomix/internal/testutil"
	. "github.com/gomlx/gomlx/pkg/core/graph"
	"github.com/gomlx/gomlx/pkg/core/tensors"
	"github.com/gomlx/gomlx/pkg/ml/context"
)

// TestQLearnerByHand follows the Q-learning of k step by step: no change before epoch 50; at
// epoch 50 a first action without learning; then Q(s, a) += 0.1 (r − Q(s, a)) with r the sign of
// the accuracy change, the greedy action once Q differs, k clamped to [−1, 1], and no change once
// 150 values are recorded with the last 20 within 0.05.
func TestQLearnerByHand(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	ql := newQLearner()
	for e := range 50 {
		ql.update(rng, e, 0.9, 0.1)
	}
	if ql.k != 0 || ql.action != -1 || len(ql.record) != 51 || len(ql.q) != 0 {
		t.Fatalf("before epoch 50: k %v, action %d, %d recorded, table %v", ql.k, ql.action, len(ql.record), ql.q)
	}
	ql.update(rng, 50, 0.9, 0.1)
	first := ql.action
	if first < 0 || math.Abs(math.Abs(ql.k)-0.05) > 1e-12 || ql.last != 0 || ql.q[0] != [2]float64{} {
		t.Fatalf("epoch 50: action %d, k %v, last %v, table %v; want a step of 0.05 from 0 and no learning", first, ql.k, ql.last, ql.q)
	}
	// Accuracy rose: reward +1 for (state 0, first action).
	kBefore := ql.k
	ql.update(rng, 51, 0.8, 0.7)
	if got := ql.q[0][first]; math.Abs(got-0.1) > 1e-12 {
		t.Fatalf("Q(0, %d) = %v after a reward of 1, want 0.1", first, got)
	}
	if math.Abs(math.Abs(ql.k-kBefore)-0.05) > 1e-12 || ql.last != kBefore {
		t.Fatalf("epoch 51: k %v from %v", ql.k, kBefore)
	}
	// Accuracy fell: reward −1 for (state of kBefore, second action): 0 + 0.1 (−1 − 0).
	second, state := ql.action, qState(kBefore)
	ql.update(rng, 52, 0.6, 0.7)
	if got := ql.q[state][second]; math.Abs(got+0.1) > 1e-12 {
		t.Fatalf("Q(%d, %d) = %v after a reward of −1, want −0.1", state, second, got)
	}
	// Equal accuracies: reward 0 pulls Q towards 0.
	ql.q[qState(ql.k)] = [2]float64{0, 0}
	third, state3 := ql.action, qState(ql.last)
	before3 := ql.q[state3][third]
	ql.update(rng, 53, 0.5, 0.5)
	if got := ql.q[state3][third]; math.Abs(got-0.9*before3) > 1e-12 {
		t.Fatalf("Q after reward 0 = %v, want %v", got, 0.9*before3)
	}
	// k is clamped at 1.
	ql.k, ql.q = 1, map[int][2]float64{qState(1): {5, 0}}
	ql.action = -1
	for range 10 {
		ql.k, ql.action = 1, -1
		ql.update(rng, 60, 0, 0)
		if ql.k > 1 || ql.k < 0.95-1e-12 {
			t.Fatalf("k = %v from 1", ql.k)
		}
	}
	// Settled: 150 values, the last 20 within 0.05, k stays.
	ql.record = make([]float64, 150)
	ql.k = 0.3
	ql.update(rng, 200, 0.9, 0.1)
	if ql.k != 0.3 || len(ql.record) != 151 || ql.record[150] != 0.3 {
		t.Errorf("settled: k %v, %d recorded", ql.k, len(ql.record))
	}
}

// TestSyntheticCounts: the code's upsampling rounds, capped at one round per class.
func TestSyntheticCounts(t *testing.T) {
	for _, c := range []struct {
		perClass []int
		k        float64
		want     []int
	}{
		{[]int{20, 20, 20}, 0, []int{0, 0, 0}},
		{[]int{20, 20, 20}, 0.25, []int{5, 5, 5}},
		{[]int{20, 20, 20}, -0.3, []int{0, 0, 0}},
		{[]int{20, 20, 20}, 1, []int{20, 20, 20}},
		// avg 25: 25/40 + 0.5 = 1.125 → 0.125 × 40 = 5; 25/10 + 0.5 = 3 → two rounds, capped at one.
		{[]int{40, 10}, 0.5, []int{5, 10}},
		{[]int{40, 10}, 0, []int{0, 10}},
	} {
		if got := syntheticCounts(c.perClass, c.k); !slices.Equal(got, c.want) {
			t.Errorf("syntheticCounts(%v, %v) = %v, want %v", c.perClass, c.k, got, c.want)
		}
	}
}

// TestMixHiddenAndNearest: the hidden-space mixup e + δ (e_partner − e), and the partner: the
// nearest other row of the same class (the row itself for a class of one).
func TestMixHiddenAndNearest(t *testing.T) {
	backend := testutil.Backend(t)
	mixed, err := ExecOnce(backend, MixHidden, [][]float32{{1, 2}, {3, 4}}, [][]float32{{3, 4}, {1, 2}}, [][]float32{{0.25}, {1}})
	if err != nil {
		t.Fatal(err)
	}
	if got := mixed.Value().([][]float32); !slices.Equal(got[0], []float32{1.5, 2.5}) || !slices.Equal(got[1], []float32{1, 2}) {
		t.Errorf("MixHidden = %v, want [[1.5 2.5] [1 2]]", got)
	}
	// rows 0, 1, 3 are class 0 (row 3 is nearer to 0 than row 1 is), row 2 is alone in class 1,
	// although it is the nearest row to all of them.
	z := [][]float32{{0, 0}, {3, 0}, {0.5, 0}, {1, 0}}
	y := [][]float32{{1, 0}, {1, 0}, {0, 1}, {1, 0}}
	out, err := ExecOnce(backend, sameClassNearest, z, y)
	if err != nil {
		t.Fatal(err)
	}
	if got := out.Value().([][]int32); !slices.Equal([]int32{got[0][0], got[1][0], got[2][0], got[3][0]}, []int32{3, 3, 2, 0}) {
		t.Errorf("partners %v, want [3 3 2 0]", got)
	}
}

// TestContextTargets: every sampled pair's class is its hop distance − 1 (5 for more than 5 hops or
// unreachable), on a path 0 - 1 - … - 7 plus an isolated node 8; the cluster targets are 1 / hop
// distance to each centre.
func TestContextTargets(t *testing.T) {
	nbrs := make([][]int32, 9)
	for i := range int32(7) {
		nbrs[i], nbrs[i+1] = append(nbrs[i], i+1), append(nbrs[i+1], i)
	}
	a, b, class, weight := sampleDistancePairs(rand.New(rand.NewPCG(1, 2)), nbrs, 4)
	if len(a) != 24 {
		t.Fatalf("%d pairs, want 6 × 4", len(a))
	}
	dist := make([]int32, 9)
	for i := range a {
		if weight[i] == 0 {
			t.Fatalf("slot %d unfilled: every class has pairs on this path", i)
		}
		bfsDistances(nbrs, a[i], -1, dist)
		want := int32(5)
		if d := dist[b[i]]; d >= 1 && d <= 5 {
			want = d - 1
		}
		if class[i] != want || int(class[i]) != i/4 {
			t.Errorf("pair %d (%d, %d) at distance %d has class %d, want %d in slot group %d", i, a[i], b[i], dist[b[i]], class[i], want, i/4)
		}
	}
	// Two clusters of the path: seeds 1 (highest degree, lowest index) and 8 (unreachable, farthest);
	// cell 0 = nodes 0-7, its centre the node with most inside edges: 1. Node 8 is its own cell.
	targets := clusterTargets(nbrs, 2)
	for v, want := range []float32{1, 0, 1, 1.0 / 2, 1.0 / 3, 1.0 / 4, 1.0 / 5, 1.0 / 6, 0} {
		if targets[v][0] != want || targets[v][1] != 0 || len(targets[v]) != graphMixupClusters {
			t.Errorf("node %d targets %v, want %v to centre 1 and 0 to centre 8", v, targets[v][:2], want)
		}
	}
}

// TestEdgePredictor: the decoder's edge probabilities σ(c_u · c_v) over a tiny graph's nodes are
// [N, N], symmetric and in (0, 1); the reconstruction loss matches its formula by hand.
func TestEdgePredictor(t *testing.T) {
	g := testutil.TinyGraph()
	net := backbones.GraphMixup{}
	ctx := testutil.NewContext(t, map[string]any{backbones.ParamHidden: 8})
	z := testutil.RandomMatrix(rand.New(rand.NewPCG(1, 1)), g.NumNodes, 8, 0)
	exec, err := context.NewExec(testutil.Backend(t), ctx, func(ctx *context.Context, z *Node) *Node {
		c := net.DecoderProjection(ctx, z)
		return Sigmoid(MatMul(c, Transpose(c, 0, 1)))
	})
	if err != nil {
		t.Fatal(err)
	}
	out, err := exec.Exec(z)
	if err != nil {
		t.Fatal(err)
	}
	p := out[0].Value().([][]float64)
	if len(p) != g.NumNodes || len(p[0]) != g.NumNodes {
		t.Fatalf("edge probabilities %dx%d, want %dx%d", len(p), len(p[0]), g.NumNodes, g.NumNodes)
	}
	for i := range p {
		for j := range p[i] {
			if p[i][j] != p[j][i] || p[i][j] <= 0 || p[i][j] >= 1 {
				t.Fatalf("p[%d][%d] = %v, p[%d][%d] = %v: want symmetric in (0, 1)", i, j, p[i][j], j, i, p[j][i])
			}
		}
	}
	// c rows (1, 0), (0, 1), (1, 1); edges 0→2, 2→0; random pairs (0, 1), (2, 2); N = 3:
	// pos = 2 (σ(1) − 1)², neg = |E| mean(σ(0)², σ(2)²), loss = (pos + neg) / 3.
	got, err := ExecOnce(testutil.Backend(t), func(c, src, dst, u, v *Node) *Node { return reconstructionLoss(c, src, dst, u, v, 3) },
		[][]float64{{1, 0}, {0, 1}, {1, 1}}, [][]int32{{0}, {2}}, [][]int32{{2}, {0}}, [][]int32{{0}, {2}}, [][]int32{{1}, {2}})
	if err != nil {
		t.Fatal(err)
	}
	sig := func(x float64) float64 { return 1 / (1 + math.Exp(-x)) }
	want := (2*math.Pow(sig(1)-1, 2) + 2*(sig(0)*sig(0)+sig(2)*sig(2))/2) / 3
	if v := got.Value().(float64); math.Abs(v-want) > 1e-12 {
		t.Errorf("reconstruction loss %v, want %v", v, want)
	}
}

// TestGraphMixupDraw: a run's first draw has the layout Loss reads; at k = 0 no node is synthetic
// on a balanced split; the train rows of the adjacency (a tiny graph's layout) and the neighbour
// lists are the train nodes' neighbours.
func TestGraphMixupDraw(t *testing.T) {
	g := testutil.TinyGraph()
	gm := &graphMixup{}
	ctx := testutil.NewContext(t, map[string]any{backbones.ParamHidden: 8})
	m, err := NewModel(ctx, backbones.GraphMixup{}, backbones.Dims{Features: 5, Classes: 3})
	if err != nil {
		t.Fatal(err)
	}
	if err := gm.Prepare(ctx, m, g); err != nil {
		t.Fatal(err)
	}
	run := &Run{RNG: rand.New(rand.NewPCG(1, 2)), Graph: g, Train: g.Splits[0].Train, Epochs: 10}
	if gm.layout.width != 0 {
		t.Fatalf("links over lists of width %d on a graph of %d nodes, want dense rows", gm.layout.width, g.NumNodes)
	}
	st := gm.Draw(run, 0)
	if len(st.Inputs) != 11 {
		t.Fatalf("%d inputs, want 11", len(st.Inputs))
	}
	if active := st.Inputs[1].(*tensors.Tensor).Value().([][]float32); slices.ContainsFunc(active, func(r []float32) bool { return r[0] != 0 }) {
		t.Errorf("active %v at k = 0, want none", active)
	}
	rows := st.Inputs[10].(*tensors.Tensor).Value().([][]float32)
	for p, v := range run.Train {
		for u, x := range rows[p] {
			if want := slices.Contains(gm.nbrs[v], int32(u)); (x == 1) != want {
				t.Fatalf("train row %d (node %d) column %d = %v, want neighbour %v", p, v, u, x, want)
			}
		}
	}
	lists := linkLayout{width: 1}
	in := lists.inputs(gm.nbrs, run.Train, g.NumNodes)
	idx, mask := in[0].(*tensors.Tensor).Value().([][]int32), in[1].(*tensors.Tensor).Value().([][]float32)
	for p, v := range run.Train {
		var got []int32
		for j, u := range idx[p] {
			if mask[p][j] == 1 {
				got = append(got, u)
			}
		}
		if want := slices.Compact(slices.Sorted(slices.Values(gm.nbrs[v]))); !slices.Equal(got, want) || len(idx[p]) != lists.width {
			t.Errorf("train node %d: list %v mask %v, want its neighbours %v padded to %d", v, idx[p], mask[p], want, lists.width)
		}
	}
	gm.ql.k = 0.5
	st = gm.Draw(run, 1)
	active := st.Inputs[1].(*tensors.Tensor).Value().([][]float32)
	delta := st.Inputs[2].(*tensors.Tensor).Value().([][]float32)
	// 2 train nodes per class, k = 0.5: the first train node of each class.
	for p := range run.Train {
		if want := float32(1 - p%2); active[p][0] != want || (want == 1) != (delta[p][0] > 0) {
			t.Errorf("train position %d: active %v, δ %v", p, active[p][0], delta[p][0])
		}
	}
}

// TestSyntheticLinksLayoutsAgree: the synthetic nodes' links over dense rows (MatMulFastGrad's
// products) and over neighbour lists give the sums and the gradients of the links written as its
// code computes them (σ(ĉ cᵀ) ⊙ min(A_t + A_p, 1), MatMul and its generic gradient), on random
// float32 data large enough for the backend's blocked kernels, with shared neighbours, a partner
// that is the node itself and inactive nodes: the dense layout's sums to the bit, every other
// value within 1e-6 of its largest magnitude (the same terms, added in another order).
func TestSyntheticLinksLayoutsAgree(t *testing.T) {
	const tt, n, h = 37, 211, 24
	rng := rand.New(rand.NewPCG(3, 4))
	matrix := func(rows, cols int) [][]float32 { return testutil.NormalMatrix32(rng, rows, cols) }
	nbrs := make([][]int32, n)
	train := make([]int32, tt)
	partner, active := make([][]int32, tt), make([][]float32, tt)
	for p := range train {
		train[p] = int32(p * 5)
		for range 1 + rng.IntN(12) {
			nbrs[train[p]] = append(nbrs[train[p]], int32(rng.IntN(n))) // repeats allowed: a multigraph's rows are 0/1
		}
		partner[p] = []int32{int32(rng.IntN(tt))}
		active[p] = []float32{float32(rng.IntN(4) / 3)}
	}
	partner[0][0] = 0                                                      // a class of one: its own partner
	nbrs[train[1]] = append(nbrs[train[1]], nbrs[train[partner[1][0]]]...) // every partner neighbour shared
	dense := &linkLayout{}
	lists := &linkLayout{width: 4}
	inputs := map[string][]any{"dense": dense.inputs(nbrs, train, n), "lists": lists.inputs(nbrs, train, n)}
	if lists.width < 12 {
		t.Fatalf("lists widened to %d, want at least the most neighbours of a train node", lists.width)
	}
	cSynth, c, z, synth, w := matrix(tt, h), matrix(n, h), matrix(n, h), matrix(tt, h), matrix(n+tt, h)
	block := func(layout string) func([]*Node) []*Node {
		return func(in []*Node) []*Node {
			cSynth, c, z, synth, partner, active, w := in[0], in[1], in[2], in[3], in[4], in[5], in[6]
			var l synthLinks
			if layout == "code" {
				adj := in[7]
				edges := Mul(Mul(Sigmoid(MatMul(cSynth, Transpose(c, 0, 1))), Min(Add(adj, Gather(adj, partner)), OnesLike(adj))), active)
				l = synthLinks{toNodes: MatMul(Transpose(edges, 0, 1), synth), nodeDegree: InsertAxes(ReduceSum(edges, 0), -1),
					toSynth: MatMul(edges, z), synthDegree: InsertAxes(ReduceSum(edges, 1), -1)}
			} else {
				l = links(cSynth, c, z, synth, partner, active, in[7:])
			}
			loss := ReduceAllSum(Mul(Square(Concatenate([]*Node{l.toNodes, l.toSynth}, 0)), w))
			loss = Add(loss, ReduceAllSum(Square(Concatenate([]*Node{l.nodeDegree, l.synthDegree}, 0))))
			return append([]*Node{l.toNodes, l.nodeDegree, l.toSynth, l.synthDegree}, Gradient(loss, cSynth, c, z, synth)...)
		}
	}
	backend := testutil.Backend(t)
	args := []any{cSynth, c, z, synth, partner, active, w}
	want := MustExecOnceN(backend, block("code"), append(args, inputs["dense"]...)...)
	for _, layout := range []string{"dense", "lists"} {
		got := MustExecOnceN(backend, block(layout), append(args, inputs[layout]...)...)
		for i, name := range []string{"messages to nodes", "node degrees", "messages to synthetic nodes", "synthetic degrees", "∂cSynth", "∂c", "∂z", "∂synth"} {
			wv, gv := want[i].Value().([][]float32), got[i].Value().([][]float32)
			diff, scale := testutil.LargestDifference(wv, gv)
			if scale == 0 {
				t.Fatalf("%s: all zero, the test data link nothing", name)
			}
			if layout == "dense" && i < 4 && diff != 0 {
				t.Errorf("dense %s: differs by %.3g from its code's sums, want the same to the bit", name, diff)
			}
			if diff/scale > 1e-6 {
				t.Errorf("%s %s: largest difference %.3g of the largest magnitude from its code's, want at most 1e-6", layout, name, diff/scale)
			}
		}
	}
}
