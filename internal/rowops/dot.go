package rowops

import (
	"slices"

	"github.com/gomlx/gomlx/backends/simplego"
	"github.com/gomlx/gomlx/pkg/core/dtypes"
	"github.com/gomlx/gomlx/pkg/core/shapes"
)

// dotGeneral is the DotGeneral executor for float32 and float64: each output element is the dot
// product of a row of the normalised lhs [B, M, C] and a row of the normalised rhs [B, N, C], read
// in place when the operand's axes are already in that order. simplego copies both operands into
// zero-padded blocks of 32 × 32 first (it pads a contracting size of 16 to 32 and a cross size of
// 16 to 32), which dominated GeoMix-III's attention products. The additions are simplego's, in its
// order (dotRow), so results are bit-identical. Other dtypes go to simplego's executor.
func dotGeneral(backend *simplego.Backend, node *simplego.Node, inputs []*simplego.Buffer, inputsOwned []bool) (*simplego.Buffer, error) {
	lhsShape, rhsShape := shapeOf(backend, inputs[0]), shapeOf(backend, inputs[1])
	dtype := lhsShape.DType
	if dtype != dtypes.Float32 && dtype != dtypes.Float64 {
		return simplegoDotGeneral(backend, node, inputs, inputsOwned)
	}
	p := nodeParams(node)
	size := func(name string) int { return int(p.FieldByName(name).Int()) }
	d := dotDims{batch: size("batchSize"), m: size("lhsCrossSize"), n: size("rhsCrossSize"), c: size("contractingSize")}
	blockDim := 1 << simplego.DotGeneralTargetBlockLog2Dim[dtype]
	// simplego's choice of kernel (execDotGeneral), which fixes the order of the additions.
	d.blocked = d.m*d.n > 16*blockDim*blockDim
	output := backend.NewBuffer(shapes.Make(dtype, d.batch, d.m, d.n))
	lhsOrder := normalOrder(lhsShape.Rank(), ints(p, "lhsContractingAxes"), ints(p, "lhsBatchAxes"))
	rhsOrder := normalOrder(rhsShape.Rank(), ints(p, "rhsContractingAxes"), ints(p, "rhsBatchAxes"))
	operandShapes := [2]shapes.Shape{lhsShape, rhsShape}
	switch out := dataOf(backend, output).(type) {
	case []float32:
		switch {
		case d.c < 8: // simplego builds no product with an empty axis
			rhsOrder = rowsOrder(rhsOrder, len(ints(p, "rhsBatchAxes")), len(ints(p, "rhsContractingAxes")))
			withOperands(backend, inputs, operandShapes, [2][]int{lhsOrder, rhsOrder}, func(lhs, rhs []float32) { dotShortContraction(d, lhs, rhs, out) })
		case d.n >= 8 && lhsShape.Rank() == 2 && rhsShape.Rank() == 2 && slices.Equal(ints(p, "lhsContractingAxes"), []int{0}) &&
			slices.Equal(ints(p, "rhsContractingAxes"), []int{0}):
			dotLeadingContraction(d, dataOf(backend, inputs[0]).([]float32), dataOf(backend, inputs[1]).([]float32), out)
		case d.m >= 8 && d.m*d.c >= narrowLeadingMin && lhsShape.Rank() == 2 && rhsShape.Rank() == 2 &&
			slices.Equal(ints(p, "lhsContractingAxes"), []int{0}) && slices.Equal(ints(p, "rhsContractingAxes"), []int{0}):
			dotNarrowLeadingContraction(backend, d, dataOf(backend, inputs[0]).([]float32), dataOf(backend, inputs[1]).([]float32), out)
		default:
			withOperands(backend, inputs, operandShapes, [2][]int{lhsOrder, rhsOrder}, func(lhs, rhs []float32) { dotAll(d, lhs, rhs, out) })
		}
	case []float64:
		if d.c < 8 { // float64.go
			rhsOrder = rowsOrder(rhsOrder, len(ints(p, "rhsBatchAxes")), len(ints(p, "rhsContractingAxes")))
			withOperands(backend, inputs, operandShapes, [2][]int{lhsOrder, rhsOrder}, func(lhs, rhs []float64) { dotShortContraction64(d, lhs, rhs, out) })
			break
		}
		withOperands(backend, inputs, operandShapes, [2][]int{lhsOrder, rhsOrder}, func(lhs, rhs []float64) { dotAll(d, lhs, rhs, out) })
	}
	return output, nil
}

