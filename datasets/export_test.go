package datasets

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// TestWriteNPZRoundTrip writes a small graph with two splits and reads every member back with our
// .npz reader: names, dtypes, shapes and values, the masks split by split.
func TestWriteNPZRoundTrip(t *testing.T) {
	g := &Graph{
		Name: "tiny", NumNodes: 3, NumClasses: 2,
		Features: &CSR{NumRows: 3, NumCols: 4, RowPtr: []int64{0, 2, 2, 3}, ColIdx: []int32{0, 3, 1},
			Values: []float32{0.5, 0.5, 1}},
		Src: []int32{0, 1, 1, 2}, Dst: []int32{1, 0, 2, 1},
		Labels: []int32{1, 0, 1},
		Splits: []Split{{Train: []int32{0}, Val: []int32{1}, Test: []int32{2}},
			{Train: []int32{2}, Val: []int32{0}, Test: []int32{1}}},
	}
	path := filepath.Join(t.TempDir(), "tiny.npz")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := g.WriteNPZ(f); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	npz, err := openNPZ(path)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = npz.Close() }()
	ints := func(name, dtype string, shape []int, want []int64) {
		t.Helper()
		a, err := npz.array(name, shape...)
		if err != nil {
			t.Fatal(err)
		}
		got, err := a.int64s()
		if err != nil {
			t.Fatal(err)
		}
		if a.Dtype != dtype || !reflect.DeepEqual(a.Shape, shape) || !reflect.DeepEqual(got, want) {
			t.Errorf("%s: %s %v %v, want %s %v %v", name, a.Dtype, a.Shape, got, dtype, shape, want)
		}
	}
	ints("x_indptr", "<i8", []int{4}, []int64{0, 2, 2, 3})
	ints("x_indices", "<i4", []int{3}, []int64{0, 3, 1})
	ints("x_shape", "<i8", []int{2}, []int64{3, 4})
	ints("edge_index", "<i4", []int{2, 4}, []int64{0, 1, 1, 2, 1, 0, 2, 1})
	ints("y", "<i4", []int{3}, []int64{1, 0, 1})
	ints("num_classes", "<i8", nil, []int64{2})
	// Row v, column s: node v in split s.
	ints("train_mask", "|b1", []int{3, 2}, []int64{1, 0, 0, 0, 0, 1})
	ints("val_mask", "|b1", []int{3, 2}, []int64{0, 1, 1, 0, 0, 0})
	ints("test_mask", "|b1", []int{3, 2}, []int64{0, 0, 0, 1, 1, 0})
	a, err := npz.array("x_data", 3)
	if err != nil {
		t.Fatal(err)
	}
	if got, err := a.float32s(); err != nil || a.Dtype != "<f4" || !reflect.DeepEqual(got, []float32{0.5, 0.5, 1}) {
		t.Errorf("x_data: %s %v (%v), want <f4 [0.5 0.5 1]", a.Dtype, got, err)
	}
}

// TestWriteNPYHeaderAlignment checks that the data of every .npy starts on a 64-byte boundary, as
// numpy's format 1.0 asks, for header lengths around the boundary.
func TestWriteNPYHeaderAlignment(t *testing.T) {
	for _, shape := range [][]int{nil, {1}, {12345}, {2, 3}, {123456789, 12}, {1, 2, 3, 4, 5, 6, 7, 8}} {
		n := 1
		for _, d := range shape {
			n *= d
		}
		if n > 1000 {
			n = 0 // only the header is checked
		}
		var buf writeCounter
		if err := writeNPY(&buf, shape, make([]float32, n)); err != nil {
			t.Fatal(err)
		}
		if header := buf.n - 4*n; header%64 != 0 {
			t.Errorf("shape %v: header of %d bytes, want a multiple of 64", shape, header)
		}
	}
}

// writeCounter counts the bytes written to it.
type writeCounter struct{ n int }

func (w *writeCounter) Write(p []byte) (int, error) { w.n += len(p); return len(p), nil }
