// Package rowops runs the ops that dominate GNN training on GoMLX v0.26's pure-Go backend
// (simplego) through executors of its own, which compute simplego's numbers bit for bit, in the
// same order of additions, but work on whole rows where simplego walks an index iterator per
// element, and run four patterns of ops fused, without making their intermediate tensors.
//
// # Installation
//
// Install registers the executors, once, for every simplego backend of the process, and
// geomix.NewBackend calls it before making its pure-Go backend; importing the package changes
// nothing. The executors reach simplego's internals (its registration hook and own executors by
// go:linkname, node parameters by reflection), so Install refuses a linked GoMLX other than
// GoMLXVersion, and a test fails when go.mod requires another version.
//
// # Replaced executors
//
// Each handles the forms listed and passes every other form and dtype to simplego's own executor
// (the executors table; f32, f64: float32, float64):
//   - Gather (rowops.go): whole rows of x [N, D...] by indices [..., 1], f32/f64 by int32/int64
//     (message passing): simplego copies an element at a time through an index iterator (10-30 ns
//     per element).
//   - ScatterSum (rowops.go): whole rows of updates added into x [N, D...], in index order
//     (aggregation, the gradient of Gather): the same iterator.
//   - ScatterMax (scattermax.go): whole rows of updates combined into x [N, D...] by max, in
//     index order (GAT's per-target maximum of its attention scores): the same iterator.
//   - DotGeneral (dot.go): f32/f64 as dot products of rows read in place, f32 below 8 products or
//     contracting both operands' leading axis as sums of scaled rows: simplego first copies both
//     operands into zero-padded 32 × 32 blocks.
//   - Mul (mul.go): f32 of one shape, by one value, by a column [R, 1] scaling the rows of [R, D]
//     (message weights) or by a row [1, D] repeated over them (GoMLX's gradient of DotGeneral):
//     simplego broadcasts through an index iterator.
//   - Add, Sub, Div (broadcast.go): f32 with a column or a repeated row (log-softmax, biases,
//     normalisations), of one shape or by one value: the same broadcast iterator.
//   - Transpose, BroadcastInDim (copy.go): strided copies of whole runs, transposes in square
//     tiles: simplego copies an element at a time through an index iterator.
//   - ReduceSum, ReduceMax (reduce.go): f32/f64 a row at a time, in simplego's order: simplego
//     finds each element's output through an index iterator.
//   - Where, Sign (select.go): f32 by conditional moves: simplego branches per element on data as
//     random as dropout's masks.
//   - Exp (exp.go): f32 through math.Exp's own amd64 kernel (with its FMA) on four lanes: simplego
//     calls math.Exp per element (about 8 ns).
//   - Max, Min, LessOrEqual, Abs, ConvertDType uint32 → f32 (elementwise.go): dropout and ReLU in
//     vector kernels: simplego's plain loops take 1-8 ns per element.
//   - GreaterOrEqual, GreaterThan (compare.go): f32 comparisons of LeakyReLU and ELU (GAT), the
//     first by LessOrEqual's kernel with the operands swapped: simplego's loops check broadcasts.
//   - Equal (compare.go): int32 [R, 1] against [1, C] (OneHot), a row at a time: simplego walks a
//     broadcast iterator per element.
//   - RNGBitGenerator (rng.go): dropout's random bits stored as whole 64-bit words: simplego stores
//     a byte at a time, branching per byte.
//   - Slice (slices.go): the strided copy of Transpose, whole runs along the last axis (columns of a
//     matrix; axes whose elements are contiguous are one run): simplego copies an element at a
//     time through an index iterator.
//   - Tanh, Logistic, Log, Pow (unary.go): f32 by simplego's own expression per element, split
//     over the cores.
//
// Install also replaces GoMLX's gradient of Mul where one operand is a column scaling the rows of
// the other (vjp.go): the gradient scales rows too, instead of first broadcasting the column, and
// reads fresh copies of gathered operands (GAT's attention weights), so that the fused chains
// below keep their single uses. It gives Slice a gradient without Pad, which simplego lacks
// (slices.go): the adjoint between zeros, Pad's values.
//
// # Fused patterns
//
// Where the intermediate tensors have no other use (uses counted per compiled graph, as simplego
// counts them):
//   - Gather → Mul by a column → ScatterSum (message passing, sparse products, GAT's
//     attention-weighted sums) runs a message at a time (fuse.go); on amd64 a run of messages to
//     one row is summed in registers, and rows of tables over 2 MiB are prefetched (vec_amd64.go).
//     A large chain that runs while no other of our executors does splits its output rows over
//     the cores, each row's messages still added in order (scaleAddRows).
//   - GoMLX's gradient of a matrix product, a broadcast [P, Q, Z] of the adjoint multiplied by each
//     operand and summed over one axis, runs as sums of scaled rows (sums.go).
//   - ReduceSum(Mul(Gather, Gather)) over the last axis, a dot product per message of two gathered
//     rows (GAT's attention-weight gradient), reads the rows in place (dots.go).
//   - A broadcast of one value that element-wise ops take as a scalar is handed over as the value
//     (scalar.go).
//
// On amd64 with AVX2 the float32 work runs in vector kernels (vec_amd64.s), each a whole op in one
// call, with eight lanes of the same IEEE operations in the same order per element, never fused
// (no FMA); elsewhere portable loops do the same work. Every executor is compared with simplego's
// own on the same inputs, bit for bit (the package's tests). ProfileOps (profile.go) times every
// executor, ours and simplego's, while a function runs (`reproduce bench --profile`).
package rowops

