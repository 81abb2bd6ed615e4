package datasets

import (
	"math"
	"slices"
	"testing"
)

// statsGraph is a path 0-1-2-3 plus the edge 1-3 and an isolated node 4, labels 0 0 1 1 0: edges
// 0-1 (same), 1-2 (different), 2-3 (same), 1-3 (different); degrees 1 3 2 2 0.
func statsGraph(t *testing.T) *Graph {
	t.Helper()
	src, dst, err := UndirectedEdges(5, []int32{0, 1, 2, 1}, []int32{1, 2, 3, 3})
	if err != nil {
		t.Fatal(err)
	}
	return &Graph{Name: "toy", NumNodes: 5, Src: src, Dst: dst, Labels: []int32{0, 0, 1, 1, 0}, NumClasses: 2}
}

func TestSetStats(t *testing.T) {
	g := statsGraph(t)
	all, err := SetStats(g, nil)
	if err != nil {
		t.Fatal(err)
	}
	if all.Nodes != 5 || all.Edges != 4 || all.EdgeHomophily != 0.5 || all.MeanDegree != 8.0/5 || !slices.Equal(all.ClassCounts, []int{3, 2}) {
		t.Errorf("whole graph: %+v, want 5 nodes, 4 edges, homophily 0.5, mean degree 1.6, classes [3 2]", all)
	}
	// Edge ends: class 0 at 0→1, 1→0, 1→2, 1→3 (4 of 8), class 1 the other 4: chance ½² + ½².
	if all.ChanceHomophily != 0.5 {
		t.Errorf("chance homophily %v, want 0.5", all.ChanceHomophily)
	}
	if got := all.ClassShare(1); got != 40 {
		t.Errorf("class 1 share %v, want 40", got)
	}
	// Nodes {1, 2, 3}: edges 1-2, 2-3, 1-3 inside (one same-label), degrees in the whole graph 3 2 2.
	sub, err := SetStats(g, []int32{1, 2, 3})
	if err != nil {
		t.Fatal(err)
	}
	// Edge ends inside: node 1 (class 0) twice, nodes 2 and 3 (class 1) twice each: chance (1/3)² + (2/3)².
	if sub.Nodes != 3 || sub.Edges != 3 || math.Abs(sub.EdgeHomophily-1.0/3) > 1e-12 || math.Abs(sub.MeanDegree-7.0/3) > 1e-12 ||
		!slices.Equal(sub.ClassCounts, []int{1, 2}) || math.Abs(sub.ChanceHomophily-5.0/9) > 1e-12 {
		t.Errorf("nodes 1-3: %+v", sub)
	}
	// The isolated node alone: no edge, homophily undefined.
	if s, err := SetStats(g, []int32{4}); err != nil || s.Edges != 0 || !math.IsNaN(s.EdgeHomophily) || !math.IsNaN(s.ChanceHomophily) {
		t.Errorf("isolated node: %+v, %v; want no edge and a NaN homophily", s, err)
	}
	if _, err := SetStats(g, []int32{5}); err == nil {
		t.Error("node 5 of 5: no error")
	}
	g.Labels[0] = 2
	if _, err := SetStats(g, nil); err == nil {
		t.Error("label 2 of 2 classes: no error")
	}
}

func TestDegreeHistogram(t *testing.T) {
	degrees := []int{0, 1, 2, 3, 4, 7, 8, 100}
	hist, err := DegreeHistogram(degrees, nil, 5)
	if err != nil {
		t.Fatal(err)
	}
	// Bins 0 | 1 | 2-3 | 4-7 | ≥8: 1, 1, 2, 2, 2 of 8 nodes.
	if want := []float64{12.5, 12.5, 25, 25, 25}; !slices.Equal(hist, want) {
		t.Errorf("histogram %v, want %v", hist, want)
	}
	if labels := DegreeBinLabels(5); !slices.Equal(labels, []string{"0", "1", "2-3", "4-7", "≥8"}) {
		t.Errorf("labels %q", labels)
	}
	if labels := DegreeBinLabels(2); !slices.Equal(labels, []string{"0", "≥1"}) {
		t.Errorf("labels of 2 bins %q", labels)
	}
	sub, err := DegreeHistogram(degrees, []int32{6, 7}, 3) // 0 | 1 | ≥2
	if err != nil || !slices.Equal(sub, []float64{0, 0, 100}) {
		t.Errorf("nodes 6, 7 in 3 bins: %v, %v", sub, err)
	}
	if _, err := DegreeHistogram(degrees, nil, 1); err == nil {
		t.Error("1 bin: no error")
	}
	if _, err := DegreeHistogram(degrees, []int32{8}, 4); err == nil {
		t.Error("node 8 of 8: no error")
	}
}

