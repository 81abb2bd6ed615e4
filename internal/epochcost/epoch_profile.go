package epochcost

import (
	"cmp"
	"fmt"
	"runtime"
	"slices"
	"time"

	"github.com/geomix-go/geomix/datasets"
	"github.com/geomix-go/geomix/internal/rowops"
	"github.com/geomix-go/geomix/internal/stats"
	"github.com/gomlx/gomlx/backends/simplego"
	"github.com/gomlx/gomlx/pkg/ml/context"
)

// EpochCost is one method's training epoch on one data set (one step, as in EpochTiming) measured
// one op at a time: what it costs whatever the schedule, rather than how long it took.
type EpochCost struct {
	// Dataset and Method name the measured cell (datasets and geomix names).
	Dataset string `json:"dataset"`
	Method  string `json:"method"`
	// Hidden and WidthOf mark a reference GCN of a GAT's total width, as in EpochTiming.
	Hidden  int    `json:"hidden,omitempty"`
	WidthOf string `json:"width_of,omitempty"`
	// Epochs is how many epochs were measured, after one unmeasured warm-up epoch that compiles.
	Epochs int `json:"epochs"`
	// Ops is the number of ops an epoch executes.
	Ops int `json:"ops"`
	// WorkMillis is the median over the epochs of the sum of every op's time: the epoch one op at
	// a time, on a backend that runs no two ops side by side (an op may still use every core).
	WorkMillis float64 `json:"work_ms"`
	// SpanMillis is the median over the epochs of the epoch's longest chain of ops, each needing
	// the one before, weighted by their times: no schedule of these ops on any number of cores
	// runs the epoch in less.
	SpanMillis float64 `json:"span_ms"`
	// BoundMillis is the median over the epochs of max(work / P, span) with P = GOMAXPROCS cores:
	// no schedule of these ops on P cores takes less, as ops side by side run no faster than alone
	// (memory-bound ones slower, so the bound need not be reached).
	BoundMillis float64 `json:"bound_ms"`
	// WorkRatioToGCN, SpanRatioToGCN and BoundRatioToGCN are the medians over rounds of this
	// method's work, span and bound over GCN's of the same round, when GCN was measured beside it
	// (0 otherwise, and for GCN). BoundRatioToGCN is the ratio of the two methods' epochs with
	// each scheduled at its best.
	WorkRatioToGCN  float64 `json:"work_ratio_to_gcn,omitempty"`
	SpanRatioToGCN  float64 `json:"span_ratio_to_gcn,omitempty"`
	BoundRatioToGCN float64 `json:"bound_ratio_to_gcn,omitempty"`
	// ByOp is where the work goes: per op type, most work first.
	ByOp []OpTypeCost `json:"by_op"`
	// Heaviest are the last measured epoch's ops with the most time, most first
	// (rowops.HeaviestOps of them).
	Heaviest []NodeCost `json:"heaviest"`
}

// NodeCost is one op of an epoch's graphs and its time (EpochCost.Heaviest).
type NodeCost struct {
	// Op is the op type.
	Op string `json:"op"`
	// Output and Inputs are its shapes, written like "(Float32)[2708 16]".
	Output string   `json:"output"`
	Inputs []string `json:"inputs"`
	// WorkMillis is its time in the epoch.
	WorkMillis float64 `json:"work_ms"`
}

// OpTypeCost is the work of one op type in an epoch (EpochCost.ByOp).
type OpTypeCost struct {
	// Op is the op type (GoMLX's names: ScatterSum, DotGeneral, RNGBitGenerator, ...).
	Op string `json:"op"`
	// Count is how many ops of the type an epoch executes.
	Count int `json:"count"`
	// WorkMillis is the median over the epochs of their summed time.
	WorkMillis float64 `json:"work_ms"`
}

