package rowops

import (
	"sync"

	"golang.org/x/sys/cpu"
)

// useAVX2 is whether the vector kernels of vec_amd64.s run; tests switch it off to compare them
// with the portable loops.
var useAVX2 = cpu.X86.HasAVX2

// mulAVX sets out[i] = a[i] · b[i] for i < len(out) &^ 7 (b and a at least as long).
//
//go:noescape
func mulAVX(out, a, b []float32)

// scatterAddRows32 adds row i of updates to row idx[i] of out, in the order of idx, skipping
// indices outside out's rows (rows of width > 0 floats).
//
//go:noescape
func scatterAddRows32(out, updates []float32, idx []int32, width int)

// gatherRows32 copies row idx[i] of src, clamped to src's rows (at least one), into row i of out
// (rows of width > 0 floats).
//
//go:noescape
func gatherRows32(out, src []float32, idx []int32, width int)

// scaleRows32 sets row r of out to row r of x times scale[r] (rows of width floats); out may be x.
//
//go:noescape
func scaleRows32(out, x, scale []float32, width int)

// scaleAddRows32 adds row src[e] of x (clamped to x's rows, at least one) to row dst[e] of out,
// each of its pieces of sub floats times its own scale (scale[e·width/sub + s] for piece s), in
// the order of e, skipping dst outside out's rows (rows of width > 0 floats, sub > 0 dividing
// width; out holds rows [lo, lo + len(out)/width) of the output): per element a product
// x·scale, then a sum out + product, each rounded. It prefetches the rows of message e + ahead
// while adding message e (none for ahead ≥ len(dst), nor for a message to another row).
//
//go:noescape
func scaleAddRows32(out, x, scale []float32, src, dst []int32, width, sub, ahead, lo int)

// selectAVX sets out[i] to t's element where c[i], else f's, for i < n &^ 7, eight at a time; t
// and f advance tStep and fStep bytes per eight (0 for eight copies of a repeated value).
//
//go:noescape
func selectAVX(out *float32, c *bool, t *float32, tStep uintptr, f *float32, fStep uintptr, n int)

// signAVX sets out[i] to 1 where x[i] > 0, −1 where x[i] < 0, else +0, for i < len(out) &^ 7.
//
//go:noescape
func signAVX(out, x []float32)

// arithAVX sets out[i] = a[i] op b[i] (op 0 add, 1 subtract, 2 divide) for i < n &^ 7, eight at a
// time; a and b advance aStep and bStep bytes per eight (0 for eight copies of one value).
//
//go:noescape
func arithAVX(op int, out, a *float32, aStep uintptr, b *float32, bStep uintptr, n int)

// arithVec runs arithAVX on a prefix of out (see elementwise) and returns its length.
func arithVec(op arithOp, out, a, b []float32) int {
	var r vecReps
	n, ap, aStep, bp, bStep := r.operands(len(out), a, b)
	if n > 0 {
		arithAVX(int(op), &out[0], ap, aStep, bp, bStep, n)
	}
	return n
}

// minMaxAVX sets out[i] = min(a[i], b[i]), or max with isMax 1, as Go's builtins compile on
// amd64, for i < n &^ 7; a and b advance aStep and bStep bytes per eight.
//
//go:noescape
func minMaxAVX(isMax int, out, a *float32, aStep uintptr, b *float32, bStep uintptr, n int)

// absAVX sets out[i] = −x[i] where x[i] < 0, else x[i], for i < len(out) &^ 7.
//
//go:noescape
func absAVX(out, x []float32)

// lessEqAVX sets out[i] = a[i] <= b[i] for i < n &^ 7; a and b advance aStep and bStep bytes
// per eight.
//
//go:noescape
func lessEqAVX(out *bool, a *float32, aStep uintptr, b *float32, bStep uintptr, n int)

// uint32ToFloat32AVX sets out[i] = float32(x[i]) for i < len(out) &^ 7.
//
//go:noescape
func uint32ToFloat32AVX(out []float32, x []uint32)

// minMaxVec runs minMaxAVX on a prefix of out and returns its length.
func minMaxVec(isMax bool, out, a, b []float32) int {
	var r vecReps
	n, ap, aStep, bp, bStep := r.operands(len(out), a, b)
	if n > 0 {
		flag := 0
		if isMax {
			flag = 1
		}
		minMaxAVX(flag, &out[0], ap, aStep, bp, bStep, n)
	}
	return n
}