func TestClassMixing(t *testing.T) {
	g := statsGraph(t)
	m, err := ClassMixing(g.Src, g.Dst, g.Labels, 2)
	if err != nil {
		t.Fatal(err)
	}
	// Directed edges from class 0 (nodes 0, 1): 0→1, 1→0, 1→2, 1→3: half stay. From class 1 (nodes
	// 2, 3): 2→1, 2→3, 3→2, 3→1: half stay.
	if want := [][]float64{{50, 50}, {50, 50}}; !slices.Equal(m[0], want[0]) || !slices.Equal(m[1], want[1]) {
		t.Errorf("mixing %v, want %v", m, want)
	}
	if h := EdgeHomophilyOf(g.Src, g.Dst, g.Labels); h != g.EdgeHomophily() {
		t.Errorf("EdgeHomophilyOf %v, Graph.EdgeHomophily %v", h, g.EdgeHomophily())
	}
	// A class without edges has a NaN row.
	m, err = ClassMixing([]int32{0}, []int32{1}, []int32{0, 0, 2}, 3)
	if err != nil || m[0][0] != 100 || !math.IsNaN(m[2][0]) {
		t.Errorf("one edge inside class 0: %v, %v", m, err)
	}
	if _, err := ClassMixing([]int32{0}, []int32{1}, []int32{0, 3}, 3); err == nil {
		t.Error("label 3 of 3 classes: no error")
	}
	if !math.IsNaN(EdgeHomophilyOf(nil, nil, nil)) {
		t.Error("homophily of no edge is not NaN")
	}
}

func TestFeatureUsage(t *testing.T) {
	// Rows: {0, 1}, {1}, {}, {2, 3} over 4 columns; the stored zero of row 2 is not a use.
	m := &CSR{NumRows: 4, NumCols: 4, RowPtr: []int64{0, 2, 3, 4, 6}, ColIdx: []int32{0, 1, 1, 0, 2, 3}, Values: []float32{1, 1, 1, 0, 1, 1}}
	a, err := UsageOf(m, []int32{0, 1, 2})
	if err != nil {
		t.Fatal(err)
	}
	if a.Rows != 3 || a.MeanNonZeros != 1 || a.EmptyRows != 1 || a.ColumnsUsed != 2 || !slices.Equal(a.Counts, []int{1, 2, 0, 0}) {
		t.Errorf("rows 0-2: %+v", a)
	}
	b, err := UsageOf(m, []int32{3})
	if err != nil {
		t.Fatal(err)
	}
	all, err := UsageOf(m, nil)
	if err != nil || all.Rows != 4 || all.MeanNonZeros != 5.0/4 || !slices.Equal(all.Counts, []int{1, 2, 1, 1}) {
		t.Errorf("all rows: %+v, %v", all, err)
	}
	// a's shares (1/3, 2/3, 0, 0), b's (0, 0, 1/2, 1/2): disjoint, distance 1; a against all rows
	// (1/5, 2/5, 1/5, 1/5): ½(2/15 + 4/15 + 1/5 + 1/5) = 2/5.
	for _, c := range []struct {
		u, base FeatureUsage
		dist    float64
		unseen  float64
	}{{a, b, 1, 100}, {b, a, 1, 100}, {a, all, 0.4, 0}, {a, a, 0, 0}} {
		if d, err := c.u.Distance(c.base); err != nil || math.Abs(d-c.dist) > 1e-12 {
			t.Errorf("distance %v (%v), want %v", d, err, c.dist)
		}
		if s, err := c.u.UnseenShare(c.base); err != nil || math.Abs(s-c.unseen) > 1e-12 {
			t.Errorf("unseen share %v (%v), want %v", s, err, c.unseen)
		}
	}
	empty, _ := UsageOf(m, []int32{2})
	if d, err := empty.Distance(a); err != nil || !math.IsNaN(d) {
		t.Errorf("distance of an empty usage %v, %v; want NaN", d, err)
	}
	if _, err := a.Distance(FeatureUsage{Counts: []int{1}}); err == nil {
		t.Error("widths 4 and 1: no error")
	}
	if _, err := UsageOf(m, []int32{4}); err == nil {
		t.Error("row 4 of 4: no error")
	}
}

