package tables

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"hash/fnv"
	"maps"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"strings"

	"github.com/geomix-go/geomix/geomix/presets"
)

// Validation grid search (`reproduce tune`): each tuned cell of a table (a row on a data set) tries
// the configurations of its method's grid (presets.GridFor, the paper's appendix), each trained with
// the data set's full protocol and stored as a record; the configuration with the best mean
// validation accuracy becomes the table's validation-selected cell (see tune_select.go). With
// screening (TuneSweep.Screen) every configuration first trains the protocol's first run only, and
// only the best of those go on to the full protocol.

// DefaultTuneSize is how many configurations a tuned cell tries unless told otherwise (TuneSweep.Size),
// and QuickTuneSize with --quick.
const (
	DefaultTuneSize = 24
	QuickTuneSize   = 3
)

// TuneSweep is the validation grid search of one table's cells.
type TuneSweep struct {
	// Table is the table id: table2, table3 or table4 (Spec.Tuned).
	Table string
	// Datasets and Methods are the table's columns and rows to tune (as Options.Datasets and
	// Options.Methods of Run); nil means every column (QuickDatasets with --quick) and every row
	// that is re-tuned (not the Spec.ScriptRows).
	Datasets, Methods []string
	// Size is how many configurations each cell tries: its whole grid when the grid has at most
	// Size, else a random subset of Size drawn with Seed; 0 means DefaultTuneSize, or QuickTuneSize
	// for a quick sweep.
	Size int
	// Seed draws the subset: the same Seed, Size and method give the same configurations on every
	// data set, table, shard and rerun.
	Seed int64
	// Screen, when above 0, screens the configurations: each trains the protocol's first run only
	// (the same seed and split as the full protocol's first run, so the same numbers), stored under
	// TuneDir/screen/, and the Screen best by that run's validation accuracy (ties: fewer
	// parameters, then the smaller id) train the full protocol, among which the selection is made.
	// A cell whose configurations are all stored on the full protocol keeps that search. 0 trains
	// every configuration on the full protocol.
	Screen int
	// quick is the sweep's Options.Quick, set on the copy trainings works with.
	quick bool
}

// TuneConfig is one configuration a tuned cell tries.
type TuneConfig struct {
	// ID is ConfigID(Settings); Index is the configuration's index in its grid (presets.Grid.Config).
	ID    string
	Index int
	// Settings are the grid's values (its axes and its fixed values), set over the preset.
	Settings map[string]any
}

// ConfigID is a configuration's stable short name: the first 10 hex digits of the SHA-256 of its
// settings written "key=value" in key order, joined by ";" (values as fmt prints them, so that a
// record read back from JSON gives the same ID).
func ConfigID(settings map[string]any) string {
	var parts []string
	for _, k := range slices.Sorted(maps.Keys(settings)) {
		parts = append(parts, fmt.Sprintf("%s=%v", k, settings[k]))
	}
	sum := sha256.Sum256([]byte(strings.Join(parts, ";")))
	return hex.EncodeToString(sum[:])[:10]
}

// TuneConfigs returns the configurations a tuning of method tries with size and seed, in grid
// order, and the grid's size: every configuration when the grid has at most size, else size of
// them drawn without replacement by a PCG stream seeded with seed and the method's name (the same
// for every data set, shard and rerun). The draws are sequential, so a larger size keeps every
// configuration of a smaller one: raising --size later reuses the finished records.
func TuneConfigs(method string, size int, seed int64) ([]TuneConfig, int, error) {
	grid, err := presets.GridFor(method)
	if err != nil {
		return nil, 0, err
	}
	if size < 1 {
		return nil, 0, fmt.Errorf("tables: a tuning tries at least 1 configuration, got size %d", size)
	}
	total := grid.Size()
	indices := make([]int, 0, min(size, total))
	if size >= total {
		for i := range total {
			indices = append(indices, i)
		}
	} else {
		indices = sampleIndices(total, size, seed, method)
	}
	configs := make([]TuneConfig, len(indices))
	for i, idx := range indices {
		s := grid.Config(idx)
		configs[i] = TuneConfig{ID: ConfigID(s), Index: idx, Settings: s}
	}
	return configs, total, nil
}

// sampleIndices draws k of the indices 0..n-1 without replacement (a partial Fisher-Yates shuffle
// driven by PCG's own output, which Go specifies bit for bit), sorted.
func sampleIndices(n, k int, seed int64, stream string) []int {
	h := fnv.New64a()
	h.Write([]byte(stream))
	src := rand.NewPCG(uint64(seed), h.Sum64())
	swapped := map[int]int{}
	at := func(i int) int {
		if v, ok := swapped[i]; ok {
			return v
		}
		return i
	}
	out := make([]int, k)
	for i := range k {
		j := i + int(src.Uint64()%uint64(n-i))
		out[i] = at(j)
		swapped[j] = at(i)
	}
	slices.Sort(out)
	return out
}

