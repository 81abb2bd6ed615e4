package datasets

import (
	"fmt"
	"math/rand/v2"
	"slices"
)

// SyntheticConfig describes a random graph that satisfies the assumptions (1)-(5) of the GeoMix
// paper's Section 3.1 (Theorems 1 and 2), so that the theorems can be checked against samples.
//
// Construction (deterministic by Seed):
//   - Labels: exactly Nodes/Classes nodes per class, in random order.
//   - Features (assumptions 1-3): x_i[k] = Means[y_i][k] + u, u ~ U(-Bound/2, Bound/2), all draws
//     independent; the means lie in [-Bound/2, Bound/2], so every |x_i[k]| <= Bound.
//   - Edges (assumption 5): every node i makes Degree/2 draws; a draw picks a label l, equal to y_i
//     with probability P and otherwise uniform over the C-1 other classes, then a node j of class l
//     uniformly (redrawn within class l while j == i or i-j already is an edge, which leaves l as
//     drawn). Each draw adds the undirected edge i-j, so every node has mean degree Degree.
//     Because classes have equal sizes and the label channel is symmetric, the label of an edge's
//     other end follows the same channel whichever end made the draw: given y_i, each neighbour of
//     i (out-drawn or in-drawn) has label y_i with probability P, any other class with probability
//     (1-P)/(C-1), independently of the other neighbours. The exceptions are the rare redraws on
//     collisions (a fraction O(Degree·C/N) of the draws), and degrees vary around Degree (in-draws are random):
//     the theorems condition on deg(i), so the checks use each node's actual degree.
//   - Pseudo labels (assumption 4): PseudoLabels[i] = y_i with probability 1-Epsilon, otherwise a
//     uniform other class; so E[onehot] = (1-eps) e_y + eps/(C-1) sum_{j != y} e_j.
//
// The symmetric, deduplicated, self-loop-free edge list is what Graph requires; a directed
// "each node draws its own neighbourhood" variant would satisfy assumption (5) without the collision
// caveat but is not a Graph.
type SyntheticConfig struct {
	// Nodes is N; it must be a multiple of Classes (equal class sizes make the edge labels follow P
	// in both directions).
	Nodes int
	// Classes is C >= 2.
	Classes int
	// Features is F >= 1.
	Features int
	// Degree is the mean node degree, even and >= 2 (each node draws Degree/2 neighbours).
	Degree int
	// P is the probability that a neighbour shares the node's label, in [0, 1].
	P float64
	// Epsilon is the pseudo-label error rate, in [0, 1].
	Epsilon float64
	// Bound is B of assumption (3): every feature value lies in [-Bound, Bound]; 0 means 1.
	Bound float64
	// Means optionally fixes the class means, [C][F] with values in [-Bound/2, Bound/2]; nil draws
	// them uniformly in that range from Seed.
	Means [][]float64
	// TrainPerClass is the per-class training count of the split (0 means 20); ValNodes the size of
	// the validation set (0 means 500); every other node is a test node.
	TrainPerClass, ValNodes int
	// Seed makes the graph deterministic.
	Seed uint64
}

// SyntheticTruth is what the generator knows and a data set normally hides: the class means and the
// pseudo labels of assumptions (1) and (4).
type SyntheticTruth struct {
	// Config is the configuration used, with defaults filled in.
	Config SyntheticConfig
	// Means is [C][F]: Means[c] is mu(c), the mean feature of class c.
	Means [][]float64
	// PseudoLabels is [N]: a noisy copy of the labels with error rate Epsilon.
	PseudoLabels []int32
}

// DefaultSyntheticConfig is the configuration of the registered "synthetic" data set: 2000 nodes,
// 5 classes, 4 features, mean degree 10, homophily 0.6, pseudo-label error 0.2, seed 123. Few features
// keep it from being trivially separable (with 16 features a GCN reaches 99% test accuracy).
func DefaultSyntheticConfig() SyntheticConfig {
	return SyntheticConfig{Nodes: 2000, Classes: 5, Features: 4, Degree: 10, P: 0.6, Epsilon: 0.2, Bound: 1, Seed: 123}
}

func init() {
	register("synthetic", func(opts Options) (*Graph, error) {
		cfg := DefaultSyntheticConfig()
		cfg.Seed = uint64(opts.seedOr(int64(cfg.Seed)))
		cfg.TrainPerClass = opts.labelsPerClassOr(20)
		g, _, err := Synthetic(cfg)
		return g, err
	})
}

