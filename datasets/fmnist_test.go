package datasets

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// writeIDX writes a gzipped IDX file of uint8 data with magic and dims under dir and returns its
// path and the sha256 of its decompressed content.
func writeIDX(t *testing.T, dir, name string, magic uint32, dims []int, data []byte) (string, string) {
	t.Helper()
	var raw bytes.Buffer
	_ = binary.Write(&raw, binary.BigEndian, magic)
	for _, d := range dims {
		_ = binary.Write(&raw, binary.BigEndian, uint32(d))
	}
	raw.Write(data)
	var gz bytes.Buffer
	w := gzip.NewWriter(&gz)
	_, _ = w.Write(raw.Bytes())
	_ = w.Close()
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, gz.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(raw.Bytes())
	return path, hex.EncodeToString(sum[:])
}

// TestIDXHandWritten reads two 28x28 images and three labels from hand-written IDX files.
func TestIDXHandWritten(t *testing.T) {
	dir := t.TempDir()
	pixels := make([]byte, 2*fmnistRowPixels)
	pixels[0], pixels[fmnistRowPixels+783] = 255, 7
	imgPath, imgSum := writeIDX(t, dir, "img.gz", idxImagesMagic, []int{2, 28, 28}, pixels)
	got, n, err := readIDXImages(imgPath, imgSum)
	if err != nil || n != 2 || len(got) != 2*fmnistRowPixels || got[0] != 255 || got[fmnistRowPixels+783] != 7 || got[1] != 0 {
		t.Fatalf("images: n %d, %d pixels, first %v, err %v", n, len(got), got[:2], err)
	}
	lblPath, lblSum := writeIDX(t, dir, "lbl.gz", idxLabelsMagic, []int{3}, []byte{9, 0, 4})
	labels, err := readIDXLabels(lblPath, lblSum)
	if err != nil || !slices.Equal(labels, []uint8{9, 0, 4}) {
		t.Fatalf("labels %v, err %v", labels, err)
	}
}

// TestIDXDamaged: a checksum mismatch, a wrong magic, a short body and a non-gzip file are errors
// naming the file and what was expected.
func TestIDXDamaged(t *testing.T) {
	dir := t.TempDir()
	lblPath, _ := writeIDX(t, dir, "lbl.gz", idxLabelsMagic, []int{3}, []byte{1, 2, 3})
	want := strings.Repeat("0", 64)
	if _, err := readIDXLabels(lblPath, want); err == nil || !strings.Contains(err.Error(), lblPath) || !strings.Contains(err.Error(), "expected "+want) {
		t.Errorf("checksum mismatch: %v", err)
	}
	if _, _, err := readIDXImages(lblPath, ""); err == nil || !strings.Contains(err.Error(), "magic 0x00000801, expected 0x00000803") {
		t.Errorf("labels read as images: %v", err)
	}
	short, _ := writeIDX(t, dir, "short.gz", idxImagesMagic, []int{2, 28, 28}, make([]byte, 100))
	if _, _, err := readIDXImages(short, ""); err == nil || !strings.Contains(err.Error(), "expected 1568") || !strings.Contains(err.Error(), short) {
		t.Errorf("short body: %v", err)
	}
	plain := filepath.Join(dir, "plain.gz")
	_ = os.WriteFile(plain, []byte("not gzip"), 0o644)
	if _, err := readIDXLabels(plain, ""); err == nil || !strings.Contains(err.Error(), "expected gzip") || !strings.Contains(err.Error(), plain) {
		t.Errorf("not gzip: %v", err)
	}
}

// TestFashionMNISTChecksumMismatch: a copy whose decompressed content differs from the published one
// is refused by the loader, naming the file.
func TestFashionMNISTChecksumMismatch(t *testing.T) {
	root := t.TempDir()
	_ = os.MkdirAll(filepath.Join(root, "fashion-mnist"), 0o755)
	writeIDX(t, filepath.Join(root, "fashion-mnist"), "train-images-idx3-ubyte.gz", idxImagesMagic, []int{1, 28, 28}, make([]byte, fmnistRowPixels))
	writeIDX(t, filepath.Join(root, "fashion-mnist"), "train-labels-idx1-ubyte.gz", idxLabelsMagic, []int{1}, []byte{0})
	_, err := Load("fmnist", Options{Root: root, Offline: true})
	if err == nil || !strings.Contains(err.Error(), "train-images-idx3-ubyte.gz") || !strings.Contains(err.Error(), fmnistFiles.images.ContentSHA256) {
		t.Fatalf("err = %v, want a checksum mismatch naming train-images-idx3-ubyte.gz", err)
	}
	if _, err := (Options{Root: root, Offline: true, VerifyChecksums: true}).fetch(fmnistFiles.labels); err == nil || !strings.Contains(err.Error(), "decompressed content") {
		t.Errorf("fetch with VerifyChecksums: %v", err)
	}
}

