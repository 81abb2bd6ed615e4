package rowops

import (
	"errors"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/gomlx/gomlx/backends"
	"github.com/gomlx/gomlx/backends/simplego"
	"github.com/gomlx/gomlx/pkg/core/dtypes"
	"github.com/gomlx/gomlx/pkg/core/shapes"
)

// GoMLX's gradient of a product a [P, Q] · b [Q, Z] (DotGeneral's VJP) broadcasts the adjoint
// v [P, Z] to V [P, Q, Z] (V[p, q, z] = v[p, z]), multiplies it by each operand and sums:
//
//	∂a = ReduceSum(Mul(V, bᵀ as [1, Q, Z]), axis 2)  [P, Q]: ∂a[p, q] = Σ_z v[p, z] · b[q, z]
//	∂b = ReduceSum(Mul(V, a as [P, Q, 1]), axis 0)   [Q, Z]: ∂b[q] = Σ_p a[p, q] · v[p]
//
// simplego materialises V and both products, [P, Q, Z] each: 9 GB for a layer of GAT's 8 heads ×
// 128 units on Squirrel's 2,223 nodes. When every use of such a broadcast is a Mul of one of these
// forms whose only use is its ReduceSum, the broadcast returns a stand-in holding v, each Mul a
// stand-in holding v and its other operand, and reduce computes the sums directly, as sums of
// scaled rows (sumScaledRows): per element the product rounded, then added to a sum from 0 in the
// flat order of the product, which is the order simplego's ReduceSum adds them in. The values are
// the unfused ones (a product of two NaNs may keep the other's payload).

// broadcastRows is a broadcast V [P, Q, Z] of v [P, 1, Z] that its products have yet to read.
type broadcastRows struct {
	v       []float32
	p, q, z int
	buf     *simplego.Buffer
	pending atomic.Int32 // Muls yet to take it: the last forgets its stand-in
	refs    atomic.Int32 // products yet to be summed: the last frees buf
}

// deferredProduct is a Mul of a broadcast that its ReduceSum has yet to run: V times other, y
// [1, Q, Z] (sumOverZ) or c [P, Q, 1] (sumOverP).
type deferredProduct struct {
	v     *broadcastRows
	other []float32
	f     fusion
	held  []*simplego.Buffer // the other operand (taken or copied) and the stand-in
}

// deferredSum is a Mul whose ReduceSum runs it: sumInto writes the sum into the reduction's
// output and frees what the Mul held.
type deferredSum interface {
	sumInto(backend *simplego.Backend, out []float32)
}

var (
	broadcasts sync.Map // stand-in *simplego.Buffer → *broadcastRows, from broadcastInDim to mul
	products   sync.Map // stand-in *simplego.Buffer → deferredSum, from mul to reduce
)

// planSums marks broadcast n (with its uses and users) broadcastSummed and its Muls sumOverZ or
// sumOverP when n repeats v [P, 1, Z] over axis 1 and every use is a Mul of one of the forms,
// whose only use (onlyUser) is its ReduceSum; it leaves out as it is otherwise.
func planSums(n *simplego.Node, uses int, users []*simplego.Node, onlyUser func(*simplego.Node, backends.OpType) *simplego.Node, out []fusion) {
	v, vv := nodeShape(nodeInputs(n)[0]), nodeShape(n)
	if v.DType != dtypes.Float32 || v.Rank() != 3 || v.Dim(1) != 1 || !slices.Equal(intsData(n), []int{0, 1, 2}) ||
		vv.Dim(0) != v.Dim(0) || vv.Dim(2) != v.Dim(2) || uses != len(users) {
		return
	}
	forms := make([]fusion, len(users))
	for i, m := range users {
		in := nodeInputs(m)
		r := onlyUser(m, backends.OpTypeReduceSum)
		if opType(m) != backends.OpTypeMul || r == nil || (in[0] == n) == (in[1] == n) {
			return
		}
		other := in[0]
		if other == n {
			other = in[1]
		}
		if forms[i] = productForm(vv, nodeShape(other), intsData(r)); forms[i] == notFused || slices.Contains(users[:i], m) {
			return
		}
	}
	out[nodeIndex(n)] = broadcastSummed
	for i, m := range users {
		out[nodeIndex(m)] = forms[i]
	}
}

// productForm returns the fusion of V [P, Q, Z] times other summed over axes: sumOverZ for other
// [1, Q, Z] over axis 2, sumOverP for other [P, Q, 1] over axis 0, notFused otherwise.
func productForm(vv, other shapes.Shape, axes []int) fusion {
	p, q, z := vv.Dim(0), vv.Dim(1), vv.Dim(2)
	switch {
	case other.DType != dtypes.Float32:
	case slices.Equal(axes, []int{2}) && slices.Equal(other.Dimensions, []int{1, q, z}):
		return sumOverZ
	case slices.Equal(axes, []int{0}) && slices.Equal(other.Dimensions, []int{p, q, 1}):
		return sumOverP
	}
	return notFused
}

