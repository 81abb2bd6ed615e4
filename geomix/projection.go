package geomix

import (
	"fmt"
	"slices"

	"github.com/geomix-go/geomix/datasets"
	. "github.com/gomlx/gomlx/pkg/core/graph"
	"github.com/gomlx/gomlx/pkg/core/shapes"
)

// SparseFeatures is a CSR feature matrix [N, F] inside a computation graph, as its non-zeros: Rows
// and Cols are [NNZ, 1] int32 indices and Values is [NNZ, 1], or [NNZ, H] holding each value
// repeated H times: the pure-Go backend multiplies equal shapes much faster than it broadcasts, so
// the trainer feeds values already broadcast to the projection width (see SparseInputs).
type SparseFeatures struct {
	NumRows, NumCols   int
	Rows, Cols, Values *Node
}

// SparseInputs returns the host values to feed for a SparseFeatures of m: rows, cols [NNZ, 1]
// int32 and values [NNZ, width] float32 (each value repeated width times; width >= 1).
func SparseInputs(m *datasets.CSR, width int) (rows, cols [][]int32, values [][]float32) {
	nnz := m.NNZ()
	rows, cols, values = make([][]int32, nnz), make([][]int32, nnz), make([][]float32, nnz)
	for i := 0; i < m.NumRows; i++ {
		for k := m.RowPtr[i]; k < m.RowPtr[i+1]; k++ {
			rows[k] = []int32{int32(i)}
			cols[k] = []int32{m.ColIdx[k]}
			values[k] = slices.Repeat([]float32{m.Values[k]}, width)
		}
	}
	return rows, cols, values
}

// Project returns X W for the sparse X [N, F] and a dense weight w [F, H]: every non-zero gathers
// its row of w, scaled by its value, and the products are summed into their rows. Its gradient with
// respect to w is a ScatterSum of NNZ rows, never a dense [N, F] product.
func (x *SparseFeatures) Project(w *Node) *Node {
	if w.Rank() != 2 || w.Shape().Dim(0) != x.NumCols {
		panic(fmt.Sprintf("SparseFeatures.Project: want w [F=%d, H], got %s", x.NumCols, w.Shape()))
	}
	if vw := x.Values.Shape().Dim(1); vw != 1 && vw != w.Shape().Dim(1) {
		panic(fmt.Sprintf("SparseFeatures.Project: values %s must be [NNZ, 1] or [NNZ, %d] for w %s", x.Values.Shape(), w.Shape().Dim(1), w.Shape()))
	}
	msgs := Mul(Gather(w, x.Cols), ConvertDType(x.Values, w.DType()))
	return ScatterSum(Zeros(w.Graph(), shapes.Make(w.DType(), x.NumRows, w.Shape().Dim(1))), x.Rows, msgs, false, false)
}

// Columns returns columns [from, to) of x [N, D] as [N, to-from], through Transpose and Gather so it
// has a gradient on backends without Pad (Slice's gradient needs it).
func Columns(x *Node, from, to int) *Node {
	if x.Rank() != 2 || from < 0 || to > x.Shape().Dim(1) || from >= to {
		panic(fmt.Sprintf("Columns: want x [N, D] and 0 <= from < to <= D, got x %s, from %d, to %d", x.Shape(), from, to))
	}
	return selectColumns(x, from, to, 0, 0)
}

// WithoutColumns returns x [N, D] without its columns [from, to), as [N, D-(to-from)].
func WithoutColumns(x *Node, from, to int) *Node {
	d := x.Shape().Dim(1)
	if x.Rank() != 2 || from < 0 || to > d || from >= to || to-from == d {
		panic(fmt.Sprintf("WithoutColumns: want x [N, D] and 0 <= from < to <= D keeping a column, got x %s, from %d, to %d", x.Shape(), from, to))
	}
	return selectColumns(x, 0, from, to, d)
}

// selectColumns returns columns [a, b) and [c, d) of x (either range may be empty), in order.
func selectColumns(x *Node, a, b, c, d int) *Node {
	if b-a+d-c == x.Shape().Dim(1) {
		return x
	}
	idx := make([][]int32, 0, b-a+d-c)
	for _, r := range [][2]int{{a, b}, {c, d}} {
		for i := r[0]; i < r[1]; i++ {
			idx = append(idx, []int32{int32(i)})
		}
	}
	return Transpose(Gather(Transpose(x, 0, 1), Const(x.Graph(), idx)), 0, 1)
}

// Projection is the column layout of Z = X [W_in | W_q¹ | W_k¹ | … | W_qᴷ | W_kᴷ] that lets
// GeoMix-III run in the projected width: columns [0, InputWidth) are X W_in, then each hop t has
// AttnDim query columns and AttnDim key columns. QBias and KBias hold each hop's [AttnDim] biases,
// added when the hop reads its queries and keys.
type Projection struct {
	InputWidth, AttnDim int
	QBias, KBias        []*Node
}

// QueryKey returns the QueryKeyFn that reads hop t's queries and keys from the (mixed) Z, plus bias,
// and returns the rest of Z to mix: the earlier hops' columns are gone by then, so hop t's sit right
// after the input columns, and they are dropped too, as no later hop reads them. Extra columns after
// the projection (e.g. labels mixed along) are kept at the end.
func (p Projection) QueryKey() QueryKeyFn {
	return func(hop int, h *Node) (q, k, rest *Node) {
		if hop >= len(p.QBias) {
			panic(fmt.Sprintf("Projection.QueryKey: hop %d but only %d hops projected", hop, len(p.QBias)))
		}
		start := p.InputWidth
		q = addRow(Columns(h, start, start+p.AttnDim), p.QBias[hop])
		k = addRow(Columns(h, start+p.AttnDim, start+2*p.AttnDim), p.KBias[hop])
		return q, k, WithoutColumns(h, start, start+2*p.AttnDim)
	}
}
