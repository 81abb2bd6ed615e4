package datasets

import (
	"fmt"
	"math/rand/v2"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
)

// SyntheticScale generates a graph of the assumptions of SyntheticConfig (equal classes, class
// means plus uniform noise, neighbours of the node's class with probability P) at the sizes of
// scaling benchmarks: millions of nodes and a hundred million directed edges, in seconds and
// without a hash set of the edges. It differs from Synthetic in how draws collide and in its
// random streams, so the two give different graphs for the same Seed:
//   - Every node draws from random streams of its own (derived from Seed and its id), so the graph
//     is the same on any number of cores; the nodes are drawn in parallel.
//   - A node redraws (within the drawn class) a neighbour it drew already or itself; a pair drawn
//     from both ends (i draws j, j draws i) is one edge. A draw meets its reverse with probability
//     about (Degree/2)·(P² + (1-P)²/(C-1))·C/N, and the mean degree is Degree less half that
//     fraction (19.98 for Degree 20 on 20,000 nodes, 10 classes, P = 0.6); NumEdges states it.
//
// The features are dense (every entry stored in the CSR); the split and the truth's pseudo labels
// follow Synthetic's rules. Peak memory is about the graph's own: 12 bytes per directed edge
// during construction and 8 bytes per feature entry.
func SyntheticScale(cfg SyntheticConfig) (*Graph, *SyntheticTruth, error) {
	cfg, err := cfg.withDefaults()
	if err != nil {
		return nil, nil, err
	}
	n, numC, numF := cfg.Nodes, cfg.Classes, cfg.Features
	if int64(n)*int64(cfg.Degree) >= 1<<31 {
		return nil, nil, fmt.Errorf("synthetic: Nodes=%d x Degree=%d directed edges do not fit int32 edge counts", n, cfg.Degree)
	}
	rng := rand.New(rand.NewPCG(cfg.Seed, 0x5ca1ab1e5eed))
	means, labels := classMeansAndLabels(cfg, rng)
	byClass := make([][]int32, numC)
	for c := range byClass {
		byClass[c] = make([]int32, 0, n/numC)
	}
	for i, y := range labels {
		byClass[y] = append(byClass[y], int32(i))
	}

	features := &CSR{NumRows: n, NumCols: numF, RowPtr: make([]int64, n+1),
		ColIdx: make([]int32, n*numF), Values: make([]float32, n*numF)}
	draws := make([]int32, n*(cfg.Degree/2))
	pseudo := make([]int32, n)
	err = forNodeBlocks(n, func(r *rand.Rand, pcg *rand.PCG, lo, hi int) error {
		for i := lo; i < hi; i++ {
			pcg.Seed(nodeStream(cfg.Seed, i, 0), nodeStream(cfg.Seed, i, 1))
			y := labels[i]
			features.RowPtr[i+1] = int64((i + 1) * numF)
			row := i * numF
			for k := range numF {
				features.ColIdx[row+k] = int32(k)
				features.Values[row+k] = float32(means[y][k] + (r.Float64()-0.5)*cfg.Bound)
			}
			pseudo[i] = y
			if r.Float64() < cfg.Epsilon {
				pseudo[i] = otherClass(r, y, numC)
			}
			if err := drawNeighbours(r, int32(i), labels, byClass, cfg.P, draws[i*(cfg.Degree/2):(i+1)*(cfg.Degree/2)]); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return nil, nil, err
	}
	src, dst := symmetricDraws(n, draws)
	g := &Graph{
		Name:       "synthetic-scale",
		NumNodes:   n,
		Features:   features,
		Src:        src,
		Dst:        dst,
		Labels:     labels,
		NumClasses: numC,
		Splits:     []Split{syntheticSplit(rng, byClass, cfg.TrainPerClass, cfg.ValNodes)},
		Notes: fmt.Sprintf("synthetic graph satisfying the GeoMix paper's assumptions (1)-(5) (not a paper data set), "+
			"parallel generator: %d nodes, %d classes, %d features in [-%g, %g], mean degree %d, homophily p=%g, seed %d; "+
			"features are not row-normalised",
			n, numC, numF, cfg.Bound, cfg.Bound, cfg.Degree, cfg.P, cfg.Seed),
	}
	return g, &SyntheticTruth{Config: cfg, Means: means, PseudoLabels: pseudo}, nil
}

// nodeStream is the seed word w of node i's random stream: splitmix64 of the seed, node and word,
// so that neighbouring nodes' streams are unrelated.
func nodeStream(seed uint64, i, w int) uint64 {
	z := seed + uint64(2*i+w+1)*0x9e3779b97f4a7c15
	z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
	z = (z ^ z>>27) * 0x94d049bb133111eb
	return z ^ z>>31
}

// drawNeighbours fills out with node i's draws: each a class (y_i with probability p, else a
// uniform other class), then a node of that class uniformly, redrawn within the class while it is
// i or already in out.
func drawNeighbours(r *rand.Rand, i int32, labels []int32, byClass [][]int32, p float64, out []int32) error {
	for d := range out {
		l := labels[i]
		if r.Float64() >= p {
			l = otherClass(r, l, len(byClass))
		}
		members := byClass[l]
		for try := 0; ; try++ {
			if try == 100*len(members) {
				return fmt.Errorf("synthetic: node %d has no free neighbour left in class %d; lower Degree=%d", i, l, 2*len(out))
			}
			j := members[r.IntN(len(members))]
			if j != i && !slices.Contains(out[:d], j) {
				out[d] = j
				break
			}
		}
	}
	return nil
}

// forNodeBlocks calls fn on blocks [lo, hi) of the n nodes from GOMAXPROCS goroutines, each with
// its own generator (fn seeds it per node), and returns the first error.
func forNodeBlocks(n int, fn func(r *rand.Rand, pcg *rand.PCG, lo, hi int) error) error {
	const block = 4096
	var next atomic.Int64
	var wg sync.WaitGroup
	errs := make([]error, runtime.GOMAXPROCS(0))
	for w := range errs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			pcg := rand.NewPCG(0, 0)
			r := rand.New(pcg)
			for {
				lo := int(next.Add(block)) - block
				if lo >= n || errs[w] != nil {
					return
				}
				errs[w] = fn(r, pcg, lo, min(lo+block, n))
			}
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// symmetricDraws turns the draws (n rows of equal width, row i holding node i's neighbours) into the
// sorted, symmetric, duplicate-free edge list of a Graph: both directions of every drawn pair, a
// pair drawn from both ends once.
func symmetricDraws(n int, draws []int32) (src, dst []int32) {
	width := len(draws) / n
	rowPtr := make([]int64, n+1)
	for i := range n {
		rowPtr[i+1] += int64(width)
		for _, j := range draws[i*width : (i+1)*width] {
			rowPtr[j+1]++
		}
	}
	for i := range n {
		rowPtr[i+1] += rowPtr[i]
	}
	nbr := make([]int32, rowPtr[n])
	fill := slices.Clone(rowPtr[:n])
	for i := range n {
		for _, j := range draws[i*width : (i+1)*width] {
			nbr[fill[i]] = j
			fill[i]++
			nbr[fill[j]] = int32(i)
			fill[j]++
		}
	}
	// Sort and deduplicate every row in parallel; fill[i] becomes row i's length.
	_ = forNodeBlocks(n, func(_ *rand.Rand, _ *rand.PCG, lo, hi int) error {
		for i := lo; i < hi; i++ {
			row := nbr[rowPtr[i]:rowPtr[i+1]]
			slices.Sort(row)
			fill[i] = int64(len(slices.Compact(row)))
		}
		return nil
	})
	// Compact the rows to the front (each row moves left or stays) and write the sources.
	var total int64
	for i := range n {
		total += fill[i]
	}
	src = make([]int32, total)
	at := int64(0)
	for i := range n {
		copy(nbr[at:], nbr[rowPtr[i]:rowPtr[i]+fill[i]])
		for k := at; k < at+fill[i]; k++ {
			src[k] = int32(i)
		}
		at += fill[i]
	}
	return src, slices.Clip(nbr[:total])
}
