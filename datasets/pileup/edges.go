package pileup

import (
	"math"
	"slices"
)

// DeltaRMax is the radius of the particle graph: i and j are linked when ΔR(i, j) < DeltaRMax.
const DeltaRMax = 0.4

// deltaR is the reference's distance: sqrt(Δη² + Δφ²) with |Δφ| wrapped by subtracting
// ceil((|Δφ| − π)/2π)·2π when it exceeds π; computed in float64 from the float32 inputs, as numpy
// does on the arrays it reads.
func deltaR(eta1, phi1, eta2, phi2 float32) float64 {
	dEta := math.Abs(float64(eta1) - float64(eta2))
	dPhi := math.Abs(float64(phi1) - float64(phi2))
	if dPhi > math.Pi {
		dPhi -= math.Ceil((dPhi-math.Pi)/(2*math.Pi)) * 2 * math.Pi
	}
	return math.Sqrt(dEta*dEta + dPhi*dPhi)
}

// linked is the reference's edge rule: 0 < ΔR < DeltaRMax (identical (η, φ) are not linked).
func linked(eta1, phi1, eta2, phi2 float32) bool {
	d := deltaR(eta1, phi1, eta2, phi2)
	return d < DeltaRMax && d != 0
}

// edges returns the directed ΔR graph of the points (eta[i], phi[i]): both directions of every
// linked pair, sorted by (src, dst), without self-loops. Points are binned on a grid in (η, φ) whose
// cells are at least DeltaRMax wide (φ cells wrap around), so only the 3 × 3 cells around each
// point are searched: O(N · density) instead of the dense N × N matrix.
func edges(eta, phi []float32) (src, dst []int32) {
	n := len(eta)
	if n == 0 {
		return nil, nil
	}
	etaMin := slices.Min(eta)
	nPhi := int(math.Floor(2 * math.Pi / DeltaRMax)) // cells of width 2π/nPhi ≥ DeltaRMax
	phiWidth := 2 * math.Pi / float64(nPhi)
	cellOf := func(i int) (int, int) {
		ce := int((float64(eta[i]) - float64(etaMin)) / DeltaRMax)
		p := math.Mod(float64(phi[i]), 2*math.Pi)
		if p < 0 {
			p += 2 * math.Pi
		}
		cp := int(p / phiWidth)
		if cp >= nPhi {
			cp = nPhi - 1
		}
		return ce, cp
	}
	nEta := 0
	cells := make([]int32, n)
	for i := range eta {
		ce, cp := cellOf(i)
		nEta = max(nEta, ce+1)
		cells[i] = int32(ce*nPhi + cp)
	}
	// Counting sort of the points by cell: members of cell c are order[start[c]:start[c+1]].
	start := make([]int32, nEta*nPhi+1)
	for _, c := range cells {
		start[c+1]++
	}
	for c := 1; c < len(start); c++ {
		start[c] += start[c-1]
	}
	order := make([]int32, n)
	fill := slices.Clone(start[:len(start)-1])
	for i, c := range cells {
		order[fill[c]] = int32(i)
		fill[c]++
	}
	var neighbours []int32
	for i := 0; i < n; i++ {
		ce, cp := int(cells[i])/nPhi, int(cells[i])%nPhi
		neighbours = neighbours[:0]
		for e := max(ce-1, 0); e <= min(ce+1, nEta-1); e++ {
			for dp := -1; dp <= 1; dp++ {
				c := e*nPhi + (cp+dp+nPhi)%nPhi
				for _, j := range order[start[c]:start[c+1]] {
					if int(j) != i && linked(eta[i], phi[i], eta[j], phi[j]) {
						neighbours = append(neighbours, j)
					}
				}
			}
		}
		slices.Sort(neighbours)
		for _, j := range neighbours {
			src = append(src, int32(i))
			dst = append(dst, j)
		}
	}
	return src, dst
}
