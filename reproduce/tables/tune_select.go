package tables

import (
	"cmp"
	"fmt"
	"maps"
	"math"
	"path/filepath"
	"slices"
	"strings"
)

// Tuning is how a record's settings were chosen by a validation grid search (RunTune). On a
// configuration's record it says which configuration of which grid it is; on a validation-selected
// cell's record (TunedRecordPath) also which configuration won, among which, and what the search
// cost. The selected cell is the winning configuration's record itself, copied: that training
// already is the data set's full protocol with its seed, so training it once more would give the
// same numbers.
type Tuning struct {
	// ConfigID is ConfigID(Settings); Settings are the grid's values the configuration sets over
	// the preset (the record's Params hold every effective value).
	ConfigID string         `json:"config_id"`
	Settings map[string]any `json:"settings"`
	// GridSize is the number of configurations of the method's grid, Tried how many the tuning
	// tries (all of them, or a random subset drawn with SubsetSeed when fewer).
	GridSize   int   `json:"grid_size"`
	Tried      int   `json:"tried"`
	SubsetSeed int64 `json:"subset_seed"`
	// Finalists, when above 0, is how many of the Tried configurations went on to the full
	// protocol after a screening on its first run (TuneSweep.Screen); 0 means all of them did.
	Finalists int `json:"finalists,omitempty"`
	// SelectedFrom is, on a selected cell, the winning configuration's record, relative to the
	// results directory (tune/<table>/<dataset>-<method>/<config id>.json).
	SelectedFrom string `json:"selected_from,omitempty"`
	// TuningSeconds sums the seconds_total of the Tried configurations (selected cell only).
	TuningSeconds float64 `json:"tuning_seconds,omitempty"`
	// Candidates are the configurations trained on the full protocol (all Tried, or the
	// Finalists) ranked as the selection ranks them, best first (selected cell only).
	Candidates []TuneCandidate `json:"candidates,omitempty"`
	// Screening are, with Finalists, the Tried configurations ranked by the validation accuracy of
	// the protocol's first run, best first (selected cell only).
	Screening []TuneCandidate `json:"screening,omitempty"`
}

// TuneCandidate is one configuration as the selection sees it: its mean validation accuracy (in
// percent) and its number of trainable parameters. The test accuracy plays no part.
type TuneCandidate struct {
	ConfigID        string  `json:"config_id"`
	ValAccMean      float64 `json:"val_acc_mean"`
	TrainableParams int     `json:"trainable_params"`
}

// Subset reports whether the tuning tried a seeded random subset of its grid.
func (t *Tuning) Subset() bool { return t.Tried < t.GridSize }

// SettingsString writes the settings as `reproduce run --set` takes them, in key order, e.g.
// "dropout=0.5 hidden=64 layers=2 lr=0.01 weight_decay=0.001".
func (t *Tuning) SettingsString() string {
	var parts []string
	for _, k := range slices.Sorted(maps.Keys(t.Settings)) {
		parts = append(parts, fmt.Sprintf("%s=%v", k, t.Settings[k]))
	}
	return strings.Join(parts, " ")
}

// Searched says how many configurations were tried, e.g. "24 of 240 configurations, seeded subset
// (seed 1)", "8 of 8 configurations" or "24 of 720 configurations, seeded subset (seed 1),
// screened on the first run, the best 6 on the full protocol".
func (t *Tuning) Searched() string {
	s := fmt.Sprintf("%d of %d configurations", t.Tried, t.GridSize)
	if t.Subset() {
		s += fmt.Sprintf(", seeded subset (seed %d)", t.SubsetSeed)
	}
	if t.Finalists > 0 {
		s += fmt.Sprintf(", screened on the first run, the best %d on the full protocol", t.Finalists)
	}
	return s
}

// valTolerance is how close two mean validation accuracies (in percent) must be to tie.
const valTolerance = 1e-9

// rankCandidates sorts candidates best first: the higher mean validation accuracy, then (on a tie)
// fewer trainable parameters, then the smaller configuration id.
func rankCandidates(candidates []TuneCandidate) {
	slices.SortStableFunc(candidates, func(a, b TuneCandidate) int {
		if math.Abs(a.ValAccMean-b.ValAccMean) > valTolerance {
			return cmp.Compare(b.ValAccMean, a.ValAccMean)
		}
		return cmp.Or(cmp.Compare(a.TrainableParams, b.TrainableParams), cmp.Compare(a.ConfigID, b.ConfigID))
	})
}