import (
	"fmt"
	"reflect"
	"runtime"
	"sync"
	_ "unsafe" // go:linkname

	"github.com/gomlx/gomlx/backends"
	"github.com/gomlx/gomlx/backends/simplego"
	"github.com/gomlx/gomlx/pkg/core/shapes"
)

// executor is simplego's node executor signature (its unexported nodeExecutor type).
type executor = func(backend *simplego.Backend, node *simplego.Node, inputs []*simplego.Buffer, inputsOwned []bool) (*simplego.Buffer, error)

// priorityUser is simplego's registerPriority for user overrides, above its generic and typed ones.
const priorityUser = 100

//go:linkname setNodeExecutor github.com/gomlx/gomlx/backends/simplego.setNodeExecutor
func setNodeExecutor(opType backends.OpType, priority int, exec executor)

//go:linkname simplegoGather github.com/gomlx/gomlx/backends/simplego.execGather
func simplegoGather(backend *simplego.Backend, node *simplego.Node, inputs []*simplego.Buffer, inputsOwned []bool) (*simplego.Buffer, error)

//go:linkname simplegoScatter github.com/gomlx/gomlx/backends/simplego.execScatter
func simplegoScatter(backend *simplego.Backend, node *simplego.Node, inputs []*simplego.Buffer, inputsOwned []bool) (*simplego.Buffer, error)

//go:linkname simplegoDotGeneral github.com/gomlx/gomlx/backends/simplego.execDotGeneral
func simplegoDotGeneral(backend *simplego.Backend, node *simplego.Node, inputs []*simplego.Buffer, inputsOwned []bool) (*simplego.Buffer, error)

//go:linkname simplegoTranspose github.com/gomlx/gomlx/backends/simplego.execTranspose
func simplegoTranspose(backend *simplego.Backend, node *simplego.Node, inputs []*simplego.Buffer, inputsOwned []bool) (*simplego.Buffer, error)

//go:linkname simplegoBroadcastInDim github.com/gomlx/gomlx/backends/simplego.execBroadcastInDim
func simplegoBroadcastInDim(backend *simplego.Backend, node *simplego.Node, inputs []*simplego.Buffer, inputsOwned []bool) (*simplego.Buffer, error)

//go:linkname simplegoReduce github.com/gomlx/gomlx/backends/simplego.execReduce
func simplegoReduce(backend *simplego.Backend, node *simplego.Node, inputs []*simplego.Buffer, inputsOwned []bool) (*simplego.Buffer, error)