// withOperands calls product with the two operands (inputs, of operandShapes) normalised to
// orders, and then returns their copies, if any, to the backend's pool.
func withOperands[T float32 | float64](backend *simplego.Backend, inputs []*simplego.Buffer, operandShapes [2]shapes.Shape, orders [2][]int, product func(lhs, rhs []T)) {
	lhs, releaseLHS := normalized(backend, dataOf(backend, inputs[0]).([]T), operandShapes[0], orders[0])
	rhs, releaseRHS := normalized(backend, dataOf(backend, inputs[1]).([]T), operandShapes[1], orders[1])
	product(lhs, rhs)
	releaseLHS()
	releaseRHS()
}

// dotDims are a DotGeneral's normalised sizes: lhs [batch, m, c], rhs [batch, n, c], output
// [batch, m, n]; blocked is true where simplego runs its blocked kernel (else its "small" one).
type dotDims struct {
	batch, m, n, c int
	blocked        bool
}

// dotShortContraction computes out [batch, m, n] for a contraction shorter than 8 products (c <
// 8), from lhs [batch, m, c] and rhs [batch, c, n] (rowsOrder): every output row is the sum of the
// rhs rows scaled by its lhs row, a vector operation along n, where one dot per output element of
// fewer than 8 products was mostly call overhead (GeoMix-III's gradients of [N, 3] × [3, 16] or
// [N, 1] × [1, 16] products). Neither of simplego's kernels forms a group of eight below 8
// products: both add the products in k order to a sum that starts at +0 (the blocked one adds the
// group padded with zero products to +0, which changes no value that is not a zero, and the sum's
// zero is +0 either way), so this is sumScaledRows's order and the values are the same.
func dotShortContraction(d dotDims, lhs, rhs, out []float32) {
	for b := range d.batch {
		sumScaledRows(out[b*d.m*d.n:(b+1)*d.m*d.n], lhs[b*d.m*d.c:(b+1)*d.m*d.c], rhs[b*d.c*d.n:(b+1)*d.c*d.n], d.c, d.n)
	}
}

// dotLeadingContraction computes out [m, n] = lhsᵀ rhs for lhs [c, m] and rhs [c, n] contracted on
// their leading axis (weight gradients xᵀ v, GeoMix-III's k̃ᵀ h), reading both in place where the
// product of rows would transpose both and pack rhs (about half of a [19717, 256] weight
// gradient's time); dotGeneral takes it from n = 8 on, the vector kernels' width (below, the
// groups' fixed costs outweigh the transposes: [19717, 16]ᵀ [19717, 3] took 1.5 against 0.4 ms;
// dotNarrowLeadingContraction runs such products with the operands' roles swapped).
// simplego's order: for every group of eight rows of the operands, the eight products of each
// output are summed from the first (here from +0, the same value: a group's zero is added to a
// sum that is never −0) and the group is added to the output, which starts at +0; the last c mod
// 8 rows are one more group in the blocked kernel and added one at a time in the small one. A
// group is sumScaledRows of its rows, coefficients lhs's rows transposed into a tile, then added
// by the vector row sum (a scale of 1, which changes no value). Output rows are split over the
// cores, each summed by one goroutine in that order.
func dotLeadingContraction(d dotDims, lhs, rhs, out []float32) {
	clear(out)
	if leadingVec(d, lhs, rhs, out) {
		return
	}
	one, first := []float32{1}, []int32{0}
	inParallel(d.m, d.m*d.n*d.c, func(from, to int) {
		rows := to - from
		coef, sums := make([]float32, rows*8), make([]float32, rows*d.n)
		o := out[from*d.n : to*d.n]
		group := func(k, g int) { // adds the products of rows k … k+g−1
			for i := range rows {
				for t := range g {
					coef[i*g+t] = lhs[(k+t)*d.m+from+i]
				}
			}
			sumScaledRowRange(sums, coef[:rows*g], rhs[k*d.n:(k+g)*d.n], g, d.n, 0, rows)
			scaleAddRows(o, sums, one, first, first, len(o), len(o))
		}
		k := 0
		for ; k+8 <= d.c; k += 8 {
			group(k, 8)
		}
		switch {
		case k == d.c:
		case d.blocked:
			group(k, d.c-k)
		default:
			for ; k < d.c; k++ {
				group(k, 1)
			}
		}
	})
}

