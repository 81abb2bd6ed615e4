package backbones

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/geomix-go/geomix/datasets"
	"github.com/geomix-go/geomix/geomix/internal/ops"
	"github.com/gomlx/gomlx/pkg/core/dtypes"
	. "github.com/gomlx/gomlx/pkg/core/graph"
	"github.com/gomlx/gomlx/pkg/core/shapes"
	"github.com/gomlx/gomlx/pkg/core/tensors"
	"github.com/gomlx/gomlx/pkg/ml/context"
	"github.com/gomlx/gomlx/pkg/ml/layers"
)

// DenseFeatureDensity is the fraction of non-zeros from which ParamFeatureLayout "auto" holds X
// dense. Measured by BenchmarkProjection on the pure-Go backend (2 cores, internal/rowops's fused
// sparse products and vector kernels; at 9e0a830 beside two trainings), the sparse product and
// its weight gradient cost 0.68, 0.36 and 0.21 ns per non-zero and output column at 2%, 10% and
// 30% non-zeros, the dense pair 0.07-0.09 ns per entry of X and output column: at 30% the sparse
// pair still takes 0.7 of the dense one's time, and they cross near 40% (PubMed has 10%, the
// other data sets of the paper at most 1.3%, so all of them are held sparse).
const DenseFeatureDensity = 0.4

// Features is the feature matrix X [N, F] inside a computation graph, held one of two ways:
//   - sparse, as its non-zeros: Rows, Cols and Values are [NNZ, 1] (int32, int32, float); a
//     product of width w scales the gathered [NNZ, w] rows of its weight by Values through Mul's
//     implicit broadcast, which internal/rowops runs as a row scaling. T, where set, is Xᵀ [F, N]
//     with the same non-zeros in its own row order, and Perm [NNZ, 1] int32 says which of X's
//     non-zeros each of T's is: a product's weight gradient Xᵀ v then adds runs of non-zeros into
//     one row (internal/rowops's run kernels) instead of X's non-zeros in random rows;
//   - dense: Dense is X [N, F] and DenseT is Xᵀ [F, N] (fed, so no step transposes X for the
//     weight gradient); the other nodes are nil.
type Features struct {
	NumRows, NumCols   int
	Rows, Cols, Values *Node
	T                  *Features
	Perm               *Node
	Dense, DenseT      *Node
}

// FeatureInputs returns the host tensors to feed for Features of m, in order: when sparse rows,
// cols [NNZ, 1] int32 and values [NNZ, 1] float32 of X's non-zeros in row order, the same three
// of Xᵀ's (X's non-zeros ordered by column, then row) and the permutation between them [NNZ, 1]
// int32; when dense X [N, F] and Xᵀ [F, N] float32.
func FeatureInputs(m *datasets.CSR, dense bool) []*tensors.Tensor {
	if dense {
		// Filled in place: no host copy besides the tensors' own.
		x, xT := tensors.FromShape(shapes.Make(dtypes.Float32, m.NumRows, m.NumCols)), tensors.FromShape(shapes.Make(dtypes.Float32, m.NumCols, m.NumRows))
		tensors.MustMutableFlatData(x, func(flat []float32) {
			tensors.MustMutableFlatData(xT, func(flatT []float32) {
				for i := 0; i < m.NumRows; i++ {
					for k := m.RowPtr[i]; k < m.RowPtr[i+1]; k++ {
						j := int(m.ColIdx[k])
						flat[i*m.NumCols+j] += m.Values[k]
						flatT[j*m.NumRows+i] += m.Values[k]
					}
				}
			})
		})
		return []*tensors.Tensor{x, xT}
	}
	nnz := m.NNZ()
	rows, cols := make([]int32, nnz), make([]int32, nnz)
	for i := 0; i < m.NumRows; i++ {
		for k := m.RowPtr[i]; k < m.RowPtr[i+1]; k++ {
			rows[k], cols[k] = int32(i), m.ColIdx[k]
		}
	}
	perm := transposeOrder(cols)
	tRows, tCols, tValues := make([]int32, nnz), make([]int32, nnz), make([]float32, nnz)
	for k, e := range perm {
		tRows[k], tCols[k], tValues[k] = cols[e], rows[e], m.Values[e]
	}
	index := func(x []int32) *tensors.Tensor { return tensors.FromFlatDataAndDimensions(x, nnz, 1) }
	return []*tensors.Tensor{index(rows), index(cols), tensors.FromFlatDataAndDimensions(m.Values, nnz, 1),
		index(tRows), index(tCols), tensors.FromFlatDataAndDimensions(tValues, nnz, 1), index(perm)}
}

