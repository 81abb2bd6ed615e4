package datasets

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"maps"
	"math"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func TestCountTokensSklearnSemantics(t *testing.T) {
	// Python: re.findall(r"(?u)\b\w\w+\b", text.lower()) gives
	// ['hello', 'world_x', 'a1', 'é²', '¼½', 'the', 'and', 'don', 'ab', 'µm']; "the" and "and" are stop words.
	text := []byte("Hello, WORLD_x a1 \xe9\xb2 x \xbc\xbd the AND don't \xd7ab \xb5m hello")
	want := map[string]int32{"hello": 2, "world_x": 1, "a1": 1, "é²": 1, "¼½": 1, "don": 1, "ab": 1, "µm": 1}
	if got := countTokens(text); !maps.Equal(got, want) {
		t.Errorf("countTokens = %v, want %v", got, want)
	}
	if len(news20StopWords) != 318 {
		t.Errorf("%d stop words, want sklearn's 318", len(news20StopWords))
	}
}

func TestTFIDFHandExample(t *testing.T) {
	docs := []map[string]int32{{"a": 2, "b": 1}, {"a": 1}, {"c": 1, "d": 1}}
	// min_df 0.5 of 3 documents keeps df >= 1.5: only "a" (df 2) survives.
	m, vocab := tfidfMatrix(docs, 0.5)
	if !slices.Equal(vocab, []string{"a"}) || !slices.Equal(m.RowPtr, []int64{0, 1, 2, 2}) || m.Values[0] != 1 || m.Values[1] != 1 {
		t.Errorf("min_df 0.5: vocab %v rowptr %v values %v", vocab, m.RowPtr, m.Values)
	}
	m, vocab = tfidfMatrix(docs, 0.3)
	// idf(a) = ln(3/2)+1, idf(b) = ln(3)+1; doc 0 = (2 idf(a), idf(b)) / its norm.
	ia, ib := math.Log(1.5)+1, math.Log(3)+1
	norm := math.Hypot(2*ia, ib)
	if !slices.Equal(vocab, []string{"a", "b", "c", "d"}) || !slices.Equal(m.ColIdx[:2], []int32{0, 1}) ||
		math.Abs(float64(m.Values[0])-2*ia/norm) > 1e-6 || math.Abs(float64(m.Values[1])-ib/norm) > 1e-6 {
		t.Errorf("min_df 0.3: vocab %v values %v, want %v, %v", vocab, m.Values[:2], 2*ia/norm, ib/norm)
	}
}

func TestNews20(t *testing.T) {
	root := coreDataRoot(t)
	if testing.Short() {
		t.Skip("-short: skipping the 20news load (about 5 s of kNN)")
	}
	g, err := Load("20news", Options{Root: root, Offline: true, Progress: io.Discard})
	if err != nil {
		t.Fatal(err)
	}
	if g.NumNodes != 9607 || g.NumClasses != 10 || g.NumFeatures() != 236 {
		t.Errorf("got %v, want 9607 documents, 236 terms, 10 classes", g)
	}
	s := g.Splits[0]
	if len(s.Train) != 1000 || len(s.Val) != 2000 || len(s.Test) != 6607 {
		t.Errorf("split %d/%d/%d, want 1000/2000/6607", len(s.Train), len(s.Val), len(s.Test))
	}
	degree := make([]int, g.NumNodes)
	for _, v := range g.Src {
		degree[v]++
	}
	if slices.Min(degree) < news20K-1 {
		t.Errorf("a node has degree %d, want >= 4 (its 4 nearest other documents)", slices.Min(degree))
	}
	// Document 0 is 20news-bydate-train/alt.atheism/49960. Expected values from a Python re-based
	// reimplementation of the sklearn pipeline on the same files (vocabulary of 236 terms too):
	// its terms "11" -> 0.137626 and "apr" -> 0.072809, row norm 1.
	dir, _ := news20Tree(Options{Root: root, Offline: true})
	paths, _, err := news20Files(dir)
	if err != nil {
		t.Fatal(err)
	}
	if filepath.Base(paths[0]) != "49960" || g.Labels[0] != 0 || g.Labels[9606] != 9 {
		t.Errorf("first document %s label %d, last label %d", paths[0], g.Labels[0], g.Labels[9606])
	}
	docs := make([]map[string]int32, len(paths))
	for i, p := range paths {
		text, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		docs[i] = countTokens(text)
	}
	_, vocab := tfidfMatrix(docs, news20MinDF)
	row := map[string]float64{}
	var sq float64
	for k := g.Features.RowPtr[0]; k < g.Features.RowPtr[1]; k++ {
		v := float64(g.Features.Values[k])
		row[vocab[g.Features.ColIdx[k]]] = v
		sq += v * v
	}
	if math.Abs(row["11"]-0.137626) > 1e-6 || math.Abs(row["apr"]-0.072809) > 1e-6 || math.Abs(sq-1) > 1e-6 {
		t.Errorf("document 0: tf-idf 11=%v apr=%v, squared norm %v; want 0.137626, 0.072809, 1", row["11"], row["apr"], sq)
	}
	if vocab[0] != "10" || vocab[len(vocab)-1] != "yes" {
		t.Errorf("vocabulary runs %q..%q, want \"10\"..\"yes\"", vocab[0], vocab[len(vocab)-1])
	}
	s200, err := classRandSplits2(g.Labels, 10, 200, news20Valid, newSplitRNG(referenceSeed))
	if err != nil || len(s200.Train) != 2000 || len(s200.Val) != 2000 || len(s200.Test) != 5607 {
		t.Errorf("200 per class: split %d/%d/%d (%v), want 2000/2000/5607", len(s200.Train), len(s200.Val), len(s200.Test), err)
	}
}

