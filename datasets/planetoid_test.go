package datasets

import (
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// TestPlanetoidStatistics checks the published statistics (PyG's Planetoid) and values checked by
// hand with scipy on the same files, following PyG's read_planetoid_data.
func TestPlanetoidStatistics(t *testing.T) {
	cases := []struct {
		name                                   string
		nodes, edges, features, classes, train int
		homophily                              float64
		firstTest                              int32 // smallest test id
		labels0to9                             []int32
		classCounts                            []int
		testIndex0, testIndex0Label            int32 // first line of test.index, and its label
		testIndex0RawSum                       float64
	}{
		{"cora", 2708, 10556, 1433, 7, 140, 0.81, 1708, []int32{3, 4, 4, 0, 3, 2, 0, 3, 3, 2},
			[]int{351, 217, 418, 818, 426, 298, 180}, 2692, 3, 15},
		{"citeseer", 3327, 9104, 3703, 6, 120, 0.74, 2312, []int32{3, 1, 5, 5, 3, 1, 3, 0, 3, 5},
			[]int{264, 590, 668, 701, 596, 508}, 2488, 2, 41},
		{"pubmed", 19717, 88648, 500, 3, 60, 0.80, 18717, []int32{1, 1, 0, 2, 1, 2, 2, 1, 2, 1},
			[]int{4103, 7739, 7875}, 18747, 1, 1.7602917},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			g := loadReal(t, c.name, Options{})
			if g.NumNodes != c.nodes || g.NumEdges() != c.edges || g.NumFeatures() != c.features || g.NumClasses != c.classes {
				t.Fatalf("got %v, want %d nodes, %d edges, %d features, %d classes", g, c.nodes, c.edges, c.features, c.classes)
			}
			if h := g.EdgeHomophily(); math.Abs(h-c.homophily) > 0.006 {
				t.Errorf("edge homophily %.4f, want about %.2f", h, c.homophily)
			}
			if len(g.Splits) != 1 {
				t.Fatalf("%d splits, want the public one", len(g.Splits))
			}
			s := g.Splits[0]
			checkSplit(t, s, g.NumNodes)
			if len(s.Train) != c.train || len(s.Val) != 500 || len(s.Test) != 1000 {
				t.Fatalf("split sizes %d/%d/%d, want %d/500/1000", len(s.Train), len(s.Val), len(s.Test), c.train)
			}
			if s.Train[0] != 0 || s.Val[0] != int32(c.train) || s.Val[499] != int32(c.train+499) || s.Test[0] != c.firstTest {
				t.Errorf("split starts train %d, val %d..%d, test %d; want 0, %d..%d, %d",
					s.Train[0], s.Val[0], s.Val[499], s.Test[0], c.train, c.train+499, c.firstTest)
			}
			if !reflect.DeepEqual(g.Labels[:10], c.labels0to9) {
				t.Errorf("labels[0:10] = %v, want %v", g.Labels[:10], c.labels0to9)
			}
			counts := make([]int, g.NumClasses)
			for _, l := range g.Labels {
				counts[l]++
			}
			if !reflect.DeepEqual(counts, c.classCounts) {
				t.Errorf("class counts %v, want %v", counts, c.classCounts)
			}
			if g.Labels[c.testIndex0] != c.testIndex0Label {
				t.Errorf("label of node %d (first line of test.index) is %d, want %d", c.testIndex0, g.Labels[c.testIndex0], c.testIndex0Label)
			}
			raw := loadReal(t, c.name, Options{RawFeatures: true})
			if sum := rowSums(raw.Features)[c.testIndex0]; math.Abs(sum-c.testIndex0RawSum) > 1e-5 {
				t.Errorf("raw feature sum of node %d is %v, want %v (tx row 0)", c.testIndex0, sum, c.testIndex0RawSum)
			}
			checkNormalized(t, g.Features, raw.Features, 1)
			for i, sum := range rowSums(g.Features) {
				if sum != 0 && math.Abs(sum-1) > 1e-5 {
					t.Fatalf("row %d sums to %v after normalisation, want 1", i, sum)
				}
			}
		})
	}
}

func TestCiteSeerPaddedNodes(t *testing.T) {
	g := loadReal(t, "citeseer", Options{})
	inTest := map[int32]bool{}
	for _, v := range g.Splits[0].Test {
		inTest[v] = true
	}
	padded := 0
	for v := 2312; v < g.NumNodes; v++ {
		if inTest[int32(v)] {
			continue
		}
		padded++
		if g.Features.RowPtr[v+1] != g.Features.RowPtr[v] || g.Labels[v] != 0 {
			t.Errorf("padded node %d has %d features and label %d, want none and 0",
				v, g.Features.RowPtr[v+1]-g.Features.RowPtr[v], g.Labels[v])
		}
	}
	if padded != 15 || !strings.Contains(g.Notes, "15 node ids") {
		t.Fatalf("%d padded nodes (notes %q), want 15 and a note", padded, g.Notes)
	}
}

