package tables

import (
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// cellCostsJSON is what CommittedCosts read from the committed records under results/ when it was
// generated (go test ./reproduce/tables -run TestCellCostsUpToDate -update-costs): the measured
// cost of every cell, the same in every process of a sharded sweep, whatever the state of its
// output folder.
//
//go:embed cell_costs.json
var cellCostsJSON []byte

// CellCost is a finished cell's measured cost: its record's seconds_total (an embedding's seconds),
// its data set and runs.
type CellCost struct {
	Dataset string  `json:"dataset"`
	Runs    int     `json:"runs"`
	Seconds float64 `json:"seconds"`
}

// committedCosts is cellCostsJSON decoded, keyed by "<table>/<record name without .json>".
var committedCosts = func() map[string]CellCost {
	var costs map[string]CellCost
	if err := json.Unmarshal(cellCostsJSON, &costs); err != nil {
		panic(fmt.Sprintf("tables: cell_costs.json: %v", err))
	}
	return costs
}()

// CommittedCosts reads the measured cost of every full-protocol record under dir (the committed
// results/): tables' and figures' records (seconds_total) and t-SNE embeddings (seconds), keyed by
// "<table>/<record name without .json>". Quick records, copies of another table's cell and tuned
// cells (copies of their selected configuration's record) are left out.
func CommittedCosts(dir string) (map[string]CellCost, error) {
	paths, err := filepath.Glob(filepath.Join(dir, "*", "*.json"))
	if err != nil {
		return nil, err
	}
	costs := map[string]CellCost{}
	for _, path := range paths {
		data, err := os.ReadFile(path)
		if err != nil {
			return nil, err
		}
		var r struct {
			Dataset      string  `json:"dataset"`
			Runs         int     `json:"runs"`
			Quick        bool    `json:"quick"`
			SecondsTotal float64 `json:"seconds_total"`
			Seconds      float64 `json:"seconds"`
			SharedFrom   string  `json:"shared_from"`
			Tuning       *struct {
				SelectedFrom string `json:"selected_from"`
			} `json:"tuning"`
		}
		if err := json.Unmarshal(data, &r); err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		if r.Quick || r.SharedFrom != "" || r.Dataset == "" || (r.Tuning != nil && r.Tuning.SelectedFrom != "") {
			continue
		}
		c := CellCost{Dataset: r.Dataset, Runs: max(r.Runs, 1), Seconds: max(r.SecondsTotal, r.Seconds)}
		costs[costKey(path)] = c
	}
	if len(costs) == 0 {
		return nil, errors.New("no record with a measured cost under " + dir)
	}
	return costs, nil
}

// costKey is the key of the record at path in a cost table: "<table>/<record name without .json>".
func costKey(path string) string {
	return filepath.Base(filepath.Dir(path)) + "/" + strings.TrimSuffix(filepath.Base(path), ".json")
}

// measuredCost is the committed cost of the record at path: its own, or for a configuration of a
// tuning (DIR/tune/<table>/<dataset>-<method>/<id>.json) the cost of the cell it tunes
// (<table>/<dataset>-<method>), whose protocol it shares.
func measuredCost(path string) (CellCost, bool) {
	if c, ok := committedCosts[costKey(path)]; ok {
		return c, true
	}
	cellDir := filepath.Dir(path)
	if filepath.Base(filepath.Dir(filepath.Dir(cellDir))) != "tune" {
		return CellCost{}, false
	}
	c, ok := committedCosts[filepath.Base(filepath.Dir(cellDir))+"/"+filepath.Base(cellDir)]
	return c, ok
}

// cellCost is the cost in seconds a shard assignment gives the cell of table stored at path with
// runs runs on dataset: its committed cost (measuredCost: seconds_total per run, times runs) when
// there is one, else an estimate: the committed cells' mean seconds per run on dataset (on every data set
// when dataset has none) times runs. Sums run in key order, so every process gets the same bits.
func cellCost(path, dataset string, runs int) float64 {
	if c, ok := measuredCost(path); ok {
		return c.Seconds / float64(c.Runs) * float64(runs)
	}
	var sum, all float64
	var n, nAll int
	for _, k := range slices.Sorted(maps.Keys(committedCosts)) {
		c := committedCosts[k]
		perRun := c.Seconds / float64(c.Runs)
		all, nAll = all+perRun, nAll+1
		if c.Dataset == dataset {
			sum, n = sum+perRun, n+1
		}
	}
	switch {
	case n > 0:
		return sum / float64(n) * float64(runs)
	case nAll > 0:
		return all / float64(nAll) * float64(runs)
	}
	return float64(runs)
}