// transposeOrder returns the order of Xᵀ's non-zeros for X's non-zeros with columns cols: their
// indices sorted by column, stably. Every column's non-zeros keep X's order, so the weight
// gradient adds each column's products in the order the automatic gradient does.
func transposeOrder(cols []int32) []int32 {
	perm := make([]int32, len(cols))
	for e := range perm {
		perm[e] = int32(e)
	}
	slices.SortStableFunc(perm, func(a, b int32) int { return cmp.Compare(cols[a], cols[b]) })
	return perm
}

// NewFeatures wraps the nodes fed from FeatureInputs as Features [numRows, numCols]: two float
// nodes are a dense X [numRows, numCols] and Xᵀ; three are the non-zeros' rows, cols (integers)
// and values, each [NNZ, 1], in any order (the weight gradient then scatters them by column);
// seven are those followed by Xᵀ's three and the permutation, as FeatureInputs makes them. It
// panics with the shapes when they are none of these.
func NewFeatures(numRows, numCols int, in []*Node) *Features {
	switch {
	case len(in) == 2 && in[0].DType().IsFloat():
		if in[0].Rank() != 2 || in[1].Rank() != 2 || in[0].Shape().Dim(0) != numRows || in[0].Shape().Dim(1) != numCols ||
			in[1].Shape().Dim(0) != numCols || in[1].Shape().Dim(1) != numRows {
			panic(fmt.Sprintf("NewFeatures: want X [%d, %d] and Xᵀ [%d, %d], got %s and %s", numRows, numCols, numCols, numRows, in[0].Shape(), in[1].Shape()))
		}
		return &Features{NumRows: numRows, NumCols: numCols, Dense: in[0], DenseT: in[1]}
	case len(in) == 3 || len(in) == 7:
		nnz := in[0].Shape().Dim(0)
		for _, x := range in {
			if x.Rank() != 2 || x.Shape().Dim(0) != nnz || x.Shape().Dim(1) != 1 {
				panic(fmt.Sprintf("NewFeatures: want rows, cols and values (and Xᵀ's, and the permutation) [NNZ, 1], got %s", nodeShapes(in)))
			}
		}
		x := &Features{NumRows: numRows, NumCols: numCols, Rows: in[0], Cols: in[1], Values: in[2]}
		if len(in) == 7 {
			x.T = &Features{NumRows: numCols, NumCols: numRows, Rows: in[3], Cols: in[4], Values: in[5]}
			x.Perm = in[6]
		}
		return x
	}
	panic(fmt.Sprintf("NewFeatures: want X and Xᵀ (dense) or rows, cols and values (and Xᵀ's, and the permutation), got %d nodes", len(in)))
}

// nodeShapes lists the shapes of nodes, for error messages.
func nodeShapes(nodes []*Node) string {
	s := make([]string, len(nodes))
	for i, n := range nodes {
		s[i] = n.Shape().String()
	}
	return strings.Join(s, ", ")
}

// DenseLayout reports whether ParamFeatureLayout layout ("auto", "sparse" or "dense") holds m dense.
func DenseLayout(layout string, m *datasets.CSR) (bool, error) {
	switch layout {
	case "sparse":
		return false, nil
	case "dense":
		return true, nil
	case "auto":
		return float64(m.NNZ()) >= DenseFeatureDensity*float64(m.NumRows)*float64(m.NumCols), nil
	}
	return false, fmt.Errorf("%s = %q: want \"auto\", \"sparse\" or \"dense\"", ParamFeatureLayout, layout)
}

// Graph returns the graph X lives in.
func (x *Features) Graph() *Graph {
	if x.Dense != nil {
		return x.Dense.Graph()
	}
	return x.Rows.Graph()
}

// DType returns the dtype of X's values.
func (x *Features) DType() dtypes.DType {
	if x.Dense != nil {
		return x.Dense.DType()
	}
	return x.Values.DType()
}

// Dropout returns X with every non-zero dropped with probability p and the others scaled by
// 1/(1−p) (a fresh mask per call, in ctx's training mode only); products of the result at any
// width see the same mask.
func (x *Features) Dropout(ctx *context.Context, p float64) *Features {
	if x.Dense != nil {
		mask := layers.DropoutStatic(ctx, OnesLike(x.Dense), p)
		return &Features{NumRows: x.NumRows, NumCols: x.NumCols, Dense: Mul(x.Dense, mask), DenseT: Mul(x.DenseT, Transpose(mask, 0, 1))}
	}
	mask := layers.DropoutStatic(ctx, OnesLike(x.Values), p)
	out := &Features{NumRows: x.NumRows, NumCols: x.NumCols, Rows: x.Rows, Cols: x.Cols, Values: Mul(x.Values, mask), Perm: x.Perm}
	if x.T != nil {
		out.T = &Features{NumRows: x.NumCols, NumCols: x.NumRows, Rows: x.T.Rows, Cols: x.T.Cols, Values: Mul(x.T.Values, Gather(mask, x.Perm))}
	}
	return out
}