// deferBroadcast returns the stand-in for a broadcast its products sum, holding v.
func deferBroadcast(backend *simplego.Backend, node *simplego.Node, inputs []*simplego.Buffer, inputsOwned []bool) *simplego.Buffer {
	vv := nodeShape(node)
	b := &broadcastRows{buf: takeOrCopy(backend, inputs, inputsOwned, 0), p: vv.Dim(0), q: vv.Dim(1), z: vv.Dim(2)}
	b.v = dataOf(backend, b.buf).([]float32)
	users := int32(planOf(node).uses[nodeIndex(node)])
	b.pending.Store(users)
	b.refs.Store(users)
	standIn := backend.NewBuffer(shapes.Make(dtypes.Float32, 1))
	broadcasts.Store(standIn, b)
	return standIn
}

// deferProduct returns the stand-in for a Mul of fusion f of a broadcast stand-in, holding both
// operands.
func deferProduct(backend *simplego.Backend, f fusion, inputs []*simplego.Buffer, inputsOwned []bool) (*simplego.Buffer, error) {
	bi := 0
	v, ok := broadcasts.Load(inputs[0])
	if !ok {
		bi = 1
		if v, ok = broadcasts.Load(inputs[1]); !ok {
			return nil, errors.New("rowops: a Mul planned to be summed fused has no broadcast stand-in among its inputs")
		}
	}
	b := v.(*broadcastRows)
	if b.pending.Add(-1) == 0 {
		broadcasts.Delete(inputs[bi]) // simplego frees or reuses the stand-in after its last use
	}
	other := takeOrCopy(backend, inputs, inputsOwned, 1-bi)
	standIn := backend.NewBuffer(shapes.Make(dtypes.Float32, 1))
	products.Store(standIn, &deferredProduct{v: b, other: dataOf(backend, other).([]float32), f: f,
		held: []*simplego.Buffer{other, standIn}})
	return standIn, nil
}

// takeProduct returns and forgets the deferred sum of a stand-in, nil for any other buffer.
func takeProduct(buf *simplego.Buffer) deferredSum {
	if v, ok := products.LoadAndDelete(buf); ok {
		return v.(deferredSum)
	}
	return nil
}

// sumInto writes the product's sum into out, [P, Q] over Z or [Q, Z] over P, and frees what d
// holds (and v after its last product).
func (d *deferredProduct) sumInto(backend *simplego.Backend, out []float32) {
	b := d.v
	if d.f == sumOverZ { // out [P, Q] = v [P, Z] · (yᵀ [Z, Q])
		yT, release := transposed(backend, d.other, b.q, b.z)
		sumScaledRows(out, b.v, yT, b.z, b.q)
		release()
	} else { // out [Q, Z] = cᵀ [Q, P] · v [P, Z]
		cT, release := transposed(backend, d.other, b.p, b.q)
		sumScaledRows(out, cT, b.v, b.p, b.z)
		release()
	}
	for _, buf := range d.held {
		_ = backend.BufferFinalize(buf) // pooled buffers of this execution: cannot fail
	}
	if b.refs.Add(-1) == 0 {
		_ = backend.BufferFinalize(b.buf)
	}
}

// transposed returns x [rows, cols] transposed, [cols, rows], in a pooled buffer, and the func that
// returns it to backend's pool.
func transposed(backend *simplego.Backend, x []float32, rows, cols int) ([]float32, func()) {
	return normalized(backend, x, shapes.Make(dtypes.Float32, rows, cols), []int{1, 0})
}

// sumScaledRows sets out [M, z] to coef [M, k] · y [k, z]: row i is Σ_j coef[i, j] · y[j] over j
// ascending, each product rounded and added to a sum that starts at 0. Rows are split over the
// cores for large products (each row by one goroutine, so the numbers do not change); the vector
// kernel does the whole groups of eight columns where there is one, a loop the rest.
func sumScaledRows(out, coef, y []float32, k, z int) {
	m := len(out) / z
	inParallel(m, m*k*z, func(from, to int) { sumScaledRowRange(out, coef, y, k, z, from, to) })
}

// sumScaledRowRange is sumScaledRows for the rows [from, to) of out, in the calling goroutine.
func sumScaledRowRange(out, coef, y []float32, k, z, from, to int) {
	done := sumScaledRowsVec(out[from*z:to*z], coef[from*k:to*k], y, k, z)
	for i := from; i < to; i++ {
		o, c := out[i*z+done:(i+1)*z], coef[i*k:(i+1)*k]
		clear(o)
		for j, cj := range c {
			yj := y[j*z+done : (j+1)*z]
			for col := range o {
				o[col] += float32(cj * yj[col]) // coef · y, as the kernel; the conversion rounds the product: never fused into an FMA
			}
		}
	}
}