// lessEqVec runs lessEqAVX on a prefix of out and returns its length.
func lessEqVec(out []bool, a, b []float32) int {
	var r vecReps
	n, ap, aStep, bp, bStep := r.operands(len(out), a, b)
	if n > 0 {
		lessEqAVX(&out[0], ap, aStep, bp, bStep, n)
	}
	return n
}

// absVec runs absAVX on a prefix of out and returns its length.
func absVec(out, x []float32) int {
	if !useAVX2 {
		return 0
	}
	absAVX(out, x[:len(out)])
	return len(out) &^ 7
}

// uint32ToFloat32Vec runs uint32ToFloat32AVX on a prefix of out and returns its length.
func uint32ToFloat32Vec(out []float32, x []uint32) int {
	if !useAVX2 {
		return 0
	}
	uint32ToFloat32AVX(out, x[:len(out)])
	return len(out) &^ 7
}

// vecReps holds the eight copies of a single-value operand that a kernel of two operands reads
// eight at a time.
type vecReps struct{ a, b [8]float32 }

// operands returns how many of n outputs a kernel of two operands makes (n &^ 7, 0 without AVX2)
// and where it reads a and b (see vecOperand).
func (r *vecReps) operands(n int, a, b []float32) (int, *float32, uintptr, *float32, uintptr) {
	if !useAVX2 || n < 8 {
		return 0, nil, 0, nil, 0
	}
	ap, aStep := vecOperand(a, &r.a)
	bp, bStep := vecOperand(b, &r.b)
	return n &^ 7, ap, aStep, bp, bStep
}

// vecOperand returns where a kernel reads v eight at a time and how many bytes it advances per
// eight: v itself, or for a single value eight copies of it in rep (0 bytes).
func vecOperand(v []float32, rep *[8]float32) (*float32, uintptr) {
	if len(v) == 1 {
		*rep = [8]float32{v[0], v[0], v[0], v[0], v[0], v[0], v[0], v[0]}
		return &rep[0], 0
	}
	return &v[0], 32
}

// selectVec runs selectAVX on a prefix of out (see selectBits) and returns its length.
func selectVec(out []float32, c []bool, t, f []float32) int {
	var r vecReps
	n, ap, aStep, bp, bStep := r.operands(len(out), t, f)
	if n > 0 {
		selectAVX(&out[0], &c[0], ap, aStep, bp, bStep, n)
	}
	return n
}

// signVec runs signAVX on a prefix of out and returns its length.
func signVec(out, x []float32) int {
	if !useAVX2 {
		return 0
	}
	signAVX(out, x[:len(out)])
	return len(out) &^ 7
}

// dot4x8 adds to a 4 × 8 tile of outputs (rows ldo bytes apart, from out) the groups of eight
// products of four lhs rows (lda bytes apart, from a) and eight rhs rows packed as bt
// [8·groups][8]: for every group, out += ((p₀ + p₁) + …) + p₇, simplego's order (dotRow).
//
//go:noescape
func dot4x8(a *float32, lda uintptr, bt *float32, out *float32, ldo uintptr, groups int)

// sumScaledRows4x16 sets a tile of 4 rows (ldo bytes apart) × 16 floats at out to Σ_j coef_r[j] ·
// (the 16 floats ldy bytes apart from y, j-th) for row r, coef_r ldc bytes apart from coef, for
// j < k ascending, from a sum of 0: per element the product, then the sum, each rounded.
//
//go:noescape
func sumScaledRows4x16(out *float32, ldo uintptr, y *float32, ldy uintptr, coef *float32, ldc uintptr, k int)

// sumScaledRows8 is sumScaledRows4x16 for 1 row × 8 floats.
//
//go:noescape
func sumScaledRows8(out, y *float32, ldy uintptr, coef *float32, k int)

// mulVec sets out[i] = a[i] · b[i] for a prefix of out and returns its length.
func mulVec(out, a, b []float32) int {
	if !useAVX2 {
		return 0
	}
	mulAVX(out, a[:len(out)], b[:len(out)])
	return len(out) &^ 7
}