// TuneDir is where the configurations of table's tuned cell (dataset, method) are stored under dir:
// dir/tune/<table>/<dataset>-<method>/, one <config id>.json each.
func TuneDir(dir, table, dataset, method string) string {
	return filepath.Join(dir, "tune", table, dataset+"-"+method)
}

// ScreenDir is where the screening runs of table's tuned cell (dataset, method) are stored under
// dir: TuneDir/screen/, one <config id>.json each, of the protocol's first run.
func ScreenDir(dir, table, dataset, method string) string {
	return filepath.Join(TuneDir(dir, table, dataset, method), "screen")
}

// TunedRecordPath is where table's validation-selected cell (dataset, method) is stored under dir:
// dir/<table>/<dataset>-<method>-tuned.json, beside the cell with the script settings.
func TunedRecordPath(dir, table, dataset, method string) string {
	return filepath.Join(dir, table, dataset+"-"+method+"-tuned.json")
}

// tuneID is the folder, under OutDir, of the configurations of table's tunings: its records' Table.
func tuneID(table string) string { return "tune/" + table }

// size is the number of configurations per cell: Size, else the default for the sweep's mode.
func (t TuneSweep) size() int {
	switch {
	case t.Size > 0:
		return t.Size
	case t.quick:
		return QuickTuneSize
	}
	return DefaultTuneSize
}

// Check returns an error naming the table, data set or row that cannot be tuned: a table without
// tuning, an unknown or unavailable column, a row that is not the table's, has no grid, or keeps
// the authors' settings (Spec.ScriptRows).
func (t TuneSweep) Check() error {
	spec, err := SpecFor(t.Table)
	if err != nil {
		return err
	}
	if !spec.Tuned {
		return fmt.Errorf("tables: %s is not tuned: its rows are GeoMix variants and ablations with the authors' settings (tune table2, table3 or table4)", t.Table)
	}
	if t.Size < 0 {
		return fmt.Errorf("tables: tune size %d: want >= 1 (0 for the default %d)", t.Size, DefaultTuneSize)
	}
	if t.Screen < 0 {
		return fmt.Errorf("tables: tune screen %d: want >= 1 finalists, or 0 for no screening", t.Screen)
	}
	if _, _, err := (Options{Datasets: t.Datasets, Methods: t.Methods}).selection(spec); err != nil {
		return err
	}
	for _, m := range t.Methods {
		if slices.Contains(spec.ScriptRows, m) {
			return fmt.Errorf("tables: %s row %q keeps the authors' script settings (the authors tuned GeoMix) and is not re-tuned", t.Table, m)
		}
		if _, err := presets.GridFor(spec.runAs(m)); err != nil {
			return fmt.Errorf("tables: %s row %q: %w", t.Table, m, err)
		}
	}
	return nil
}

// id is the folder of the configurations' records: tune/<table>.
func (t TuneSweep) id() string { return tuneID(t.Table) }

// trainings lists the tuned cells' trainings (data set, method) of the sweep under opts, in the
// table's order, with their configurations; opts.Quick picks the default data sets and size.
func (t TuneSweep) trainings(opts Options) ([]tuneTraining, error) {
	t.quick = opts.Quick
	spec, err := SpecFor(t.Table)
	if err != nil {
		return nil, err
	}
	datasets, rows, err := (Options{Datasets: t.Datasets, Methods: t.Methods, Quick: opts.Quick}).selection(spec)
	if err != nil {
		return nil, err
	}
	var out []tuneTraining
	for _, d := range spec.trainings(datasets) {
		for _, row := range rows {
			if slices.Contains(spec.ScriptRows, row) {
				continue
			}
			m := spec.runAs(row)
			configs, total, err := TuneConfigs(m, t.size(), t.Seed)
			if err != nil {
				return nil, err
			}
			if t.Screen >= len(configs) {
				return nil, fmt.Errorf("tables: screening keeps %d of %s's %d configurations: want fewer finalists than configurations (or 0 for no screening)", t.Screen, m, len(configs))
			}
			out = append(out, tuneTraining{dataset: d, method: m, configs: configs, gridSize: total, seed: t.Seed, screen: t.Screen})
		}
	}
	return out, nil
}

// tuneTraining is one tuned cell's training and the configurations it tries.
type tuneTraining struct {
	dataset, method string
	configs         []TuneConfig
	gridSize        int
	seed            int64
	screen          int
}

// tuning is the Tuning of configuration c's record.
func (tt tuneTraining) tuning(c TuneConfig) *Tuning {
	return &Tuning{ConfigID: c.ID, Settings: c.Settings, GridSize: tt.gridSize, Tried: len(tt.configs), SubsetSeed: tt.seed, Finalists: tt.screen}
}

