package presets

import (
	"fmt"
	"slices"
	"testing"

	"github.com/geomix-go/geomix/geomix/backbones"
	"github.com/geomix-go/geomix/geomix/methods"
	"github.com/geomix-go/geomix/geomix/training"
)

// TestGridsValid: every method of the paper's tables has a grid; every axis value and fixed value
// passes the trainer's range checks, no value or parameter is given twice, and Note says what the
// grid is.
func TestGridsValid(t *testing.T) {
	for _, m := range methods.Names() {
		if slices.Contains([]string{"geomix3-paper", "randommix", "nolocality"}, m) {
			continue
		}
		g, err := GridFor(m)
		if err != nil {
			t.Fatalf("%s: %v", m, err)
		}
		if g.Method != m || g.Note == "" || len(g.Axes) == 0 {
			t.Errorf("%s: grid %+v lacks its method, note or axes", m, g)
		}
		if err := training.CheckParams(g.Fixed); err != nil {
			t.Errorf("%s fixed: %v", m, err)
		}
		seen := map[string]bool{}
		for _, a := range g.Axes {
			if seen[a.Param] || g.Fixed[a.Param] != nil {
				t.Errorf("%s: %s is tuned twice or both tuned and fixed", m, a.Param)
			}
			seen[a.Param] = true
			printed := map[string]bool{}
			for _, v := range a.Values {
				if err := training.CheckParams(map[string]any{a.Param: v}); err != nil {
					t.Errorf("%s: %v", m, err)
				}
				if printed[fmt.Sprint(v)] {
					t.Errorf("%s: %s = %v given twice", m, a.Param, v)
				}
				printed[fmt.Sprint(v)] = true
			}
		}
	}
	if _, err := GridFor("nosuch"); err == nil {
		t.Error("GridFor(nosuch) gave no error")
	}
}

// TestGridConfigs: GCN's grid is the appendix's 4 × 5 × 4 × 3 = 240 configurations, enumerated
// without repeats, the last axis fastest, each with 2 layers.
func TestGridConfigs(t *testing.T) {
	g, err := GridFor("gcn")
	if err != nil {
		t.Fatal(err)
	}
	if g.Size() != 240 {
		t.Fatalf("gcn grid has %d configurations, want 240", g.Size())
	}
	seen := map[string]bool{}
	for i := range g.Size() {
		c := g.Config(i)
		key := fmt.Sprint(c)
		if seen[key] {
			t.Fatalf("configuration %d repeats %s", i, key)
		}
		seen[key] = true
		if c[backbones.ParamLayers] != 2 || len(c) != 5 {
			t.Fatalf("configuration %d = %v, want 4 tuned values and layers 2", i, c)
		}
	}
	first, second, last := g.Config(0), g.Config(1), g.Config(239)
	if first[training.ParamLR] != 0.001 || first[backbones.ParamHidden] != 16 || second[backbones.ParamHidden] != 32 ||
		last[training.ParamLR] != 0.05 || last[backbones.ParamDropout] != 0.6 || last[training.ParamWeightDecay] != 1e-2 || last[backbones.ParamHidden] != 64 {
		t.Errorf("configurations 0, 1, 239 = %v, %v, %v: want the first values, then hidden 32, then the last values", first, second, last)
	}
}
