package rowops

import (
	"reflect"
	"runtime"
	"slices"
	"sync"
	"weak"

	"github.com/gomlx/gomlx/backends"
	"github.com/gomlx/gomlx/backends/simplego"
	"github.com/gomlx/gomlx/pkg/core/dtypes"
	"github.com/gomlx/gomlx/pkg/core/shapes"
)

// Message passing Â x and sparse products are a chain of three ops: Gather(x [N, D], src [E, 1])
// makes messages [E, D], Mul scales their rows by a column w [E, 1] (or pieces of their rows, as
// GAT's attention [E, heads, 1] scales messages [E, heads, width]), and ScatterSum adds them to
// rows dst [E, 1] of its operand. simplego materialises both [E, D] tensors, three passes over
// memory much larger than x. When a row Gather's only use is a Mul scaling its rows, and that
// Mul's only use is a row ScatterSum's updates (float32 values, int32 indices), the chain is
// fused: gather returns a stand-in buffer that holds x and src, mul adds w to it, and scatterSum
// adds x[src[e]] · w[e] to row dst[e] of its output, one message at a time in the order of e. Each
// element gets the same two roundings, the product and then the sum, in the same order, so the
// values are the unfused ones. Uses are counted as simplego counts them (Executable.numUses), per
// compiled builder, once.

// deferredRows is a gather, and then its row scaling, that scatterSum has yet to add: messages
// x[src[e]], rows of width floats, each piece of sub floats times its own scale (scale nil until
// mul sets it).
type deferredRows struct {
	x, scale   []float32
	src        []int32
	width, sub int
	held       []*simplego.Buffer // taken or copied inputs and the stand-in, freed once added
}

// deferred maps each stand-in buffer to its deferred rows, from gather to scatterSum.
var deferred sync.Map // *simplego.Buffer → *deferredRows

// fusion is what a node's executor runs fused, per the plan of its builder.
type fusion uint8

const (
	notFused        fusion = iota
	chainStart             // a Gather starting a chain Gather → Mul → ScatterSum, run by scatterSum
	broadcastSummed        // a BroadcastInDim whose every use is a product summed fused (sums.go)
	sumOverZ               // a Mul of such a broadcast, summed over its last axis by reduce
	sumOverP               // a Mul of such a broadcast, summed over its first axis by reduce
	dotGathered            // a Gather whose rows a dot of gathers reads (dots.go)
	dotOfGathers           // a Mul of two such gathers, summed over its last axis by reduce
	scalarBroadcast        // a BroadcastInDim of one value whose uses all take it as a scalar (scalar.go)
)

// plan is what fusions found in a compiled builder: each node's fusion and its number of uses,
// and per node of a chain which of its inputs may be held by reference (bit k: input k) when the
// backend runs one op at a time (see borrowable).
type plan struct {
	fusion []fusion
	uses   []int
	borrow []uint8
}

// plans holds the plan of each compiled simplego builder.
var plans sync.Map // weak.Pointer[simplego.Builder] → plan

// fusionOf returns what node's executor runs fused.
func fusionOf(node *simplego.Node) fusion { return planOf(node).fusion[nodeIndex(node)] }

// planOf returns the plan of node's builder, made on first use.
func planOf(node *simplego.Node) plan {
	b := (*simplego.Builder)(nodeField(node, "builder").UnsafePointer())
	key := weak.Make(b)
	p, ok := plans.Load(key)
	if !ok {
		if p, ok = plans.LoadOrStore(key, fusions(b)); !ok {
			runtime.AddCleanup(b, func(k weak.Pointer[simplego.Builder]) { plans.Delete(k) }, key)
		}
	}
	return p.(plan)
}

// fusions plans b: the fusion of every node, counting uses the way simplego's Executable does:
// once per output and once per input of every node the outputs depend on. A node is fused only
// when every use of its result is by an op that runs it.
func fusions(b *simplego.Builder) plan {
	bv := reflect.ValueOf(b).Elem()
	all, outputs := nodesOf(bv.FieldByName("nodes")), nodesOf(bv.FieldByName("outputs"))
	uses, users := make([]int, len(all)), make([][]*simplego.Node, len(all))
	var count func(n *simplego.Node)
	count = func(n *simplego.Node) {
		i := nodeIndex(n)
		if uses[i]++; uses[i] == 1 {
			for _, input := range nodeInputs(n) {
				users[nodeIndex(input)] = append(users[nodeIndex(input)], n)
				count(input)
			}
		}
	}
	for _, n := range outputs {
		count(n)
	}
	onlyUser := func(n *simplego.Node, op backends.OpType) *simplego.Node {
		if i := nodeIndex(n); uses[i] == 1 && len(users[i]) == 1 && opType(users[i][0]) == op {
			return users[i][0]
		}
		return nil
	}
	out, borrow := make([]fusion, len(all)), make([]uint8, len(all))
	for i, n := range all {
		switch opType(n) {
		case backends.OpTypeGather:
			if m := onlyUser(n, backends.OpTypeMul); m != nil {
				if s := onlyUser(m, backends.OpTypeScatterSum); s != nil && fusable(n, m, s) {
					out[i] = chainStart
					borrow[i] = borrowable(n, s, users)
					borrow[nodeIndex(m)] = borrowable(m, s, users)
				}
			}
		case backends.OpTypeBroadcastInDim:
			planSums(n, uses[i], users[i], onlyUser, out)
		case backends.OpTypeMul:
			planDot(n, onlyUser, out)
		}
	}
	planScalars(all, uses, users, out)
	return plan{fusion: out, uses: uses, borrow: borrow}
}

