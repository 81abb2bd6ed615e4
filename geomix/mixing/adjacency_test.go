package mixing

import (
	"math"
	"testing"

	"github.com/geomix-go/geomix/internal/testutil"
	. "github.com/gomlx/gomlx/pkg/core/graph"
)

// TestBuildAdjacencySymmetric: degrees with the self-loop are 2, 3, 2, 1, so Â = D̃^-1/2 (A+I) D̃^-1/2
// has 1/2, 1/3, 1/2, 1 on the diagonal and 1/√6 on the edges.
func TestBuildAdjacencySymmetric(t *testing.T) {
	adj := BuildAdjacency(testutil.PathGraph(), NormSymmetric)
	s := 1 / math.Sqrt(6)
	want := []float64{
		0.5, s, 0, 0,
		s, 1.0 / 3, s, 0,
		0, s, 0.5, 0,
		0, 0, 0, 1,
	}
	testutil.AssertNear(t, "sym Â", testutil.To64(adj.Dense()), want, 1e-7)
	if len(adj.Src) != 4+4 {
		t.Fatalf("want 4 edges + 4 self-loops, got %d entries", len(adj.Src))
	}
}

// TestBuildAdjacencyRow: D^-1 A without self-loops; the isolated node's row is zero.
func TestBuildAdjacencyRow(t *testing.T) {
	adj := BuildAdjacency(testutil.PathGraph(), NormRow)
	want := []float64{
		0, 1, 0, 0,
		0.5, 0, 0.5, 0,
		0, 1, 0, 0,
		0, 0, 0, 0,
	}
	testutil.AssertNear(t, "row Â", testutil.To64(adj.Dense()), want, 1e-7)
}

// TestBuildAdjacencyRowSelf: D̃⁻¹ (A+I), the mean over the node and its neighbours; an input
// self-loop is not counted twice.
func TestBuildAdjacencyRowSelf(t *testing.T) {
	g := testutil.PathGraph()
	g.Src, g.Dst = append(g.Src, 1), append(g.Dst, 1)
	third := 1.0 / 3
	want := []float64{
		0.5, 0.5, 0, 0,
		third, third, third, 0,
		0, 0.5, 0.5, 0,
		0, 0, 0, 1,
	}
	testutil.AssertNear(t, "rowself Â", testutil.To64(BuildAdjacency(g, NormRowSelf).Dense()), want, 1e-7)
}

// TestBuildAdjacencyDropsSelfLoops: an input self-loop does not add to the one NormSymmetric adds.
func TestBuildAdjacencyDropsSelfLoops(t *testing.T) {
	g := testutil.PathGraph()
	g.Src, g.Dst = append(g.Src, 3), append(g.Dst, 3)
	testutil.AssertNear(t, "Â with an input self-loop", testutil.To64(BuildAdjacency(g, NormSymmetric).Dense()),
		testutil.To64(BuildAdjacency(testutil.PathGraph(), NormSymmetric).Dense()), 0)
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
	row := BuildAdjacency(testutil.PathGraph(), NormRow)
	got := runOnAdj(t, row, func(a *AdjacencyNodes, in []*Node) *Node {
		x := in[0]
		bias := Const(x.Graph(), []float64{10})
		if PropagateShared(a, x, nil) != PropagateShared(a, x, nil) || PropagateShared(a, x, bias) != PropagateShared(a, x, bias) {
			t.Error("a second backbone propagation of the same input built new nodes")
		}
		if PropagateShared(a, x, nil) == PropagateShared(a, Neg(x), nil) || PropagateShared(a, x, bias) == PropagateShared(a, x, nil) ||
			PropagateShared(a, x, bias) == PropagateShared(a, x, Const(x.Graph(), []float64{10})) ||
			Propagate(a, x) == PropagateShared(a, x, nil) || Propagate(a, x) == Propagate(a, x) {
			t.Error("propagations of different inputs or biases, or the mixing's, share a node")
		}
		return PropagateShared(a, x, bias)
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
