package epochcost

import (
	"slices"
	"testing"

	"github.com/geomix-go/geomix/datasets"
	"github.com/geomix-go/geomix/geomix/methods"
	"github.com/gomlx/gomlx/pkg/ml/context"
)

// TestProfileEpochsPresets measures GCN and GeoMix-I (K = 2 hops, label_grad) on the embedded
// data set one op at a time: work at least the bound, the bound at least the span, ratios to GCN except for GCN, the ops by type
// adding up, and GeoMix-I's step running 4 + 4K propagations more than GCN's (the pseudo-label
// pass's second layer and the mixed pass's first, forwards and backwards, and K hops of both
// blocks forwards and backwards).
func TestProfileEpochsPresets(t *testing.T) {
	ctx := context.New()
	ctx.SetParam(methods.ParamHops, 2)
	ctx.SetParam(methods.ParamLabelGrad, true)
	methods := []string{"geomix1", "gcn"}
	costs, err := ProfileEpochsPresets(ctx, "synthetic", methods, datasets.Options{}, 3)
	if err != nil {
		t.Fatal(err)
	}
	scatterSums := map[string]int{}
	for i, c := range costs {
		if c.Method != methods[i] || c.Dataset != "synthetic" || c.Epochs != 3 || c.SpanMillis <= 0 || c.WorkMillis < c.SpanMillis ||
			c.BoundMillis < c.SpanMillis || c.BoundMillis > c.WorkMillis {
			t.Errorf("cost %d: %+v", i, c)
		}
		if hasRatios := c.WorkRatioToGCN > 0 && c.SpanRatioToGCN > 0 && c.BoundRatioToGCN > 0; hasRatios != (c.Method != "gcn") {
			t.Errorf("%s: ratios to GCN %v, %v, %v", c.Method, c.WorkRatioToGCN, c.SpanRatioToGCN, c.BoundRatioToGCN)
		}
		ops := 0
		for _, op := range c.ByOp {
			ops += op.Count
			if op.Op == "ScatterSum" {
				scatterSums[c.Method] = op.Count
			}
		}
		if ops != c.Ops || !slices.IsSortedFunc(c.ByOp, func(a, b OpTypeCost) int { return int(b.WorkMillis*1e6 - a.WorkMillis*1e6) }) {
			t.Errorf("%s: %d ops, by type %+v", c.Method, c.Ops, c.ByOp)
		}
	}
	if extra := scatterSums["geomix1"] - scatterSums["gcn"]; extra != 4+4*2 {
		t.Errorf("GeoMix-I runs %d ScatterSums, GCN %d: %d more, want 12", scatterSums["geomix1"], scatterSums["gcn"], extra)
	}
	if _, err := ProfileEpochsPresets(context.New(), "synthetic", methods, datasets.Options{}, 0); err == nil {
		t.Error("0 epochs: no error")
	}
}