// narrowLeadingMin is the size of lhs [c, m] from which dotNarrowLeadingContraction beats the
// product of rows, whose transposed copy of lhs then dominates (BenchmarkDotGeneral's
// output-layer weight gradients: [2223, 128]ᵀ [2223, 5] 0.28 → 0.22 ms, [34493, 64]ᵀ [34493, 5]
// 1.9 → 1.2 ms; [2708, 16]ᵀ [2708, 7] 0.07 → 0.10 ms, hence the bound).
const narrowLeadingMin = 1 << 18

// dotNarrowLeadingContraction is dotLeadingContraction for a narrow rhs (n < 8, m ≥ 8: an output
// layer's weight gradient hᵀ g with g [N, C]): it computes outᵀ = rhsᵀ lhs [n, m], its vector rows
// along lhs's m, and transposes it into out. Each element is the same sum of the same products in
// the same order (a product's operands commute exactly), so the values are simplego's.
func dotNarrowLeadingContraction(backend *simplego.Backend, d dotDims, lhs, rhs, out []float32) {
	buf := backend.NewBuffer(shapes.Make(dtypes.Float32, d.n*d.m))
	outT := dataOf(backend, buf).([]float32)
	dotLeadingContraction(dotDims{batch: 1, m: d.n, n: d.m, c: d.c, blocked: d.blocked}, rhs, lhs, outT)
	// out[i, j] = outT[j, i]
	stridedCopy(out, outT, []int{d.m, d.n}, []int{1, d.m})
	_ = backend.BufferFinalize(buf) // a buffer of ours: cannot fail
}

// rowsOrder turns an operand's normalOrder [batch, cross, contracting] (numBatch batch axes,
// numContracting contracting axes) into [batch, contracting, cross]: rows along the contraction.
func rowsOrder(order []int, numBatch, numContracting int) []int {
	cross := order[numBatch : len(order)-numContracting]
	out := append(slices.Clone(order[:numBatch]), order[len(order)-numContracting:]...)
	return append(out, cross...)
}

// normalOrder is the order of an operand's axes in simplego's normalised layout [batch, cross,
// contracting]: the batch axes as given, the cross axes ascending, the contracting axes as given
// (their order is the order in which the contracting index runs, hence of the additions).
func normalOrder(rank int, contracting, batch []int) []int {
	kind := make([]int, rank) // 0 cross, 1 contracting, 2 batch
	for _, a := range contracting {
		kind[a] = 1
	}
	for _, a := range batch {
		kind[a] = 2
	}
	order := append([]int{}, batch...)
	for a := range rank {
		if kind[a] == 0 {
			order = append(order, a)
		}
	}
	return append(order, contracting...)
}