func TestKNNHomophily(t *testing.T) {
	// Points on a line at 0, 1, 3, 10, 11 with labels 0 0 0 1 1; each row's 2 nearest others.
	x := []float32{0, 1, 3, 10, 11}
	labels := []int32{0, 0, 0, 1, 1}
	nbrs, err := KNearest(x, 5, 1, 2, false, nil)
	if err != nil {
		t.Fatal(err)
	}
	// k = 1: 0-1, 2-1, 3-4: edges {0-1, 1-2, 3-4}, all same. k = 2 adds 0-2, 1-2 (there), 2-0,
	// 3-2, 4-2: edges {0-1, 1-2, 3-4, 0-2, 2-3, 2-4}, 4 of 6 same.
	h, err := KNNHomophily(nbrs, 2, labels, []int{1, 2})
	if err != nil {
		t.Fatal(err)
	}
	if h[0] != 1 || math.Abs(h[1]-2.0/3) > 1e-12 {
		t.Errorf("homophily %v, want [1 2/3]", h)
	}
	// With the row itself first (include_self), k = 2 is the 1-NN graph without self-loops.
	self, err := KNearest(x, 5, 1, 2, true, nil)
	if err != nil {
		t.Fatal(err)
	}
	src, dst, err := KNNEdges(self, 2, 2)
	if err != nil {
		t.Fatal(err)
	}
	want, _, _ := KNNEdges(nbrs, 2, 1)
	if !slices.Equal(src, want) || len(dst) != 6 {
		t.Errorf("include-self 2-NN edges %v→%v, want the 1-NN graph's (sources %v)", src, dst, want)
	}
	if _, err := KNNHomophily(nbrs, 2, labels, []int{3}); err == nil {
		t.Error("k = 3 of 2 neighbours: no error")
	}
	if _, err := KNNHomophily(nbrs, 2, labels[:4], []int{1}); err == nil {
		t.Error("4 labels for 5 rows: no error")
	}
}

func TestFashionMNISTImages(t *testing.T) {
	opts := Options{Root: coreDataRoot(t), Offline: true}
	x, labels, err := FashionMNISTImages(opts, 2)
	if err != nil {
		t.Fatal(err)
	}
	if len(labels) != 20 || len(x) != 20*FashionMNISTSide*FashionMNISTSide {
		t.Fatalf("%d labels and %d pixels, want 20 images of 28 × 28", len(labels), len(x))
	}
	// File order: the first images of the training file are an ankle boot (9) and a T-shirt (0).
	if labels[0] != 9 || labels[1] != 0 || len(FashionMNISTClassNames()) != 10 {
		t.Errorf("first labels %v, want 9 then 0", labels[:2])
	}
	for c := range int32(10) {
		if n := len(slices.DeleteFunc(slices.Clone(labels), func(y int32) bool { return y != c })); n != 2 {
			t.Errorf("class %d: %d images, want 2", c, n)
		}
	}
	if slices.Max(x) > 1 || slices.Min(x) < 0 {
		t.Error("pixels outside [0, 1]")
	}
	for _, n := range []int{0, 1501} {
		if _, _, err := FashionMNISTImages(opts, n); err == nil {
			t.Errorf("%d per class: no error", n)
		}
	}
}
