package rowops

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestPortableLoopsMatchSimplego runs every case with the vector kernels switched off, as on
// CPUs without AVX2: the portable loops alone must give simplego's values too.
func TestPortableLoopsMatchSimplego(t *testing.T) {
	if !useAVX2 {
		t.Skip("no AVX2 here: the other tests ran the portable loops")
	}
	withPortableLoops(func() {
		matchSimplego(t, slices.Concat(rowCases(), dotCases(), mulCases(), copyCases(), reduceCases(), broadcastCases(), fusedRowCases(), asRowCases(sumCases()), asRowCases(gatheredDotCases())))
	})
}

// withPortableLoops runs fn with the vector kernels switched off, as on CPUs without AVX2.
func withPortableLoops(fn func()) {
	avx2 := useAVX2
	useAVX2 = false
	defer func() { useAVX2 = avx2 }()
	fn()
}

// TestMessageKernelsMatchLoop runs the fused message kernels (scaleAddRows32, and scaleAddRuns for
// widths of 16, 48, 64, 80 and 128 with one scale per message: chunks of 64 and of 16 floats) on
// messages sorted by target, so in runs, and unsorted, with out-of-range indices (also among the
// prefetched messages: a prefetch never faults, so the kernels read them unchecked), NaN
// payloads, infinities and −0, and every prefetch distance, on all of out's rows and on two
// ranges of them (lo > 0, as scaleAddRows splits them among cores): the sums must be the portable
// loop's, bit for bit.
func TestMessageKernelsMatchLoop(t *testing.T) {
	if !useAVX2 {
		t.Skip("no AVX2 here")
	}
	rng := rand.New(rand.NewPCG(21, 22))
	const rows, e = 9, 50
	for _, c := range []struct{ width, sub int }{{21, 7}, {64, 64}, {128, 128}, {64, 32}, {16, 16}, {48, 48}, {80, 80}, {3, 3}, {5, 5}, {6, 6}, {15, 15}} {
		for _, sorted := range []bool{false, true} {
			x, scale := randomRows[float32](rng, rows*c.width), randomRows[float32](rng, e*c.width/c.sub)
			x[3], x[c.width+1], scale[2] = math.Float32frombits(0x7fc00011), float32(math.Inf(-1)), math.Float32frombits(0x7fc00022)
			x[5], scale[4] = float32(math.Copysign(0, -1)), float32(math.Copysign(0, -1))
			src, dst := randomIndices[int32](rng, e, rows), randomIndices[int32](rng, e, rows)
			src[3], src[17], dst[5], dst[30] = -4, 1<<30, -1, 1<<29
			if sorted {
				slices.Sort(dst)
			}
			start := randomRows[float32](rng, rows*c.width)
			want := slices.Clone(start)
			useAVX2 = false
			scaleAddRows(want, x, scale, src, dst, c.width, c.sub)
			useAVX2 = true
			for _, ahead := range []int{0, 1, 4, e - 1, e} {
				for _, split := range []int{0, 4} { // rows [0, split) and [split, rows) in turn
					got := slices.Clone(start)
					kernel := "scaleAddRows32"
					for _, r := range [][2]int{{0, split}, {split, rows}} {
						out := got[r[0]*c.width : r[1]*c.width]
						if c.sub == c.width && c.width%16 == 0 {
							kernel = "scaleAddRuns"
							scaleAddRuns(out, x, scale, src, dst, c.width, ahead, r[0])
						} else {
							scaleAddRows32(out, x, scale, src, dst, c.width, c.sub, ahead, r[0])
						}
					}
					for i := range got {
						if math.Float32bits(got[i]) != math.Float32bits(want[i]) {
							t.Fatalf("%s, width %d, sorted %v, ahead %d, split at row %d: element %d is %v, the loop's %v", kernel, c.width, sorted, ahead, split, i, got[i], want[i])
						}
					}
				}
			}
		}
	}
}

// TestLongRuns checks the choice of scaleAddRuns at widths other than 64: messages in runs of ten to a row, not random
// ones nor runs of four.
func TestLongRuns(t *testing.T) {
	rng := rand.New(rand.NewPCG(23, 24))
	tens, fours := make([]int32, 500), make([]int32, 500)
	for i := range tens {
		tens[i], fours[i] = int32(i/10), int32(i/4)
	}
	if !longRuns(tens) || longRuns(fours) || longRuns(randomIndices[int32](rng, 500, 100)) || longRuns(nil) || longRuns([]int32{3}) {
		t.Errorf("longRuns: want true for runs of ten only")
	}
}

// BenchmarkMessageKernels times the fused message kernels on Physics' sizes in one run: one message
// at a time (scaleAddRows32) without and with prefetching (prefetchAhead), and in runs to a row
// (scaleAddRuns, prefetching). Propagation Â h: 530,417 random messages sorted by source, as
// the data sets' edge lists are, h [34493, 64]; projection X W: 1,137,311 non-zeros sorted by row
// (runs of 33), W [8415, 64].
func BenchmarkMessageKernels(b *testing.B) {
	if !useAVX2 {
		b.Skip("no AVX2 here")
	}
	rng := rand.New(rand.NewPCG(15, 16))
	cases := []struct {
		name                string
		outRows, xRows, nnz int
		bySource            bool
	}{
		{"propagation [34493,64]", 34493, 34493, 530417, true},
		{"projection [8415,64]", 34493, 8415, 1137311, false},
	}
	const width = 64
	for _, c := range cases {
		src, dst := randomIndices[int32](rng, c.nnz, c.xRows), randomIndices[int32](rng, c.nnz, c.outRows)
		slices.Sort(map[bool][]int32{true: src, false: dst}[c.bySource])
		out, x, scale := make([]float32, c.outRows*width), randomRows[float32](rng, c.xRows*width), randomRows[float32](rng, c.nnz)
		kernels := []struct {
			name string
			run  func()
		}{
			{"rows", func() { scaleAddRows32(out, x, scale, src, dst, width, width, c.nnz, 0) }},
			{"rows-prefetch", func() { scaleAddRows32(out, x, scale, src, dst, width, width, prefetchAhead, 0) }},
			{"runs-prefetch", func() { scaleAddRuns(out, x, scale, src, dst, width, prefetchAhead, 0) }},
			{"split", func() { scaleAddRows(out, x, scale, src, dst, width, width) }},
		}
		for _, k := range kernels {
			b.Run(c.name+"/"+k.name, func(b *testing.B) {
				for range b.N {
					k.run()
				}
			})
		}
	}
}
