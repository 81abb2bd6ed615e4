package datasets

import (
	"math"
	"slices"
	"strings"
	"testing"
)

func TestSyntheticShapeEdgesAndSplit(t *testing.T) {
	cfg := SyntheticConfig{Nodes: 400, Classes: 4, Features: 3, Degree: 6, P: 0.5, Epsilon: 0.1,
		TrainPerClass: 5, ValNodes: 100, Seed: 7}
	g, truth, err := Synthetic(cfg)
	if err != nil {
		t.Fatal(err)
	}
	// Every one of the 400*3 draws adds a distinct undirected edge: 2400 directed edges.
	if g.NumNodes != 400 || g.NumEdges() != 2400 || g.NumFeatures() != 3 || g.NumClasses != 4 {
		t.Fatalf("got %s, want 400 nodes, 2400 edges, 3 features, 4 classes", g)
	}
	for i := range g.Src {
		if g.Src[i] == g.Dst[i] {
			t.Fatalf("self-loop at node %d", g.Src[i])
		}
		if i > 0 && (g.Src[i-1] > g.Src[i] || g.Src[i-1] == g.Src[i] && g.Dst[i-1] >= g.Dst[i]) {
			t.Fatalf("edges not sorted/deduplicated at %d", i)
		}
	}
	sizes := make([]int, 4)
	for _, y := range g.Labels {
		sizes[y]++
	}
	if !slices.Equal(sizes, []int{100, 100, 100, 100}) {
		t.Fatalf("class sizes %v, want 100 each", sizes)
	}
	for _, v := range g.Features.Values {
		if math.Abs(float64(v)) > 1 {
			t.Fatalf("feature %g outside [-Bound, Bound] = [-1, 1]", v)
		}
	}
	if len(truth.Means) != 4 || len(truth.Means[0]) != 3 || len(truth.PseudoLabels) != 400 {
		t.Fatalf("truth shapes: %d means of %d, %d pseudo labels", len(truth.Means), len(truth.Means[0]), len(truth.PseudoLabels))
	}
	s := g.Splits[0]
	if len(s.Train) != 20 || len(s.Val) != 100 || len(s.Test) != 280 {
		t.Fatalf("split sizes %d/%d/%d, want 20/100/280", len(s.Train), len(s.Val), len(s.Test))
	}
	all := slices.Concat(s.Train, s.Val, s.Test)
	slices.Sort(all)
	if len(slices.Compact(all)) != 400 {
		t.Fatalf("train/val/test overlap or miss nodes")
	}
	trainPerClass := make([]int, 4)
	for _, i := range s.Train {
		trainPerClass[g.Labels[i]]++
	}
	if !slices.Equal(trainPerClass, []int{5, 5, 5, 5}) {
		t.Fatalf("train per class %v, want 5 each", trainPerClass)
	}
}

func TestSyntheticDeterministicBySeed(t *testing.T) {
	cfg := SyntheticConfig{Nodes: 300, Classes: 3, Features: 2, Degree: 4, P: 0.8, Epsilon: 0.2,
		TrainPerClass: 2, ValNodes: 50, Seed: 1}
	a, ta, err := Synthetic(cfg)
	if err != nil {
		t.Fatal(err)
	}
	b, tb, _ := Synthetic(cfg)
	if !slices.Equal(a.Dst, b.Dst) || !slices.Equal(a.Features.Values, b.Features.Values) ||
		!slices.Equal(ta.PseudoLabels, tb.PseudoLabels) || !slices.Equal(a.Splits[0].Val, b.Splits[0].Val) {
		t.Fatal("same seed gave different graphs")
	}
	cfg.Seed = 2
	c, _, _ := Synthetic(cfg)
	if slices.Equal(a.Dst, c.Dst) {
		t.Fatal("seeds 1 and 2 gave the same edges")
	}
}