// normalized returns flat (of shape) with its axes in order, row-major, and release: flat itself
// and a no-op when order is the identity, else a transposed copy in a buffer of backend's pool,
// which release returns to it. Pooled buffers are reused from step to step, where a fresh slice
// faulted its pages in at every product (a third of a transposed [19717, 83] operand's time).
func normalized[T float32 | float64](backend *simplego.Backend, flat []T, shape shapes.Shape, order []int) ([]T, func()) {
	identity := true
	for i, a := range order {
		identity = identity && i == a
	}
	if identity {
		return flat, func() {}
	}
	buf := backend.NewBuffer(shapes.Make(shape.DType, len(flat)))
	out := dataOf(backend, buf).([]T)
	dims, steps := permuted(shape, order)
	stridedCopy(out, flat, dims, steps)
	return out, func() { _ = backend.BufferFinalize(buf) } // a buffer of ours: cannot fail
}

// dotChunk is how much of the contracting axis dotAll takes at a time, a multiple of 8 so that
// simplego's groups of eight products stay whole: a row of lhs and the rows of rhs it meets stay
// in cache.
const dotChunk = 512

// dotAll computes out [batch, m, n] = lhs [batch, m, c] · rhs [batch, n, c]ᵀ, splitting the lhs
// rows of large products over the cores (every element is summed by one goroutine in the same
// order, so the split does not change the numbers). Where vectorDot has kernels they sum the
// groups of eight of every output (in the blocked kernel also the padded tail group), and dotRows
// the rest.
func dotAll[T float32 | float64](d dotDims, lhs, rhs, out []T) {
	clear(out)
	vec, release := vectorDot(d, any(lhs), any(rhs), any(out))
	defer release()
	inParallel(d.batch*d.m, d.m*d.n*d.c, func(from, to int) { dotRows(d, vec, lhs, rhs, out, from, to) })
}

// dotRows computes the output rows [from, to) of dotAll (row r is batch r / m, lhs row r % m):
// vec's part first when there is one, then the rest of the contracting axis by dotRow.
func dotRows[T float32 | float64](d dotDims, vec func(from, to int) int, lhs, rhs, out []T, from, to int) {
	start := 0
	if vec != nil {
		start = vec(from, to)
	}
	for c0 := start; c0 < d.c; c0 += dotChunk {
		c1 := min(c0+dotChunk, d.c)
		for r := from; r < to; r++ {
			a := lhs[r*d.c+c0 : r*d.c+c1]
			rhsBatch := (r / d.m) * d.n * d.c
			o := out[r*d.n : (r+1)*d.n]
			for j := range o {
				o[j] = dotRow(o[j], a, rhs[rhsBatch+j*d.c+c0:rhsBatch+j*d.c+c1], c1 == d.c && d.blocked)
			}
		}
	}
}

// dotRow returns sum + a·b in simplego's order: groups of eight products, each summed left to
// right, added to sum one group at a time; then the last len(a) % 8 products (only in the last
// chunk of the contracting axis). simplego's small kernel adds those one at a time. Its blocked
// kernel (blockedTail) adds them as one more group of eight, padded with zero products, and then
// all-zero groups up to its block size, which dotRow leaves out: sum + (+0) is sum, as sum starts
// at +0 and so is never −0.
func dotRow[T float32 | float64](sum T, a, b []T, blockedTail bool) T {
	k := 0
	for ; k+7 < len(a); k += 8 {
		sum += a[k]*b[k] + a[k+1]*b[k+1] + a[k+2]*b[k+2] + a[k+3]*b[k+3] +
			a[k+4]*b[k+4] + a[k+5]*b[k+5] + a[k+6]*b[k+6] + a[k+7]*b[k+7]
	}
	if k == len(a) {
		return sum
	}
	if blockedTail {
		var x, y [8]T
		copy(x[:], a[k:])
		copy(y[:], b[k:])
		return sum + (x[0]*y[0] + x[1]*y[1] + x[2]*y[2] + x[3]*y[3] + x[4]*y[4] + x[5]*y[5] + x[6]*y[6] + x[7]*y[7])
	}
	for ; k < len(a); k++ {
		sum += a[k] * b[k]
	}
	return sum
}
