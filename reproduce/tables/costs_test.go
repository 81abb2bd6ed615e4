package tables

import (
	"encoding/json"
	"flag"
	"maps"
	"math"
	"os"
	"slices"
	"strings"
	"testing"
)

var updateCosts = flag.Bool("update-costs", false, "rewrite cell_costs.json from the committed records under results/")

// TestCellCostsUpToDate: the embedded cost table holds every committed record's measured cost
// (rerun with -update-costs after committing records).
func TestCellCostsUpToDate(t *testing.T) {
	costs, err := CommittedCosts("../../results")
	if err != nil {
		t.Fatal(err)
	}
	if *updateCosts {
		var b strings.Builder
		b.WriteString("{\n")
		for i, k := range slices.Sorted(maps.Keys(costs)) {
			key, _ := json.Marshal(k)
			value, _ := json.Marshal(costs[k])
			b.WriteString(" " + string(key) + ": " + string(value))
			if i < len(costs)-1 {
				b.WriteString(",")
			}
			b.WriteString("\n")
		}
		b.WriteString("}\n")
		if err := os.WriteFile("cell_costs.json", []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	for k, c := range costs {
		got, ok := committedCosts[k]
		if !ok || got.Runs != c.Runs || got.Dataset != c.Dataset || math.Abs(got.Seconds-c.Seconds) > 1e-6 {
			t.Errorf("cell_costs.json has %s = %+v, the committed record %+v: rerun with -update-costs", k, got, c)
		}
	}
	if len(committedCosts) != len(costs) {
		t.Errorf("cell_costs.json has %d cells, results/ %d: rerun with -update-costs", len(committedCosts), len(costs))
	}
}
