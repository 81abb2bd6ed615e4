package rowops

import (
	"github.com/gomlx/gomlx/backends/simplego"
	"github.com/gomlx/gomlx/pkg/core/dtypes"
	"github.com/gomlx/gomlx/pkg/core/shapes"
)

// supported reports whether the row executors handle values of dtype indexed by idx: float32 or
// float64 values, int32 or int64 indices.
func supported(dtype, idx dtypes.DType) bool {
	return (dtype == dtypes.Float32 || dtype == dtypes.Float64) && (idx == dtypes.Int32 || idx == dtypes.Int64)
}

// shapeOf returns buf's shape; buf comes from backend.
func shapeOf(backend *simplego.Backend, buf *simplego.Buffer) shapes.Shape {
	shape, err := backend.BufferShape(buf)
	if err != nil {
		panic(err) // simplego buffers of simplego's own executor: cannot fail
	}
	return shape
}

// dataOf returns buf's storage, a flat slice of its dtype; buf comes from backend.
func dataOf(backend *simplego.Backend, buf *simplego.Buffer) any {
	flat, err := backend.BufferData(buf)
	if err != nil {
		panic(err) // simplego buffers of simplego's own executor: cannot fail
	}
	return flat
}

// rowOp is what applyRows does per index: gatherOp copies row idx[i] of src into row i of dst;
// scatterAddOp adds row i of src to row idx[i] of dst.
type rowOp int

const (
	gatherOp rowOp = iota
	scatterAddOp
)

// applyRows runs op on dst and src, flat []float32 or []float64 of the same type, by idx, []int32
// or []int64 (see supported): float32 rows by int32 indices in the vector kernels where there are
// some (rowsVec), the rest in loops.
func applyRows(op rowOp, dst, src, idx any) {
	switch d := dst.(type) {
	case []float32:
		if ix, ok := idx.([]int32); ok && rowsVec(op, d, src.([]float32), ix) {
			return
		}
		applyRowsOf(op, d, src.([]float32), idx)
	case []float64:
		applyRowsOf(op, d, src.([]float64), idx)
	}
}

func applyRowsOf[T float32 | float64](op rowOp, dst, src []T, idx any) {
	switch ix := idx.(type) {
	case []int32:
		applyRowsBy(op, dst, src, ix)
	case []int64:
		applyRowsBy(op, dst, src, ix)
	}
}

func applyRowsBy[T float32 | float64, I int32 | int64](op rowOp, dst, src []T, idx []I) {
	if op == gatherOp {
		gatherRowsBy(dst, src, idx)
	} else {
		scatterAddRowsBy(dst, src, idx)
	}
}

// gatherRowsBy copies row idx[i] of operand into row i of out. Indices are clamped to the
// operand's rows, as XLA and simplego do.
func gatherRowsBy[T float32 | float64, I int32 | int64](out, operand []T, idx []I) {
	if len(idx) == 0 || len(out) == 0 {
		return
	}
	width := len(out) / len(idx)
	last := len(operand)/width - 1
	for i, j := range idx {
		row := min(max(int(j), 0), last)
		copy(out[i*width:(i+1)*width], operand[row*width:(row+1)*width])
	}
}

// scatterAddRowsBy adds row i of updates to row idx[i] of out, in the order of idx (the order
// simplego adds in). Indices outside out's rows are skipped, as in XLA.
func scatterAddRowsBy[T float32 | float64, I int32 | int64](out, updates []T, idx []I) {
	if len(idx) == 0 || len(updates) == 0 {
		return
	}
	width := len(updates) / len(idx)
	numRows := len(out) / width
	for i, j := range idx {
		if j < 0 || int(j) >= numRows {
			continue
		}
		dst, src := out[int(j)*width:(int(j)+1)*width], updates[i*width:(i+1)*width]
		for k := range dst {
			dst[k] += src[k]
		}
	}
}
