package datasets

import (
	"fmt"
	"math"
	"slices"
)

// Validate checks the invariants every trainer relies on and returns an error naming the first
// violation, or nil: Features is a well-formed [N, F] CSR (row pointers monotone, column indices in
// [0, F) and increasing within each row, every value finite); the edges have node ids in [0, N),
// are sorted by (Src, Dst) without duplicates or self-loops, and hold both directions of every
// edge; Labels has N entries in [0, NumClasses); there is at least one split, and every split's
// train, validation and test sets are non-empty, sorted, without repeats and inside [0, N), as are
// the ExtraTests. Every TrainBatch's graph satisfies the same (splits aside) with g's features
// and classes, and its Labelled and Augmented sets are non-empty, sorted and in range.
func (g *Graph) Validate() error {
	for _, check := range []func() error{g.validateFeatures, g.validateEdges, g.validateLabels, g.validateSplits, g.validateBatches} {
		if err := check(); err != nil {
			return fmt.Errorf("datasets: graph %q is not valid: %w", g.Name, err)
		}
	}
	return nil
}

// validateBatches checks every TrainBatch (see Validate).
func (g *Graph) validateBatches() error {
	for i, b := range g.TrainBatches {
		bg := b.Graph
		if bg == nil {
			return fmt.Errorf("train batch %d has no graph", i)
		}
		for _, check := range []func() error{bg.validateFeatures, bg.validateEdges, bg.validateLabels} {
			if err := check(); err != nil {
				return fmt.Errorf("train batch %d: %w", i, err)
			}
		}
		if bg.NumFeatures() != g.NumFeatures() || bg.NumClasses != g.NumClasses {
			return fmt.Errorf("train batch %d has %d features and %d classes, expected %d and %d", i, bg.NumFeatures(), bg.NumClasses, g.NumFeatures(), g.NumClasses)
		}
		for _, set := range []NodeSet{{Name: "labelled", Nodes: b.Labelled}, {Name: "augmented", Nodes: b.Augmented}} {
			if err := bg.validateNodeSet(fmt.Sprintf("train batch %d's %s set", i, set.Name), set.Nodes); err != nil {
				return err
			}
		}
		if err := bg.validateTarget(i, b); err != nil {
			return err
		}
	}
	return nil
}

// validateTarget checks a TrainBatch's Target set, when it has one: sorted, in range and apart from
// its labelled and augmented nodes.
func (g *Graph) validateTarget(i int, b TrainBatch) error {
	if b.Target == nil {
		return nil
	}
	if err := g.validateNodeSet(fmt.Sprintf("train batch %d's target set", i), b.Target); err != nil {
		return err
	}
	for _, set := range [][]int32{b.Labelled, b.Augmented} {
		for _, v := range set {
			if _, found := slices.BinarySearch(b.Target, v); found {
				return fmt.Errorf("train batch %d's node %d is both a target node and a labelled or augmented one, expected target nodes apart", i, v)
			}
		}
	}
	return nil
}

// validateFeatures checks the CSR form of Features against NumNodes.
func (g *Graph) validateFeatures() error {
	n := g.NumNodes
	if n <= 0 {
		return fmt.Errorf("it has %d nodes, expected at least 1", n)
	}
	m := g.Features
	if m == nil {
		return fmt.Errorf("it has no feature matrix, expected [%d, F]", n)
	}
	if m.NumRows != n || len(m.RowPtr) != n+1 {
		return fmt.Errorf("features have %d rows and %d row pointers, expected %d and %d", m.NumRows, len(m.RowPtr), n, n+1)
	}
	if len(m.ColIdx) != len(m.Values) || m.RowPtr[0] != 0 || m.RowPtr[n] != int64(len(m.ColIdx)) {
		return fmt.Errorf("features hold %d column indices and %d values with row pointers from %d to %d, expected equal counts and 0 to that count",
			len(m.ColIdx), len(m.Values), m.RowPtr[0], m.RowPtr[n])
	}
	for i := range n {
		lo, hi := m.RowPtr[i], m.RowPtr[i+1]
		if hi < lo || hi > int64(len(m.ColIdx)) {
			return fmt.Errorf("feature row %d spans [%d, %d), expected a range inside [0, %d)", i, lo, hi, len(m.ColIdx))
		}
		for k := lo; k < hi; k++ {
			c := m.ColIdx[k]
			if c < 0 || int(c) >= m.NumCols {
				return fmt.Errorf("feature row %d has column %d, expected one in [0, %d)", i, c, m.NumCols)
			}
			if k > lo && m.ColIdx[k-1] >= c {
				return fmt.Errorf("feature row %d lists column %d after column %d, expected increasing columns", i, c, m.ColIdx[k-1])
			}
			if v := float64(m.Values[k]); math.IsNaN(v) || math.IsInf(v, 0) {
				return fmt.Errorf("feature [%d, %d] is %v, expected a finite value", i, c, v)
			}
		}
	}
	return nil
}

