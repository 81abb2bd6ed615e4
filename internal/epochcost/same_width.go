package epochcost

import (
	"fmt"
	"slices"
	"time"

	"github.com/geomix-go/geomix/datasets"
	"github.com/geomix-go/geomix/geomix/backbones"
	"github.com/geomix-go/geomix/geomix/methods"
	"github.com/geomix-go/geomix/geomix/training"
	"github.com/gomlx/gomlx/backends"
	"github.com/gomlx/gomlx/pkg/ml/context"
)

// GAT concatenates its attention heads, so its hidden layers are ParamGATHeads × ParamHidden wide
// (128 units on Cora's preset, where GCN has 16): its epoch is also compared with that of a GCN
// of the same total width, the data set's GCN preset with ParamHidden set to GAT's width, timed
// in the same rounds (a reference cell).

// cell is one timed trainer: a method with its preset, or a reference GCN of a GAT's width.
type cell struct {
	method string
	// hidden is a reference GCN's hidden width (0 for a method's own cell); widthOf names the
	// method whose width it has.
	hidden  int
	widthOf string
}

// label names the cell in reports and benchmark metrics (cellLabel).
func (c cell) label() string { return cellLabel(c.method, c.hidden) }

// cellLabel is method, or "gcn@W" for the reference GCN of hidden width W (hidden > 0).
func cellLabel(method string, hidden int) string {
	if hidden > 0 {
		return fmt.Sprintf("%s@%d", method, hidden)
	}
	return method
}

// Label names the timed cell: the method, or "gcn@W" for a reference GCN of hidden width W.
func (t *EpochTiming) Label() string { return cellLabel(t.Method, t.Hidden) }

// Label names the measured cell, as EpochTiming.Label.
func (c *EpochCost) Label() string { return cellLabel(c.Method, c.Hidden) }

// gatWidth returns the width of the hidden layers of method's backbone under merged (its preset
// with the caller's overrides) when that backbone is GAT with a hidden layer: heads × hidden, its
// input projection's width; 0 otherwise (a one-layer GAT's projection is its output, whose width
// InputWidth gives as out-heads × classes, 0 classes here).
func gatWidth(merged *context.Context, method string) (int, error) {
	mth, err := methods.New(method)
	if err != nil {
		return 0, err
	}
	if mth.Backbone(context.GetParamOr(merged, backbones.ParamBackbone, "gcn")) != "gat" {
		return 0, nil
	}
	return backbones.GAT{}.InputWidth(merged, backbones.Dims{}), nil
}

// cellContext returns ctx's overrides for c: ctx itself for a method's cell, a copy of its
// hyper-parameters with ParamHidden set to the reference's width otherwise.
func cellContext(ctx *context.Context, c cell) *context.Context {
	if c.hidden == 0 {
		return ctx
	}
	wide := context.New()
	for _, k := range training.ParamNames() {
		if v, set := ctx.GetParam(k); set {
			wide.SetParam(k, v)
		}
	}
	wide.SetParam(backbones.ParamHidden, c.hidden)
	return wide
}

// cellTimers builds the epoch timers of methods on dataset (their presets, ctx overriding), each
// warmed up, and after them one reference GCN per distinct GAT width among them (gatWidth). It
// returns the cells, their timers and the seconds each took to build.
func cellTimers(ctx *context.Context, backend backends.Backend, dataset string, methodList []string, data datasets.Options) ([]cell, []*epochTimer, []float64, error) {
	var cells []cell
	for _, m := range methodList {
		cells = append(cells, cell{method: m})
	}
	timers := make([]*epochTimer, 0, len(cells))
	var seconds []float64
	for i := 0; i < len(cells); i++ { // cells grows by the references
		c := cells[i]
		start := time.Now()
		timer, err := newPresetEpochTimer(cellContext(ctx, c), backend, dataset, c.method, data)
		if err != nil {
			return nil, nil, nil, fmt.Errorf("%s/%s: %w", dataset, c.label(), err)
		}
		timers = append(timers, timer)
		seconds = append(seconds, time.Since(start).Seconds())
		if c.hidden == 0 && timer.gatWidth > 0 && !slices.ContainsFunc(cells, func(r cell) bool { return r.hidden == timer.gatWidth }) {
			cells = append(cells, cell{method: "gcn", hidden: timer.gatWidth, widthOf: c.method})
		}
	}
	return cells, timers, seconds, nil
}

// sameWidthRatio returns the median over rounds of cell i's epoch over that of the reference GCN
// of its GAT width (millis by cell, over the same rounds), 0 for a cell without one.
func sameWidthRatio(cells []cell, timers []*epochTimer, millis [][]float64, i int) float64 {
	if cells[i].hidden > 0 || timers[i].gatWidth == 0 {
		return 0
	}
	j := slices.IndexFunc(cells, func(r cell) bool { return r.hidden == timers[i].gatWidth })
	return pairedRatio(millis[i], millis[j])
}
