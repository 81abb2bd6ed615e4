// Package tsne embeds node representations in two dimensions with exact t-SNE (van der Maaten and
// Hinton, JMLR 2008), as the paper's Figures (t-SNE of the learned representations on Cora and
// CiteSeer) do, and scores how well classes separate (Silhouette). It is plain Go on float64, O(N²)
// time and memory: fine for a few thousand nodes.
//
// The optimiser follows scikit-learn's exact method with init="random": perplexity-calibrated
// Gaussian affinities, symmetrised and floored at 1e-12 (as van der Maaten's tsne.py); Student-t
// similarities in the embedding; gradient descent with momentum 0.5 then 0.8, per-coordinate gains,
// early exaggeration 12 for the first 250 iterations and the learning rate max(N / 12 / 4, 50). The
// same points, Config and seed give the same embedding.
package tsne

import (
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"sync"
)

// Config holds t-SNE's settings; DefaultConfig gives scikit-learn's defaults.
type Config struct {
	// Perplexity is the effective number of neighbours of each point (5-50; 30).
	Perplexity float64
	// Iterations is the number of gradient steps (1000), the first ExaggerationIters (250) of them
	// with the affinities multiplied by Exaggeration (12).
	Iterations, ExaggerationIters int
	Exaggeration                  float64
	// LearningRate is the step size; 0 means scikit-learn's "auto", max(N / Exaggeration / 4, 50).
	LearningRate float64
	// Seed draws the initial embedding, N(0, 1e-4²) per coordinate.
	Seed uint64
}

// DefaultConfig returns perplexity 30, 1000 iterations with early exaggeration 12 over the first
// 250, the automatic learning rate and seed 0.
func DefaultConfig() Config {
	return Config{Perplexity: 30, Iterations: 1000, ExaggerationIters: 250, Exaggeration: 12}
}

// Embed returns the t-SNE embedding [N][2] of points [N][D]. It needs more points than 3 ×
// perplexity, and finite coordinates.
func Embed(points [][]float64, cfg Config) ([][2]float64, error) {
	n := len(points)
	if cfg.Perplexity <= 0 || cfg.Iterations < 1 || cfg.Exaggeration <= 0 || cfg.ExaggerationIters < 0 {
		return nil, fmt.Errorf("tsne: want perplexity > 0, iterations >= 1, exaggeration > 0, got %+v", cfg)
	}
	if float64(n) <= 3*cfg.Perplexity {
		return nil, fmt.Errorf("tsne: %d points, want more than 3 × perplexity %g", n, cfg.Perplexity)
	}
	dist, err := squaredDistances(points)
	if err != nil {
		return nil, err
	}
	p := affinities(dist, n, cfg.Perplexity)
	lr := cfg.LearningRate
	if lr <= 0 {
		lr = max(float64(n)/cfg.Exaggeration/4, 50)
	}
	rng := rand.New(rand.NewPCG(cfg.Seed, 0x74736e65))
	y := make([]float64, 2*n)
	for i := range y {
		y[i] = 1e-4 * rng.NormFloat64()
	}
	update, gains, grad := make([]float64, 2*n), make([]float64, 2*n), make([]float64, 2*n)
	for i := range gains {
		gains[i] = 1
	}
	num, rowSums := make([]float64, n*n), make([]float64, n)
	for it := range cfg.Iterations {
		exaggeration, momentum := 1.0, 0.8
		if it < cfg.ExaggerationIters {
			exaggeration, momentum = cfg.Exaggeration, 0.5
		}
		gradient(y, p, num, rowSums, grad, n, exaggeration)
		for i := range y {
			if update[i]*grad[i] < 0 {
				gains[i] += 0.2
			} else {
				gains[i] = max(gains[i]*0.8, 0.01)
			}
			update[i] = momentum*update[i] - lr*gains[i]*grad[i]
			y[i] += update[i]
		}
	}
	out := make([][2]float64, n)
	for i := range out {
		out[i] = [2]float64{y[2*i], y[2*i+1]}
	}
	return out, nil
}

// squaredDistances returns the squared Euclidean distances [N*N] of points [N][D], row-major.
func squaredDistances(points [][]float64) ([]float64, error) {
	n := len(points)
	if n == 0 {
		return nil, fmt.Errorf("tsne: no points")
	}
	d := len(points[0])
	for i, x := range points {
		if len(x) != d {
			return nil, fmt.Errorf("tsne: point %d has %d coordinates, point 0 has %d", i, len(x), d)
		}
		for _, v := range x {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return nil, fmt.Errorf("tsne: point %d has a non-finite coordinate %v", i, v)
			}
		}
	}
	dist := make([]float64, n*n)
	parallelRows(n, func(i int) {
		for j := range n {
			s := 0.0
			for k, v := range points[i] {
				diff := v - points[j][k]
				s += diff * diff
			}
			dist[i*n+j] = s
		}
	})
	return dist, nil
}

