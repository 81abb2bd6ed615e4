package datasets

import (
	"math"
	"strings"
	"testing"
)

// validFixture is a valid 4-node path graph 0-1-2-3 with 2 classes and one split.
func validFixture() *Graph {
	return &Graph{Name: "fixture", NumNodes: 4,
		Features: denseToCSR(4, 2, []float32{1, 0, 0, 1, 1, 1, 0, 0}),
		Src:      []int32{0, 1, 1, 2, 2, 3}, Dst: []int32{1, 0, 2, 1, 3, 2},
		Labels: []int32{0, 1, 0, 1}, NumClasses: 2,
		Splits: []Split{{Train: []int32{0, 1}, Val: []int32{2}, Test: []int32{3}}}}
}

func TestValidateNamesFirstViolation(t *testing.T) {
	if err := validFixture().Validate(); err != nil {
		t.Fatalf("valid fixture: %v", err)
	}
	cases := []struct {
		name   string
		damage func(g *Graph)
		want   string
	}{
		{"edge out of range", func(g *Graph) { g.Dst[5] = 4 }, "edge 5 (3->4) has a node id outside [0, 4)"},
		{"one direction", func(g *Graph) { g.Src, g.Dst = g.Src[:5], g.Dst[:5] }, "edge 4 (2->3) has no reverse edge 3->2"},
		{"self-loop", func(g *Graph) { g.Src = append(g.Src, 3); g.Dst = append(g.Dst, 3) }, "edge 6 (3->3) is a self-loop"},
		{"duplicate", func(g *Graph) { g.Src = append(g.Src, 3); g.Dst = append(g.Dst, 2) }, "edge 6 (3->2) repeats edge 5"},
		{"unsorted", func(g *Graph) { g.Src[0], g.Dst[0], g.Src[1], g.Dst[1] = 1, 0, 0, 1 }, "edge 1 (0->1) comes after 1->0"},
		{"label out of range", func(g *Graph) { g.Labels[2] = 2 }, "node 2 has label 2, expected one in [0, 2)"},
		{"label count", func(g *Graph) { g.Labels = g.Labels[:3] }, "3 labels for 4 nodes"},
		{"nan feature", func(g *Graph) { g.Features.Values[1] = float32(math.NaN()) }, "feature [1, 1] is NaN"},
		{"inf feature", func(g *Graph) { g.Features.Values[0] = float32(math.Inf(1)) }, "feature [0, 0] is +Inf"},
		{"feature rows", func(g *Graph) { g.NumNodes = 5 }, "features have 4 rows"},
		{"feature column", func(g *Graph) { g.Features.ColIdx[0] = 7 }, "feature row 0 has column 7"},
		{"no split", func(g *Graph) { g.Splits = nil }, "no split"},
		{"empty val", func(g *Graph) { g.Splits[0].Val = nil }, "split 0's validation set is empty"},
		{"split range", func(g *Graph) { g.Splits[0].Test = []int32{9} }, "split 0's test set holds node 9"},
		{"split repeat", func(g *Graph) { g.Splits[0].Train = []int32{1, 1} }, "split 0's train set lists node 1 after node 1"},
		{"extra test", func(g *Graph) { g.ExtraTests = []NodeSet{{Name: "FR", Nodes: []int32{-1}}} }, "extra test set FR holds node -1"},
	}
	for _, c := range cases {
		g := validFixture()
		c.damage(g)
		err := g.Validate()
		if err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), `"fixture"`) {
			t.Errorf("%s: got %v, want an error naming the graph and %q", c.name, err, c.want)
		}
	}
}

// TestLoadersGiveValidGraphs checks every loader's output on the real data (the ones present) and
// the synthetic data set.
func TestLoadersGiveValidGraphs(t *testing.T) {
	g, err := Load("synthetic", Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := g.Validate(); err != nil {
		t.Error(err)
	}
	names := []string{"cora", "citeseer", "pubmed", "cs", "squirrel", "chameleon", "twitch-de", "twitch-ood", "digits"}
	if testing.Short() {
		names = names[:1]
	}
	for _, name := range names {
		t.Run(name, func(t *testing.T) {
			if err := loadReal(t, name, Options{}).Validate(); err != nil {
				t.Error(err)
			}
		})
	}
}
