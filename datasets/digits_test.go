package datasets

import (
	"bytes"
	"compress/gzip"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func TestDigits(t *testing.T) {
	root := coreDataRoot(t)
	g, err := Load("digits", Options{Root: root, Offline: true, Progress: io.Discard})
	if err != nil {
		t.Fatal(err)
	}
	if g.NumNodes != 1797 || g.NumFeatures() != 64 || g.NumClasses != 10 {
		t.Fatalf("got %v, want 1797 nodes, 64 features, 10 classes", g)
	}
	// First line of digits.csv.gz: 0,0,5,13,9,1,0,0,... label 0.
	if row := g.DenseFeatures()[:8]; !slices.Equal(row, []float32{0, 0, 5, 13, 9, 1, 0, 0}) || g.Labels[0] != 0 {
		t.Errorf("first image row %v label %d, want [0 0 5 13 9 1 0 0] 0", row, g.Labels[0])
	}
	degree := make([]int, g.NumNodes)
	for i := range g.Src {
		degree[g.Src[i]]++
		if g.Src[i] == g.Dst[i] {
			t.Fatalf("self-loop at %d", g.Src[i])
		}
	}
	if slices.Min(degree) < imageK {
		t.Errorf("a node has degree %d, want >= 5 (its 5 nearest others)", slices.Min(degree))
	}
	if s := g.Splits[0]; len(s.Train) != 100 || len(s.Val) != 500 || len(s.Test) != 1197 {
		t.Errorf("split %d/%d/%d, want 100/500/1197", len(s.Train), len(s.Val), len(s.Test))
	}
	g20, err := Load("digits", Options{Root: root, Offline: true, Progress: io.Discard, LabelsPerClass: 20, Seed: 9})
	if err != nil {
		t.Fatal(err)
	}
	if s := g20.Splits[0]; len(s.Train) != 200 || len(s.Val) != 500 || len(s.Test) != 1097 {
		t.Errorf("20 per class: split %d/%d/%d, want 200/500/1097", len(s.Train), len(s.Val), len(s.Test))
	}
	if !slices.Equal(g20.Src, g.Src) || !slices.Equal(g20.Dst, g.Dst) {
		t.Errorf("the kNN graph depends on the split options")
	}
}

// gzipFixture compresses text.
func gzipFixture(t *testing.T, text string) []byte {
	var buf bytes.Buffer
	w := gzip.NewWriter(&buf)
	if _, err := w.Write([]byte(text)); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func TestDigitsDamagedFiles(t *testing.T) {
	dir := t.TempDir()
	row := strings.Repeat("1,", 64) + "3\n"
	good := gzipFixture(t, strings.Repeat(row, digitsRows))
	cases := []struct {
		name    string
		content []byte
		wantErr string
	}{
		{"not gzip", []byte("0,1,2\n"), "expected gzip"},
		{"truncated gzip", good[:len(good)-20], "truncated or damaged gzip"},
		{"short row", gzipFixture(t, row+"1,2,3\n"), "line 2: 3 fields, expected 64 pixels and a label"},
		{"bad pixel", gzipFixture(t, strings.Replace(row, "1,", "x,", 1)), `line 1 column 1: pixel "x", expected a number in [0, 16]`},
		{"pixel too large", gzipFixture(t, strings.Replace(row, "1,", "17,", 1)), `pixel "17"`},
		{"bad label", gzipFixture(t, strings.Repeat("1,", 64)+"10\n"), `line 1: label "10", expected an integer in [0, 10)`},
		{"too few rows", gzipFixture(t, row), "has 1 rows, expected 1797"},
	}
	for _, c := range cases {
		path := filepath.Join(dir, strings.ReplaceAll(c.name, " ", "_")+".csv.gz")
		if err := os.WriteFile(path, c.content, 0o644); err != nil {
			t.Fatal(err)
		}
		_, _, err := parseDigits(path)
		if err == nil || !strings.Contains(err.Error(), c.wantErr) || !strings.Contains(err.Error(), path) {
			t.Errorf("%s: got %v, want an error naming the file and containing %q", c.name, err, c.wantErr)
		}
	}
	x, labels, err := parseDigits(writeFixtureBytes(t, dir, "good.csv.gz", good))
	if err != nil || len(x) != digitsRows*64 || labels[5] != 3 || x[7] != 1 {
		t.Errorf("good file: %d values, label %d, err %v", len(x), labels[5], err)
	}
	// A damaged copy under a data root is refused by fetch before parsing: its size differs.
	root := t.TempDir()
	writeFixtureBytes(t, root, digitsFile.Path, good)
	_, err = Load("digits", Options{Root: root, Offline: true})
	if err == nil || !strings.Contains(err.Error(), "expected 57512") {
		t.Errorf("damaged copy: got %v, want a size mismatch naming 57512 bytes", err)
	}
}

// writeFixtureBytes writes content to name under dir, creating folders, and returns its path.
func writeFixtureBytes(t *testing.T, dir, name string, content []byte) string {
	t.Helper()
	return writeFixture(t, dir, name, string(content))
}
