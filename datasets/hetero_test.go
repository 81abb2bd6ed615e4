package datasets

import (
	"math"
	"reflect"
	"strings"
	"testing"
)

func TestHeteroStatistics(t *testing.T) {
	cases := []struct {
		name                            string
		nodes, edges, features, classes int
		homophily                       float64
		splitSizes                      [][3]int // per split: train, val, test (numpy on the masks)
		train0First5, train9First5      []int32
		labels0to7                      []int32
	}{
		{"squirrel", 2223, 93996, 2089, 5, 0.207,
			[][3]int{{1053, 718, 452}, {1080, 700, 443}, {1047, 726, 450}, {1060, 713, 450}, {1055, 719, 449},
				{1077, 691, 455}, {1085, 692, 446}, {1051, 739, 433}, {1049, 691, 483}, {1074, 733, 416}},
			[]int32{0, 2, 3, 4, 6}, []int32{1, 5, 6, 10, 12}, []int32{0, 0, 0, 0, 2, 0, 0, 0}},
		{"chameleon", 890, 17708, 2325, 5, 0.236,
			[][3]int{{409, 287, 194}, {427, 302, 161}, {422, 290, 178}, {412, 294, 184}, {440, 268, 182},
				{434, 292, 164}, {418, 284, 188}, {421, 310, 159}, {431, 287, 172}, {426, 278, 186}},
			[]int32{0, 2, 3, 5, 7}, []int32{6, 9, 10, 11, 12}, []int32{3, 0, 0, 4, 1, 2, 0, 2}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			g := loadReal(t, c.name, Options{})
			if g.NumNodes != c.nodes || g.NumEdges() != c.edges || g.NumFeatures() != c.features || g.NumClasses != c.classes {
				t.Fatalf("got %v, want %d nodes, %d edges, %d features, %d classes", g, c.nodes, c.edges, c.features, c.classes)
			}
			if h := g.EdgeHomophily(); math.Abs(h-c.homophily) > 0.001 {
				t.Errorf("edge homophily %.4f, want %.3f", h, c.homophily)
			}
			if !reflect.DeepEqual(g.Labels[:8], c.labels0to7) {
				t.Errorf("labels[0:8] = %v, want %v", g.Labels[:8], c.labels0to7)
			}
			if len(g.Splits) != 10 {
				t.Fatalf("%d splits, want 10", len(g.Splits))
			}
			for i, s := range g.Splits {
				checkSplit(t, s, g.NumNodes)
				if got := [3]int{len(s.Train), len(s.Val), len(s.Test)}; got != c.splitSizes[i] {
					t.Errorf("split %d sizes %v, want %v", i, got, c.splitSizes[i])
				}
			}
			if !reflect.DeepEqual(g.Splits[0].Train[:5], c.train0First5) || !reflect.DeepEqual(g.Splits[9].Train[:5], c.train9First5) {
				t.Errorf("train sets start %v (split 0) and %v (split 9), want %v and %v",
					g.Splits[0].Train[:5], g.Splits[9].Train[:5], c.train0First5, c.train9First5)
			}
			raw := loadReal(t, c.name, Options{RawFeatures: true})
			checkNormalized(t, g.Features, raw.Features, 0)
		})
	}
}

