package rowops

import (
	"math"
	"reflect"
	"slices"

	"github.com/gomlx/gomlx/backends/simplego"
	"github.com/gomlx/gomlx/pkg/core/dtypes"
	"github.com/gomlx/gomlx/pkg/core/shapes"
)

// transpose is the Transpose executor: a strided copy, one run of the source per row of the
// output, where simplego walks an index iterator per element. Copies change no value.
func transpose(backend *simplego.Backend, node *simplego.Node, inputs []*simplego.Buffer, inputsOwned []bool) (*simplego.Buffer, error) {
	operand := shapeOf(backend, inputs[0])
	if !copyable(operand.DType) {
		return simplegoTranspose(backend, node, inputs, inputsOwned)
	}
	dims, steps := permuted(operand, intsData(node))
	output := backend.NewBuffer(shapes.Make(operand.DType, dims...))
	copyStrided(dataOf(backend, output), dataOf(backend, inputs[0]), dims, steps)
	return output, nil
}

// broadcastInDim is the BroadcastInDim executor: the same strided copy, with stride 0 along the
// output axes the operand is repeated on. A broadcast whose products are summed fused (sums.go)
// is deferred to them; one of a single value its uses take as a scalar hands over the value
// (scalar.go).
func broadcastInDim(backend *simplego.Backend, node *simplego.Node, inputs []*simplego.Buffer, inputsOwned []bool) (*simplego.Buffer, error) {
	switch fusionOf(node) {
	case broadcastSummed:
		return deferBroadcast(backend, node, inputs, inputsOwned), nil
	case scalarBroadcast:
		return scalarStandIn(backend, node, inputs), nil
	}
	operand := shapeOf(backend, inputs[0])
	if !copyable(operand.DType) {
		return simplegoBroadcastInDim(backend, node, inputs, inputsOwned)
	}
	out := nodeShape(node)
	strides := rowMajorStrides(operand)
	steps := make([]int, out.Rank())
	for axis, outAxis := range intsData(node) { // the output axis of each operand axis
		if operand.Dim(axis) == out.Dim(outAxis) {
			steps[outAxis] = strides[axis]
		}
	}
	output := backend.NewBuffer(out)
	copyStrided(dataOf(backend, output), dataOf(backend, inputs[0]), out.Dimensions, steps)
	return output, nil
}

// copyable reports whether copyStrided handles values of dtype.
func copyable(dtype dtypes.DType) bool {
	return dtype == dtypes.Float32 || dtype == dtypes.Float64 || dtype == dtypes.Int32 || dtype == dtypes.Int64
}

// intsData returns node's op parameters when simplego keeps them as a []int: Transpose's
// permutation, BroadcastInDim's output axis of each operand axis, a reduction's axes.
func intsData(node *simplego.Node) []int { return intsOf(nodeField(node, "data").Elem()) }

// nodeShape returns node's output shape (simplego's unexported shape field).
func nodeShape(node *simplego.Node) shapes.Shape {
	shape := nodeField(node, "shape")
	return shapes.Make(dtypes.DType(shape.FieldByName("DType").Int()), intsOf(shape.FieldByName("Dimensions"))...)
}

// intsOf reads v, a slice of integers.
func intsOf(v reflect.Value) []int {
	out := make([]int, v.Len())
	for i := range out {
		out[i] = int(v.Index(i).Int())
	}
	return out
}

// rowMajorStrides returns the flat stride of each axis of shape.
func rowMajorStrides(shape shapes.Shape) []int {
	strides := make([]int, shape.Rank())
	for axis, s := shape.Rank()-1, 1; axis >= 0; axis-- {
		strides[axis] = s
		s *= shape.Dim(axis)
	}
	return strides
}

// permuted returns, for the axes of shape taken in order, their dimensions and flat strides.
func permuted(shape shapes.Shape, order []int) (dims, steps []int) {
	strides := rowMajorStrides(shape)
	dims, steps = make([]int, len(order)), make([]int, len(order))
	for i, axis := range order {
		dims[i], steps[i] = shape.Dim(axis), strides[axis]
	}
	return dims, steps
}

// copyStrided sets dst, row-major of dims, to src[Σ_i index_i · steps_i]; dst and src are flat
// slices of one of copyable's dtypes.
func copyStrided(dst, src any, dims, steps []int) {
	switch d := dst.(type) {
	case []float32:
		stridedCopy(d, src.([]float32), dims, steps)
	case []float64:
		stridedCopy(d, src.([]float64), dims, steps)
	case []int32:
		stridedCopy(d, src.([]int32), dims, steps)
	case []int64:
		stridedCopy(d, src.([]int64), dims, steps)
	}
}

// stridedCopy sets dst, row-major of dims, to src[Σ_i index_i · steps_i].
func stridedCopy[T any](dst, src []T, dims, steps []int) {
	if len(dst) == 0 {
		return
	}
	if len(dims) == 0 {
		dst[0] = src[0]
		return
	}
	if !slices.ContainsFunc(steps, func(s int) bool { return s != 0 }) { // one value, e.g. Zeros
		fill(dst, src[0])
		return
	}
	dims, steps = coalesceAxes(dims, steps)
	if tiledTranspose(dst, src, dims, steps) {
		return
	}
	width, step := dims[len(dims)-1], steps[len(steps)-1]
	walkRows(dims, steps, func(r, from int) {
		row := dst[r*width : (r+1)*width]
		switch step {
		case 0: // a loop: fill's checks cost more than rows of a few elements
			v := src[from]
			for k := range row {
				row[k] = v
			}
		case 1:
			copy(row, src[from:from+width])
		default:
			for k, s := 0, from; k < width; k, s = k+1, s+step {
				row[k] = src[s]
			}
		}
	})
}