// points lists every point of every tuned cell under opts, cell by cell in the table's order: with
// screening each configuration's first run, then, once a cell's screening is all stored, its
// finalists on the full protocol; without, every configuration on the full protocol. Each costs,
// in a shard assignment, its share of what the table's cell with the script settings cost.
func (t TuneSweep) points(opts Options) []cell {
	trainings, err := t.trainings(opts)
	if err != nil { // Check, run before, reports it
		return nil
	}
	var points []cell
	add := func(tt tuneTraining, c TuneConfig, dir string, runs int) {
		p := newPoint(opts, tt.dataset, tt.method, c.Settings, filepath.Join(dir, c.ID))
		p.Runs = runs
		p.costOf = RecordPath(opts.OutDir, t.Table, tt.dataset, tt.method)
		points = append(points, p)
	}
	for _, tt := range trainings {
		finalists, _, screened := t.finalists(tt, opts)
		if screened {
			for _, c := range tt.configs {
				add(tt, c, ScreenDir(opts.OutDir, t.Table, tt.dataset, tt.method), 1)
			}
		}
		for _, c := range finalists {
			add(tt, c, TuneDir(opts.OutDir, t.Table, tt.dataset, tt.method), pointRuns(opts, tt.dataset))
		}
	}
	return points
}

// RunTune trains every configuration of every cell of sweep (those of opts.Shard) through runner,
// opts.Jobs at a time, each under its lock, resuming finished and interrupted ones as Run does
// (opts.Datasets and opts.Methods are ignored: sweep names them). Each configuration's record is
// written atomically to TuneDir/<config id>.json. Then every cell whose configurations are all
// stored (by this process or others) gets its validation-selected record (TunedRecordPath), and
// OutDir/<table>.md is rendered with the validation-selected group. A failed configuration does not
// stop the others; RunTune then returns a *FigureError.
func RunTune(sweep TuneSweep, runner CellRunner, opts Options) (*Report, string, error) {
	trainings, err := sweep.trainings(opts)
	if err != nil {
		return nil, "", err
	}
	byPath := map[string]*Tuning{}
	for _, tt := range trainings {
		for _, c := range tt.configs {
			byPath[tuneKey(tt.dataset, tt.method, c.ID)] = tt.tuning(c)
		}
	}
	opts.annotate = func(c Cell, r *Record) error {
		tuning, ok := byPath[tuneKey(c.Dataset, c.Method, ConfigID(c.Params))]
		if !ok {
			return fmt.Errorf("tables: %s is not a configuration of this tuning", c)
		}
		r.Tuning = tuning
		return nil
	}
	write := func(o Options) (*Report, string, error) {
		if _, err := sweep.selectAll(o); err != nil {
			return nil, "", err
		}
		spec, err := SpecFor(sweep.Table)
		if err != nil {
			return nil, "", err
		}
		return writeReport(spec, o, nil)
	}
	// A cell's finalists are known once its screening is stored: a second pass trains those the
	// first pass made known.
	before := len(sweep.points(opts.withOutDir()))
	report, path, err := sweepFigure(sweep, runner, opts, write)
	if err != nil || sweep.Screen == 0 || len(sweep.points(opts.withOutDir())) == before {
		return report, path, err
	}
	fmt.Fprintf(progressOf(opts), "%s: screening stored, its finalists train the full protocol\n", sweep.id())
	return sweepFigure(sweep, runner, opts, write)
}

// tuneKey names a configuration of a training.
func tuneKey(dataset, method, id string) string { return dataset + "/" + method + "/" + id }

// FinalistsCost is the training of the finalists not yet known: for every cell of sweep under
// opts whose screening is not all stored, its Screen trainings of the full protocol, each costing
// what the table's cell does (cellCost).
func FinalistsCost(sweep TuneSweep, opts Options) (PlanCost, error) {
	opts = opts.withOutDir()
	trainings, err := sweep.trainings(opts)
	if err != nil {
		return PlanCost{}, err
	}
	var c PlanCost
	for _, tt := range trainings {
		if finalists, _, _ := sweep.finalists(tt, opts); len(finalists) > 0 {
			continue
		}
		path := RecordPath(opts.OutDir, sweep.Table, tt.dataset, tt.method)
		c.Cells += tt.screen
		if _, ok := measuredCost(path); ok {
			c.Measured += tt.screen
		}
		c.Seconds += float64(tt.screen) * cellCost(path, tt.dataset, pointRuns(opts, tt.dataset))
	}
	return c, nil
}

// PlanTune returns what RunTune would do with sweep and opts, configuration by configuration,
// without training.
func PlanTune(sweep TuneSweep, opts Options) ([]PlannedCell, error) {
	if err := sweep.Check(); err != nil {
		return nil, err
	}
	if _, err := sweep.trainings(opts); err != nil { // too many finalists: points would list none
		return nil, err
	}
	return planFigure(sweep, opts)
}