// TestSyntheticStatistics checks the generator's frequencies against the configuration, with
// tolerances of 4 binomial/uniform standard errors.
func TestSyntheticStatistics(t *testing.T) {
	cfg := SyntheticConfig{Nodes: 2000, Classes: 4, Features: 4, Degree: 10, P: 0.7, Epsilon: 0.2, Seed: 3}
	g, truth, err := Synthetic(cfg)
	if err != nil {
		t.Fatal(err)
	}
	// 10000 undirected edges, each homophilous with probability 0.7: SE = sqrt(0.21/10000) = 0.0046.
	if h := g.EdgeHomophily(); math.Abs(h-0.7) > 4*0.0046 {
		t.Errorf("edge homophily %.4f, want 0.7 +- 0.018", h)
	}
	// Cross-class edges are uniform over the 3 other classes: from class 0, 1/3 each.
	cross := make([]float64, 4)
	total := 0.0
	for e := range g.Src {
		if g.Labels[g.Src[e]] == 0 && g.Labels[g.Dst[e]] != 0 {
			cross[g.Labels[g.Dst[e]]]++
			total++
		}
	}
	for c := 1; c < 4; c++ { // ~1500 cross edges: SE = sqrt(2/9/1500) = 0.012
		if f := cross[c] / total; math.Abs(f-1.0/3) > 4*0.012 {
			t.Errorf("fraction of class-0 cross edges to class %d = %.3f, want 1/3 +- 0.048", c, f)
		}
	}
	wrong := 0
	for i, y := range g.Labels {
		if truth.PseudoLabels[i] != y {
			wrong++
		}
	}
	// SE = sqrt(0.16/2000) = 0.0089.
	if f := float64(wrong) / 2000; math.Abs(f-0.2) > 4*0.0089 {
		t.Errorf("pseudo-label error %.4f, want 0.2 +- 0.036", f)
	}
	// Class means: 500 nodes per class, U(-1/2, 1/2) noise of sd 1/sqrt(12): SE = 0.0129.
	x := g.DenseFeatures()
	for c := range 4 {
		for k := range 4 {
			sum := 0.0
			for i, y := range g.Labels {
				if int(y) == c {
					sum += float64(x[i*4+k])
				}
			}
			if m := sum / 500; math.Abs(m-truth.Means[c][k]) > 4*0.0129 {
				t.Errorf("class %d feature %d mean %.4f, want %.4f +- 0.052", c, k, m, truth.Means[c][k])
			}
		}
	}
}

func TestSyntheticFixedMeans(t *testing.T) {
	means := [][]float64{{0.5, -0.5}, {0, 0.25}}
	g, truth, err := Synthetic(SyntheticConfig{Nodes: 100, Classes: 2, Features: 2, Degree: 2, P: 1, Means: means,
		TrainPerClass: 1, ValNodes: 10})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(truth.Means[1], []float64{0, 0.25}) {
		t.Fatalf("means %v, want the configured ones", truth.Means)
	}
	if h := g.EdgeHomophily(); h != 1 {
		t.Fatalf("P=1 gave edge homophily %g, want 1", h)
	}
}

func TestSyntheticRejectsBadConfig(t *testing.T) {
	base := SyntheticConfig{Nodes: 100, Classes: 2, Features: 2, Degree: 4, P: 0.5, TrainPerClass: 1, ValNodes: 10}
	for _, tc := range []struct {
		edit func(*SyntheticConfig)
		want string
	}{
		{func(c *SyntheticConfig) { c.Nodes = 101 }, "Nodes=101"},
		{func(c *SyntheticConfig) { c.Classes = 1 }, "Classes=1"},
		{func(c *SyntheticConfig) { c.Degree = 3 }, "Degree=3"},
		{func(c *SyntheticConfig) { c.Degree = 60 }, "Degree=60"},
		{func(c *SyntheticConfig) { c.P = 1.5 }, "P=1.5"},
		{func(c *SyntheticConfig) { c.Epsilon = -0.1 }, "Epsilon=-0.1"},
		{func(c *SyntheticConfig) { c.ValNodes = 98 }, "leaves no test node"},
		{func(c *SyntheticConfig) { c.Means = [][]float64{{0, 0}, {0, 0.9}} }, "Means[1][1]=0.9"},
		{func(c *SyntheticConfig) { c.Means = [][]float64{{0, 0}} }, "Means has 1 rows"},
	} {
		cfg := base
		tc.edit(&cfg)
		if _, _, err := Synthetic(cfg); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("error %v, want one mentioning %q", err, tc.want)
		}
	}
}

func TestSyntheticRegistered(t *testing.T) {
	g, err := Load("synthetic", Options{Root: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	if g.NumNodes != 2000 || g.NumClasses != 5 || g.NumEdges() != 20000 || len(g.Splits[0].Train) != 100 ||
		len(g.Splits[0].Val) != 500 || g.Notes == "" {
		t.Fatalf("got %s, %d train, %d val, notes %q; want 2000 nodes, 5 classes, 20000 edges, 100 train, 500 val",
			g, len(g.Splits[0].Train), len(g.Splits[0].Val), g.Notes)
	}
}
