package datasets

import (
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// userGraphFixture is a 6-node, 2-class graph with every defect loading cleans up: 0->1 without
// its reverse, 1<->2 in both directions, a self-loop 2->2, 3->0 listed twice, nodes 4 and 5
// isolated. Features are [6, 3].
var userGraphFixture = struct {
	src, dst []int64
	x        []float32
	labels   []int64
}{
	src:    []int64{0, 1, 2, 2, 3, 3},
	dst:    []int64{1, 2, 1, 2, 0, 0},
	x:      []float32{1, 0, 1, 0, 2, 0, 3, 1, 0, 0, 0, 0, 0.5, 0, 0, 1, 1, 1},
	labels: []int64{0, 1, 0, 1, 0, 1},
}

// wantUserEdges are the fixture's edges once undirected: (src, dst) sorted.
var wantUserEdges = [][2]int32{{0, 1}, {0, 3}, {1, 0}, {1, 2}, {2, 1}, {3, 0}}

// writeUserNPZ writes the fixture in the gnn-benchmark layout (adjacency CSR, dense attr_matrix or
// CSR attr_*) plus the given extra members.
func writeUserNPZ(t *testing.T, dir, name string, denseAttr bool, extra map[string][]byte) string {
	t.Helper()
	f := userGraphFixture
	n := len(f.labels)
	indptr := make([]int64, n+1)
	for _, s := range f.src {
		indptr[s+1]++
	}
	for i := range n {
		indptr[i+1] += indptr[i]
	}
	ones := make([]float32, len(f.src))
	for i := range ones {
		ones[i] = 1
	}
	members := map[string][]byte{
		"adj_data":    npyOf(t, ones, false, len(ones)),
		"adj_indices": npyOf(t, f.dst, false, len(f.dst)),
		"adj_indptr":  npyOf(t, indptr, false, n+1),
		"adj_shape":   npyOf(t, []int64{int64(n), int64(n)}, false, 2),
		"labels":      npyOf(t, f.labels, false, n),
	}
	if denseAttr {
		members["attr_matrix"] = npyOf(t, f.x, false, n, 3)
	} else {
		m := denseToCSR(n, 3, f.x)
		cols := make([]int64, len(m.ColIdx))
		for i, c := range m.ColIdx {
			cols[i] = int64(c)
		}
		members["attr_data"] = npyOf(t, m.Values, false, len(m.Values))
		members["attr_indices"] = npyOf(t, cols, false, len(cols))
		members["attr_indptr"] = npyOf(t, m.RowPtr, false, n+1)
		members["attr_shape"] = npyOf(t, []int64{int64(n), 3}, false, 2)
	}
	for k, v := range extra {
		members[k] = v
	}
	return writeNPZ(t, dir, name, true, members)
}

// writeUserEdgeList writes the fixture in the edge-list format into a new directory dir/name.
func writeUserEdgeList(t *testing.T, dir, name string, files map[string]string) string {
	t.Helper()
	f := userGraphFixture
	var edges, features, labels strings.Builder
	edges.WriteString("src,dst\n")
	for i := range f.src {
		edges.WriteString(strings.Join([]string{itoa(f.src[i]), itoa(f.dst[i])}, ",") + "\n")
	}
	for i := range f.labels {
		row := f.x[3*i : 3*i+3]
		features.WriteString(strings.Join([]string{ftoa(row[0]), ftoa(row[1]), ftoa(row[2])}, "\t") + "\n")
		labels.WriteString(itoa(f.labels[i]) + "\n")
	}
	all := map[string]string{"edges.csv": edges.String(), "features.csv": features.String(), "labels.csv": "# class ids\n" + labels.String()}
	for k, v := range files {
		all[k] = v
	}
	out := filepath.Join(dir, name)
	for file, content := range all {
		if content == "" {
			continue
		}
		writeFixtureBytes(t, out, file, []byte(content))
	}
	return out
}

// itoa and ftoa format fixture values.
func itoa(v int64) string   { return strconv.FormatInt(v, 10) }
func ftoa(v float32) string { return strconv.FormatFloat(float64(v), 'g', -1, 32) }

// checkUserGraph checks what every loader of the fixture must give.
func checkUserGraph(t *testing.T, g *Graph, wantName string) {
	t.Helper()
	var got [][2]int32
	for i := range g.Src {
		got = append(got, [2]int32{g.Src[i], g.Dst[i]})
	}
	if !slices.Equal(got, wantUserEdges) {
		t.Errorf("edges %v, want %v (undirected, no self-loop, no duplicate)", got, wantUserEdges)
	}
	if g.Name != wantName || g.NumNodes != 6 || g.NumFeatures() != 3 || g.NumClasses != 2 {
		t.Errorf("got %v, want %s with 6 nodes (isolated ones kept), 3 features, 2 classes", g, wantName)
	}
	for _, want := range []string{"1 self-loop(s) removed", "1 duplicate edge(s) removed",
		"2 one-directional edge(s) given their reverse", "2 isolated node(s) kept"} {
		if !strings.Contains(g.Notes, want) {
			t.Errorf("notes %q do not say %q", g.Notes, want)
		}
	}
	if err := g.Validate(); err != nil {
		t.Error(err)
	}
}

func TestFromNPZCleansAndSplits(t *testing.T) {
	dir := t.TempDir()
	for _, dense := range []bool{true, false} {
		path := writeUserNPZ(t, dir, "mine.npz", dense, nil)
		g, err := FromNPZ(path, Options{TrainPerClass: 1, ValPerClass: 1, Seed: 7})
		if err != nil {
			t.Fatal(err)
		}
		checkUserGraph(t, g, "mine")
		s := g.Splits[0]
		if len(g.Splits) != 1 || len(s.Train) != 2 || len(s.Val) != 2 || len(s.Test) != 2 {
			t.Fatalf("split %+v, want 1 train and 1 validation node per class, the rest test", s)
		}
		checkSplit(t, s, 6)
		for _, set := range [][]int32{s.Train, s.Val} {
			if g.Labels[set[0]] == g.Labels[set[1]] {
				t.Errorf("set %v has two nodes of class %d, want one per class", set, g.Labels[set[0]])
			}
		}
		// Row 1 (0, 2, 0) sums to 2: normalised to (0, 1, 0); row 3 (0, 0, 0.5) stays.
		if x := g.DenseFeatures(); x[4] != 1 || x[12] != 0.5 {
			t.Errorf("features %v, want rows divided by max(rowsum, 1)", x)
		}
		again, err := FromNPZ(path, Options{TrainPerClass: 1, ValPerClass: 1, Seed: 7})
		if err != nil || !slices.Equal(again.Splits[0].Train, s.Train) || !slices.Equal(again.Splits[0].Val, s.Val) {
			t.Errorf("the same seed gave split %+v, then %+v (%v)", s, again.Splits, err)
		}
	}
}

func TestFromNPZStoredMasks(t *testing.T) {
	masks := map[string][]byte{
		"train_mask": npyOf(t, []bool{true, true, false, false, false, false}, false, 6),
		"val_mask":   npyOf(t, []bool{false, false, true, true, false, false}, false, 6),
		"test_mask":  npyOf(t, []bool{false, false, false, false, true, true}, false, 6),
	}
	g, err := FromNPZ(writeUserNPZ(t, t.TempDir(), "masked.npz", true, masks), Options{RawFeatures: true})
	if err != nil {
		t.Fatal(err)
	}
	checkUserGraph(t, g, "masked")
	if s := g.Splits[0]; !slices.Equal(s.Train, []int32{0, 1}) || !slices.Equal(s.Val, []int32{2, 3}) || !slices.Equal(s.Test, []int32{4, 5}) {
		t.Errorf("split %+v, want the stored masks", s)
	}
	if x := g.DenseFeatures(); x[4] != 2 {
		t.Errorf("RawFeatures: feature [1, 1] = %v, want 2 as stored", x[4])
	}
	masks["test_mask"] = npyOf(t, []bool{true, false, false, false, true, true}, false, 6)
	_, err = FromNPZ(writeUserNPZ(t, t.TempDir(), "overlap.npz", true, masks), Options{})
	if err == nil || !strings.Contains(err.Error(), "overlap.npz") || !strings.Contains(err.Error(), "node 0 in two") {
		t.Errorf("overlapping masks: got %v, want an error naming the file and node 0", err)
	}
}

func TestFromEdgeListMatchesNPZ(t *testing.T) {
	dir := t.TempDir()
	opts := Options{TrainPerClass: 1, ValPerClass: 1}
	want, err := FromNPZ(writeUserNPZ(t, dir, "mine.npz", true, nil), opts)
	if err != nil {
		t.Fatal(err)
	}
	npyDir := writeUserEdgeList(t, dir, "npy", map[string]string{"features.csv": "", "labels.csv": "",
		"features.npy": string(npyOf(t, userGraphFixture.x, false, 6, 3)), "labels.npy": string(npyOf(t, userGraphFixture.labels, false, 6))})
	for _, path := range []string{writeUserEdgeList(t, dir, "csv", nil), npyDir} {
		g, err := FromEdgeList(path, opts)
		if err != nil {
			t.Fatal(err)
		}
		checkUserGraph(t, g, filepath.Base(path))
		if !slices.Equal(g.DenseFeatures(), want.DenseFeatures()) || !slices.Equal(g.Labels, want.Labels) ||
			!slices.Equal(g.Splits[0].Train, want.Splits[0].Train) || !slices.Equal(g.Splits[0].Test, want.Splits[0].Test) {
			t.Errorf("%s: features, labels or split differ from the same graph read from .npz", path)
		}
	}
	split := writeUserEdgeList(t, dir, "split", map[string]string{"train.csv": "0\n1\n", "val.csv": "3\n2\n", "test.csv": "4\n5\n"})
	g, err := FromEdgeList(split, opts)
	if err != nil {
		t.Fatal(err)
	}
	if s := g.Splits[0]; !slices.Equal(s.Val, []int32{2, 3}) || !strings.Contains(g.Notes, "1 stored split") {
		t.Errorf("split %+v, notes %q: want the stored split files", s, g.Notes)
	}
}

func TestUserGraphBadFilesNameTheFile(t *testing.T) {
	dir := t.TempDir()
	cases := []struct {
		name  string
		files map[string]string
		want  string
	}{
		{"bad-edge", map[string]string{"edges.csv": "0,1\n1,9\n"}, "edges.csv: line 2: \"9\" is not a node id in [0, 6)"},
		{"short-labels", map[string]string{"labels.csv": "0\n1\n"}, "labels.csv holds 2 labels, expected 6"},
		{"ragged", map[string]string{"features.csv": "1,2,3\n4,5\n"}, "features.csv: line 2 has 2 values, expected 3"},
		{"nan", map[string]string{"features.csv": "1,2,3\n1,2,3\n1,2,3\n1,2,3\n1,2,3\nNaN,1,1\n"}, "feature [5, 0] is NaN"},
		{"partial-split", map[string]string{"train.csv": "0\n"}, "has 1 of train.csv, val.csv and test.csv"},
		{"no-features", map[string]string{"features.csv": ""}, "features.csv"},
	}
	for _, c := range cases {
		_, err := FromEdgeList(writeUserEdgeList(t, dir, c.name, c.files), Options{RawFeatures: true, TrainPerClass: 1, ValPerClass: 1})
		if err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), c.name) {
			t.Errorf("%s: got %v, want an error naming the file and containing %q", c.name, err, c.want)
		}
	}
}