// ProjectBlocks returns X W_i [N, H_i] for each weight ws[i] [F, H_i]. Sparse X projects each
// weight on its own (the cost is per non-zero and output column either way); dense X makes one
// product with the weights side by side and splits its columns, as every product re-packs X.
func (x *Features) ProjectBlocks(ws []*Node) []*Node {
	if x.Dense == nil || len(ws) == 1 {
		out := make([]*Node, len(ws))
		for i, w := range ws {
			out[i] = x.Project(w)
		}
		return out
	}
	z := x.Project(Concatenate(ws, 1))
	zT := Transpose(z, 0, 1)
	out := make([]*Node, len(ws))
	from := 0
	for i, w := range ws {
		to := from + w.Shape().Dim(1)
		out[i] = Transpose(Gather(zT, columnIndices(z.Graph(), from, to)), 0, 1)
		from = to
	}
	return out
}

// Project returns X W [N, H] for a dense weight w [F, H]. Sparse: every non-zero gathers its row of
// w, scaled by its value, and the products are summed into their rows; the gradient with respect
// to w is a ScatterSum of NNZ rows, Xᵀ's non-zeros projecting v where x.T is set. Dense: a matrix
// product whose gradient with respect to w is Xᵀ v. Neither ever materialises an [N, F, H] product.
func (x *Features) Project(w *Node) *Node {
	if w.Rank() != 2 || w.Shape().Dim(0) != x.NumCols {
		panic(fmt.Sprintf("Features.Project: want w [F=%d, H], got %s", x.NumCols, w.Shape()))
	}
	if x.Dense != nil {
		// The gradient stops at the product (ops.Product): a StopGradient on X, Xᵀ or w would be an
		// Identity copying them at every step (Fashion-MNIST's [15000, 784] twice: a fifth of GCN's
		// epoch).
		xT := ConvertDType(x.DenseT, w.DType())
		return ops.WithAdjointGradients(ops.Product(ConvertDType(x.Dense, w.DType()), w),
			[]*Node{w}, []func(v *Node) *Node{func(v *Node) *Node { return MatMul(xT, v) }})
	}
	if x.T == nil {
		return x.sparseProduct(w, Zeros(w.Graph(), shapes.Make(w.DType(), x.NumRows, w.Shape().Dim(1))))
	}
	// The weight gradient is Xᵀ v from Xᵀ's non-zeros: the same products, added to each row of
	// the gradient in the same order as the automatic gradient of the product would add them.
	// The sums start from 0·|anchor|, +0 as Zeros (for a finite w), instead of adding it after.
	anchor, capture := ops.AdjointGradients([]*Node{w}, []func(v *Node) *Node{func(v *Node) *Node { return x.T.Project(v) }})
	start := BroadcastToDims(MulScalar(Abs(anchor), 0), x.NumRows, w.Shape().Dim(1))
	return capture(x.sparseProduct(StopGradient(w), start))
}

// sparseProduct returns start + X w [N, H] for sparse X: every non-zero gathers its row of w [F,
// H], scaled by its value, and the products are added to their rows of start [N, H].
func (x *Features) sparseProduct(w, start *Node) *Node {
	msgs := Mul(Gather(w, x.Cols), ConvertDType(x.Values, w.DType())) // [NNZ, H]
	return ScatterSum(start, x.Rows, msgs, false, false)
}

// Columns returns columns [from, to) of x [N, D] as [N, to-from], a Slice. Its gradient is the
// adjoint between zero columns: GoMLX's pads it (Pad, which the pure-Go backend lacks); the backend
// of geomix.NewBackend concatenates zeros instead (internal/rowops), the same values.
func Columns(x *Node, from, to int) *Node {
	if x.Rank() != 2 || from < 0 || to > x.Shape().Dim(1) || from >= to {
		panic(fmt.Sprintf("Columns: want x [N, D] and 0 <= from < to <= D, got x %s, from %d, to %d", x.Shape(), from, to))
	}
	if to-from == x.Shape().Dim(1) {
		return x
	}
	return Slice(x, AxisRange(), AxisRange(from, to))
}

// columnIndices returns the constant [to-from, 1] int32 indices from, …, to−1, the form Gather takes
// to pick rows of a transposed matrix.
func columnIndices(g *Graph, from, to int) *Node {
	idx := make([]int32, 0, to-from)
	for i := from; i < to; i++ {
		idx = append(idx, int32(i))
	}
	return Const(g, tensors.FromFlatDataAndDimensions(idx, len(idx), 1))
}
