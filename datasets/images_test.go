package datasets

import (
	"bytes"
	"encoding/binary"
	"errors"
	"io"
	"math"
	"slices"
	"strings"
	"testing"
)

// py2PickleWriter writes Python pickle protocol 2 opcodes by hand, as Python 2's cPickle writes a dict
// of numpy arrays (numpy.core.multiarray._reconstruct + BUILD with the array state).
type py2PickleWriter struct{ bytes.Buffer }

func (p *py2PickleWriter) op(b ...byte) { p.Write(b) }

func (p *py2PickleWriter) int(v int) {
	p.op('J')
	_ = binary.Write(&p.Buffer, binary.LittleEndian, int32(v))
}

// str writes a Python 2 str (SHORT_BINSTRING or BINSTRING).
func (p *py2PickleWriter) str(s string) {
	if len(s) < 256 {
		p.op('U', byte(len(s)))
	} else {
		p.op('T')
		_ = binary.Write(&p.Buffer, binary.LittleEndian, uint32(len(s)))
	}
	p.WriteString(s)
}

// array writes a numpy array with dtype (e.g. "<f4"), shape and raw data bytes.
func (p *py2PickleWriter) array(dtype string, fortran bool, data []byte, shape ...int) {
	p.WriteString("cnumpy.core.multiarray\n_reconstruct\n")
	p.WriteString("cnumpy\nndarray\n")
	p.op('K', 0, 0x85) // (0,)
	p.str("b")
	p.op(0x87, 'R') // TUPLE3, REDUCE
	p.op('(')       // state = (1, shape, dtype, is_fortran, data)
	p.op('K', 1)
	p.op('(')
	for _, d := range shape {
		p.int(d)
	}
	p.op('t')
	p.WriteString("cnumpy\ndtype\n")
	p.str(dtype[1:])
	p.op('K', 0, 'K', 1, 0x87, 'R')
	p.op('(', 'K', 3)
	p.str(dtype[:1])
	p.op('N', 'N', 'N')
	p.int(-1)
	p.int(-1)
	p.op('K', 0, 't', 'b')
	if fortran {
		p.op(0x88)
	} else {
		p.op(0x89)
	}
	p.str(string(data))
	p.op('t', 'b')
}

func pklF32(v ...float32) []byte {
	var b bytes.Buffer
	_ = binary.Write(&b, binary.LittleEndian, v)
	return b.Bytes()
}

func pklF64(v ...float64) []byte {
	var b bytes.Buffer
	_ = binary.Write(&b, binary.LittleEndian, v)
	return b.Bytes()
}

func pklI64(v ...int64) []byte {
	var b bytes.Buffer
	_ = binary.Write(&b, binary.LittleEndian, v)
	return b.Bytes()
}

// imagePickle is a features.pkl of 8 train rows (float32 [8, 2], C order) and 4 test rows (float64
// [4, 2], Fortran order), labels 0..3 cycling; skip leaves out one key.
func imagePickle(skip string, yTest []int64) []byte {
	var p py2PickleWriter
	p.op(0x80, 2, '}', '(')
	arrays := map[string]func(){
		"x_train": func() {
			p.array("<f4", false, pklF32(0, 0, 1, 0, 2, 0, 3, 0, 0, 10, 1, 10, 2, 10, 3, 10), 8, 2)
		},
		"y_train": func() { p.array("<i8", false, pklI64(0, 1, 2, 3, 0, 1, 2, 3), 8) },
		// Rows (20, 0), (21, 0), (20, 1), (21, 1) stored column by column.
		"x_test": func() { p.array("<f8", true, pklF64(20, 21, 20, 21, 0, 0, 1, 1), 4, 2) },
		"y_test": func() { p.array("<i8", false, pklI64(yTest...), int(len(yTest))) },
	}
	for _, key := range []string{"x_train", "y_train", "x_test", "y_test"} {
		if key == skip {
			continue
		}
		p.str(key)
		arrays[key]()
	}
	p.op('u', '.')
	return p.Bytes()
}

