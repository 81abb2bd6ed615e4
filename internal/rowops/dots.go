package rowops

import (
	"errors"

	"github.com/gomlx/gomlx/backends"
	"github.com/gomlx/gomlx/backends/simplego"
	"github.com/gomlx/gomlx/pkg/core/dtypes"
	"github.com/gomlx/gomlx/pkg/core/shapes"
)

// The gradient of GAT's attention weights is a dot product per edge and head of two gathered rows:
// ReduceSum(Mul(Gather(a, i), Gather(b, j)), last axis), messages [E, heads, width] each (the
// adjoint of the weighted messages and the messages). simplego materialises both gathers and their
// product: on Squirrel (219,599 edges with the self-loops, 8 heads × 128 units) 0.9 GB each. When
// each gather's only use is the Mul, and the Mul's only use is such a ReduceSum, the gathers return
// stand-ins (fuse.go's deferGather), the Mul a stand-in holding both, and reduce computes each dot
// product from the rows in place: per element the product rounded, then added to a sum from 0,
// along the last axis, which is the order simplego's ReduceSum adds them in. The values are the
// unfused ones.

// deferredDot is a Mul of two deferred gathers (pieces of sub floats of rows of width floats) that
// its ReduceSum over the last axis has yet to run.
type deferredDot struct {
	a, b *deferredRows
	sub  int
	held []*simplego.Buffer // the stand-in
}

// planDot marks Mul m dotOfGathers and both its inputs dotGathered when both are row gathers whose
// only use (onlyUser) is m, of float32 rows by int32 indices [E, 1] into messages of m's shape,
// and m's only use is a ReduceSum over its last axis.
func planDot(m *simplego.Node, onlyUser func(*simplego.Node, backends.OpType) *simplego.Node, out []fusion) {
	r := onlyUser(m, backends.OpTypeReduceSum)
	product := nodeShape(m)
	if r == nil || product.Rank() < 2 || !isRange(intsData(r), product.Rank()-1, 1) {
		return
	}
	in := nodeInputs(m) // one gather on both sides has two uses, so onlyUser refuses it
	for _, g := range in {
		if opType(g) != backends.OpTypeGather || onlyUser(g, backends.OpTypeMul) != m || !gathersFloat32Rows(g) ||
			!nodeShape(g).Equal(product) {
			return
		}
	}
	out[nodeIndex(m)], out[nodeIndex(in[0])], out[nodeIndex(in[1])] = dotOfGathers, dotGathered, dotGathered
}

// deferDot returns the stand-in for a Mul of two gather stand-ins whose sum runs it.
func deferDot(backend *simplego.Backend, node *simplego.Node, inputs []*simplego.Buffer) (*simplego.Buffer, error) {
	a, b := takeDeferred(inputs[0]), takeDeferred(inputs[1])
	if a == nil || b == nil {
		return nil, errors.New("rowops: a Mul planned as a dot of gathers has no gather stand-ins as inputs")
	}
	inputs[0], inputs[1] = nil, nil // freed with the rows that hold them
	product := nodeShape(node)
	standIn := backend.NewBuffer(shapes.Make(dtypes.Float32, 1))
	products.Store(standIn, &deferredDot{a: a, b: b, sub: product.Dim(product.Rank() - 1), held: []*simplego.Buffer{standIn}})
	return standIn, nil
}

// sumInto writes out [E, pieces]: for every message e and piece h, Σ_k a[e, h, k] · b[e, h, k], k
// ascending from a sum of 0, a being row i[e] of the first gather's x (clamped to its rows, as
// Gather does) and b row j[e] of the second's (messages split over the cores: each sum is one
// goroutine's); then frees what d holds.
func (d *deferredDot) sumInto(backend *simplego.Backend, out []float32) {
	a, b, width := d.a, d.b, d.a.width
	lastA, lastB := len(a.x)/width-1, len(b.x)/width-1
	pieces := width / max(d.sub, 1)
	inParallel(len(a.src), len(a.src)*width, func(from, to int) {
		for e := from; e < to; e++ {
			ra := a.x[min(max(int(a.src[e]), 0), lastA)*width:][:width]
			rb := b.x[min(max(int(b.src[e]), 0), lastB)*width:][:width]
			dotPieces(out[e*pieces:(e+1)*pieces], ra, rb, d.sub)
		}
	})
	for _, held := range [][]*simplego.Buffer{a.held, b.held, d.held} {
		for _, buf := range held {
			_ = backend.BufferFinalize(buf) // pooled buffers of this execution: cannot fail
		}
	}
}

// dotPieces sets out[h] to the dot product of piece h (sub floats) of a and b, summed left to
// right from 0 with each product rounded; four pieces at a time, for independent additions.
func dotPieces(out, a, b []float32, sub int) {
	h := 0
	for ; h+4 <= len(out); h += 4 {
		a0, a1, a2, a3 := a[h*sub:][:sub], a[(h+1)*sub:][:sub], a[(h+2)*sub:][:sub], a[(h+3)*sub:][:sub]
		b0, b1, b2, b3 := b[h*sub:][:sub], b[(h+1)*sub:][:sub], b[(h+2)*sub:][:sub], b[(h+3)*sub:][:sub]
		var s0, s1, s2, s3 float32
		for k := range sub {
			s0 += float32(a0[k] * b0[k]) // the conversions round the products: never fused into FMAs
			s1 += float32(a1[k] * b1[k])
			s2 += float32(a2[k] * b2[k])
			s3 += float32(a3[k] * b3[k])
		}
		out[h], out[h+1], out[h+2], out[h+3] = s0, s1, s2, s3
	}
	for ; h < len(out); h++ {
		var s float32
		for k, v := range a[h*sub : (h+1)*sub] {
			s += float32(v * b[h*sub+k])
		}
		out[h] = s
	}
}