// news20Fixture writes a 20news-bydate tree with one file per folder under dir.
func news20Fixture(t *testing.T, dir string) {
	for _, sub := range news20Subsets {
		for _, cat := range news20Categories {
			writeFixture(t, dir, filepath.Join(sub, cat, "1"), "Subject: "+cat)
		}
	}
}

func TestNews20TreeErrors(t *testing.T) {
	root := t.TempDir()
	_, err := Load("20news", Options{Root: root, Offline: true})
	if !errors.Is(err, ErrMissing) || !strings.Contains(err.Error(), filepath.Join(root, "20news", "20news-bydate-train")) ||
		!strings.Contains(err.Error(), news20Archive.URL) {
		t.Errorf("missing tree offline: got %v, want an error naming the folder and the archive URL", err)
	}
	news20Fixture(t, filepath.Join(root, "20news"))
	_, err = Load("20news", Options{Root: root, Offline: true})
	want := fmt.Sprintf("%s has 1 files, expected 480", filepath.Join(root, "20news", "20news-bydate-train", "alt.atheism"))
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("short tree: got %v, want an error containing %q", err, want)
	}
}

// news20TarGz builds a tar.gz of a 20news-bydate tree with one file per folder.
func news20TarGz(t *testing.T) []byte {
	var buf bytes.Buffer
	gz := gzip.NewWriter(&buf)
	tw := tar.NewWriter(gz)
	for _, sub := range news20Subsets {
		for _, cat := range news20Categories {
			body := []byte("Subject: " + cat + "\n")
			if err := tw.WriteHeader(&tar.Header{Name: sub + "/" + cat + "/1", Mode: 0o644, Size: int64(len(body)), Typeflag: tar.TypeReg}); err != nil {
				t.Fatal(err)
			}
			if _, err := tw.Write(body); err != nil {
				t.Fatal(err)
			}
		}
	}
	if err := tw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := gz.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func TestNews20DownloadAndUnpack(t *testing.T) {
	archive := news20TarGz(t)
	truncated := archive[:len(archive)/2]
	for _, c := range []struct {
		name    string
		body    []byte
		wantErr string
	}{
		{"good", archive, ""},
		{"truncated", truncated, "truncated or damaged archive"},
	} {
		t.Run(c.name, func(t *testing.T) {
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { _, _ = w.Write(c.body) }))
			defer srv.Close()
			saved := news20Archive
			defer func() { news20Archive = saved }()
			sum := sha256.Sum256(c.body)
			news20Archive.URL, news20Archive.SHA256 = srv.URL, hex.EncodeToString(sum[:])
			root := t.TempDir()
			dir, err := news20Tree(Options{Root: root, Progress: io.Discard})
			train := filepath.Join(root, "20news", "20news-bydate-train")
			if c.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), c.wantErr) || pathIsDir(train) {
					t.Errorf("got %v (train folder present: %v), want an error containing %q and no tree", err, pathIsDir(train), c.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			text, err := os.ReadFile(filepath.Join(dir, "20news-bydate-test", "sci.med", "1"))
			if err != nil || string(text) != "Subject: sci.med\n" {
				t.Errorf("unpacked file: %q, %v", text, err)
			}
			entries, _ := os.ReadDir(filepath.Join(root, "20news"))
			if len(entries) != 2 {
				t.Errorf("20news/ holds %d entries, want only the two folders (archive and temporary folder removed)", len(entries))
			}
		})
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { _, _ = w.Write(archive) }))
	defer srv.Close()
	saved := news20Archive
	defer func() { news20Archive = saved }()
	news20Archive.URL = srv.URL
	_, err := news20Tree(Options{Root: t.TempDir(), Progress: io.Discard})
	if err == nil || !strings.Contains(err.Error(), "expected "+saved.SHA256) {
		t.Errorf("archive with another checksum: got %v, want a sha256 mismatch", err)
	}
}
