package tables

import (
	"cmp"
	"fmt"
	"slices"
)

// Shard selects the part of a sweep one process trains when several share it (a job array on a
// cluster, or shells on one machine): shard Index of Count, 1-based. The zero value is the whole
// sweep. Every cell of the sweep goes to one shard, whatever is already finished, so processes
// started with the same selection and Count agree on the split without talking to each other; the
// cells' locks make them safe over one shared folder even when they do not.
type Shard struct {
	Index, Count int
}

// String writes the shard as --shard takes it, e.g. "2/3".
func (s Shard) String() string { return fmt.Sprintf("%d/%d", s.Index, s.Count) }

// Check returns an error unless s is the zero value or 1 <= Index <= Count.
func (s Shard) Check() error {
	if s == (Shard{}) || (s.Count >= 1 && s.Index >= 1 && s.Index <= s.Count) {
		return nil
	}
	return fmt.Errorf("shard %d/%d: want i/n with 1 <= i <= n", s.Index, s.Count)
}

// assignShards returns, for each of the costs, the 1-based shard of count that trains it: the
// costliest first, each to the shard with the least cost so far (the lowest on ties), which
// keeps the shards' sums within the largest single cost of each other. The result depends only on
// costs and count.
func assignShards(costs []float64, count int) []int {
	order := make([]int, len(costs))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(costs[b], costs[a]) })
	load := make([]float64, count)
	shard := make([]int, len(costs))
	for _, i := range order {
		best := 0
		for s := range load {
			if load[s] < load[best] {
				best = s
			}
		}
		load[best] += costs[i]
		shard[i] = best + 1
	}
	return shard
}

// markShard marks the cells another shard than opts.Shard trains (every cell with the zero Shard
// stays), balancing the shards by cellCost (of the record at cell.costOf when set), and returns how many of this shard's cells are left to
// run.
func markShard(cells []cell, opts Options) (toRun int) {
	if opts.Shard.Count > 1 {
		costs := make([]float64, len(cells))
		for i, c := range cells {
			costs[i] = cellCost(cmp.Or(c.costOf, c.path), c.Dataset, c.Runs)
		}
		for i, s := range assignShards(costs, opts.Shard.Count) {
			cells[i].otherShard = s != opts.Shard.Index
		}
	}
	for _, c := range cells {
		if !c.otherShard && !c.skip && c.shared == nil {
			toRun++
		}
	}
	return toRun
}
