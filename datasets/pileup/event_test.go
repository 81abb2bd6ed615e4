package pileup

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// bruteForceEdges is the reference's dense definition: every ordered pair (i, j), i != j, with
// 0 < ΔR < 0.4, in (i, j) order.
func bruteForceEdges(eta, phi []float32) (src, dst []int32) {
	for i := range eta {
		for j := range eta {
			if i != j && linked(eta[i], phi[i], eta[j], phi[j]) {
				src, dst = append(src, int32(i)), append(dst, int32(j))
			}
		}
	}
	return src, dst
}

// TestEdgesMatchBruteForce compares the grid search with the dense definition on random events,
// with points near φ = ±π, duplicated points, and clusters.
func TestEdgesMatchBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for trial := 0; trial < 40; trial++ {
		n := 1 + rng.IntN(600)
		eta, phi := make([]float32, n), make([]float32, n)
		for i := range eta {
			eta[i] = float32(5*rng.Float64() - 2.5)
			phi[i] = float32(math.Pi - 2*math.Pi*rng.Float64())
			switch rng.IntN(6) {
			case 0: // near the φ seam
				phi[i] = float32(math.Pi - 0.3*rng.Float64())
				if rng.IntN(2) == 0 {
					phi[i] = -phi[i]
				}
			case 1: // a copy of an earlier point: same (η, φ), no edge between them
				if i > 0 {
					k := rng.IntN(i)
					eta[i], phi[i] = eta[k], phi[k]
				}
			case 2: // close to an earlier point
				if i > 0 {
					k := rng.IntN(i)
					eta[i], phi[i] = eta[k]+float32(0.5*rng.Float64()-0.25), phi[k]+float32(0.5*rng.Float64()-0.25)
				}
			}
		}
		if trial == 0 { // φ outside (−π, π] is wrapped as the reference does
			phi[0] = 3.5
		}
		src, dst := edges(eta, phi)
		wantSrc, wantDst := bruteForceEdges(eta, phi)
		if !slices.Equal(src, wantSrc) || !slices.Equal(dst, wantDst) {
			t.Fatalf("trial %d (%d points): grid gives %d edges, brute force %d", trial, n, len(src), len(wantSrc))
		}
	}
	if s, d := edges(nil, nil); s != nil || d != nil {
		t.Error("edges of no points are not empty")
	}
}

// TestDeltaRWrap checks the φ wrap on known pairs.
func TestDeltaRWrap(t *testing.T) {
	for _, c := range []struct {
		eta1, phi1, eta2, phi2 float32
		want                   float64
	}{
		{0, 3.1, 0, -3.1, 2*math.Pi - 6.2},
		{0, 0.1, 0.3, 0.5, 0.5},
		{1, -3, 1, 3, 2*math.Pi - 6},
	} {
		if got := deltaR(c.eta1, c.phi1, c.eta2, c.phi2); math.Abs(got-c.want) > 1e-6 {
			t.Errorf("ΔR(%v, %v; %v, %v) = %v, want %v", c.eta1, c.phi1, c.eta2, c.phi2, got, c.want)
		}
	}
}