// TestHeteroFixture checks Fortran-order masks, x / rowsum normalisation and self-loop handling.
func TestHeteroFixture(t *testing.T) {
	dir := t.TempDir()
	// Masks [2 splits, 4 nodes], row-major: split 0 train {0,1} val {2} test {3}; split 1 train {3}
	// val {0} test {1,2}. Stored column-major, i.e. element (s, v) at position s + 2*v.
	fortran := func(rows [2][4]bool) []bool {
		out := make([]bool, 8)
		for s := range 2 {
			for v := range 4 {
				out[s+2*v] = rows[s][v]
			}
		}
		return out
	}
	train := fortran([2][4]bool{{true, true, false, false}, {false, false, false, true}})
	val := fortran([2][4]bool{{false, false, true, false}, {true, false, false, false}})
	test := fortran([2][4]bool{{false, false, false, true}, {false, true, true, false}})
	path := writeNPZ(t, dir, "tiny_filtered.npz", true, map[string][]byte{
		"node_features": npyOf(t, []float32{1, 1, 0, 0, 0, 0, 0.5, 0, 0, 2, 0, 6}, false, 4, 3),
		"node_labels":   npyOf(t, []int64{0, 1, 1, 2}, false, 4),
		"edges":         npyOf(t, []int64{0, 1, 1, 2, 2, 2, 3, 0}, false, 4, 2),
		"train_masks":   npyOf(t, train, true, 2, 4),
		"val_masks":     npyOf(t, val, true, 2, 4),
		"test_masks":    npyOf(t, test, true, 2, 4),
	})
	g, err := readHetero("tiny", path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	want := []Split{
		{Train: []int32{0, 1}, Val: []int32{2}, Test: []int32{3}},
		{Train: []int32{3}, Val: []int32{0}, Test: []int32{1, 2}},
	}
	if !reflect.DeepEqual(g.Splits, want) {
		t.Errorf("splits %+v, want %+v", g.Splits, want)
	}
	// x / rowsum: the 0.5 row becomes 1 (NormalizeRows would keep 0.5); the zero row stays zero.
	if wantX := []float32{0.5, 0.5, 0, 0, 0, 0, 1, 0, 0, 0.25, 0, 0.75}; !reflect.DeepEqual(g.DenseFeatures(), wantX) {
		t.Errorf("features %v, want %v", g.DenseFeatures(), wantX)
	}
	if !reflect.DeepEqual(g.Src, []int32{0, 0, 1, 1, 2, 3}) || !reflect.DeepEqual(g.Dst, []int32{1, 3, 0, 2, 1, 0}) {
		t.Errorf("edges %v -> %v", g.Src, g.Dst)
	}
	if !strings.Contains(g.Notes, "1 self-loop") {
		t.Errorf("notes %q do not mention the dropped self-loop", g.Notes)
	}
}

func TestHeteroDamaged(t *testing.T) {
	dir := t.TempDir()
	base := func() map[string][]byte {
		return map[string][]byte{
			"node_features": npyOf(t, []float32{1, 0, 0, 1}, false, 2, 2),
			"node_labels":   npyOf(t, []int64{0, 1}, false, 2),
			"edges":         npyOf(t, []int64{0, 1}, false, 1, 2),
			"train_masks":   npyOf(t, []bool{true, false}, true, 1, 2),
			"val_masks":     npyOf(t, []bool{false, true}, true, 1, 2),
			"test_masks":    npyOf(t, []bool{false, false}, true, 1, 2),
		}
	}
	cases := []struct {
		name, want string
		edit       func(m map[string][]byte)
	}{
		{"labels too short", "node_labels.npy", func(m map[string][]byte) { m["node_labels"] = npyOf(t, []int64{0}, false, 1) }},
		{"edge out of range", "edge 0 (0, 5)", func(m map[string][]byte) { m["edges"] = npyOf(t, []int64{0, 5}, false, 1, 2) }},
		{"edges not pairs", "edges.npy", func(m map[string][]byte) { m["edges"] = npyOf(t, []int64{0, 1, 1}, false, 1, 3) }},
		{"overlapping masks", "node 0 in two of", func(m map[string][]byte) {
			m["val_masks"] = npyOf(t, []bool{true, true}, true, 1, 2)
		}},
		{"missing masks", "no member test_masks.npy", func(m map[string][]byte) { delete(m, "test_masks") }},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m := base()
			c.edit(m)
			path := writeNPZ(t, dir, strings.ReplaceAll(c.name, " ", "_")+".npz", true, m)
			_, err := readHetero("bad", path, Options{})
			if err == nil || !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("error %v, want one naming %s and %q", err, path, c.want)
			}
		})
	}
}