// validateEdges checks the edge list's form: in range, sorted, unique, no self-loops, symmetric.
func (g *Graph) validateEdges() error {
	if len(g.Src) != len(g.Dst) {
		return fmt.Errorf("it has %d edge sources but %d targets", len(g.Src), len(g.Dst))
	}
	n := int32(g.NumNodes)
	key := func(e int) int64 { return int64(g.Src[e])<<32 | int64(g.Dst[e]) }
	for e := range g.Src {
		s, d := g.Src[e], g.Dst[e]
		switch {
		case s < 0 || d < 0 || s >= n || d >= n:
			return fmt.Errorf("edge %d (%d->%d) has a node id outside [0, %d)", e, s, d, n)
		case s == d:
			return fmt.Errorf("edge %d (%d->%d) is a self-loop, expected none", e, s, d)
		case e > 0 && key(e-1) == key(e):
			return fmt.Errorf("edge %d (%d->%d) repeats edge %d, expected no duplicates", e, s, d, e-1)
		case e > 0 && key(e-1) > key(e):
			return fmt.Errorf("edge %d (%d->%d) comes after %d->%d, expected edges sorted by (source, target)", e, s, d, g.Src[e-1], g.Dst[e-1])
		}
	}
	// start[v] is the first edge out of v (the edges are sorted by source now).
	start := make([]int, n+1)
	for _, s := range g.Src {
		start[s+1]++
	}
	for v := range n {
		start[v+1] += start[v]
	}
	for e := range g.Src {
		s, d := g.Src[e], g.Dst[e]
		if _, found := slices.BinarySearch(g.Dst[start[d]:start[d+1]], s); !found {
			return fmt.Errorf("edge %d (%d->%d) has no reverse edge %d->%d, expected both directions", e, s, d, d, s)
		}
	}
	return nil
}

// validateLabels checks that every node has a label in [0, NumClasses).
func (g *Graph) validateLabels() error {
	if len(g.Labels) != g.NumNodes {
		return fmt.Errorf("it has %d labels for %d nodes", len(g.Labels), g.NumNodes)
	}
	if g.NumClasses < 1 {
		return fmt.Errorf("it has %d classes, expected at least 1", g.NumClasses)
	}
	for v, c := range g.Labels {
		if c < 0 || int(c) >= g.NumClasses {
			return fmt.Errorf("node %d has label %d, expected one in [0, %d)", v, c, g.NumClasses)
		}
	}
	return nil
}

// validateSplits checks that there is a split and that every node set is non-empty, sorted and in range.
func (g *Graph) validateSplits() error {
	if len(g.Splits) == 0 {
		return fmt.Errorf("it has no split, expected at least one train/validation/test partition")
	}
	for s, split := range g.Splits {
		for i, set := range [][]int32{split.Train, split.Val, split.Test} {
			name := fmt.Sprintf("split %d's %s set", s, []string{"train", "validation", "test"}[i])
			if err := g.validateNodeSet(name, set); err != nil {
				return err
			}
		}
	}
	for _, extra := range g.ExtraTests {
		if err := g.validateNodeSet("extra test set "+extra.Name, extra.Nodes); err != nil {
			return err
		}
	}
	return nil
}

// validateNodeSet checks one node set: non-empty, strictly increasing, inside [0, N).
func (g *Graph) validateNodeSet(name string, set []int32) error {
	if len(set) == 0 {
		return fmt.Errorf("%s is empty", name)
	}
	for i, v := range set {
		if v < 0 || int(v) >= g.NumNodes {
			return fmt.Errorf("%s holds node %d, expected ids in [0, %d)", name, v, g.NumNodes)
		}
		if i > 0 && set[i-1] >= v {
			return fmt.Errorf("%s lists node %d after node %d, expected sorted ids without repeats", name, v, set[i-1])
		}
	}
	return nil
}
