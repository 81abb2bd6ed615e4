package rowops

import (
	"slices"

	"github.com/gomlx/gomlx/backends"
	"github.com/gomlx/gomlx/backends/simplego"
	"github.com/gomlx/gomlx/pkg/core/dtypes"
	"github.com/gomlx/gomlx/pkg/core/shapes"
)

// reduce is the ReduceSum and ReduceMax executor for float32 and float64: like simplego's, it
// starts every output at 0 (sum) or the lowest value (max) and folds the operand in at its flat
// order, so each output sees the same operations in the same order; it finds the output of a
// whole row of the operand at once instead of walking an index iterator per element. A product
// deferred by mul (sums.go) is summed without being made. Other ops and dtypes go to simplego's
// executor.
func reduce(backend *simplego.Backend, node *simplego.Node, inputs []*simplego.Buffer, inputsOwned []bool) (*simplego.Buffer, error) {
	if d := takeProduct(inputs[0]); d != nil {
		output := backend.NewBuffer(nodeShape(node))
		d.sumInto(backend, dataOf(backend, output).([]float32))
		inputs[0] = nil // freed by sumInto
		return output, nil
	}
	operand := shapeOf(backend, inputs[0])
	axes := intsData(node)
	if (operand.DType != dtypes.Float32 && operand.DType != dtypes.Float64) || len(axes) == 0 {
		return simplegoReduce(backend, node, inputs, inputsOwned)
	}
	// The output's flat stride along each operand axis: 0 on the reduced axes, the output's own
	// strides on the kept ones (as simplego's reduceOutputIterator).
	outShape := nodeShape(node)
	outStrides := rowMajorStrides(outShape)
	steps := make([]int, operand.Rank())
	k := 0
	for a := range operand.Rank() {
		if !slices.Contains(axes, a) {
			steps[a] = outStrides[k]
			k++
		}
	}
	output := backend.NewBuffer(outShape)
	isMax := opType(node) == backends.OpTypeReduceMax
	switch out := dataOf(backend, output).(type) {
	case []float32:
		reduceRows(out, dataOf(backend, inputs[0]).([]float32), operand.Dimensions, steps, isMax)
	case []float64:
		reduceRows(out, dataOf(backend, inputs[0]).([]float64), operand.Dimensions, steps, isMax)
	}
	return output, nil
}

// reduceRows folds x (row-major of dims) into out, element x[i] into out[Σ index·steps], in flat
// order: a sum from 0, or with isMax Go's max (as simplego) from the lowest value. A sum of the rows
// of [R, W] into [W] adds each row in turn to out, the ScatterSum of every row to row 0.
func reduceRows[T float32 | float64](out, x []T, dims, steps []int, isMax bool) {
	init := T(0)
	if isMax {
		init = dtypes.FromGenericsType[T]().LowestValue().(T)
	}
	for i := range out {
		out[i] = init
	}
	width, step := dims[len(dims)-1], steps[len(steps)-1]
	if len(dims) == 2 && steps[0] == 0 && step == 1 && !isMax { // [R, W] to [W]: the rows added into out in order
		applyRows(scatterAddOp, any(out), any(x), make([]int32, dims[0]))
		return
	}
	if step == 0 && slices.Equal(steps[:len(steps)-1], rowMajorStrides(shapes.Make(dtypes.Int8, dims[:len(dims)-1]...))) {
		// [R..., W] to [R...] (the last axis only: GAT's attention scores, [N, heads, W] to
		// [N, heads]; EERM's Gumbel maxima, [21272, 64] to [21272]): a loop over the rows, where a
		// call per row costs more than rows of a few elements, split over the cores
		inParallel(len(out), len(x), func(from, to int) {
			for r := from; r < to; r++ {
				out[r] = foldRow(out[r], x[r*width:(r+1)*width], isMax)
			}
		})
		return
	}
	walkRows(dims, steps, func(r, at int) {
		row := x[r*width : (r+1)*width]
		switch {
		case step == 0:
			out[at] = foldRow(out[at], row, isMax)
		case isMax:
			o := out[at : at+width]
			for k, v := range row {
				o[k] = max(o[k], v)
			}
		default:
			o := out[at : at+width]
			for k, v := range row {
				o[k] += v
			}
		}
	})
}

// foldRow returns acc folded with row's elements in order: their sum, or with isMax their maximum
// by Go's max (as simplego).
func foldRow[T float32 | float64](acc T, row []T, isMax bool) T {
	if isMax {
		for _, v := range row {
			acc = max(acc, v)
		}
		return acc
	}
	for _, v := range row {
		acc += v
	}
	return acc
}