func TestLoadNameOrPath(t *testing.T) {
	dir := t.TempDir()
	npz := writeUserNPZ(t, dir, "mine.npz", true, nil)
	edgeDir := writeUserEdgeList(t, dir, "mygraph", nil)
	for _, path := range []string{npz, edgeDir} {
		if !IsGraphPath(path) {
			t.Errorf("IsGraphPath(%q) = false", path)
		}
		if _, err := LoadNameOrPath(path, Options{TrainPerClass: 1, ValPerClass: 1}); err != nil {
			t.Errorf("%s: %v", path, err)
		}
		_, err := LoadNameOrPath(path, Options{})
		if err == nil || !strings.Contains(err.Error(), "validation set is empty") || !strings.Contains(err.Error(), "smallest class has 3 nodes") {
			t.Errorf("%s with 20 train nodes per class of 3: got %v, want an error saying why the split is empty", path, err)
		}
	}
	t.Chdir(dir)
	for _, name := range []string{"cora", "synthetic", "20news"} {
		if err := os.MkdirAll(name, 0o755); err != nil {
			t.Fatal(err)
		}
		if IsGraphPath(name) || !IsGraphPath("./"+name) {
			t.Errorf("%s, also a directory here: IsGraphPath(%q) = %v, IsGraphPath(\"./%s\") = %v; want the data set, then the directory",
				name, name, IsGraphPath(name), name, IsGraphPath("./"+name))
		}
	}
	if !IsGraphPath("mygraph") {
		t.Error("IsGraphPath(\"mygraph\") = false for a directory of the working directory")
	}
	if g, err := LoadNameOrPath("synthetic", Options{}); err != nil || g.Name != "synthetic" {
		t.Errorf("synthetic: %v, %v", g, err)
	}
	missing := filepath.Join(dir, "absent.npz")
	if _, err := LoadNameOrPath(missing, Options{}); err == nil || !strings.Contains(err.Error(), missing) {
		t.Errorf("missing file: got %v, want an error naming %s", err, missing)
	}
	if err := os.WriteFile(filepath.Join(dir, "junk.npz"), []byte("not a zip"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := LoadNameOrPath(filepath.Join(dir, "junk.npz"), Options{}); err == nil || !strings.Contains(err.Error(), "junk.npz") {
		t.Errorf("junk file: got %v, want an error naming it", err)
	}
}

// TestFromNPZReadsGnnBenchmarkFile reads the published ms_academic_cs.npz through FromNPZ: the
// same edges, labels and (same seed and per-class counts) split as the cs loader.
func TestFromNPZReadsGnnBenchmarkFile(t *testing.T) {
	want := loadReal(t, "cs", Options{})
	g, err := FromNPZ(filepath.Join(coreDataRoot(t), coauthorSpecs["cs"].Path), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if g.Name != "ms_academic_cs" || g.NumNodes != want.NumNodes || !slices.Equal(g.Src, want.Src) || !slices.Equal(g.Dst, want.Dst) ||
		!slices.Equal(g.Labels, want.Labels) || !slices.Equal(g.Splits[0].Train, want.Splits[0].Train) || !slices.Equal(g.Splits[0].Val, want.Splits[0].Val) {
		t.Errorf("FromNPZ gave %v, the cs loader %v: want the same graph and split", g, want)
	}
}
