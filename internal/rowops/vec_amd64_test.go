package rowops

import (
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
