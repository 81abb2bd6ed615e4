package methods

import (
	"math"
	"math/rand/v2"
	"slices"
)

// GraphMixup's host-side parts (its code's src/QLearning.py, src/utils.py mixup and the targets of
// src/models.py PairwiseDistance and DistanceCluster).

// GraphMixup's fixed settings (its code's argparse defaults and QLearning.py).
const (
	// graphMixupStep is the Q-learning action: k ± 0.05, k kept in [−1, 1].
	graphMixupStep = 0.05
	// graphMixupQLR, graphMixupGreedy are the Q-table's learning rate and ε-greedy probability of
	// the greedy action.
	graphMixupQLR, graphMixupGreedy = 0.1, 0.9
	// graphMixupQStart is the first epoch that updates k; k stops changing once
	// graphMixupQMinRecord values are recorded and the last graphMixupQWindow span at most
	// graphMixupStep (the code's delta_k).
	graphMixupQStart, graphMixupQMinRecord, graphMixupQWindow = 50, 150, 20
	// graphMixupDistClasses is dis_nclass: local-path classes for shortest-path distances 1 … 5 and
	// "more than 5 or unreachable".
	graphMixupDistClasses = 6
	// graphMixupPairsPerClass is k_num, the node pairs sampled per distance class.
	graphMixupPairsPerClass = 5000
	// graphMixupClusters is clu_nclass, the number of clusters of the global-path task.
	graphMixupClusters = 15
)

// qLearner is GraphMixup's tabular Q-learning of k, the upsampling scale of its mixup: two actions
// (0: k + 0.05, 1: k − 0.05), states the values of k (on the 0.05 grid), reward the sign of the
// last change of the validation accuracy. As in its code every transition is terminal (done = True),
// so Q(s, a) ← Q(s, a) + 0.1 (r − Q(s, a)).
type qLearner struct {
	q       map[int][2]float64
	k, last float64 // current and previous k
	action  int     // the last action, −1 before the first
	record  []float64
}

// newQLearner starts at k = 0 with an empty table, k_record = [0].
func newQLearner() *qLearner {
	return &qLearner{q: map[int][2]float64{}, action: -1, record: []float64{0}}
}

// state is k's row of the table: its index on the 0.05 grid.
func qState(k float64) int { return int(math.Round(k / graphMixupStep)) }

// terminal reports whether k has settled: at least 150 values recorded and the last 20 within 0.05.
func (ql *qLearner) terminal() bool {
	if len(ql.record) < graphMixupQMinRecord {
		return false
	}
	last := ql.record[len(ql.record)-graphMixupQWindow:]
	return slices.Max(last)-slices.Min(last) <= graphMixupStep+1e-9
}

// update is one epoch's Run_QL (when epoch >= 50 and k has not settled): learn from the previous
// action with reward sign(current − previous validation accuracy), choose the next action ε-greedily
// from rng (ties at random) and move k; every epoch records k.
func (ql *qLearner) update(rng *rand.Rand, epoch int, current, previous float64) {
	if epoch < graphMixupQStart || ql.terminal() {
		ql.record = append(ql.record, ql.k)
		return
	}
	if ql.action >= 0 {
		reward := 0.0
		if current > previous {
			reward = 1
		} else if current < previous {
			reward = -1
		}
		row := ql.q[qState(ql.last)]
		row[ql.action] += graphMixupQLR * (reward - row[ql.action])
		ql.q[qState(ql.last)] = row
	}
	row := ql.q[qState(ql.k)]
	var action int
	if rng.Float64() < graphMixupGreedy {
		if row[0] == row[1] {
			action = rng.IntN(2)
		} else if row[1] > row[0] {
			action = 1
		}
	} else {
		action = rng.IntN(2)
	}
	next := ql.k + graphMixupStep
	if action == 1 {
		next = ql.k - graphMixupStep
	}
	ql.last, ql.k, ql.action = ql.k, min(max(next, -1), 1), action
	ql.record = append(ql.record, ql.k)
}

// syntheticCounts returns, per class, how many of its train nodes spawn a synthetic node at scale
// k: with avg = ⌊|train| / C⌋ and n_c the class's train nodes, the code's scale avg/n_c + k gives
// ⌊scale⌋ − 1 full rounds and a fraction (scale − ⌊scale⌋) of the class in a last round; we keep at
// most one round (all n_c nodes). On balanced splits avg/n_c = 1: ⌊n_c k⌋ nodes for k in [0, 1),
// none for k < 0. Its code mixes the last num_im_class ("minority") classes; every class here.
func syntheticCounts(perClass []int, k float64) []int {
	total := 0
	for _, n := range perClass {
		total += n
	}
	avg := total / len(perClass)
	out := make([]int, len(perClass))
	for c, n := range perClass {
		if n == 0 {
			continue
		}
		scale := float64(avg)/float64(n) + k
		rounds := int(scale) - 1 // Python int() truncates toward zero
		if rounds >= 1 {
			out[c] = n
		} else if rounds == 0 {
			out[c] = int(float64(n) * (scale - 1))
		}
	}
	return out
}