// rowsVec runs op (see applyRows) on float32 rows by int32 indices with the vector kernels and
// reports whether it did (false without AVX2, without indices or when src has no whole row).
func rowsVec(op rowOp, dst, src []float32, idx []int32) bool {
	if !useAVX2 || len(idx) == 0 {
		return false
	}
	if op == gatherOp {
		width := len(dst) / len(idx)
		if width == 0 || len(src) < width {
			return false
		}
		gatherRows32(dst, src, idx, width)
		return true
	}
	width := len(src) / len(idx) // the updates' rows
	if width == 0 {
		return false
	}
	scatterAddRows32(dst, src, idx, width)
	return true
}

// scaleRowsVec sets row r of out to row r of x times scale[r] (rows of width floats) and reports
// whether it did (false without AVX2).
func scaleRowsVec(out, x, scale []float32, width int) bool {
	if !useAVX2 || len(out) < len(scale)*width || len(x) < len(scale)*width {
		return false
	}
	scaleRows32(out, x, scale, width)
	return true
}

// scaleAddRuns is scaleAddRows32 for sub = width, width a multiple of 16: runs of messages to one
// row (consecutive equal dst) are summed in registers, 64 floats at a time (then 16), with
// the same operations in the same order (BenchmarkMessageKernels: Physics' projection X W, runs
// of 33 non-zeros, 8.4 → 6.0 ms; no slower for messages in random order at width 64).
//
//go:noescape
func scaleAddRuns(out, x, scale []float32, src, dst []int32, width, ahead, lo int)

// scaleAddRowsVec runs scaleAddRows32 (out holding rows [lo, lo + len(out)/width) of the output)
// and reports whether it did (false without AVX2 or without a whole row of x). Where out or x is
// larger than prefetchMinBytes it prefetches prefetchAhead messages ahead.
func scaleAddRowsVec(out, x, scale []float32, src, dst []int32, width, sub, lo int) bool {
	if !useAVX2 || sub == 0 || width%sub != 0 || len(x) < width || len(scale) < len(dst)*(width/sub) || len(src) < len(dst) {
		return false
	}
	ahead := len(dst)
	if 4*max(len(out), len(x)) > prefetchMinBytes {
		ahead = prefetchAhead
	}
	if sub == width && width%16 == 0 && (width == 64 || longRuns(dst)) {
		scaleAddRuns(out, x, scale, src, dst, width, ahead, lo)
	} else {
		scaleAddRows32(out, x, scale, src, dst, width, sub, ahead, lo)
	}
	return true
}

// longRuns reports whether messages come in runs of eight or more to one row on average (at
// least 7 of every 8 follow a message to the same row, in eight windows of 32 across them), as
// the non-zeros of a sparse X do in X W (PubMed's 50 per row) and Squirrel's messages by source
// (42 per node). Only then do the run kernels beat scaleAddRows32 at widths other than 64:
// PubMed's X W 3.4 → 2.2 ms at width 16, where messages in random order took 2.9 against 2.7 ms
// and short runs (Âᵀ g by source, 4.5 messages a node) no less; Squirrel's propagation at width
// 128, 1.11 against 0.98 ms in random order, 0.74 against 1.03 in its runs. At width 64
// scaleAddRuns is as fast in random order and faster from runs of three (CiteSeer's Âᵀ g 0.082
// → 0.064 ms).
func longRuns(dst []int32) bool {
	const windows, window = 8, 32 // spread over the messages: node degrees vary along them
	pairs, same := 0, 0
	for w := range windows {
		from := w * len(dst) / windows
		for e := from + 1; e < min(from+window, len(dst)); e++ {
			pairs++
			if dst[e] == dst[e-1] {
				same++
			}
		}
	}
	return pairs > 0 && 8*same >= 7*pairs
}

// A message's rows are random reads and writes of its tables, out and x. Where one is larger
// than prefetchMinBytes, scaleAddRowsVec has the rows of the message prefetchAhead messages on
// fetched while it adds the current one (BenchmarkMessageKernels, random messages sorted by
// source as the data sets' edge lists are: Physics' [34493, 64] propagation 7.9 → 4.3 ms, its
// projection of X by a [8415, 64] weight 11.2 → 8.4 ms, one message at a time); smaller tables
// gain nothing (PubMed's [19717, 16], 1.3 MB; Squirrel's [2223, 128]) or lose (Cora's
// [2708, 16], 31 → 45 µs).
const (
	prefetchAhead    = 32
	prefetchMinBytes = 2 << 20
)

