package datasets

import (
	"math"
	"runtime"
	"slices"
	"testing"
)

// TestSyntheticScaleProperties checks a graph of SyntheticScale against its configuration: a valid
// Graph, equal classes, mean degree, edge homophily, the spread of cross-class edges, class means of
// the features and the pseudo-label error, with tolerances of 4 standard errors.
func TestSyntheticScaleProperties(t *testing.T) {
	cfg := SyntheticConfig{Nodes: 20000, Classes: 10, Features: 8, Degree: 20, P: 0.6, Epsilon: 0.2, Seed: 5}
	g, truth, err := SyntheticScale(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if err := g.Validate(); err != nil {
		t.Fatal(err)
	}
	sizes := make([]int, 10)
	for _, y := range g.Labels {
		sizes[y]++
	}
	if slices.Min(sizes) != 2000 || slices.Max(sizes) != 2000 {
		t.Fatalf("class sizes %v, want 2000 each", sizes)
	}
	// 200,000 draws; a draw i→j meets j's draw j→i with probability about
	// 10·(0.6·0.6/2000 + 0.4·(0.4/9)/2000) = 0.0019, and such a pair of draws is one edge: the mean
	// degree is 20·(1 - 0.0019/2) = 19.98.
	if deg := float64(g.NumEdges()) / float64(g.NumNodes); math.Abs(deg-19.98) > 0.01 {
		t.Errorf("mean degree %.4f, want 19.98 (20 less the pairs drawn from both ends)", deg)
	}
	// 200,000 undirected edges: SE = sqrt(0.24/200000) = 0.0011.
	if h := g.EdgeHomophily(); math.Abs(h-0.6) > 4*0.0011 {
		t.Errorf("edge homophily %.4f, want 0.6 +- 0.0044", h)
	}
	cross := make([]float64, 10)
	total := 0.0
	for e := range g.Src {
		if g.Labels[g.Src[e]] == 0 && g.Labels[g.Dst[e]] != 0 {
			cross[g.Labels[g.Dst[e]]]++
			total++
		}
	}
	for c := 1; c < 10; c++ { // ~16,000 cross edges: SE = sqrt((1/9)(8/9)/16000) = 0.0025
		if f := cross[c] / total; math.Abs(f-1.0/9) > 4*0.0025 {
			t.Errorf("fraction of class-0 cross edges to class %d = %.4f, want 1/9 +- 0.01", c, f)
		}
	}
	// Degrees: each node draws 10 and is drawn about 10 times (binomial), so they spread around 20
	// with variance about 10, never under 10 (its own draws).
	deg := make([]int, g.NumNodes)
	for _, s := range g.Src {
		deg[s]++
	}
	if slices.Min(deg) < 10-1 {
		t.Errorf("smallest degree %d, want at least its own 10 draws (less a pair drawn from both ends)", slices.Min(deg))
	}
	var variance float64
	for _, d := range deg {
		variance += (float64(d) - 20) * (float64(d) - 20)
	}
	if variance /= float64(g.NumNodes); variance < 8 || variance > 12 {
		t.Errorf("degree variance %.2f, want about 10 (the in-draws' binomial)", variance)
	}
	// Class means: 2000 nodes per class, U(-1/2, 1/2) noise of sd 1/sqrt(12): SE = 0.0065.
	x := g.Features
	for c := range 10 {
		for k := range 8 {
			sum := 0.0
			for i, y := range g.Labels {
				if int(y) == c {
					sum += float64(x.Values[i*8+k])
				}
			}
			if m := sum / 2000; math.Abs(m-truth.Means[c][k]) > 4*0.0065 {
				t.Errorf("class %d feature %d mean %.4f, want %.4f +- 0.026", c, k, m, truth.Means[c][k])
			}
		}
	}
	wrong := 0
	for i, y := range g.Labels {
		if truth.PseudoLabels[i] != y {
			wrong++
		}
	}
	if f := float64(wrong) / 20000; math.Abs(f-0.2) > 4*0.0028 { // SE = sqrt(0.16/20000)
		t.Errorf("pseudo-label error %.4f, want 0.2 +- 0.011", f)
	}
}

// TestSyntheticScaleDeterministic checks that a seed gives the same graph on one core as on
// several, and another seed another graph.
func TestSyntheticScaleDeterministic(t *testing.T) {
	cfg := SyntheticConfig{Nodes: 30000, Classes: 3, Features: 2, Degree: 4, P: 0.8, Epsilon: 0.2, Seed: 1}
	a, ta, err := SyntheticScale(cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	b, tb, _ := SyntheticScale(cfg)
	if !slices.Equal(a.Src, b.Src) || !slices.Equal(a.Dst, b.Dst) || !slices.Equal(a.Features.Values, b.Features.Values) ||
		!slices.Equal(ta.PseudoLabels, tb.PseudoLabels) || !slices.Equal(a.Splits[0].Val, b.Splits[0].Val) {
		t.Fatal("same seed gave different graphs on 1 core and on several")
	}
	cfg.Seed = 2
	c, _, _ := SyntheticScale(cfg)
	if slices.Equal(a.Dst, c.Dst) {
		t.Fatal("seeds 1 and 2 gave the same edges")
	}
}

// TestSyntheticScaleRejectsBadConfig checks that the configuration is validated as Synthetic's.
func TestSyntheticScaleRejectsBadConfig(t *testing.T) {
	if _, _, err := SyntheticScale(SyntheticConfig{Nodes: 100, Classes: 10, Features: 1, Degree: 20, P: 0.5}); err == nil {
		t.Fatal("Degree 20 > Nodes/Classes-1 = 9 accepted")
	}
}

func BenchmarkSyntheticScale(b *testing.B) {
	cfg := SyntheticConfig{Nodes: 100000, Classes: 10, Features: 100, Degree: 50, P: 0.6, Seed: 1}
	for b.Loop() {
		if _, _, err := SyntheticScale(cfg); err != nil {
			b.Fatal(err)
		}
	}
}