// borrowable returns the inputs of chain node n (its gather or its mul) that the chain may hold by
// reference until scatter s adds the messages, in an execution that runs one op at a time in the
// builder's order (bit k: input k): those no other op uses after n up to s. simplego frees (or
// reuses as an output) an input only at an op that uses it, so nothing touches them before s has
// read them; held otherwise, they are copied (takeOrCopy), as an op in parallel could free them
// at any time.
func borrowable(n, s *simplego.Node, users [][]*simplego.Node) uint8 {
	var bits uint8
	from, to := nodeIndex(n), nodeIndex(s)
	for k, input := range nodeInputs(n) {
		if !slices.ContainsFunc(users[nodeIndex(input)], func(u *simplego.Node) bool {
			i := nodeIndex(u)
			return u != n && i > from && i <= to // s itself may write its output over an input it owns
		}) {
			bits |= 1 << k
		}
	}
	return bits
}

// borrowed returns the inputs of node that its chain may hold by reference in this execution: its
// plan's (borrowable) when backend runs every execution one op at a time, else none.
func borrowed(backend *simplego.Backend, node *simplego.Node) uint8 {
	if !sequentialOps(backend) {
		return 0
	}
	return planOf(node).borrow[nodeIndex(node)]
}

// sequentialOps reports whether backend runs every execution one op at a time in the builder's
// order (simplego's "ops_sequential"), read from its unexported opsExecutionType.
func sequentialOps(backend *simplego.Backend) bool {
	f := reflect.ValueOf(backend).Elem().FieldByName("opsExecutionType")
	return f.IsValid() && f.Int() == simplegoOpsSequential
}

// simplegoOpsSequential is simplego v0.26's opsExecutionSequential.
const simplegoOpsSequential = 2

// fusable reports whether gather g, scaled by mul m and summed by scatter s (m being s's updates),
// are of the forms the fused kernel runs: float32 rows of x [N, D...] by int32 indices [E, 1], a
// float32 column [E, D'..., 1...] scaling pieces of the messages [E, D...], and a row sum into an
// operand of x's row width.
func fusable(g, m, s *simplego.Node) bool {
	gIn, mIn, sIn := nodeInputs(g), nodeInputs(m), nodeInputs(s)
	x, src, messages := nodeShape(gIn[0]), nodeShape(gIn[1]), nodeShape(g)
	column := mIn[0]
	if column == g {
		column = mIn[1]
	}
	w := nodeShape(column)
	operand, dst := nodeShape(sIn[0]), nodeShape(sIn[1])
	return sIn[2] == m && gathersFloat32Rows(g) && w.DType == dtypes.Float32 && w.Dim(0) == src.Dim(0) && scalesRows(messages, w) &&
		operand.DType == dtypes.Float32 && dst.DType == dtypes.Int32 && dst.Rank() == 2 && dst.Dim(0) == src.Dim(0) &&
		scattersRows(s, operand, dst) && operand.Size()/operand.Dim(0) == x.Size()/x.Dim(0)
}

// gathersFloat32Rows reports whether Gather g picks whole float32 rows by int32 indices [E, 1], the
// form whose rows the fused kernels read in place.
func gathersFloat32Rows(g *simplego.Node) bool {
	in := nodeInputs(g)
	x, idx := nodeShape(in[0]), nodeShape(in[1])
	return x.DType == dtypes.Float32 && idx.DType == dtypes.Int32 && idx.Rank() == 2 && gathersRows(g, x, idx)
}

// deferGather returns the stand-in for a chain's gather of rows inputs[1] of inputs[0], holding
// both.
func deferGather(backend *simplego.Backend, inputs []*simplego.Buffer, inputsOwned []bool, borrow uint8) *simplego.Buffer {
	d := &deferredRows{}
	x, src := d.hold(backend, inputs, inputsOwned, 0, borrow), d.hold(backend, inputs, inputsOwned, 1, borrow)
	xShape := shapeOf(backend, x)
	d.x, d.src, d.width = dataOf(backend, x).([]float32), dataOf(backend, src).([]int32), xShape.Size()/xShape.Dim(0)
	standIn := backend.NewBuffer(shapes.Make(dtypes.Float32, 1))
	d.held = append(d.held, standIn)
	deferred.Store(standIn, d)
	return standIn
}