// vectorDot returns, for float32 operands of a product of dims d (see dotAll), a function that
// adds the groups of eight products to the output rows [from, to) and returns how much of the
// contracting axis it summed: all of it where simplego's blocked kernel runs the product (its
// last c mod 8 products are one more group, padded with zero products, as dotRow's blockedTail),
// else the whole groups (d.c &^ 7; the small kernel adds the rest one product at a time); nil
// when there are no vector kernels or no whole group. It packs rhs once, eight rows side by side,
// so that dot4x8 reads one product of eight outputs with one load, and copies the tail of four
// lhs rows into a zero-padded tile: a scalar dotRow per output for the last two of 50 products
// took three times as long as the 48 before them (BenchmarkDotGeneral's [34118, 50] × [50, 50]).
// release returns the packed rhs to scratch once the product is done.
func vectorDot(d dotDims, lhs, rhs, out any) (vec func(from, to int) int, release func()) {
	l, ok := lhs.([]float32)
	if !ok || !useAVX2 || d.c < 8 {
		return nil, func() {}
	}
	r, o := rhs.([]float32), out.([]float32)
	whole, summed, groups := d.c&^7, d.c&^7, d.c/8
	if d.blocked && d.c%8 != 0 {
		summed, groups = d.c, groups+1
	}
	blocks := (d.n + 7) / 8
	packedBuf := getScratch(d.batch * blocks * groups * 64)
	packed := *packedBuf // zero beyond the rows' summed products
	for b := range d.batch {
		for j := range d.n {
			row := r[(b*d.n+j)*d.c:]
			dst := packed[(b*blocks+j/8)*groups*64+j%8:]
			for k := range summed {
				dst[k*8] = row[k]
			}
		}
	}
	// The contracting axis is taken dotChunkBytes of packed rhs at a time, every row of the range
	// meeting the chunk while it is in cache; each output still adds its groups in k order
	// (Fashion-MNIST's weight gradient [784, 15000] · [15000, 512], whose packed rhs is 31 MB,
	// 155 → 125 ms).
	chunk := max(8, dotChunkBytes/(4*8*blocks)&^7)
	vec = func(from, to int) int {
		var tileA []float32
		var tileOut [4 * 8]float32
		var tail [4 * 8]float32 // the rows' last c mod 8 products, zero-padded to a group
		for c0 := 0; c0 < summed; c0 += chunk {
			c1 := min(c0+chunk, whole)
			last := c0+chunk >= summed && summed > whole // the chunk ends with the tail group
			for r0 := from; r0 < to; {
				rows := min(4, to-r0, d.m-r0%d.m) // the tile stays within one batch
				b := r0 / d.m
				a, lda := l[r0*d.c:], d.c
				if rows < 4 {
					if tileA == nil {
						tileA = make([]float32, 4*d.c)
					}
					copy(tileA, l[r0*d.c:(r0+rows)*d.c])
					a = tileA
				}
				if last {
					for i := range 4 {
						copy(tail[i*8:i*8+d.c-whole], a[i*lda+whole:(i+1)*lda])
					}
				}
				for jb := range blocks {
					bt := packed[(b*blocks+jb)*groups*64:]
					cols := min(8, d.n-jb*8)
					out, ldo := &o[r0*d.n+jb*8], uintptr(d.n*4)
					partial := rows < 4 || cols < 8
					if partial {
						loadTile(&tileOut, o[r0*d.n+jb*8:], d.n, rows, cols)
						out, ldo = &tileOut[0], 32
					}
					if c1 > c0 {
						dot4x8(&a[c0], uintptr(lda*4), &bt[c0*8], out, ldo, (c1-c0)/8)
					}
					if last {
						dot4x8(&tail[0], 32, &bt[whole*8], out, ldo, 1)
					}
					if partial {
						storeTile(o[r0*d.n+jb*8:], &tileOut, d.n, rows, cols)
					}
				}
				r0 += rows
			}
		}
		return summed
	}
	return vec, func() { putScratch(packedBuf) }
}