// TestPCAProjection: on points along one direction plus a small orthogonal spread, the first
// component is that direction (sign fixed positive), projections are centred and ordered by variance.
func TestPCAProjection(t *testing.T) {
	// rows (t, 2t, s): variance along (1, 2, 0)/√5 dominates the s spread.
	var x []float32
	for i := range 20 {
		tt, s := float32(i-10), float32(i%2)*0.1
		x = append(x, tt, 2*tt, s)
	}
	p, err := pcaProject(x, 20, 3, 2)
	if err != nil {
		t.Fatal(err)
	}
	for i := range 20 {
		want := (float64(i-10) + 0.5) * math.Sqrt(5) // (t − mean t)(1 + 4)/√5, mean t = −0.5
		if math.Abs(float64(p[2*i])-want) > 1e-3 {
			t.Fatalf("row %d: first component %v, want %v", i, p[2*i], want)
		}
	}
	var v0, v1 float64
	for i := range 20 {
		v0 += float64(p[2*i] * p[2*i])
		v1 += float64(p[2*i+1] * p[2*i+1])
	}
	if v1 >= v0 || v1 > 20*0.01 {
		t.Errorf("component variances %v, %v: want decreasing, the second about 0.0025 per row", v0/20, v1/20)
	}
	if _, err := pcaProject(x, 20, 3, 4); err == nil {
		t.Error("4 components of 3 columns: no error")
	}
}

// TestFashionMNIST checks the stand-in on the real files: 1,500 images per class with pixels in
// [0, 1]; then, on the PCA variants (whose 5-NN search is the cheap one; the pixel variants share
// every other step), the image protocol's split counts for 10 and 20 labels per class, an
// undirected 5-NN graph, the stand-in note, and the same graph and split on a second load (the
// first one recomputed, the second from the process cache).
func TestFashionMNIST(t *testing.T) {
	if testing.Short() {
		t.Skip("reads 47 MB and searches a 5-NN graph over 15,000 images")
	}
	x, labels, err := readFashionMNIST(Options{Root: coreDataRoot(t), Offline: true}, fmnistPerClass)
	if errors.Is(err, ErrMissing) {
		t.Skipf("fashion-mnist is not in the data root: %v", err)
	}
	if err != nil {
		t.Fatal(err)
	}
	counts := make([]int, 10)
	for _, y := range labels {
		counts[y]++
	}
	if len(x) != 15000*784 || slices.Min(x) != 0 || slices.Max(x) != 1 || slices.ContainsFunc(counts, func(c int) bool { return c != 1500 }) {
		t.Fatalf("%d pixels in [%v, %v], class counts %v; want 15000 × 784 in [0, 1], 1500 per class", len(x), slices.Min(x), slices.Max(x), counts)
	}
	for _, tc := range []struct {
		name     string
		perClass int
	}{{"fmnist-pca", 10}, {"fmnist-pca-20", 20}} {
		g := loadReal(t, tc.name, Options{})
		if g.NumNodes != 15000 || g.NumClasses != 10 || g.Features.NumCols != fmnistPCADims || !slices.Equal(g.Labels, labels) {
			t.Fatalf("%s: %d nodes, %d classes, %d features, labels as read: %v", tc.name, g.NumNodes, g.NumClasses, g.Features.NumCols, slices.Equal(g.Labels, labels))
		}
		s := g.Splits[0]
		checkSplit(t, s, g.NumNodes)
		trainCounts := make([]int, 10)
		for _, v := range s.Train {
			trainCounts[g.Labels[v]]++
		}
		if slices.ContainsFunc(trainCounts, func(c int) bool { return c != tc.perClass }) || len(s.Val) != 4000 || len(s.Test) != 15000-4000-10*tc.perClass {
			t.Errorf("%s: train per class %v, %d validation, %d test", tc.name, trainCounts, len(s.Val), len(s.Test))
		}
		edges := map[[2]int32]bool{}
		degree := make([]int, g.NumNodes)
		for i := range g.Src {
			if g.Src[i] == g.Dst[i] {
				t.Fatalf("%s: self-loop at %d", tc.name, g.Src[i])
			}
			edges[[2]int32{g.Src[i], g.Dst[i]}] = true
			degree[g.Src[i]]++
		}
		for e := range edges {
			if !edges[[2]int32{e[1], e[0]}] {
				t.Fatalf("%s: edge %v without its reverse", tc.name, e)
			}
		}
		if slices.Min(degree) < 5 || len(edges) != len(g.Src) {
			t.Errorf("%s: minimum degree %d (want >= 5), %d distinct of %d edges", tc.name, slices.Min(degree), len(edges), len(g.Src))
		}
		if !strings.Contains(g.Notes, "Stand-in for the paper's STL10/CIFAR10 (images, not SimCLR") {
			t.Errorf("%s notes: %s", tc.name, g.Notes)
		}
		if tc.perClass == 10 { // recompute the PCA and the kNN search once, not from the process cache
			fmnistCache.Lock()
			fmnistCache.data = map[[2]string]*fmnistData{}
			fmnistCache.Unlock()
		}
		again := loadReal(t, tc.name, Options{})
		if !slices.Equal(again.Src, g.Src) || !slices.Equal(again.Dst, g.Dst) || !slices.Equal(again.Features.Values, g.Features.Values) ||
			!slices.Equal(again.Splits[0].Train, s.Train) || !slices.Equal(again.Splits[0].Val, s.Val) {
			t.Errorf("%s: a second load differs", tc.name)
		}
	}
}
