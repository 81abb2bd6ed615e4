package viz_test

import (
	"math"
	"strings"
	"testing"

	"github.com/geomix-go/geomix/viz"
)

func TestImageGridOption(t *testing.T) {
	// Two rows of two 2 × 1 images: pixel p of image c in row r sits at x = c·(2+2) + p, y = r·(1+2).
	c := mustChart(t, viz.ImageGrid{
		Title: "images", Width: 2, Height: 1, RowLabels: []string{"a", "b"},
		Images: [][][]float64{{{0, 0.5}, {1, 0}}, {{0.123, 0}, {0, 0}}},
	}.Chart)
	opt := option(t, c)
	_, values := seriesValues(t, opt, 0)
	want := []any{[]any{1.0, 0.0, 0.5}, []any{4.0, 0.0, 1.0}, []any{0.0, 3.0, 0.12}}
	if !equalAny(values, want) {
		t.Errorf("pixels = %v, want %v (zero pixels blank, values rounded)", values, want)
	}
	x := opt["xAxis"].([]any)[0].(map[string]any)
	y := opt["yAxis"].([]any)[0].(map[string]any)
	if len(x["data"].([]any)) != 6 || !equalAny(y["data"].([]any), []any{"a", "", "", "b"}) || y["inverse"] != true {
		t.Errorf("axes %v and %v: want 6 pixel columns and rows a, gap, gap, b from the top", x["data"], y["data"])
	}
	if tick := y["axisTick"].(map[string]any); tick["show"] != false {
		t.Errorf("y axis ticks %v, want hidden", tick)
	}
	if p, ok := opt["series"].([]any)[0].(map[string]any)["progressive"]; !ok || p != 0.0 {
		t.Errorf("series progressive = %v, want 0 (drawn in one frame)", p)
	}
	// Square pixels: 750 px over 6 columns, 415 px over 4 rows: 103.75 px each, 622.5 px wide.
	grid := opt["grid"].([]any)[0].(map[string]any)
	if grid["width"] != "622" || grid["height"] != "415" {
		t.Errorf("grid %v × %v, want 622 × 415 (square pixels)", grid["width"], grid["height"])
	}
}

func TestImageGridErrors(t *testing.T) {
	for name, g := range map[string]viz.ImageGrid{
		"no rows":         {Width: 1, Height: 1},
		"missing label":   {Width: 1, Height: 1, Images: [][][]float64{{{1}}}},
		"ragged rows":     {Width: 1, Height: 1, RowLabels: []string{"a", "b"}, Images: [][][]float64{{{1}, {1}}, {{1}}}},
		"wrong size":      {Width: 2, Height: 1, RowLabels: []string{"a"}, Images: [][][]float64{{{1}}}},
		"out of range":    {Width: 1, Height: 1, RowLabels: []string{"a"}, Images: [][][]float64{{{1.5}}}},
		"not a number":    {Width: 1, Height: 1, RowLabels: []string{"a"}, Images: [][][]float64{{{math.NaN()}}}},
		"zero-size image": {Width: 0, Height: 1, RowLabels: []string{"a"}, Images: [][][]float64{{{}}}},
	} {
		if _, err := g.Chart(); err == nil || !strings.Contains(err.Error(), "ImageGrid") {
			t.Errorf("%s: error %v, want one naming the ImageGrid", name, err)
		}
	}
}