// affinities returns the joint probabilities P [N*N] of t-SNE: for each point the Gaussian
// conditional p_{j|i} of perplexity perplexity (conditional), then (p_{j|i} + p_{i|j}) / 2N,
// floored at 1e-12.
func affinities(dist []float64, n int, perplexity float64) []float64 {
	cond := make([]float64, n*n)
	parallelRows(n, func(i int) { conditional(cond[i*n:(i+1)*n], dist[i*n:(i+1)*n], i, perplexity) })
	p := make([]float64, n*n)
	for i := range n {
		for j := range n {
			p[i*n+j] = max((cond[i*n+j]+cond[j*n+i])/(2*float64(n)), 1e-12)
		}
	}
	return p
}

// conditional writes into row [N] the distribution p_{j|i} ∝ exp(−β d_j) over j ≠ i for point i's
// squared distances d [N], with the precision β found by bisection so that its perplexity
// exp(entropy) is perplexity (to 1e-5 in the entropy, at most 100 steps).
func conditional(row, d []float64, i int, perplexity float64) {
	target := math.Log(perplexity)
	beta, lo, hi := 1.0, 0.0, math.Inf(1)
	for range 100 {
		sum, dot := 0.0, 0.0
		for j := range d {
			row[j] = 0
			if j != i {
				row[j] = math.Exp(-d[j] * beta)
			}
			sum += row[j]
			dot += d[j] * row[j]
		}
		sum = max(sum, 1e-300)
		entropy := math.Log(sum) + beta*dot/sum
		for j := range row {
			row[j] /= sum
		}
		if math.Abs(entropy-target) < 1e-5 {
			return
		}
		if entropy > target { // too flat: sharpen
			lo = beta
			if math.IsInf(hi, 1) {
				beta *= 2
			} else {
				beta = (beta + hi) / 2
			}
		} else {
			hi = beta
			beta = (beta + lo) / 2
		}
	}
}

// gradient writes into grad [2N] the gradient of KL(P‖Q) at embedding y [2N] (row i is y[2i],
// y[2i+1]) with P multiplied by exaggeration: 4 Σ_j (e p_ij − q_ij) (1 + |y_i − y_j|²)⁻¹ (y_i − y_j),
// q_ij = (1 + |y_i − y_j|²)⁻¹ / Σ_kl (1 + |y_k − y_l|²)⁻¹. num [N*N] and rowSums [N] are scratch.
func gradient(y, p, num, rowSums, grad []float64, n int, exaggeration float64) {
	parallelRows(n, func(i int) {
		s := 0.0
		for j := range n {
			v := 0.0
			if j != i {
				dx, dy := y[2*i]-y[2*j], y[2*i+1]-y[2*j+1]
				v = 1 / (1 + dx*dx + dy*dy)
			}
			num[i*n+j] = v
			s += v
		}
		rowSums[i] = s
	})
	total := 0.0
	for _, s := range rowSums { // in row order: the same sum whatever the scheduling
		total += s
	}
	parallelRows(n, func(i int) {
		gx, gy := 0.0, 0.0
		for j := range n {
			v := num[i*n+j]
			w := (exaggeration*p[i*n+j] - v/total) * v
			gx += w * (y[2*i] - y[2*j])
			gy += w * (y[2*i+1] - y[2*j+1])
		}
		grad[2*i], grad[2*i+1] = 4*gx, 4*gy
	})
}

// parallelRows calls row(i) for every i in [0, n), on up to GOMAXPROCS goroutines; each row is
// computed by one goroutine, so results do not depend on the scheduling.
func parallelRows(n int, row func(i int)) {
	workers := min(runtime.GOMAXPROCS(0), n)
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			for i := w; i < n; i += workers {
				row(i)
			}
		})
	}
	wg.Wait()
}

// Silhouette returns the mean silhouette coefficient of points [N][D] grouped by labels [N]
// (Euclidean distance): for each point, (b − a) / max(a, b) with a its mean distance to the other
// points of its class and b the smallest mean distance to another class; 0 for a point alone in its
// class. It is in [−1, 1]; higher means tighter, better separated classes. It needs two classes.
func Silhouette(points [][]float64, labels []int32) (float64, error) {
	n := len(points)
	if len(labels) != n {
		return 0, fmt.Errorf("tsne: %d points but %d labels", n, len(labels))
	}
	dist, err := squaredDistances(points)
	if err != nil {
		return 0, err
	}
	numClasses := 0
	for _, c := range labels {
		if c < 0 {
			return 0, fmt.Errorf("tsne: negative label %d", c)
		}
		numClasses = max(numClasses, int(c)+1)
	}
	size := make([]int, numClasses)
	for _, c := range labels {
		size[c]++
	}
	present := 0
	for _, s := range size {
		if s > 0 {
			present++
		}
	}
	if present < 2 {
		return 0, fmt.Errorf("tsne: silhouette needs two classes, got %d", present)
	}
	scores := make([]float64, n)
	parallelRows(n, func(i int) {
		sums := make([]float64, numClasses)
		for j := range n {
			if j != i {
				sums[labels[j]] += math.Sqrt(dist[i*n+j])
			}
		}
		own := labels[i]
		if size[own] == 1 {
			return
		}
		a, b := sums[own]/float64(size[own]-1), math.Inf(1)
		for c, s := range sums {
			if int32(c) != own && size[c] > 0 {
				b = min(b, s/float64(size[c]))
			}
		}
		scores[i] = (b - a) / max(a, b)
	})
	total := 0.0
	for _, s := range scores {
		total += s
	}
	return total / float64(n), nil
}