// copyPlanetoid copies Cora's raw files into a temporary folder and returns their paths by suffix.
func copyPlanetoid(t *testing.T) map[string]string {
	t.Helper()
	root := coreDataRoot(t)
	dir := t.TempDir()
	paths := map[string]string{}
	for _, suffix := range planetoidSuffixes {
		data, err := os.ReadFile(filepath.Join(root, "planetoid", "ind.cora."+suffix))
		if err != nil {
			t.Skipf("cora files not available: %v", err)
		}
		paths[suffix] = filepath.Join(dir, "ind.cora."+suffix)
		if err := os.WriteFile(paths[suffix], data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return paths
}

func TestPlanetoidDamagedFiles(t *testing.T) {
	cases := []struct {
		name, suffix, want string
		damage             func(data []byte, paths map[string]string) []byte
	}{
		{"truncated pickle", "tx", "not a valid pickle", func(d []byte, _ map[string]string) []byte { return d[:len(d)/2] }},
		{"empty pickle", "graph", "not a valid pickle", func([]byte, map[string]string) []byte { return nil }},
		{"garbage pickle", "allx", "not a valid pickle", func(d []byte, _ map[string]string) []byte {
			return []byte(strings.Repeat("\xff", len(d)))
		}},
		{"wrong object", "ally", "expected a numpy array", func(_ []byte, p map[string]string) []byte {
			d, _ := os.ReadFile(p["tx"])
			return d
		}},
		{"wrong label shape", "ty", "expected dimension 0 to be 1000", func(_ []byte, p map[string]string) []byte {
			d, _ := os.ReadFile(p["y"])
			return d
		}},
		{"bad test index", "test.index", "line 3", func(d []byte, _ map[string]string) []byte {
			lines := strings.SplitN(string(d), "\n", 4)
			lines[2] = "not-a-number"
			return []byte(strings.Join(lines, "\n"))
		}},
		{"short test index", "test.index", "has 999 test ids, expected 1000", func(d []byte, _ map[string]string) []byte {
			return d[:strings.LastIndex(strings.TrimRight(string(d), "\n"), "\n")+1]
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			paths := copyPlanetoid(t)
			data, _ := os.ReadFile(paths[c.suffix])
			if err := os.WriteFile(paths[c.suffix], c.damage(data, paths), 0o644); err != nil {
				t.Fatal(err)
			}
			_, err := readPlanetoid("cora", paths, Options{})
			if err == nil || !strings.Contains(err.Error(), paths[c.suffix]) || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("error %v, want one naming %s and %q", err, paths[c.suffix], c.want)
			}
		})
	}
}

// TestPlanetoidDamagedThroughLoad checks that Load reports a wrong-size file before parsing it.
func TestPlanetoidDamagedThroughLoad(t *testing.T) {
	paths := copyPlanetoid(t)
	root := t.TempDir()
	if err := os.Mkdir(filepath.Join(root, "planetoid"), 0o755); err != nil {
		t.Fatal(err)
	}
	for suffix, p := range paths {
		data, _ := os.ReadFile(p)
		if suffix == "graph" {
			data = data[:1000]
		}
		_ = os.WriteFile(filepath.Join(root, "planetoid", filepath.Base(p)), data, 0o644)
	}
	_, err := Load("cora", Options{Root: root, Offline: true})
	want := filepath.Join(root, "planetoid", "ind.cora.graph") + " has 1000 bytes, expected 59847"
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Fatalf("error %v, want %q", err, want)
	}
}

// TestUnpickleNeverPanics feeds every prefix and many corrupted copies of two real pickles to the
// unpickler: each must give a value or an error, never a panic.
func TestUnpickleNeverPanics(t *testing.T) {
	paths := copyPlanetoid(t)
	dir := t.TempDir()
	rng := rand.New(rand.NewPCG(1, 2))
	for _, suffix := range []string{"y", "x", "graph"} {
		data, _ := os.ReadFile(paths[suffix])
		path := filepath.Join(dir, suffix)
		try := func(b []byte) {
			if err := os.WriteFile(path, b, 0o644); err != nil {
				t.Fatal(err)
			}
			_, _ = unpickle(path)
			_, _ = loadPickledCSR(path)
		}
		for n := 0; n < len(data); n += 1 + len(data)/100 {
			try(data[:n])
		}
		for range 100 {
			b := append([]byte(nil), data...)
			for range 1 + rng.IntN(4) {
				b[rng.IntN(len(b))] = byte(rng.IntN(256))
			}
			try(b)
		}
	}
}