// TestBuildEvent checks cuts, labels, the 28 feature columns in the reference order, neutral
// indices and the skip rule on a hand-made event.
func TestBuildEvent(t *testing.T) {
	ev := &Event{
		//          kept  kept   |η| cut pT cut kept  kept
		PT:       []float32{2, 0.75, 3, 0.5, 1.25, 4},
		Eta:      []float32{0.25, 0.3, 2.5, 0, -1, -1.1},
		Phi:      []float32{0, 0.1, 0, 0, 3.1, -3.1},
		Mass:     []float32{0.13957, 0, 0, 0, 0, 0.000511},
		Charge:   []int32{1, 0, 0, 0, 0, -1},
		PdgID:    []int32{211, 22, 22, 0, 0, 11},
		IsRecoPU: []int32{0, 0, 0, 0, 0, 1},
		IsPU:     []int32{0, 0, 1, 1, 1, 1},
	}
	freq := Frequencies{Eta: [5]int{0, 1, 2, 3, 9}, PT: [5]int{4, 0, 1, 7, 2}}
	g, err := BuildEvent(3, ev, freq)
	if err != nil {
		t.Fatal(err)
	}
	if g.NumNodes() != 4 || !slices.Equal(g.Particles.PT, []float32{2, 0.75, 1.25, 4}) || g.Entry != 3 {
		t.Fatalf("kept %v, want the pT of particles 0, 1, 4, 5", g.Particles.PT)
	}
	if len(g.Features) != 4*NumFeatures || NumFeatures != 28 {
		t.Fatalf("features have %d values, want [4, 28]", len(g.Features))
	}
	if !slices.Equal(g.Labels, []int32{LabelLV, LabelLV, LabelPU, LabelPU}) || !slices.Equal(g.Neutral, []int32{1, 2}) {
		t.Errorf("labels %v neutral %v", g.Labels, g.Neutral)
	}
	// Edges: 0-1 (ΔR 0.112) and 2-3 (across the φ seam: ΔR = hypot(0.1, 2π-6.2) ≈ 0.128).
	if !slices.Equal(g.Src, []int32{0, 1, 2, 3}) || !slices.Equal(g.Dst, []int32{1, 0, 3, 2}) {
		t.Errorf("edges %v -> %v", g.Src, g.Dst)
	}
	row := func(i int) []float32 { return g.Features[i*NumFeatures : (i+1)*NumFeatures] }
	near := func(a float32, b float64) bool { return math.Abs(float64(a)-b) < 1e-5 }
	for i, p := range []struct{ eta, pt float64 }{{0.25, 2}, {0.3, 0.75}, {-1, 1.25}, {-1.1, 4}} {
		r := row(i)
		for k := 0; k < 5; k++ {
			be, bp := float64(freq.Eta[k]), float64(freq.PT[k])
			if !near(r[k], math.Sin(2*math.Pi*be*p.eta)) || !near(r[5+k], math.Cos(2*math.Pi*be*p.eta)) ||
				!near(r[10+k], math.Sin(2*math.Pi*bp*p.pt)) || !near(r[15+k], math.Cos(2*math.Pi*bp*p.pt)) {
				t.Errorf("node %d frequency %d: Fourier columns %v", i, k, r[:20])
			}
		}
	}
	// One-hots: |PdgID| 211→col 24, 22→23, 0→20, 11→21; charge label: charged LV→26, neutral→27,
	// neutral→27, charged PU→25.
	for i, want := range [][2]int{{24, 26}, {23, 27}, {20, 27}, {21, 25}} {
		for c := 20; c < 28; c++ {
			v := row(i)[c]
			if (c == want[0] || c == want[1]) != (v == 1) || (v != 0 && v != 1) {
				t.Errorf("node %d column %d = %v, want one-hots at %v", i, c, v, want)
			}
		}
	}
	if !g.Skipped() {
		t.Error("an event with 1 charged LV particle is not skipped")
	}
}

// TestBuildEventRejectsUnknownPdgID checks the one-hot's domain.
func TestBuildEventRejectsUnknownPdgID(t *testing.T) {
	ev := &Event{PT: []float32{1}, Eta: []float32{0}, Phi: []float32{0}, Mass: []float32{0}, Charge: []int32{1},
		PdgID: []int32{321}, IsRecoPU: []int32{0}, IsPU: []int32{0}}
	if _, err := BuildEvent(0, ev, Frequencies{}); err == nil {
		t.Error("PdgID 321 accepted")
	}
}

// TestDrawFrequencies checks the range and the determinism of the frequencies.
func TestDrawFrequencies(t *testing.T) {
	a := DrawFrequencies(rand.New(rand.NewPCG(5, 1)))
	b := DrawFrequencies(rand.New(rand.NewPCG(5, 1)))
	if a != b {
		t.Error("the same seed drew different frequencies")
	}
	seen := map[int]bool{}
	rng := rand.New(rand.NewPCG(6, 1))
	for i := 0; i < 100; i++ {
		f := DrawFrequencies(rng)
		for _, v := range append(f.Eta[:], f.PT[:]...) {
			if v < 0 || v >= MaxFrequency {
				t.Fatalf("frequency %d out of [0, 10)", v)
			}
			seen[v] = true
		}
	}
	if len(seen) != MaxFrequency {
		t.Errorf("1000 draws hit %d of the 10 frequencies", len(seen))
	}
}