// executors lists every op we run, with our executor and simplego's own (tests compare the two).
var executors = []struct {
	op             backends.OpType
	ours, simplego executor
}{
	{backends.OpTypeReduceSum, reduce, simplegoReduce},
	{backends.OpTypeReduceMax, reduce, simplegoReduce},
	{backends.OpTypeTranspose, transpose, simplegoTranspose},
	{backends.OpTypeBroadcastInDim, broadcastInDim, simplegoBroadcastInDim},
	{backends.OpTypeGather, gather, simplegoGather},
	{backends.OpTypeScatterSum, scatterSum, simplegoScatter},
	{backends.OpTypeScatterMax, scatterMax, simplegoScatter},
	{backends.OpTypeDotGeneral, dotGeneral, simplegoDotGeneral},
	{backends.OpTypeMul, mul, simplegoMul},
	{backends.OpTypeAdd, rowBroadcast(backends.OpTypeAdd, simplegoAdd), simplegoAdd},
	{backends.OpTypeSub, rowBroadcast(backends.OpTypeSub, simplegoSub), simplegoSub},
	{backends.OpTypeDiv, rowBroadcast(backends.OpTypeDiv, simplegoDiv), simplegoDiv},
	{backends.OpTypeWhere, where, simplegoWhere},
	{backends.OpTypeSign, sign, simplegoSign},
	{backends.OpTypeExp, exp, simplegoExp},
	{backends.OpTypeMax, minMax(true, simplegoMax), simplegoMax},
	{backends.OpTypeMin, minMax(false, simplegoMin), simplegoMin},
	{backends.OpTypeLessOrEqual, lessOrEqual, simplegoLessOrEqual},
	{backends.OpTypeGreaterOrEqual, greaterOrEqual, simplegoGreaterOrEqual},
	{backends.OpTypeGreaterThan, greaterThan, simplegoGreaterThan},
	{backends.OpTypeAbs, abs, simplegoAbs},
	{backends.OpTypeConvertDType, convertDType, simplegoConvertDType},
	{backends.OpTypeSlice, slice, simplegoSlice},
	{backends.OpTypeTanh, tanh, simplegoTanh},
	{backends.OpTypeLogistic, logistic, simplegoLogistic},
	{backends.OpTypePow, pow, simplegoPow},
	{backends.OpTypeLog, naturalLog, simplegoLog},
	{backends.OpTypeEqual, equal, simplegoEqual},
}

// nodeField returns the unexported field name of node (opType, shape, data), readable through
// reflection. Executors call it on every run, so the field's index is looked up once per name.
func nodeField(node *simplego.Node, name string) reflect.Value {
	i, ok := nodeFieldIndex[name]
	if !ok {
		panic(fmt.Sprintf("rowops: simplego.Node has no field %q", name))
	}
	return reflect.ValueOf(node).Elem().Field(i)
}

// nodeFieldIndex maps each field name of simplego.Node to its index.
var nodeFieldIndex = func() map[string]int {
	t := reflect.TypeFor[simplego.Node]()
	idx := make(map[string]int, t.NumField())
	for i := range t.NumField() {
		idx[t.Field(i).Name] = i
	}
	return idx
}()

// nodeParams returns the struct of op parameters simplego attaches to node (its data field, a
// pointer to gatherNode, scatterNode or dotGeneralNodeData).
func nodeParams(node *simplego.Node) reflect.Value { return nodeField(node, "data").Elem().Elem() }

// ints reads the []int field name of params.
func ints(params reflect.Value, name string) []int {
	f := params.FieldByName(name)
	out := make([]int, f.Len())
	for i := range out {
		out[i] = int(f.Index(i).Int())
	}
	return out
}

// isRange reports whether axes is from, from+1, ..., from+n-1.
func isRange(axes []int, from, n int) bool {
	if len(axes) != n {
		return false
	}
	for i, a := range axes {
		if a != from+i {
			return false
		}
	}
	return true
}

// rowForm reports whether indices [B..., 1] pick whole rows of a rank-r operand along axis 0, with
// the index vector on the indices' last axis: the form of graph.Gather(x, idx) and of
// graph.ScatterSum(x, idx, updates) for idx [..., 1].
func rowForm(operand, indices shapes.Shape, indexVectorAxis int, windowAxes, collapsed, indexMap []int) bool {
	r, b := operand.Rank(), indices.Rank()-1
	return r >= 1 && b >= 0 && indexVectorAxis == b && indices.Dim(b) == 1 &&
		isRange(windowAxes, b, r-1) && isRange(collapsed, 0, 1) && isRange(indexMap, 0, 1)
}

