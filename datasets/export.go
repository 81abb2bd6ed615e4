package datasets

import (
	"archive/zip"
	"encoding/binary"
	"fmt"
	"io"
	"strings"
)

// WriteNPZ writes g as a numpy .npz archive (np.load reads it), so that other frameworks can train
// on exactly the arrays our trainers see. Members, with N nodes, F features, E directed edges and S
// splits:
//
//   - x_indptr [N+1] int64, x_indices [nnz] int32, x_data [nnz] float32, x_shape [2] int64: the
//     features in CSR form as loaded (row-normalised unless Options.RawFeatures), i.e.
//     scipy.sparse.csr_matrix((x_data, x_indices, x_indptr), shape=x_shape);
//   - edge_index [2, E] int32: every undirected edge in both directions, without self-loops;
//   - y [N] int32 and num_classes [] int64;
//   - train_mask, val_mask, test_mask [N, S] bool: column s is split s, as PyG stores several
//     splits (Squirrel and Chameleon have 10, the other data sets 1).
func (g *Graph) WriteNPZ(w io.Writer) error {
	n, s := g.NumNodes, len(g.Splits)
	masks := func(pick func(Split) []int32) []bool {
		m := make([]bool, n*s)
		for j, sp := range g.Splits {
			for _, v := range pick(sp) {
				m[int(v)*s+j] = true
			}
		}
		return m
	}
	edges := append(append(make([]int32, 0, 2*len(g.Src)), g.Src...), g.Dst...)
	members := []struct {
		name  string
		shape []int
		data  any
	}{
		{"x_indptr", []int{len(g.Features.RowPtr)}, g.Features.RowPtr},
		{"x_indices", []int{len(g.Features.ColIdx)}, g.Features.ColIdx},
		{"x_data", []int{len(g.Features.Values)}, g.Features.Values},
		{"x_shape", []int{2}, []int64{int64(g.Features.NumRows), int64(g.Features.NumCols)}},
		{"edge_index", []int{2, len(g.Src)}, edges},
		{"y", []int{n}, g.Labels},
		{"num_classes", nil, []int64{int64(g.NumClasses)}},
		{"train_mask", []int{n, s}, masks(func(sp Split) []int32 { return sp.Train })},
		{"val_mask", []int{n, s}, masks(func(sp Split) []int32 { return sp.Val })},
		{"test_mask", []int{n, s}, masks(func(sp Split) []int32 { return sp.Test })},
	}
	zw := zip.NewWriter(w)
	for _, m := range members {
		f, err := zw.CreateHeader(&zip.FileHeader{Name: m.name + ".npy", Method: zip.Store})
		if err != nil {
			return fmt.Errorf("datasets: writing %s.npy: %w", m.name, err)
		}
		if err := writeNPY(f, m.shape, m.data); err != nil {
			return fmt.Errorf("datasets: writing %s.npy: %w", m.name, err)
		}
	}
	return zw.Close()
}

// writeNPY writes one .npy (format 1.0) of the given shape ([] for a scalar) holding data, a slice
// of bool, int32, int64 or float32 with the product of shape elements, little-endian, C order.
func writeNPY(w io.Writer, shape []int, data any) error {
	var descr string
	switch data.(type) {
	case []bool:
		descr = "|b1"
	case []int32:
		descr = "<i4"
	case []int64:
		descr = "<i8"
	case []float32:
		descr = "<f4"
	default:
		return fmt.Errorf("writeNPY: unsupported element type %T", data)
	}
	dims := make([]string, len(shape))
	for i, d := range shape {
		dims[i] = fmt.Sprint(d)
	}
	tuple := strings.Join(dims, ", ")
	if len(shape) == 1 {
		tuple += ","
	}
	header := fmt.Sprintf("{'descr': '%s', 'fortran_order': False, 'shape': (%s), }", descr, tuple)
	// Magic (6), version (2) and length (2) plus the header and its newline end on a multiple of 64.
	header += strings.Repeat(" ", 63-(10+len(header))%64) + "\n"
	prefix := append([]byte(npyMagic), 1, 0, 0, 0)
	binary.LittleEndian.PutUint16(prefix[8:], uint16(len(header)))
	if _, err := w.Write(append(prefix, header...)); err != nil {
		return err
	}
	return binary.Write(w, binary.LittleEndian, data)
}
