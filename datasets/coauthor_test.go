package datasets

import (
	"math"
	"reflect"
	"strings"
	"testing"
)

func TestCoauthorStatistics(t *testing.T) {
	cases := []struct {
		name                                   string
		nodes, edges, features, classes, train int
		classCounts                            []int
		labels0to7                             []int32
	}{
		{"cs", 18333, 163788, 6805, 15, 300,
			[]int{708, 462, 2050, 429, 1394, 2193, 371, 924, 775, 118, 1444, 2033, 420, 4136, 876},
			[]int32{13, 2, 13, 2, 0, 5, 5, 3}},
		{"physics", 34493, 495924, 8415, 5, 100, []int{5750, 5045, 17426, 2753, 3519}, []int32{2, 2, 4, 3, 1, 0, 2, 0}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if c.name == "physics" && testing.Short() {
				t.Skip("physics is the largest graph; skipped in -short mode")
			}
			g := loadReal(t, c.name, Options{})
			if g.NumNodes != c.nodes || g.NumEdges() != c.edges || g.NumFeatures() != c.features || g.NumClasses != c.classes {
				t.Fatalf("got %v, want %d nodes, %d edges, %d features, %d classes", g, c.nodes, c.edges, c.features, c.classes)
			}
			if !reflect.DeepEqual(g.Labels[:8], c.labels0to7) {
				t.Errorf("labels[0:8] = %v, want %v", g.Labels[:8], c.labels0to7)
			}
			counts := make([]int, g.NumClasses)
			for _, l := range g.Labels {
				counts[l]++
			}
			if !reflect.DeepEqual(counts, c.classCounts) {
				t.Errorf("class counts %v, want %v", counts, c.classCounts)
			}
			s := g.Splits[0]
			checkSplit(t, s, g.NumNodes)
			if len(s.Train) != c.train || len(s.Val) != c.train*3/2 || len(s.Test) != c.nodes-c.train*5/2 {
				t.Fatalf("split %d/%d/%d, want %d/%d/rest", len(s.Train), len(s.Val), len(s.Test), c.train, c.train*3/2)
			}
			perClass := make([][2]int, g.NumClasses)
			for _, v := range s.Train {
				perClass[g.Labels[v]][0]++
			}
			for _, v := range s.Val {
				perClass[g.Labels[v]][1]++
			}
			for k, pc := range perClass {
				if pc != [2]int{20, 30} {
					t.Errorf("class %d has %d train / %d val nodes, want 20 / 30", k, pc[0], pc[1])
				}
			}
			for i, sum := range rowSums(g.Features) {
				if sum != 0 && math.Abs(sum-1) > 1e-5 {
					t.Fatalf("row %d sums to %v after binarising and normalising, want 1", i, sum)
				}
			}
			if !strings.Contains(g.Notes, "torch.randperm") {
				t.Errorf("notes %q do not say the split cannot replay torch's RNG", g.Notes)
			}
		})
	}
}

func TestCoauthorSplitDeterminism(t *testing.T) {
	a := loadReal(t, "cs", Options{})
	b := loadReal(t, "cs", Options{Seed: 123})
	c := loadReal(t, "cs", Options{Seed: 7})
	if !reflect.DeepEqual(a.Splits, b.Splits) {
		t.Fatal("seed 0 (reference 123) and seed 123 gave different splits")
	}
	if reflect.DeepEqual(a.Splits[0].Train, c.Splits[0].Train) {
		t.Fatal("seeds 123 and 7 gave the same train set")
	}
	checkSplit(t, c.Splits[0], c.NumNodes)
}

// TestCoauthorFixture checks binarisation, normalisation and edge handling on a hand-made npz.
func TestCoauthorFixture(t *testing.T) {
	dir := t.TempDir()
	// 3 nodes, 4 keyword counts: node 0 {0: 2, 3: 5}, node 1 {} , node 2 {1: 1}.
	// Adjacency (directed, with a self-loop on 2 and a duplicate 0->1): 0->1, 0->1, 2->2, 2->0.
	path := writeNPZ(t, dir, "fixture.npz", false, map[string][]byte{
		"attr_data":    npyOf(t, []float32{2, 5, 1}, false, 3),
		"attr_indices": npyOf(t, []int32{3, 0, 1}, false, 3),
		"attr_indptr":  npyOf(t, []int32{0, 2, 2, 3}, false, 4),
		"attr_shape":   npyOf(t, []int64{3, 4}, false, 2),
		"adj_data":     npyOf(t, []float32{1, 1, 1, 1}, false, 4),
		"adj_indices":  npyOf(t, []int32{1, 1, 0, 2}, false, 4),
		"adj_indptr":   npyOf(t, []int32{0, 2, 2, 4}, false, 4),
		"adj_shape":    npyOf(t, []int64{3, 3}, false, 2),
		"labels":       npyOf(t, []int64{1, 0, 1}, false, 3),
	})
	g, err := readCoauthor("fixture", path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if want := []float32{0.5, 0, 0, 0.5, 0, 0, 0, 0, 0, 1, 0, 0}; !reflect.DeepEqual(g.DenseFeatures(), want) {
		t.Errorf("features %v, want %v (binarised, unsorted columns sorted, row-normalised)", g.DenseFeatures(), want)
	}
	if !reflect.DeepEqual(g.Src, []int32{0, 0, 1, 2}) || !reflect.DeepEqual(g.Dst, []int32{1, 2, 0, 0}) {
		t.Errorf("edges %v -> %v, want symmetric 0-1, 0-2 without the self-loop", g.Src, g.Dst)
	}
	if g.NumClasses != 2 || len(g.Splits) != 1 {
		t.Errorf("%d classes, %d splits; want 2 and 1", g.NumClasses, len(g.Splits))
	}
	raw, err := readCoauthor("fixture", path, Options{RawFeatures: true})
	if err != nil {
		t.Fatal(err)
	}
	if want := []float32{1, 0, 0, 1, 0, 0, 0, 0, 0, 1, 0, 0}; !reflect.DeepEqual(raw.DenseFeatures(), want) {
		t.Errorf("raw features %v, want binarised %v", raw.DenseFeatures(), want)
	}
}

func TestCoauthorDamaged(t *testing.T) {
	dir := t.TempDir()
	members := map[string][]byte{
		"attr_data":    npyOf(t, []float32{1}, false, 1),
		"attr_indices": npyOf(t, []int32{7}, false, 1), // column 7 of a 4-column matrix
		"attr_indptr":  npyOf(t, []int32{0, 1}, false, 2),
		"attr_shape":   npyOf(t, []int64{1, 4}, false, 2),
	}
	path := writeNPZ(t, dir, "bad.npz", false, members)
	_, err := readCoauthor("bad", path, Options{})
	if err == nil || !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), "column index 7 outside [0, 4)") {
		t.Fatalf("error %v, want one naming %s and the bad column", err, path)
	}
}
