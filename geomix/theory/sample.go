package theory

import (
	"fmt"
	"hash/fnv"
	"math/rand/v2"

	"github.com/geomix-go/geomix/datasets"
	"github.com/geomix-go/geomix/geomix/mixing"
	"github.com/gomlx/gomlx/backends"
	"github.com/gomlx/gomlx/pkg/core/graph"
	"github.com/gomlx/gomlx/pkg/core/tensors"
)

// mixedSample is one synthetic graph after one GeoMix-I step with e_ij = 1/deg(i) (mixing.NormRow)
// applied to its features and one-hot pseudo labels together.
type mixedSample struct {
	graph  *datasets.Graph
	truth  *datasets.SyntheticTruth
	degree []int
	// mixed is [N, F+C] row-major: the mixed features h_i, then the mixed pseudo labels ȳ_i.
	mixed []float32
}

// width is F+C, the row length of mixed.
func (s *mixedSample) width() int { return s.graph.NumFeatures() + s.graph.NumClasses }

// sampleSeed derives the seed of replicate r at grid point point of the named check from o.Seed.
func sampleSeed(o Options, name string, point, r int) uint64 {
	h := fnv.New64a()
	fmt.Fprintf(h, "%d/%s/%d/%d", o.Seed, name, point, r)
	return h.Sum64()
}

// classMeansFor draws the [C][F] class means shared by all replicates of a check, uniform in
// [-bound/2, bound/2], from o.Seed.
func classMeansFor(o Options, name string, numC, numF int, bound float64) [][]float64 {
	rng := rand.New(rand.NewPCG(sampleSeed(o, name, -1, -1), 1))
	means := make([][]float64, numC)
	for c := range means {
		means[c] = make([]float64, numF)
		for k := range means[c] {
			means[c][k] = (rng.Float64() - 0.5) * bound
		}
	}
	return means
}

// drawMixed generates the graph of cfg and mixes it once with GeoMix-I (residual alpha, one hop,
// row-normalised adjacency) on backend.
func drawMixed(backend backends.Backend, cfg datasets.SyntheticConfig, alpha float64) (*mixedSample, error) {
	g, truth, err := datasets.Synthetic(cfg)
	if err != nil {
		return nil, err
	}
	n, numF, numC := g.NumNodes, g.NumFeatures(), g.NumClasses
	width := numF + numC
	x := make([]float32, n*width)
	dense := g.DenseFeatures()
	for i := range n {
		copy(x[i*width:], dense[i*numF:(i+1)*numF])
		x[i*width+numF+int(truth.PseudoLabels[i])] = 1
	}
	adj := mixing.BuildAdjacency(g, mixing.NormRow)
	mixed, err := runMixI(backend, adj, x, width, alpha)
	if err != nil {
		return nil, err
	}
	degree := make([]int, n)
	for _, d := range g.Dst {
		degree[d]++
	}
	return &mixedSample{graph: g, truth: truth, degree: degree, mixed: mixed}, nil
}

// runMixI computes mixing.MixI(adj, x, alpha, 1) for x [N, width] (row-major float32).
func runMixI(backend backends.Backend, adj *mixing.Adjacency, x []float32, width int, alpha float64) ([]float32, error) {
	src, dst, weight := adj.Inputs()
	out, err := graph.ExecOnce(backend, func(x, src, dst, weight *graph.Node) *graph.Node {
		return mixing.MixI(mixing.NewAdjacencyNodes(adj.NumNodes, src, dst, weight), x, alpha, 1)
	}, tensors.FromFlatDataAndDimensions(x, adj.NumNodes, width), src, dst, weight)
	if err != nil {
		return nil, fmt.Errorf("running mixing.MixI: %w", err)
	}
	return tensors.MustCopyFlatData[float32](out), nil
}

// classMeans returns the [C][width] mean of the mixed rows of each class.
func (s *mixedSample) classMeans() [][]float64 {
	numC, width := s.graph.NumClasses, s.width()
	sums := make([][]float64, numC)
	for c := range sums {
		sums[c] = make([]float64, width)
	}
	counts := make([]float64, numC)
	for i, y := range s.graph.Labels {
		counts[y]++
		for k := range width {
			sums[y][k] += float64(s.mixed[i*width+k])
		}
	}
	for c := range sums {
		for k := range sums[c] {
			sums[c][k] /= counts[c]
		}
	}
	return sums
}