// gathersRows reports whether the Gather node picks whole rows of operand [N, D...] by indices
// [..., 1] (graph.Gather(x, idx)), of dtypes the row executors handle.
func gathersRows(node *simplego.Node, operand, indices shapes.Shape) bool {
	p := nodeParams(node)
	sliceSizes := ints(p, "sliceSizes")
	whole := len(sliceSizes) == operand.Rank() && operand.Rank() >= 1 && sliceSizes[0] == 1
	for axis := 1; whole && axis < operand.Rank(); axis++ {
		whole = sliceSizes[axis] == operand.Dim(axis)
	}
	return whole && supported(operand.DType, indices.DType) && rowForm(operand, indices, int(p.FieldByName("indexVectorAxis").Int()),
		ints(p, "offsetOutputAxes"), ints(p, "collapsedSlicesAxes"), ints(p, "startIndexMap"))
}

// scattersRows reports whether the ScatterSum node adds whole rows of updates into operand [N, D...]
// by indices [..., 1] (graph.ScatterSum(x, idx, updates)), of dtypes the row executors handle.
func scattersRows(node *simplego.Node, operand, indices shapes.Shape) bool {
	p := nodeParams(node)
	return supported(operand.DType, indices.DType) && rowForm(operand, indices, int(p.FieldByName("indexVectorAxis").Int()),
		ints(p, "updateWindowAxes"), ints(p, "insertedWindowAxes"), ints(p, "scatterAxesToOperandAxes"))
}

// gather is the Gather executor: a row copy per index when the op gathers whole rows, else
// simplego's own. A gather whose rows only a row scaling and a row sum use (fuse.go), or a dot of
// gathers (dots.go), is deferred to that sum.
func gather(backend *simplego.Backend, node *simplego.Node, inputs []*simplego.Buffer, inputsOwned []bool) (*simplego.Buffer, error) {
	operand, indices := shapeOf(backend, inputs[0]), shapeOf(backend, inputs[1])
	if !gathersRows(node, operand, indices) {
		return simplegoGather(backend, node, inputs, inputsOwned)
	}
	if f := fusionOf(node); f == chainStart || f == dotGathered {
		return deferGather(backend, inputs, inputsOwned, borrowed(backend, node)), nil
	}
	dims := append(indices.Clone().Dimensions[:indices.Rank()-1], operand.Dimensions[1:]...)
	output := backend.NewBuffer(shapes.Make(operand.DType, dims...))
	applyRows(gatherOp, dataOf(backend, output), dataOf(backend, inputs[0]), dataOf(backend, inputs[1]))
	return output, nil
}

// scatterSum is the ScatterSum executor: a row sum per index, in index order, when the op adds
// whole rows, else simplego's own. Updates deferred by gather and mul (fuse.go) are made and added
// a row at a time.
func scatterSum(backend *simplego.Backend, node *simplego.Node, inputs []*simplego.Buffer, inputsOwned []bool) (*simplego.Buffer, error) {
	operand, indices := shapeOf(backend, inputs[0]), shapeOf(backend, inputs[1])
	if !scattersRows(node, operand, indices) {
		return simplegoScatter(backend, node, inputs, inputsOwned)
	}
	output := takeOrCopy(backend, inputs, inputsOwned, 0)
	if d := takeDeferred(inputs[2]); d != nil {
		d.addTo(backend, dataOf(backend, output).([]float32), dataOf(backend, inputs[1]).([]int32))
		inputs[2] = nil
		return output, nil
	}
	applyRows(scatterAddOp, dataOf(backend, output), dataOf(backend, inputs[2]), dataOf(backend, inputs[1]))
	return output, nil
}

// takeOrCopy returns inputs[i] itself when the op owns it (then cleared from inputs, simplego's
// convention for a consumed input), else a copy of it.
func takeOrCopy(backend *simplego.Backend, inputs []*simplego.Buffer, inputsOwned []bool, i int) *simplego.Buffer {
	buf := inputs[i]
	if inputsOwned[i] {
		inputs[i] = nil
		return buf
	}
	out := backend.NewBuffer(shapeOf(backend, buf))
	reflect.Copy(reflect.ValueOf(dataOf(backend, out)), reflect.ValueOf(dataOf(backend, buf)))
	return out
}

// inParallel runs fn over [0, n) split into one range per core when the work (elements touched)
// is large, else in one call; fn must give each index the same results whatever the split.
func inParallel(n, work int, fn func(from, to int)) {
	workers := min(runtime.GOMAXPROCS(0), n)
	if work < 1<<20 || workers < 2 {
		fn(0, n)
		return
	}
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			fn(n*w/workers, n*(w+1)/workers)
		}()
	}
	wg.Wait()
}
