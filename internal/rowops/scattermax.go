package rowops

import (
	"github.com/gomlx/gomlx/backends/simplego"
)

// scatterMax is the ScatterMax executor: when the op combines whole rows of updates [..., D...]
// into operand [N, D...] by indices [..., 1] (graph.ScatterMax(x, idx, updates), GAT's per-target
// maximum of its attention scores), a row at a time, in index order, each element by Go's max of
// the output and the update in that order (simplego's combine function), so the values are
// simplego's bit for bit (NaN and the sign of zero included); simplego walks three index iterators
// and calls its combine function through a function value per element. Indices outside the
// operand's rows are skipped, as in XLA (simplego v0.26's own executor panics on them). Other
// forms and dtypes go to simplego's executor.
func scatterMax(backend *simplego.Backend, node *simplego.Node, inputs []*simplego.Buffer, inputsOwned []bool) (*simplego.Buffer, error) {
	operand, indices := shapeOf(backend, inputs[0]), shapeOf(backend, inputs[1])
	if !scattersRows(node, operand, indices) {
		return simplegoScatter(backend, node, inputs, inputsOwned)
	}
	output := takeOrCopy(backend, inputs, inputsOwned, 0)
	switch out := dataOf(backend, output).(type) {
	case []float32:
		maxRowsBy(out, dataOf(backend, inputs[2]).([]float32), dataOf(backend, inputs[1]))
	case []float64:
		maxRowsBy(out, dataOf(backend, inputs[2]).([]float64), dataOf(backend, inputs[1]))
	}
	return output, nil
}

// maxRowsBy combines row i of updates into row idx[i] of out ([]int32 or []int64 indices), in the
// order of idx: out = max(out, update) element by element.
func maxRowsBy[T float32 | float64](out, updates []T, idx any) {
	switch ix := idx.(type) {
	case []int32:
		maxRows(out, updates, ix)
	case []int64:
		maxRows(out, updates, ix)
	}
}

// maxRows is maxRowsBy for one index type; indices outside out's rows are skipped.
func maxRows[T float32 | float64, I int32 | int64](out, updates []T, idx []I) {
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
			dst[k] = max(dst[k], src[k])
		}
	}
}