// deferScale adds the row scaling to a chain's stand-in when one of the Mul's inputs is one, and
// returns it as the Mul's output; nil otherwise.
func deferScale(backend *simplego.Backend, inputs []*simplego.Buffer, inputsOwned []bool, borrow uint8) *simplego.Buffer {
	for i, in := range inputs {
		v, ok := deferred.Load(in)
		if !ok {
			continue
		}
		d := v.(*deferredRows)
		d.scale = dataOf(backend, d.hold(backend, inputs, inputsOwned, 1-i, borrow)).([]float32)
		d.sub = d.width
		if len(d.src) > 0 {
			d.sub = d.width / (len(d.scale) / len(d.src))
		}
		inputs[i] = nil // consumed: it is the output
		return in
	}
	return nil
}

// takeDeferred returns and forgets the deferred rows of a stand-in, nil for any other buffer.
func takeDeferred(buf *simplego.Buffer) *deferredRows {
	if v, ok := deferred.LoadAndDelete(buf); ok {
		return v.(*deferredRows)
	}
	return nil
}

// hold keeps inputs[i] for later: by reference when bit i of borrow says no op frees it before
// scatterSum runs (borrowed), else taken or copied (takeOrCopy), since a buffer's later uses could
// free it before then.
func (d *deferredRows) hold(backend *simplego.Backend, inputs []*simplego.Buffer, inputsOwned []bool, i int, borrow uint8) *simplego.Buffer {
	if borrow&(1<<i) != 0 && !inputsOwned[i] {
		return inputs[i]
	}
	buf := takeOrCopy(backend, inputs, inputsOwned, i)
	d.held = append(d.held, buf)
	return buf
}

// addTo adds the messages to rows dst of out (rows of d.width floats) and frees what d holds.
func (d *deferredRows) addTo(backend *simplego.Backend, out []float32, dst []int32) {
	scaleAddRows(out, d.x, d.scale, d.src, dst, d.width, d.sub)
	for _, buf := range d.held {
		_ = backend.BufferFinalize(buf) // pooled buffers of this execution: cannot fail
	}
}

// scaleAddRows adds row src[e] of x (clamped to x's rows, as Gather does) to row dst[e] of out,
// each piece of sub floats times its own scale (scale[e·width/sub + s] for piece s), in the order
// of e, skipping dst outside out's rows (as ScatterSum does); rows of width floats. A large
// scatter (inParallel's work: three floats touched per message and column) that runs alone (no
// other executor of ours in progress) splits out's rows into one range per core: each range scans
// every message and adds those to its rows in the order of e, so every row's sum is the same.
// The scans add work, which pays only on cores no other op uses: split beside other ops,
// GeoMix-III's epoch on Physics took a tenth longer; alone, GCN's on Physics and Twitch (chains
// of propagations) take about a sixth less.
func scaleAddRows(out, x, scale []float32, src, dst []int32, width, sub int) {
	work := 3 * len(dst) * width
	if !alone() {
		work = 0
	}
	inParallel(len(out)/width, work, func(from, to int) {
		scaleAddRowRange(out[from*width:to*width], x, scale, src, dst, width, sub, from)
	})
}

// scaleAddRowRange is scaleAddRows for rows [lo, lo + len(out)/width) of the output, which out
// holds: the messages to other rows are skipped. The vector kernel where there is one, else a loop.
func scaleAddRowRange(out, x, scale []float32, src, dst []int32, width, sub, lo int) {
	if scaleAddRowsVec(out, x, scale, src, dst, width, sub, lo) {
		return
	}
	rows, last, pieces := len(out)/width, len(x)/width-1, width/sub
	for e, j := range dst {
		j := int(j) - lo
		if j < 0 || j >= rows {
			continue
		}
		row := min(max(int(src[e]), 0), last)
		o, r := out[j*width:(j+1)*width], x[row*width:(row+1)*width]
		for k := range o {
			o[k] += float32(r[k] * scale[e*pieces+k/sub]) // the conversion rounds the product: never fused into an FMA
		}
	}
}

// nodesOf reads v, a []*simplego.Node field of simplego's unexported structs.
func nodesOf(v reflect.Value) []*simplego.Node {
	out := make([]*simplego.Node, v.Len())
	for i := range out {
		out[i] = (*simplego.Node)(v.Index(i).UnsafePointer())
	}
	return out
}

// nodeInputs returns node's inputs.
func nodeInputs(node *simplego.Node) []*simplego.Node { return nodesOf(nodeField(node, "inputs")) }

// nodeIndex returns node's index in its builder.
func nodeIndex(node *simplego.Node) int { return int(nodeField(node, "builderIdx").Int()) }

// opType returns node's op.
func opType(node *simplego.Node) backends.OpType {
	return backends.OpType(nodeField(node, "opType").Int())
}