func TestImagesFromHandWrittenPickle(t *testing.T) {
	root := t.TempDir()
	writeFixtureBytes(t, root, "stl10/features.pkl", imagePickle("", []int64{0, 1, 2, 3}))
	g, err := Load("stl10", Options{Root: root, Offline: true, LabelsPerClass: 2, Progress: io.Discard})
	if err != nil {
		t.Fatal(err)
	}
	want := []float32{0, 0, 1, 0, 2, 0, 3, 0, 0, 10, 1, 10, 2, 10, 3, 10, 20, 0, 21, 0, 20, 1, 21, 1}
	if g.NumNodes != 12 || g.NumFeatures() != 2 || !slices.Equal(g.DenseFeatures(), want) {
		t.Errorf("features %v, want concat(train, test) %v", g.DenseFeatures(), want)
	}
	if !slices.Equal(g.Labels, []int32{0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3}) || g.NumClasses != 10 {
		t.Errorf("labels %v, %d classes", g.Labels, g.NumClasses)
	}
	// Node 0 = (0, 0): its 5 nearest others are (1,0), (2,0), (3,0), then (0,10) and (1,10) at
	// squared distances 1, 4, 9, 100, 101.
	var nbrs []int32
	for i := range g.Src {
		if g.Src[i] == 0 {
			nbrs = append(nbrs, g.Dst[i])
		}
	}
	if !slices.Equal(nbrs, []int32{1, 2, 3, 4, 5}) {
		t.Errorf("neighbours of node 0: %v, want [1 2 3 4 5]", nbrs)
	}
	// Labels 0..3 have 3 nodes each: 2 train per class, the other 4 nodes validation (4000 > 4).
	if s := g.Splits[0]; len(s.Train) != 8 || len(s.Val) != 4 || len(s.Test) != 0 {
		t.Errorf("split %d/%d/%d, want 8/4/0", len(s.Train), len(s.Val), len(s.Test))
	}
}

func TestImagesDamagedPickles(t *testing.T) {
	dir := t.TempDir()
	good := imagePickle("", []int64{0, 1, 2, 3})
	cases := []struct {
		name    string
		content []byte
		wantErr string
	}{
		{"truncated", good[:len(good)/2], "not a valid pickle"},
		{"missing key", imagePickle("y_test", nil), `no key "y_test"`},
		{"bad label", imagePickle("", []int64{0, 1, 12, 3}), "y_test[2] = 12, expected a class in [0, 10)"},
		{"wrong label count", imagePickle("", []int64{0, 1, 2}), "y_test: shape [3], expected dimension 0 to be 4"},
		{"not a dict", []byte{0x80, 2, 'K', 7, '.'}, "holds a int, expected a dict"},
	}
	for _, c := range cases {
		path := writeFixtureBytes(t, dir, strings.ReplaceAll(c.name, " ", "_")+".pkl", c.content)
		_, _, _, err := readImageFeatures(path)
		if err == nil || !strings.Contains(err.Error(), c.wantErr) || !strings.Contains(err.Error(), path) {
			t.Errorf("%s: got %v, want an error naming the file and containing %q", c.name, err, c.wantErr)
		}
	}
}

// TestImagesMissingNotDownloaded: online or not, a missing features.pkl (whose sha256 is unknown)
// is not downloaded; the error names the path, the URL and why.
func TestImagesMissingNotDownloaded(t *testing.T) {
	for _, offline := range []bool{true, false} {
		root := t.TempDir()
		_, err := Load("cifar10", Options{Root: root, Offline: offline})
		if !errors.Is(err, ErrMissing) || !strings.Contains(err.Error(), "cifar10/features.pkl") ||
			!strings.Contains(err.Error(), "https://github.com/WtaoZhao/geomix/raw/main/data/cifar10/features.pkl") ||
			!strings.Contains(err.Error(), "sha256") {
			t.Errorf("offline %v: got %v, want an error naming the expected path, the URL and the unknown sha256", offline, err)
		}
		if !offline && strings.Contains(err.Error(), "downloading") {
			t.Errorf("online: got %v, want no download attempt", err)
		}
	}
}

func TestCIFARKeepsFirst15000Rows(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: skipping a 15,000-row kNN")
	}
	n := cifarRows + 3
	x := make([]float32, n)
	y := make([]int64, n)
	for i := range x {
		x[i] = float32(math.Sqrt(float64(i))) // distinct 1-d points
		y[i] = int64(i % 10)
	}
	var p py2PickleWriter
	p.op(0x80, 2, '}', '(')
	p.str("x_train")
	p.array("<f4", false, pklF32(x...), n, 1)
	p.str("y_train")
	p.array("<i8", false, pklI64(y...), n)
	p.str("x_test")
	p.array("<f4", false, nil, 0, 1)
	p.str("y_test")
	p.array("<i8", false, nil, 0)
	p.op('u', '.')
	root := t.TempDir()
	writeFixtureBytes(t, root, "cifar10/features.pkl", p.Bytes())
	g, err := Load("cifar10", Options{Root: root, Offline: true, Progress: io.Discard})
	if err != nil {
		t.Fatal(err)
	}
	if s := g.Splits[0]; g.NumNodes != 15000 || len(s.Train) != 100 || len(s.Val) != 4000 || len(s.Test) != 10900 {
		t.Errorf("got %v, split %d/%d/%d; want 15000 nodes, 100/4000/10900", g, len(s.Train), len(s.Val), len(s.Test))
	}
}
