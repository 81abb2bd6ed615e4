package geomix

import (
	"math"
	"testing"

	"github.com/geomix-go/geomix/datasets"
	. "github.com/gomlx/gomlx/pkg/core/graph"
)

// pathGraph is 0 - 1 - 2 plus an isolated node 3, with both edge directions.
func pathGraph() *datasets.Graph {
	return &datasets.Graph{Name: "path", NumNodes: 4, Src: []int32{0, 1, 1, 2}, Dst: []int32{1, 0, 2, 1}}
}

func assertNear(t *testing.T, what string, got, want []float64, tol float64) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s: got %d values, want %d", what, len(got), len(want))
	}
	for i := range want {
		if math.Abs(got[i]-want[i]) > tol {
			t.Fatalf("%s[%d] = %.8g, want %.8g (all: got %v, want %v)", what, i, got[i], want[i], got, want)
		}
	}
}

func to64(x []float32) []float64 {
	out := make([]float64, len(x))
	for i, v := range x {
		out[i] = float64(v)
	}
	return out
}

// TestBuildAdjacencySymmetric: degrees with the self-loop are 2, 3, 2, 1, so Â = D̃^-1/2 (A+I) D̃^-1/2
// has 1/2, 1/3, 1/2, 1 on the diagonal and 1/√6 on the edges.
func TestBuildAdjacencySymmetric(t *testing.T) {
	adj := BuildAdjacency(pathGraph(), NormSymmetric)
	s := 1 / math.Sqrt(6)
	want := []float64{
		0.5, s, 0, 0,
		s, 1.0 / 3, s, 0,
		0, s, 0.5, 0,
		0, 0, 0, 1,
	}
	assertNear(t, "sym Â", to64(adj.Dense()), want, 1e-7)
	if len(adj.Src) != 4+4 {
		t.Fatalf("want 4 edges + 4 self-loops, got %d entries", len(adj.Src))
	}
}

// TestBuildAdjacencyRow: D^-1 A without self-loops; the isolated node's row is zero.
func TestBuildAdjacencyRow(t *testing.T) {
	adj := BuildAdjacency(pathGraph(), NormRow)
	want := []float64{
		0, 1, 0, 0,
		0.5, 0, 0.5, 0,
		0, 1, 0, 0,
		0, 0, 0, 0,
	}
	assertNear(t, "row Â", to64(adj.Dense()), want, 1e-7)
}

// TestBuildAdjacencyRowSelf: D̃⁻¹ (A+I), the mean over the node and its neighbours; an input
// self-loop is not counted twice.
func TestBuildAdjacencyRowSelf(t *testing.T) {
	g := pathGraph()
	g.Src, g.Dst = append(g.Src, 1), append(g.Dst, 1)
	third := 1.0 / 3
	want := []float64{
		0.5, 0.5, 0, 0,
		third, third, third, 0,
		0, 0.5, 0.5, 0,
		0, 0, 0, 1,
	}
	assertNear(t, "rowself Â", to64(BuildAdjacency(g, NormRowSelf).Dense()), want, 1e-7)
}

// TestBuildAdjacencyDropsSelfLoops: an input self-loop does not add to the one NormSymmetric adds.
func TestBuildAdjacencyDropsSelfLoops(t *testing.T) {
	g := pathGraph()
	g.Src, g.Dst = append(g.Src, 3), append(g.Dst, 3)
	assertNear(t, "Â with an input self-loop", to64(BuildAdjacency(g, NormSymmetric).Dense()),
		to64(BuildAdjacency(pathGraph(), NormSymmetric).Dense()), 0)
}

func TestParseNormalization(t *testing.T) {
	if n, err := ParseNormalization("row"); err != nil || n != NormRow {
		t.Fatalf("ParseNormalization(row) = %v, %v", n, err)
	}
	if n, err := ParseNormalization("rowself"); err != nil || n != NormRowSelf || n.String() != "rowself" {
		t.Fatalf("ParseNormalization(rowself) = %v, %v", n, err)
	}
	if _, err := ParseNormalization("col"); err == nil {
		t.Fatal("ParseNormalization(col) should fail")
	}
}

// TestBackbonePropOncePerGraph: a graph builds each backbone propagation once, so that a step's
// evaluation and training passes share it; another input or bias gets its own, Propagate (the
// mixing's) is never shared, and the biased form is Â (x + bias).
func TestBackbonePropOncePerGraph(t *testing.T) {
	row := BuildAdjacency(pathGraph(), NormRow)
	got := runOnAdj(t, row, func(a *AdjacencyNodes, in []*Node) *Node {
		x := in[0]
		bias := Const(x.Graph(), []float64{10})
		if backboneProp(a, x, nil) != backboneProp(a, x, nil) || backboneProp(a, x, bias) != backboneProp(a, x, bias) {
			t.Error("a second backbone propagation of the same input built new nodes")
		}
		if backboneProp(a, x, nil) == backboneProp(a, Neg(x), nil) || backboneProp(a, x, bias) == backboneProp(a, x, nil) ||
			backboneProp(a, x, bias) == backboneProp(a, x, Const(x.Graph(), []float64{10})) ||
			Propagate(a, x) == backboneProp(a, x, nil) || Propagate(a, x) == Propagate(a, x) {
			t.Error("propagations of different inputs or biases, or the mixing's, share a node")
		}
		return backboneProp(a, x, bias)
	}, pathX)
	dense, n := row.Dense(), row.NumNodes
	for v := range n {
		want := 0.0
		for u := range n {
			want += float64(dense[v*n+u]) * (pathX[u][0] + 10)
		}
		if math.Abs(got[v]-want) > 1e-12 {
			t.Errorf("Â (x + 10) at node %d: got %g, want %g", v, got[v], want)
		}
	}
}