// coalesceAxes drops the axes of one element and merges each axis into the next where their
// elements are one run of the inner axis's step (steps[i] = dims[i+1] · steps[i+1]), so that a copy
// walks as few and as long rows as it can: the slice [N, 1] of [N+1, 1] is one row of N elements,
// not N rows of one (EERM's edge weights, 892,344 rows on Twitch).
func coalesceAxes(dims, steps []int) ([]int, []int) {
	var d, s []int
	for i, n := range dims {
		if n == 1 {
			continue
		}
		if k := len(d) - 1; k >= 0 && s[k] == n*steps[i] {
			d[k], s[k] = d[k]*n, steps[i]
			continue
		}
		d, s = append(d, n), append(s, steps[i])
	}
	if len(d) == 0 {
		return []int{1}, []int{0}
	}
	return d, s
}

// fill sets every element of dst to v: a clear (a vector loop) when v is all zero bits (Zeros and
// ZerosLike), else copies of the filled part doubling in size. stridedCopy fills a whole broadcast
// of one value at once, where a row at a time took 0.2 ms for Zeros [19717, 16] (a propagation's
// sum).
func fill[T any](dst []T, v T) {
	if allZeroBits(v) {
		clear(dst)
		return
	}
	dst[0] = v
	for n := 1; n < len(dst); n *= 2 {
		copy(dst[n:], dst[:n])
	}
}

// transposeTile is the side of the square tiles tiledTranspose copies: 32 × 32 float32 read along
// 32 source rows and written along 32 destination rows stay in L1.
const transposeTile = 32

// tiledTranspose does stridedCopy's work when it is a transpose, i.e. the last output axis is read
// with a stride above 1 and an outer axis p with stride 1, and returns false otherwise. It copies
// the (p, last) planes in square tiles, reading each source row and writing each destination row a
// tile at a time, where the row-by-row copy reads one element per cache line; planes are split over
// the cores along p. Copies change no value, so the result is stridedCopy's.
func tiledTranspose[T any](dst, src []T, dims, steps []int) bool {
	last := len(dims) - 1
	if last < 1 || steps[last] <= 1 || len(dst) < transposeTile*transposeTile {
		return false
	}
	step, p := steps[last], slices.Index(steps[:last], 1)
	if p < 0 {
		return false
	}
	dstStrides := make([]int, len(dims))
	for axis, s := last, 1; axis >= 0; axis-- {
		dstStrides[axis] = s
		s *= dims[axis]
	}
	// the outer axes other than p, walked as walkRows walks rows (a dummy last axis of 1).
	outerDims := append(slices.Delete(slices.Clone(dims[:last]), p, p+1), 1)
	outerSrc := append(slices.Delete(slices.Clone(steps[:last]), p, p+1), 0)
	outerDst := append(slices.Delete(slices.Clone(dstStrides[:last]), p, p+1), 0)
	rows, width, rowStride := dims[p], dims[last], dstStrides[p]
	var planes []struct{ src, dst int }
	walkRows(outerDims, outerSrc, func(_, at int) { planes = append(planes, struct{ src, dst int }{src: at}) })
	i := 0
	walkRows(outerDims, outerDst, func(_, at int) { planes[i].dst = at; i++ })
	inParallel(rows, len(dst), func(from, to int) {
		for _, pl := range planes {
			for r0 := from; r0 < to; r0 += transposeTile {
				r1 := min(r0+transposeTile, to)
				for k0 := 0; k0 < width; k0 += transposeTile {
					k1 := min(k0+transposeTile, width)
					for r := r0; r < r1; r++ {
						out := dst[pl.dst+r*rowStride+k0 : pl.dst+r*rowStride+k1]
						for k, s := 0, pl.src+r+k0*step; k < len(out); k, s = k+1, s+step {
							out[k] = src[s]
						}
					}
				}
			}
		}
	})
	return true
}

// walkRows calls fn for each row (the last axis) of a row-major array of dims (rank ≥ 1), in
// order: r is the row's ordinal, at == Σ_i index_i · steps_i over the row's outer axes.
func walkRows(dims, steps []int, fn func(r, at int)) {
	last := len(dims) - 1
	rows := 1
	for _, d := range dims[:last] {
		rows *= d
	}
	index := make([]int, last)
	at := 0
	for r := range rows {
		fn(r, at)
		for i := last - 1; i >= 0; i-- { // an odometer over the outer axes
			index[i]++
			at += steps[i]
			if index[i] < dims[i] {
				break
			}
			at -= index[i] * steps[i]
			index[i] = 0
		}
	}
}

// allZeroBits reports whether v (of one of copyable's dtypes) is all zero bits: 0, or +0 but not −0.
func allZeroBits(v any) bool {
	switch x := v.(type) {
	case float32:
		return math.Float32bits(x) == 0
	case float64:
		return math.Float64bits(x) == 0
	case int32:
		return x == 0
	case int64:
		return x == 0
	}
	return false
}
