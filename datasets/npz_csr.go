package datasets

import (
	"fmt"
	"slices"
)

// newCSR validates scipy-style CSR arrays of a [rows, cols] matrix (indptr [rows+1], indices and
// data [nnz]) and returns them as a CSR with column indices sorted within each row.
func newCSR(rows, cols int, indptr, indices []int64, data []float32) (*CSR, error) {
	if len(indptr) != rows+1 {
		return nil, fmt.Errorf("indptr has %d entries, expected rows+1 = %d", len(indptr), rows+1)
	}
	if len(indices) != len(data) {
		return nil, fmt.Errorf("indices has %d entries but data has %d", len(indices), len(data))
	}
	if indptr[0] != 0 || indptr[rows] != int64(len(indices)) {
		return nil, fmt.Errorf("indptr runs from %d to %d, expected 0 to nnz = %d", indptr[0], indptr[rows], len(indices))
	}
	m := &CSR{NumRows: rows, NumCols: cols, RowPtr: make([]int64, rows+1),
		ColIdx: make([]int32, len(indices)), Values: slices.Clone(data)}
	copy(m.RowPtr, indptr)
	for i := 0; i < rows; i++ {
		lo, hi := indptr[i], indptr[i+1]
		if hi < lo || hi > int64(len(indices)) {
			return nil, fmt.Errorf("indptr[%d] = %d, expected between indptr[%d] = %d and nnz = %d", i+1, hi, i, lo, len(indices))
		}
		sorted := true
		for k := lo; k < hi; k++ {
			c := indices[k]
			if c < 0 || c >= int64(cols) {
				return nil, fmt.Errorf("row %d has column index %d outside [0, %d)", i, c, cols)
			}
			m.ColIdx[k] = int32(c)
			if k > lo && indices[k-1] >= c {
				sorted = false
			}
		}
		if !sorted {
			sortRow(m, lo, hi)
		}
	}
	return m, nil
}

// sortRow sorts the entries [lo, hi) of m by column.
func sortRow(m *CSR, lo, hi int64) {
	type entry struct {
		col int32
		val float32
	}
	row := make([]entry, hi-lo)
	for k := range row {
		row[k] = entry{m.ColIdx[lo+int64(k)], m.Values[lo+int64(k)]}
	}
	slices.SortStableFunc(row, func(a, b entry) int { return int(a.col) - int(b.col) })
	for k, e := range row {
		m.ColIdx[lo+int64(k)], m.Values[lo+int64(k)] = e.col, e.val
	}
}

// denseToCSR converts a row-major [rows, cols] matrix to CSR, keeping the non-zeros.
func denseToCSR(rows, cols int, x []float32) *CSR {
	m := &CSR{NumRows: rows, NumCols: cols, RowPtr: make([]int64, rows+1)}
	for i := 0; i < rows; i++ {
		for j, v := range x[i*cols : (i+1)*cols] {
			if v != 0 {
				m.ColIdx = append(m.ColIdx, int32(j))
				m.Values = append(m.Values, v)
			}
		}
		m.RowPtr[i+1] = int64(len(m.ColIdx))
	}
	return m
}

// vstackCSR stacks matrices with the same number of columns vertically.
func vstackCSR(parts ...*CSR) *CSR {
	out := &CSR{NumCols: parts[0].NumCols, RowPtr: []int64{0}}
	for _, p := range parts {
		base := out.RowPtr[len(out.RowPtr)-1]
		for i := 1; i <= p.NumRows; i++ {
			out.RowPtr = append(out.RowPtr, base+p.RowPtr[i])
		}
		out.ColIdx = append(out.ColIdx, p.ColIdx...)
		out.Values = append(out.Values, p.Values...)
		out.NumRows += p.NumRows
	}
	return out
}
