package tsne

import (
	"math"
	"math/rand/v2"
	"testing"
)

// blobs returns k clusters of m points each in d dimensions, centred 10 apart with unit noise.
func blobs(k, m, d int, seed uint64) ([][]float64, []int32) {
	rng := rand.New(rand.NewPCG(seed, 1))
	var points [][]float64
	var labels []int32
	for c := range k {
		for range m {
			x := make([]float64, d)
			for j := range x {
				x[j] = rng.NormFloat64()
			}
			x[c%d] += 10
			points, labels = append(points, x), append(labels, int32(c))
		}
	}
	return points, labels
}

// TestAffinities: each conditional distribution has the asked perplexity (exp of its entropy) and
// no mass on its own point; P is symmetric, sums to 1 and is at least 1e-12.
func TestAffinities(t *testing.T) {
	points, _ := blobs(3, 20, 4, 7)
	n := len(points)
	dist, err := squaredDistances(points)
	if err != nil {
		t.Fatal(err)
	}
	for _, perp := range []float64{5, 10, 15} {
		for _, i := range []int{0, 31, n - 1} {
			row := make([]float64, n)
			conditional(row, dist[i*n:(i+1)*n], i, perp)
			h, sum := 0.0, 0.0
			for _, v := range row {
				sum += v
				if v > 0 {
					h -= v * math.Log(v)
				}
			}
			if got := math.Exp(h); math.Abs(got-perp) > 1e-3*perp || math.Abs(sum-1) > 1e-12 || row[i] != 0 {
				t.Errorf("perplexity %v, point %d: got %v, row sum %v, self %v", perp, i, got, sum, row[i])
			}
		}
	}
	p := affinities(dist, n, 10)
	total := 0.0
	for i := range n {
		for j := range n {
			if p[i*n+j] != p[j*n+i] || p[i*n+j] < 1e-12 {
				t.Fatalf("P[%d,%d] = %v, P[%d,%d] = %v", i, j, p[i*n+j], j, i, p[j*n+i])
			}
			total += p[i*n+j]
		}
	}
	if math.Abs(total-1) > 1e-6 {
		t.Errorf("P sums to %v", total)
	}
}

// objective is the function whose gradient gradient computes: −Σ e p_ij log(1 + |y_i − y_j|²)⁻¹ +
// log Σ_kl (1 + |y_k − y_l|²)⁻¹, which is KL(P ‖ Q) up to a constant at e = 1 (early exaggeration
// scales only the attraction, as scikit-learn's exact method does).
func objective(y, p []float64, n int, e float64) float64 {
	attraction, total := 0.0, 0.0
	for i := range n {
		for j := range n {
			if i != j {
				dx, dy := y[2*i]-y[2*j], y[2*i+1]-y[2*j+1]
				num := 1 / (1 + dx*dx + dy*dy)
				total += num
				attraction -= e * p[i*n+j] * math.Log(num)
			}
		}
	}
	return attraction + math.Log(total)
}

// TestGradientMatchesFiniteDifferences checks the KL gradient, with and without exaggeration.
func TestGradientMatchesFiniteDifferences(t *testing.T) {
	points, _ := blobs(2, 6, 3, 3)
	n := len(points)
	dist, _ := squaredDistances(points)
	p := affinities(dist, n, 3)
	rng := rand.New(rand.NewPCG(9, 9))
	y := make([]float64, 2*n)
	for i := range y {
		y[i] = rng.NormFloat64()
	}
	for _, e := range []float64{1, 12} {
		grad, num := make([]float64, 2*n), make([]float64, n*n)
		gradient(y, p, num, make([]float64, n), grad, n, e)
		for k := range y {
			const h = 1e-6
			saved := y[k]
			y[k] = saved + h
			up := objective(y, p, n, e)
			y[k] = saved - h
			down := objective(y, p, n, e)
			y[k] = saved
			if fd := (up - down) / (2 * h); math.Abs(fd-grad[k]) > 1e-5*max(1, math.Abs(fd)) {
				t.Errorf("exaggeration %v, coordinate %d: gradient %v, finite difference %v", e, k, grad[k], fd)
			}
		}
	}
}

// TestEmbedSeparatesBlobs: three well-separated clusters in 10-D stay separated in 2-D (silhouette
// above 0.7, against about 0.8 in 10-D), and the same seed gives the same embedding.
func TestEmbedSeparatesBlobs(t *testing.T) {
	points, labels := blobs(3, 40, 10, 5)
	cfg := DefaultConfig()
	cfg.Iterations, cfg.Seed = 400, 2
	y, err := Embed(points, cfg)
	if err != nil {
		t.Fatal(err)
	}
	flat := make([][]float64, len(y))
	for i, v := range y {
		flat[i] = []float64{v[0], v[1]}
	}
	s2, err := Silhouette(flat, labels)
	if err != nil {
		t.Fatal(err)
	}
	s10, _ := Silhouette(points, labels)
	if s2 < 0.7 || s10 < 0.6 {
		t.Errorf("silhouette %.3f in 2-D (t-SNE), %.3f in 10-D; want above 0.7 and 0.6", s2, s10)
	}
	again, _ := Embed(points, cfg)
	for i := range y {
		if y[i] != again[i] {
			t.Fatalf("point %d: %v, then %v with the same seed", i, y[i], again[i])
		}
	}
}

// TestSilhouetteByHand: classes {0, 1} and {10, 12} on a line. Point 0: a = 1, b = (10 + 12) / 2 =
// 11, s = 10/11; point 1: a = 1, b = 10, s = 0.9; point 10: a = 2, b = 9.5, s = 7.5/9.5; point 12:
// a = 2, b = 11.5, s = 9.5/11.5.
func TestSilhouetteByHand(t *testing.T) {
	got, err := Silhouette([][]float64{{0}, {1}, {10}, {12}}, []int32{0, 0, 1, 1})
	if err != nil {
		t.Fatal(err)
	}
	want := (10.0/11 + 0.9 + 7.5/9.5 + 9.5/11.5) / 4
	if math.Abs(got-want) > 1e-12 {
		t.Errorf("silhouette %v, want %v", got, want)
	}
	if _, err := Silhouette([][]float64{{0}, {1}}, []int32{0, 0}); err == nil {
		t.Error("one class: no error")
	}
	if _, err := Embed([][]float64{{0}, {1}}, DefaultConfig()); err == nil {
		t.Error("2 points at perplexity 30: no error")
	}
	if _, err := Embed([][]float64{{0, 1}, {math.NaN(), 0}}, Config{Perplexity: 0.1, Iterations: 1, Exaggeration: 1}); err == nil {
		t.Error("NaN coordinate: no error")
	}
}

// BenchmarkEmbed times 50 iterations on 2,708 points of 7 coordinates, the size of Cora's logits.
func BenchmarkEmbed(b *testing.B) {
	points, _ := blobs(7, 387, 7, 1)
	cfg := DefaultConfig()
	cfg.Iterations = 50
	for b.Loop() {
		if _, err := Embed(points[:2708], cfg); err != nil {
			b.Fatal(err)
		}
	}
}