// ProfileEpochsPresets measures epochs training epochs of each of methods on dataset with their
// presets (ctx's hyper-parameters overriding them, as in TimeEpochsPresets) one op at a time, on
// a pure-Go backend of its own that runs ops sequentially, every op timed (rowops.ProfileOps):
// the work and the span of each epoch. Methods take turns in rounds of one epoch each, as in
// TimeEpochsPresets, with the same reference GCNs of GAT's total width after the methods. It swaps
// the backend's executors while it measures: run no other training in the process meanwhile.
//
// A method's ratio to GCN can be pushed lower by scheduling only down to BoundRatioToGCN (GCN
// run at its best too), and by faster kernels only as far as they speed up the ops the method runs
// more of than GCN.
func ProfileEpochsPresets(ctx *context.Context, dataset string, methods []string, data datasets.Options, epochs int) ([]*EpochCost, error) {
	if epochs < 1 {
		return nil, fmt.Errorf("profiling %d epochs: want at least 1", epochs)
	}
	if err := rowops.Install(); err != nil { // NewBackend's executors, on a backend of its own
		return nil, err
	}
	backend, err := simplego.New("ops_sequential")
	if err != nil {
		return nil, err
	}
	defer backend.Finalize()
	cells, timers, _, err := cellTimers(ctx, backend, dataset, methods, data)
	if err != nil {
		return nil, err
	}
	costs := make([][]rowops.OpCost, len(cells)) // [cell][round]
	err = inRounds(len(cells), epochs, func(i, round int) error {
		cost, err := rowops.ProfileOps(func() error { return timers[i].step(round + 1) })
		if err != nil {
			return fmt.Errorf("%s/%s: %w", dataset, cells[i].label(), err)
		}
		costs[i] = append(costs[i], cost)
		return nil
	})
	if err != nil {
		return nil, err
	}
	millis := func(cs []rowops.OpCost, of func(rowops.OpCost) float64) []float64 {
		out := make([]float64, len(cs))
		for r, c := range cs {
			out[r] = of(c)
		}
		return out
	}
	ms := func(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
	work := func(c rowops.OpCost) float64 { return ms(c.Work) }
	span := func(c rowops.OpCost) float64 { return ms(c.Span) }
	cores := time.Duration(runtime.GOMAXPROCS(0))
	bound := func(c rowops.OpCost) float64 { return ms(max(c.Work/cores, c.Span)) }
	gcn := slices.Index(methods, "gcn")
	out := make([]*EpochCost, len(cells))
	for i, c := range cells {
		out[i] = &EpochCost{Dataset: dataset, Method: c.method, Hidden: c.hidden, WidthOf: c.widthOf, Epochs: epochs, Ops: costs[i][0].Ops,
			WorkMillis: stats.Median(millis(costs[i], work)), SpanMillis: stats.Median(millis(costs[i], span)), BoundMillis: stats.Median(millis(costs[i], bound))}
		for op, c := range costs[i][0].ByOp {
			opWork := func(c rowops.OpCost) float64 { return ms(c.ByOp[op].Work) }
			out[i].ByOp = append(out[i].ByOp, OpTypeCost{Op: op.String(), Count: c.Count, WorkMillis: stats.Median(millis(costs[i], opWork))})
		}
		for _, n := range costs[i][len(costs[i])-1].Heaviest {
			c := NodeCost{Op: n.Op.String(), Output: n.Shape.String(), WorkMillis: ms(n.Work)}
			for _, in := range n.Inputs {
				c.Inputs = append(c.Inputs, in.String())
			}
			out[i].Heaviest = append(out[i].Heaviest, c)
		}
		slices.SortFunc(out[i].ByOp, func(a, b OpTypeCost) int {
			return cmp.Or(cmp.Compare(b.WorkMillis, a.WorkMillis), cmp.Compare(a.Op, b.Op))
		})
		if gcn >= 0 && i != gcn {
			ratio := func(of func(rowops.OpCost) float64) float64 {
				return pairedRatio(millis(costs[i], of), millis(costs[gcn], of))
			}
			out[i].WorkRatioToGCN, out[i].SpanRatioToGCN, out[i].BoundRatioToGCN = ratio(work), ratio(span), ratio(bound)
		}
	}
	return out, nil
}