// TunedCell is the state of one tuned cell's search.
type TunedCell struct {
	// Dataset and Method are the training tuned (Table 3's rows: one training on twitch-ood).
	Dataset, Method string
	// Finished counts the stored configurations on the full protocol among Tried (all of them,
	// or the Finalists once Screened is Tried), of a grid of GridSize (subset Seed).
	Finished, Tried, GridSize int
	Seed                      int64
	// Finalists is the sweep's Screen when the cell is screened (0 when not, or when its
	// configurations were all stored on the full protocol without); Screened counts the stored
	// screening runs.
	Finalists, Screened int
	// Path is the selected cell's record (TunedRecordPath); Selected its record once every
	// configuration is stored, else nil.
	Path     string
	Selected *Record
}

// TuneStatus returns the state of every cell of sweep under opts (all shards), without writing.
func TuneStatus(sweep TuneSweep, opts Options) ([]TunedCell, error) {
	if err := sweep.Check(); err != nil {
		return nil, err
	}
	return sweep.status(opts.withOutDir(), false)
}

// SelectTuned stores, without training, the validation-selected record of every cell of sweep
// whose configurations are all stored under opts.OutDir (by any process or shard), unless an
// identical one is there, and returns every cell's state.
func SelectTuned(sweep TuneSweep, opts Options) ([]TunedCell, error) {
	return sweep.selectAll(opts.withOutDir())
}

// selectAll writes the selected record of every cell of t whose configurations are all stored under
// opts.OutDir (unless an identical one is there), and returns every cell's state.
func (t TuneSweep) selectAll(opts Options) ([]TunedCell, error) { return t.status(opts, true) }

// status reads every cell's stored configurations, selects the cells that have all of them and,
// with write, stores their selected records.
func (t TuneSweep) status(opts Options, write bool) ([]TunedCell, error) {
	trainings, err := t.trainings(opts)
	if err != nil {
		return nil, err
	}
	var cells []TunedCell
	for _, tt := range trainings {
		tc := TunedCell{Dataset: tt.dataset, Method: tt.method, Tried: len(tt.configs), GridSize: tt.gridSize, Seed: tt.seed,
			Path: TunedRecordPath(opts.OutDir, t.Table, tt.dataset, tt.method)}
		finalists, screening, screened := t.finalists(tt, opts)
		if screened {
			tc.Finalists, tc.Screened = tt.screen, len(screening)
		}
		recs := t.configRecords(tt, finalists, TuneDir(opts.OutDir, t.Table, tt.dataset, tt.method), pointRuns(opts, tt.dataset), opts)
		tc.Finished = len(recs)
		if len(finalists) > 0 && len(recs) == len(finalists) {
			tc.Selected = t.selected(tt, recs, screening)
			old, _ := readSelected(tc.Path, t.Table, tt.dataset, tt.method) // nil when none is stored
			switch {
			case old != nil && old.Quick == opts.Quick && old.Tuning.Tried > len(tt.configs):
				tc.Selected = old // a smaller --size does not replace a larger search's cell
			case write && !sameSelection(old, tc.Selected):
				if err := writeRecord(tc.Path, tc.Selected); err != nil {
					return nil, err
				}
			}
		}
		cells = append(cells, tc)
	}
	return cells, nil
}

// configRecords reads the stored records of configs in dir, each of runs runs: those that match
// their configuration, in configs' order.
func (t TuneSweep) configRecords(tt tuneTraining, configs []TuneConfig, dir string, runs int, opts Options) []*Record {
	var recs []*Record
	for _, c := range configs {
		r, err := readPoint(filepath.Join(dir, c.ID+".json"), t.id(), Cell{Dataset: tt.dataset, Method: tt.method, Params: c.Settings})
		if err == nil && r.Runs == runs && r.Quick == opts.Quick && r.Tuning != nil && r.Tuning.ConfigID == c.ID {
			recs = append(recs, r)
		}
	}
	return recs
}

// finalists returns the configurations of tt that train the full protocol, the stored screening
// runs' records and whether tt is screened: the sweep screens and its configurations are not all
// stored on the full protocol already (a search finished without screening stands as it is). Not
// screened, every configuration is a finalist; screened, the tt.screen best of its screening runs
// once all are stored, else none.
func (t TuneSweep) finalists(tt tuneTraining, opts Options) (finalists []TuneConfig, screening []*Record, screened bool) {
	if tt.screen == 0 {
		return tt.configs, nil, false
	}
	if full := t.configRecords(tt, tt.configs, TuneDir(opts.OutDir, t.Table, tt.dataset, tt.method), pointRuns(opts, tt.dataset), opts); len(full) == len(tt.configs) {
		return tt.configs, nil, false
	}
	screening = t.configRecords(tt, tt.configs, ScreenDir(opts.OutDir, t.Table, tt.dataset, tt.method), 1, opts)
	if len(screening) < len(tt.configs) {
		return nil, screening, true
	}
	ranked := candidatesOf(screening)
	byID := map[string]TuneConfig{}
	for _, c := range tt.configs {
		byID[c.ID] = c
	}
	finalists = make([]TuneConfig, tt.screen)
	for i := range finalists {
		finalists[i] = byID[ranked[i].ConfigID]
	}
	return finalists, screening, true
}