// dotLead4x8 adds to a 4 × 8 tile of outputs (rows ldo bytes apart, from out) the groups of eight
// rows' products of four adjacent lhs columns (from a, rows lda bytes apart) and eight adjacent
// rhs columns (from b, rows ldb bytes apart): for every group, out += ((p₀ + p₁) + …) + p₇.
//
//go:noescape
func dotLead4x8(a *float32, lda uintptr, b *float32, ldb uintptr, out *float32, ldo uintptr, groups int)

// leadingVec computes dotLeadingContraction's out [m, n] = lhsᵀ rhs (lhs [c, m], rhs [c, n],
// out cleared) with dotLead4x8 on tiles of 4 × 8 outputs, and reports whether it did (false
// without AVX2). The rows are taken a chunk at a time; each core packs its tiles' lhs columns and
// every rhs column block of the chunk contiguously, zero-padded past the last of m and n, and
// every tile of its rows meets the packed chunk in cache. The tail of c mod 8 rows runs as groups
// of zero-padded copies: one group in the blocked kernel, one per row in the small one (a row and
// seven zero products sum to its product, +0 for −0, which adds the same to a sum that is never
// −0). Where sumScaledRowRange wrote a group's sums to memory and added them to the outputs, the
// sums stay in registers (BenchmarkDotGeneral, quiet 2-core machine: Twitch's [34118, 256]ᵀ
// [34118, 256] weight gradient 75 → 49 ms, [34118, 64]ᵀ [34118, 64] 8.5 → 5.6 ms).
func leadingVec(d dotDims, lhs, rhs, out []float32) bool {
	if !useAVX2 || d.m < leadingVecMinRows {
		return false
	}
	m, n, c := d.m, d.n, d.c
	whole := c &^ 7
	// The tail's groups: row whole+r of each operand at row r of group 0 (blocked) or row 0 of
	// group r (small), zero elsewhere.
	tailGroups := 0
	if c > whole {
		tailGroups = 1
		if !d.blocked {
			tailGroups = c - whole
		}
	}
	tailBufL, tailBufR := getScratch(tailGroups*8*m), getScratch(tailGroups*8*n)
	defer putScratch(tailBufL)
	defer putScratch(tailBufR)
	tailL, tailR := *tailBufL, *tailBufR
	for r := range c - whole {
		at := r
		if !d.blocked {
			at = 8 * r
		}
		copy(tailL[at*m:(at+1)*m], lhs[(whole+r)*m:])
		copy(tailR[at*n:(at+1)*n], rhs[(whole+r)*n:])
	}
	// The padded rows (whole rows, then the tail's groups) in segments: chunks of whole rows, then
	// the tail.
	chunk := max(8, dotChunkBytes/(4*n)&^7)
	var segments [][2]int
	for k0 := 0; k0 < whole; k0 += chunk {
		segments = append(segments, [2]int{k0, min(k0+chunk, whole)})
	}
	if tailGroups > 0 {
		segments = append(segments, [2]int{whole, whole + 8*tailGroups})
	}
	row := func(x, tail []float32, width, k int) []float32 {
		if k < whole {
			return x[k*width : (k+1)*width]
		}
		return tail[(k-whole)*width : (k-whole+1)*width]
	}
	tiles, blocks := (m+3)/4, (n+7)/8
	inParallel(tiles, m*n*c, func(from, to int) {
		chunkRows := max(min(chunk, whole), 8*tailGroups) // the longest segment
		bufL, bufR := getScratch((to-from)*chunkRows*4), getScratch(blocks*chunkRows*8)
		defer putScratch(bufL)
		defer putScratch(bufR)
		packL, packR := *bufL, *bufR
		var tileOut [4 * 8]float32
		for _, seg := range segments {
			k0, k1 := seg[0], seg[1]
			for k := k0; k < k1; k++ {
				l, r := row(lhs, tailL, m, k), row(rhs, tailR, n, k)
				for t := from; t < to; t++ {
					if dst := packL[((t-from)*chunkRows+k-k0)*4:]; 4*t+4 <= m {
						src := l[4*t : 4*t+4]
						dst[0], dst[1], dst[2], dst[3] = src[0], src[1], src[2], src[3]
					} else {
						copy(dst[:4], l[4*t:])
					}
				}
				for jb := range blocks {
					if dst := packR[(jb*chunkRows+k-k0)*8:]; 8*jb+8 <= n {
						src := r[8*jb : 8*jb+8]
						dst[0], dst[1], dst[2], dst[3], dst[4], dst[5], dst[6], dst[7] = src[0], src[1], src[2], src[3], src[4], src[5], src[6], src[7]
					} else {
						copy(dst[:8], r[8*jb:])
					}
				}
			}
			for t := from; t < to; t++ {
				a, i0 := &packL[(t-from)*chunkRows*4], 4*t
				tileRows := min(4, m-i0)
				for jb := range blocks {
					b, j0 := &packR[jb*chunkRows*8], 8*jb
					if cols := min(8, n-j0); tileRows < 4 || cols < 8 {
						loadTile(&tileOut, out[i0*n+j0:], n, tileRows, cols)
						dotLead4x8(a, 16, b, 32, &tileOut[0], 32, (k1-k0)/8)
						storeTile(out[i0*n+j0:], &tileOut, n, tileRows, cols)
						continue
					}
					dotLead4x8(a, 16, b, 32, &out[i0*n+j0], uintptr(4*n), (k1-k0)/8)
				}
			}
		}
	})
	return true
}