// withDefaults fills the zero-valued optional fields and validates cfg.
func (cfg SyntheticConfig) withDefaults() (SyntheticConfig, error) {
	if cfg.Bound == 0 {
		cfg.Bound = 1
	}
	if cfg.TrainPerClass == 0 {
		cfg.TrainPerClass = 20
	}
	if cfg.ValNodes == 0 {
		cfg.ValNodes = 500
	}
	switch {
	case cfg.Classes < 2:
		return cfg, fmt.Errorf("synthetic: Classes=%d, want >= 2", cfg.Classes)
	case cfg.Nodes <= 0 || cfg.Nodes%cfg.Classes != 0:
		return cfg, fmt.Errorf("synthetic: Nodes=%d, want a positive multiple of Classes=%d", cfg.Nodes, cfg.Classes)
	case cfg.Features < 1:
		return cfg, fmt.Errorf("synthetic: Features=%d, want >= 1", cfg.Features)
	case cfg.Degree < 2 || cfg.Degree%2 != 0:
		return cfg, fmt.Errorf("synthetic: Degree=%d, want an even number >= 2", cfg.Degree)
	case cfg.Degree > cfg.Nodes/cfg.Classes-1:
		return cfg, fmt.Errorf("synthetic: Degree=%d, want at most Nodes/Classes-1=%d", cfg.Degree, cfg.Nodes/cfg.Classes-1)
	case cfg.P < 0 || cfg.P > 1:
		return cfg, fmt.Errorf("synthetic: P=%g, want a probability in [0, 1]", cfg.P)
	case cfg.Epsilon < 0 || cfg.Epsilon > 1:
		return cfg, fmt.Errorf("synthetic: Epsilon=%g, want a probability in [0, 1]", cfg.Epsilon)
	case cfg.Bound < 0:
		return cfg, fmt.Errorf("synthetic: Bound=%g, want > 0", cfg.Bound)
	case cfg.TrainPerClass < 0 || cfg.ValNodes < 0 || cfg.TrainPerClass*cfg.Classes+cfg.ValNodes >= cfg.Nodes:
		return cfg, fmt.Errorf("synthetic: TrainPerClass=%d x %d classes + ValNodes=%d leaves no test node out of %d",
			cfg.TrainPerClass, cfg.Classes, cfg.ValNodes, cfg.Nodes)
	}
	if cfg.Means != nil {
		if len(cfg.Means) != cfg.Classes {
			return cfg, fmt.Errorf("synthetic: Means has %d rows, want Classes=%d", len(cfg.Means), cfg.Classes)
		}
		for c, row := range cfg.Means {
			if len(row) != cfg.Features {
				return cfg, fmt.Errorf("synthetic: Means[%d] has %d values, want Features=%d", c, len(row), cfg.Features)
			}
			for k, v := range row {
				if v < -cfg.Bound/2 || v > cfg.Bound/2 {
					return cfg, fmt.Errorf("synthetic: Means[%d][%d]=%g, want it in [-Bound/2, Bound/2]=[%g, %g]",
						c, k, v, -cfg.Bound/2, cfg.Bound/2)
				}
			}
		}
	}
	return cfg, nil
}

// Synthetic generates the graph described by cfg (see SyntheticConfig) with one split, and returns
// it with the hidden truth. It returns an error naming the field when cfg is invalid.
func Synthetic(cfg SyntheticConfig) (*Graph, *SyntheticTruth, error) {
	cfg, err := cfg.withDefaults()
	if err != nil {
		return nil, nil, err
	}
	n, numC, numF := cfg.Nodes, cfg.Classes, cfg.Features
	rng := rand.New(rand.NewPCG(cfg.Seed, 0x9e3779b97f4a7c15))

	means, labels := classMeansAndLabels(cfg, rng)
	byClass := make([][]int32, numC)
	for i, y := range labels {
		byClass[y] = append(byClass[y], int32(i))
	}

	features := &CSR{NumRows: n, NumCols: numF, RowPtr: make([]int64, n+1),
		ColIdx: make([]int32, n*numF), Values: make([]float32, n*numF)}
	for i := range n {
		features.RowPtr[i+1] = int64((i + 1) * numF)
		for k := range numF {
			features.ColIdx[i*numF+k] = int32(k)
			features.Values[i*numF+k] = float32(means[labels[i]][k] + (rng.Float64()-0.5)*cfg.Bound)
		}
	}

	src, dst, err := drawEdges(rng, labels, byClass, cfg.Degree/2, cfg.P)
	if err != nil {
		return nil, nil, err
	}
	src, dst, err = UndirectedEdges(n, src, dst)
	if err != nil {
		return nil, nil, fmt.Errorf("synthetic: %w", err)
	}

	pseudo := make([]int32, n)
	for i, y := range labels {
		pseudo[i] = y
		if rng.Float64() < cfg.Epsilon {
			pseudo[i] = otherClass(rng, y, numC)
		}
	}

	g := &Graph{
		Name:       "synthetic",
		NumNodes:   n,
		Features:   features,
		Src:        src,
		Dst:        dst,
		Labels:     labels,
		NumClasses: numC,
		Splits:     []Split{syntheticSplit(rng, byClass, cfg.TrainPerClass, cfg.ValNodes)},
		Notes: fmt.Sprintf("synthetic graph satisfying the GeoMix paper's assumptions (1)-(5) (not a paper data set): "+
			"%d nodes, %d classes, %d features in [-%g, %g], mean degree %d, homophily p=%g, pseudo-label error %g, seed %d; "+
			"features are not row-normalised",
			n, numC, numF, cfg.Bound, cfg.Bound, cfg.Degree, cfg.P, cfg.Epsilon, cfg.Seed),
	}
	return g, &SyntheticTruth{Config: cfg, Means: means, PseudoLabels: pseudo}, nil
}

