package rowops

import (
	"fmt"
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
	useAVX2 = false
	defer func() { useAVX2 = true }()
	matchSimplego(t, slices.Concat(rowCases(), dotCases(), mulCases(), copyCases(), reduceCases(), broadcastCases(), fusedRowCases(), asRowCases(sumCases()), asRowCases(gatheredDotCases())))
}

// TestPrefetchChangesNothing runs the fused message kernel with every prefetch distance, out-of-range
// indices among the prefetched messages (a prefetch never faults, so the kernel reads them
// unchecked): the sums must be the portable loop's, bit for bit.
func TestPrefetchChangesNothing(t *testing.T) {
	if !useAVX2 {
		t.Skip("no AVX2 here")
	}
	rng := rand.New(rand.NewPCG(21, 22))
	const rows, e, width, sub = 9, 50, 21, 7
	x, scale := randomRows[float32](rng, rows*width), randomRows[float32](rng, e*width/sub)
	src, dst := randomIndices[int32](rng, e, rows), randomIndices[int32](rng, e, rows)
	src[3], src[17], dst[5], dst[30] = -4, 1<<30, -1, 1<<29
	start := randomRows[float32](rng, rows*width)
	want := slices.Clone(start)
	useAVX2 = false
	scaleAddRows(want, x, scale, src, dst, width, sub)
	useAVX2 = true
	for _, ahead := range []int{0, 1, 4, e - 1, e} {
		got := slices.Clone(start)
		scaleAddRows32(got, x, scale, src, dst, width, sub, ahead)
		for i := range got {
			if math.Float32bits(got[i]) != math.Float32bits(want[i]) {
				t.Fatalf("ahead %d: element %d is %v, the loop's %v", ahead, i, got[i], want[i])
			}
		}
	}
}

// BenchmarkPrefetch times the fused message kernel on Physics' sizes with and without prefetching
// (vec_amd64.go's prefetchAhead), in one run: propagation Â h over 530,417 random messages sorted
// by source, as the data sets' edge lists are, h [34493, 64]; the projection X W of 1,137,311
// non-zeros sorted by row, W [8415, 64].
func BenchmarkPrefetch(b *testing.B) {
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
		for _, ahead := range []int{c.nnz, prefetchAhead} {
			name := fmt.Sprintf("%s/ahead=%d", c.name, ahead)
			if ahead == c.nnz {
				name = c.name + "/no-prefetch"
			}
			b.Run(name, func(b *testing.B) {
				for range b.N {
					scaleAddRows32(out, x, scale, src, dst, width, width, ahead)
				}
			})
		}
	}
}