// loadTile copies the rows × cols outputs at o (rows ld floats apart) into the 4 × 8 tile, for a
// kernel on a tile cut by the last rows or columns of its output.
func loadTile(tile *[4 * 8]float32, o []float32, ld, rows, cols int) {
	for i := range rows {
		copy(tile[i*8:i*8+cols], o[i*ld:])
	}
}

// storeTile copies the tile's rows × cols outputs back to o (rows ld floats apart).
func storeTile(o []float32, tile *[4 * 8]float32, ld, rows, cols int) {
	for i := range rows {
		copy(o[i*ld:i*ld+cols], tile[i*8:])
	}
}

// leadingVecMinRows is the least m for leadingVec: below it every core packs the whole rhs for a
// few tiles, and the products of rows (dotNarrowLeadingContraction's output-layer gradients) or
// sumScaledRowRange are faster (BenchmarkDotGeneral).
const leadingVecMinRows = 32

// scratch holds the zeroed buffers products pack their operands into for one call (getScratch,
// putScratch): a Mixup epoch on Cora allocated 100 MiB more heap at its peak without it.
var scratch sync.Pool

// getScratch returns a buffer of n zeros from scratch, or a new one.
func getScratch(n int) *[]float32 {
	if b, ok := scratch.Get().(*[]float32); ok && cap(*b) >= n {
		*b = (*b)[:n]
		clear(*b)
		return b
	}
	b := make([]float32, n)
	return &b
}

// putScratch returns b to scratch.
func putScratch(b *[]float32) { scratch.Put(b) }

// dotChunkBytes is how much packed rhs vectorDot's rows meet at a time: half of a core's L2.
const dotChunkBytes = 1 << 20

// sumScaledRowsVec computes the first z &^ 7 columns of sumScaledRows (out [M, z] = coef [M, k] ·
// y [k, z]) with the vector kernels and returns how many that is (0 without AVX2 or without terms):
// tiles of 4 rows × 16 columns, and 8 columns of one row for the rest. It runs 64 columns at a
// time over all rows, so those columns of y stay in cache.
func sumScaledRowsVec(out, coef, y []float32, k, z int) int {
	whole, m := z&^7, len(out)/z
	if !useAVX2 || whole == 0 || k == 0 || len(coef) < m*k || len(y) < k*z {
		return 0
	}
	ldy, ldo, ldc := uintptr(z*4), uintptr(z*4), uintptr(k*4)
	for c0 := 0; c0 < whole; c0 += 64 {
		c1 := min(c0+64, whole)
		i := 0
		for ; i+4 <= m; i += 4 {
			c := c0
			for ; c+16 <= c1; c += 16 {
				sumScaledRows4x16(&out[i*z+c], ldo, &y[c], ldy, &coef[i*k], ldc, k)
			}
			for r := i; c < c1 && r < i+4; r++ {
				sumScaledRows8(&out[r*z+c], &y[c], ldy, &coef[r*k], k)
			}
		}
		for ; i < m; i++ {
			for c := c0; c < c1; c += 8 {
				sumScaledRows8(&out[i*z+c], &y[c], ldy, &coef[i*k], k)
			}
		}
	}
	return whole
}