// otherClass draws a class uniformly among the numC-1 classes different from y.
func otherClass(rng *rand.Rand, y int32, numC int) int32 {
	c := int32(rng.IntN(numC - 1))
	if c >= y {
		c++
	}
	return c
}

// drawEdges makes draws neighbour draws per node (see SyntheticConfig) and returns one (src, dst)
// pair per draw, no pair repeated in either direction and no self-loop. It fails when a node is
// already linked to (almost) every node of a drawn class, which needs Degree close to N/C.
func drawEdges(rng *rand.Rand, labels []int32, byClass [][]int32, draws int, p float64) (src, dst []int32, err error) {
	n := len(labels)
	seen := make(map[int64]struct{}, n*draws)
	key := func(a, b int32) int64 {
		if a > b {
			a, b = b, a
		}
		return int64(a)<<32 | int64(b)
	}
	src = make([]int32, 0, n*draws)
	dst = make([]int32, 0, n*draws)
	for i := range int32(n) {
		for range draws {
			l := labels[i]
			if rng.Float64() >= p {
				l = otherClass(rng, l, len(byClass))
			}
			members := byClass[l]
			for try := 0; ; try++ {
				if try == 100*len(members) {
					return nil, nil, fmt.Errorf("synthetic: node %d has no free neighbour left in class %d; lower Degree=%d",
						i, l, 2*draws)
				}
				j := members[rng.IntN(len(members))]
				if _, dup := seen[key(i, j)]; j == i || dup {
					continue
				}
				seen[key(i, j)] = struct{}{}
				src, dst = append(src, i), append(dst, j)
				break
			}
		}
	}
	return src, dst, nil
}

// syntheticSplit takes trainPerClass random nodes of every class for training, then valNodes random
// nodes among the rest for validation; the remaining nodes are the test set.
func syntheticSplit(rng *rand.Rand, byClass [][]int32, trainPerClass, valNodes int) Split {
	var split Split
	var rest []int32
	for _, members := range byClass {
		perm := slices.Clone(members)
		rng.Shuffle(len(perm), func(i, j int) { perm[i], perm[j] = perm[j], perm[i] })
		split.Train = append(split.Train, perm[:trainPerClass]...)
		rest = append(rest, perm[trainPerClass:]...)
	}
	rng.Shuffle(len(rest), func(i, j int) { rest[i], rest[j] = rest[j], rest[i] })
	split.Val = slices.Clone(rest[:valNodes])
	split.Test = slices.Clone(rest[valNodes:])
	slices.Sort(split.Train)
	slices.Sort(split.Val)
	slices.Sort(split.Test)
	return split
}

// classMeansAndLabels draws, from rng in this order, the class means [C, F] (uniform in
// ±cfg.Bound/2, unless cfg.Means gives them) and the labels [N] (balanced, i mod C, shuffled).
func classMeansAndLabels(cfg SyntheticConfig, rng *rand.Rand) (means [][]float64, labels []int32) {
	n, numC, numF := cfg.Nodes, cfg.Classes, cfg.Features
	means = cfg.Means
	if means == nil {
		means = make([][]float64, numC)
		for c := range means {
			means[c] = make([]float64, numF)
			for k := range means[c] {
				means[c][k] = (rng.Float64() - 0.5) * cfg.Bound
			}
		}
	}
	labels = make([]int32, n)
	for i := range labels {
		labels[i] = int32(i % numC)
	}
	rng.Shuffle(n, func(i, j int) { labels[i], labels[j] = labels[j], labels[i] })
	return means, labels
}
