package tables

import (
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
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

// costKey is the key of the record at path in a cost table: "<table>/<record name without .json>";
// for a configuration of a tuning (DIR/tune/<table>/<dataset>-<method>/<id>.json, or its screen/)
// the key of the cell it tunes ("<table>/<dataset>-<method>"), whose protocol it shares.
func costKey(path string) string {
	dir := filepath.Dir(path)
	if filepath.Base(dir) == "screen" {
		dir = filepath.Dir(dir)
	}
	if filepath.Base(filepath.Dir(filepath.Dir(dir))) == "tune" {
		return filepath.Base(filepath.Dir(dir)) + "/" + filepath.Base(dir)
	}
	return filepath.Base(dir) + "/" + strings.TrimSuffix(filepath.Base(path), ".json")
}

// measuredCost is the committed cost of the record at path (costKey: a tuning's configuration
// costs what its cell does).
func measuredCost(path string) (CellCost, bool) {
	c, ok := committedCosts[costKey(path)]
	return c, ok
}

// cellCost is the cost in seconds a shard assignment gives the cell of table stored at path with
// runs runs on dataset: its committed cost (measuredCost: seconds_total per run, times runs) when
// there is one, else estimatedPerRun times runs.
func cellCost(path, dataset string, runs int) float64 {
	if c, ok := measuredCost(path); ok {
		return c.Seconds / float64(c.Runs) * float64(runs)
	}
	return estimatedPerRun(path, dataset) * float64(runs)
}

// costKind is what a record's name says besides its data set: "gat" for table2/cora-gat,
// "gat-geomix1" for figure-backbones/twitch-ood-gat-geomix1; the cells of one kind on different
// data sets train the same model for the same epochs.
func costKind(key, dataset string) string {
	return strings.TrimPrefix(key[strings.IndexByte(key, '/')+1:], dataset+"-")
}

// costModel holds, from the committed costs, each data set's mean seconds per run (perDataset;
// overall the mean of every cell) and each kind's factor: the geometric mean, over its committed
// cells, of the cell's seconds per run over its data set's mean. Sums run in key order, so every
// process gets the same bits.
type costModel struct {
	perDataset map[string]float64
	overall    float64
	factor     map[string]float64
}

// committedCostModel is costModel of committedCosts.
var committedCostModel = sync.OnceValue(func() costModel {
	keys := slices.Sorted(maps.Keys(committedCosts))
	sum, n := map[string]float64{}, map[string]int{}
	m := costModel{perDataset: map[string]float64{}, factor: map[string]float64{}}
	for _, k := range keys {
		c := committedCosts[k]
		sum[c.Dataset] += c.Seconds / float64(c.Runs)
		n[c.Dataset]++
		m.overall += c.Seconds / float64(c.Runs) / float64(len(keys))
	}
	for d, s := range sum {
		m.perDataset[d] = s / float64(n[d])
	}
	logSum, kinds := map[string]float64{}, map[string]int{}
	for _, k := range keys {
		c := committedCosts[k]
		kind := costKind(k, c.Dataset)
		logSum[kind] += math.Log(c.Seconds / float64(c.Runs) / m.perDataset[c.Dataset])
		kinds[kind]++
	}
	for kind, s := range logSum {
		m.factor[kind] = math.Exp(s / float64(kinds[kind]))
	}
	return m
})

// estimatedPerRun is the seconds per run of a cell without a measured cost: its data set's mean
// (every cell's mean when the data set has none) times its kind's factor (1 for a kind without a
// committed cell). A GAT point on Twitch so weighs what GAT's cells cost relative to the other
// cells of their data sets, not what an average Twitch cell costs.
func estimatedPerRun(path, dataset string) float64 {
	m := committedCostModel()
	perRun, ok := m.perDataset[dataset]
	if !ok {
		perRun = m.overall
	}
	if f, ok := m.factor[costKind(costKey(path), dataset)]; ok {
		perRun *= f
	}
	return max(perRun, 1)
}