// candidatesOf returns recs as candidates, ranked best first (rankCandidates).
func candidatesOf(recs []*Record) []TuneCandidate {
	candidates := make([]TuneCandidate, len(recs))
	for i, r := range recs {
		candidates[i] = TuneCandidate{ConfigID: r.Tuning.ConfigID, ValAccMean: r.ValAccMean, TrainableParams: r.TrainableParams}
	}
	rankCandidates(candidates)
	return candidates
}

// selected returns the validation-selected cell of t made from the records of the configurations
// of one tuning trained on the full protocol (and of its screening runs, when screened): the
// best-ranked one's record, as a record of the table with the tuning's summary.
func (t TuneSweep) selected(tt tuneTraining, recs, screening []*Record) *Record {
	byID := map[string]*Record{}
	seconds := 0.0
	for _, r := range slices.Concat(recs, screening) {
		seconds += r.SecondsTotal
	}
	for _, r := range recs {
		byID[r.Tuning.ConfigID] = r
	}
	candidates := candidatesOf(recs)
	best := byID[candidates[0].ConfigID]
	sel := *best
	tuning := *best.Tuning
	tuning.SelectedFrom = filepath.ToSlash(filepath.Join("tune", t.Table, best.Dataset+"-"+best.Method, tuning.ConfigID+".json"))
	tuning.TuningSeconds, tuning.Candidates = seconds, candidates
	tuning.Tried, tuning.GridSize, tuning.SubsetSeed = len(tt.configs), tt.gridSize, tt.seed // this search's, whichever trained the record
	tuning.Finalists, tuning.Screening = 0, nil
	if len(screening) > 0 {
		tuning.Finalists, tuning.Screening = len(recs), candidatesOf(screening)
	}
	sel.Table, sel.Tuning = t.Table, &tuning
	return &sel
}

// sameSelection reports whether the stored selected record old (nil when there is none) holds
// sel's selection among the same candidates, so that a rerun or another shard rewrites nothing.
func sameSelection(old, sel *Record) bool {
	return old != nil && old.Quick == sel.Quick && old.Runs == sel.Runs && old.Tuning.SelectedFrom == sel.Tuning.SelectedFrom &&
		old.Tuning.TuningSeconds == sel.Tuning.TuningSeconds && slices.Equal(old.Tuning.Candidates, sel.Tuning.Candidates) &&
		slices.Equal(old.Tuning.Screening, sel.Tuning.Screening)
}

// readSelected reads the validation-selected cell (dataset, method) of table at path and checks it
// is one: the cell's record with its tuning's selection.
func readSelected(path, table, dataset, method string) (*Record, error) {
	r, err := readCell(path, table, dataset, method)
	if err != nil {
		return nil, err
	}
	if r.Tuning == nil || r.Tuning.SelectedFrom == "" || len(r.Tuning.Candidates) == 0 {
		return nil, fmt.Errorf("%s: not a validation-selected cell (no tuning with its selection)", path)
	}
	return r, nil
}

// tuneProgress says how far the tuning of (dataset, method) of table under dir is when its selected
// cell is not stored, from the records in its TuneDir and ScreenDir: "k of n configurations stored",
// or for a screened tuning "k of n screening runs and j of m finalists stored"; "" when there are
// none.
func tuneProgress(dir, table, dataset, method string) string {
	full, tried, _ := tuneRecords(TuneDir(dir, table, dataset, method))
	screened, screenTried, finalists := tuneRecords(ScreenDir(dir, table, dataset, method))
	const resumes = " (the same tune command resumes it)"
	switch {
	case screened > 0:
		return fmt.Sprintf("%d of %d screening runs and %d of %d finalists stored", screened, screenTried, full, finalists) + resumes
	case full > 0:
		return fmt.Sprintf("%d of %d configurations stored", full, tried) + resumes
	}
	return ""
}

// tuneRecords counts the tuning records in dir and returns the largest Tried and Finalists they
// state.
func tuneRecords(dir string) (n, tried, finalists int) {
	paths, _ := filepath.Glob(filepath.Join(dir, "*.json"))
	for _, p := range paths {
		r, err := ReadRecord(p)
		if err != nil || r.Tuning == nil {
			continue
		}
		n++
		tried, finalists = max(tried, r.Tuning.Tried), max(finalists, r.Tuning.Finalists)
	}
	return n, tried, finalists
}