// bfsDistances returns the hop distance from src to every node within maxDepth over neighbours
// nbrs (−1 beyond or unreachable).
func bfsDistances(nbrs [][]int32, src int32, maxDepth int, dist []int32) []int32 {
	for i := range dist {
		dist[i] = -1
	}
	dist[src] = 0
	frontier := []int32{src}
	for depth := int32(1); len(frontier) > 0 && (maxDepth < 0 || int(depth) <= maxDepth); depth++ {
		var next []int32
		for _, u := range frontier {
			for _, v := range nbrs[u] {
				if dist[v] < 0 {
					dist[v] = depth
					next = append(next, v)
				}
			}
		}
		frontier = next
	}
	return dist
}

// sampleDistancePairs draws, from rng, perClass node pairs (a, b) for each local-path class: class d−1
// holds pairs at shortest-path distance d = 1 … 5, class 5 pairs farther than 5 hops or unreachable.
// Its code samples uniformly among all such pairs of the all-pairs distance matrix; we draw a
// source uniformly, search 5 hops from it and take one target uniformly per class still short of
// pairs, until every class is full or 20 × perClass sources were tried. It returns the pairs and
// their classes, each [6 perClass], and a weight per pair (0 for the slots a class could not fill).
func sampleDistancePairs(rng *rand.Rand, nbrs [][]int32, perClass int) (a, b, class []int32, weight []float32) {
	n := len(nbrs)
	size := graphMixupDistClasses * perClass
	a, b, class, weight = make([]int32, size), make([]int32, size), make([]int32, size), make([]float32, size)
	filled := make([]int, graphMixupDistClasses)
	dist := make([]int32, n)
	byDist := make([][]int32, graphMixupDistClasses)
	for tries := 0; tries < 20*perClass && slices.Min(filled) < perClass; tries++ {
		src := int32(rng.IntN(n))
		bfsDistances(nbrs, src, graphMixupDistClasses-1, dist)
		for c := range byDist {
			byDist[c] = byDist[c][:0]
		}
		for v, d := range dist {
			if d > 0 {
				byDist[d-1] = append(byDist[d-1], int32(v))
			}
		}
		for c := range graphMixupDistClasses {
			if filled[c] == perClass {
				continue
			}
			var dst int32 = -1
			if c < graphMixupDistClasses-1 {
				if len(byDist[c]) > 0 {
					dst = byDist[c][rng.IntN(len(byDist[c]))]
				}
			} else if v := int32(rng.IntN(n)); dist[v] < 0 {
				dst = v
			}
			if dst < 0 {
				continue
			}
			slot := c*perClass + filled[c]
			a[slot], b[slot], class[slot], weight[slot] = src, dst, int32(c), 1
			filled[c]++
		}
	}
	return a, b, class, weight
}

// clusterTargets returns GraphMixup's global-path targets [n][clusters]: entry (v, c) is 1 / hop
// distance from node v to the centre of cluster c (0 for the centre itself and for unreachable
// nodes). Its code clusters with METIS (not available in pure Go); we partition by farthest-first
// seeds (the highest-degree node first, then each node farthest from the seeds so far; ties to the
// higher degree, then the lower index) and assign every node to its nearest seed; as in its code, a
// cluster's centre is its node with the most edges inside the cluster (ties: the lower index).
func clusterTargets(nbrs [][]int32, clusters int) [][]float32 {
	n := len(nbrs)
	clusters = min(clusters, n)
	better := func(u, v int, du, dv int32) bool { // is u a better next seed than v?
		if du != dv {
			return du > dv
		}
		if len(nbrs[u]) != len(nbrs[v]) {
			return len(nbrs[u]) > len(nbrs[v])
		}
		return u < v
	}
	const far = math.MaxInt32
	nearest := make([]int32, n) // distance to the nearest seed
	owner := make([]int, n)
	for v := range nearest {
		nearest[v], owner[v] = far, -1
	}
	dist := make([]int32, n)
	var seeds []int
	for range clusters {
		best := -1
		for v := range n {
			if best < 0 || better(v, best, nearest[v], nearest[best]) {
				best = v
			}
		}
		seeds = append(seeds, best)
		bfsDistances(nbrs, int32(best), -1, dist)
		for v, d := range dist {
			if d >= 0 && d < nearest[v] {
				nearest[v], owner[v] = d, len(seeds)-1
			}
		}
	}
	inside := make([]int, n)
	for u := range n {
		for _, v := range nbrs[u] {
			if owner[u] >= 0 && owner[u] == owner[v] {
				inside[u]++
			}
		}
	}
	centres := make([]int, len(seeds))
	for c := range centres {
		centres[c] = -1
	}
	for v := range n {
		if c := owner[v]; c >= 0 && (centres[c] < 0 || inside[v] > inside[centres[c]]) {
			centres[c] = v
		}
	}
	out := make([][]float32, n)
	for v := range out {
		out[v] = make([]float32, graphMixupClusters)
	}
	for c, centre := range centres {
		bfsDistances(nbrs, int32(centre), -1, dist)
		for v, d := range dist {
			if d > 0 {
				out[v][c] = 1 / float32(d)
			}
		}
	}
	return out
}
