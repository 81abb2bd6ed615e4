package tables

import (
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"time"
)

// Row statuses of a Report.
const (
	StatusOK             = "ok"
	StatusNotRun         = "not run"
	StatusInProgress     = "in progress"
	StatusUnavailable    = "data not obtainable"
	StatusNotImplemented = "not implemented yet"
	StatusFailed         = "failed"
	StatusUnreadable     = "unreadable record"
)

// Row compares one cell of ours with the paper's.
type Row struct {
	// Dataset and Method are the cell's column and row ids.
	Dataset string `json:"dataset"`
	Method  string `json:"method"`
	// Status is one of the Status* constants; Ours (our mean ± std over Runs runs) is set only for
	// StatusOK.
	Status string `json:"status"`
	Ours   *Stat  `json:"ours,omitempty"`
	Runs   int    `json:"runs,omitempty"`
	// Quick marks a cell run with --quick: NOT the paper's protocol.
	Quick bool `json:"quick"`
	// Paper is the paper's printed mean ± std, nil where it prints none.
	Paper *Stat `json:"paper,omitempty"`
	// Diff is ours − paper in accuracy points.
	Diff *float64 `json:"diff,omitempty"`
	// Flagged is true when |Diff| > max(2 × paper std, 1.0 point) (see Flagged).
	Flagged bool `json:"flagged"`
	// RelChange is our relative change in percent against our Reference row on the same data set,
	// PaperRelChange the paper's printed one; both only for the rows where the paper prints one.
	RelChange      *float64 `json:"rel_change,omitempty"`
	PaperRelChange *float64 `json:"paper_rel_change,omitempty"`
	// Error says why a cell failed, its record could not be read or its data cannot be obtained.
	Error string `json:"error,omitempty"`
	// Progress says how far an in-progress cell is.
	Progress string `json:"progress,omitempty"`
	// TrainSeconds is the training time of the cell's record (its seconds_total: every run, from
	// every process that trained it), set with Ours.
	TrainSeconds float64 `json:"train_seconds,omitempty"`
	// Record is the provenance of the cell's record, set with Ours.
	Record *RecordProvenance `json:"record,omitempty"`
	// Tuning is, in the validation-selected group (Report.Selected), how the cell's settings were
	// chosen; ScriptSettings marks a row of that group that keeps the authors' script settings
	// (Spec.ScriptRows).
	Tuning         *Tuning `json:"tuning,omitempty"`
	ScriptSettings bool    `json:"script_settings,omitempty"`
}

// RecordProvenance is how a cell's record was made: what a report's provenance block lists.
type RecordProvenance struct {
	// Training names the record's training: its data set and method ids (Table 3's three columns
	// of a row share one).
	Training [2]string `json:"training"`
	// Command, GitRevision and FinishedAt are the record's command, revision and finish time.
	Command     string    `json:"command"`
	GitRevision string    `json:"git_revision"`
	FinishedAt  time.Time `json:"finished_at"`
	// SharedFrom is the record's SharedFrom: the other table's record it was copied from.
	SharedFrom string `json:"shared_from,omitempty"`
}

// TrainingTime sums the training time of the distinct trainings behind a report's rows with
// results (Table 3's three columns of a row are one training, counted once).
type TrainingTime struct {
	// Seconds is the summed seconds_total of Trainings records.
	Seconds   float64 `json:"seconds"`
	Trainings int     `json:"trainings"`
	// Of is the number of distinct trainings the selection needs (with Trainings of them done).
	Of int `json:"of"`
}

// String says the summed time and how many of the needed trainings it covers.
func (t TrainingTime) String() string {
	return fmt.Sprintf("%s (%d of the %d trainings needed)", Duration(t.Seconds), t.Trainings, t.Of)
}

// Report is a table's comparison of our results with the paper's: one row per (dataset, method) of
// the paper's table, data set by data set.
type Report struct {
	// Table is the table id ("table2"), Number its number in the paper, Caption its caption.
	Table   string `json:"table"`
	Number  int    `json:"number"`
	Caption string `json:"caption"`
	Provenance
	// Reference is the method relative changes are computed against ("" when none).
	Reference string `json:"reference,omitempty"`
	// Notes say, in Markdown, where our data, protocol or implementation differ and why flagged
	// cells differ (Notes(Table)); Rows are the cells.
	Notes string `json:"notes"`
	Rows  []Row  `json:"rows"`
	// Time is the training time of every runnable cell; TimedMethods and Timed the same for the
	// spec's TimedMethods only (Timed is nil when the table names none).
	Time         TrainingTime  `json:"training_time"`
	TimedMethods []string      `json:"timed_methods,omitempty"`
	Timed        *TrainingTime `json:"timed_training_time,omitempty"`
	// Claims are the spec's Claims counted on Rows.
	Claims []ClaimCheck `json:"claims,omitempty"`
	claims []Claim
	// Selected is the validation-selected group, the headline when any cell of the table was
	// tuned (RunTune; nil otherwise): a row per row of Rows, with the tuned cell's numbers (Tuning
	// set), the script cell for Spec.ScriptRows (ScriptSettings set), or not run / in progress.
	// Rows are then the "script settings" group. SelectedClaims are the claims counted on Selected,
	// TuningTime the summed training time of the tunings (every configuration tried).
	Selected       []Row         `json:"validation_selected,omitempty"`
	SelectedClaims []ClaimCheck  `json:"validation_selected_claims,omitempty"`
	TuningTime     *TrainingTime `json:"tuning_time,omitempty"`
	// ScriptRows are Spec.ScriptRows, when Selected is set.
	ScriptRows []string `json:"script_rows,omitempty"`
}

// ReportPath is where the Markdown report of table goes under dir.
func ReportPath(dir, table string) string { return filepath.Join(dir, table+".md") }

// Flagged reports whether ours differs from paper by more than max(2 × paper std, 1.0) points.
func Flagged(ours, paper Stat) bool {
	return math.Abs(ours.Mean-paper.Mean) > math.Max(2*paper.Std, 1.0)
}

// LoadReport reads the stored cells of table (e.g. "table2") under dir (e.g. "results") and returns
// the comparison with the paper. Cells without a record are "not run", or "in progress" with a
// checkpoint (CheckpointPath); records that cannot be read
// are reported as such in their row, so one damaged file does not hide the others. Paper tables the
// toolkit cannot run yet (table3, table4) give the paper's numbers with every row "not implemented
// yet".
func LoadReport(dir, table string) (*Report, error) {
	spec, err := SpecFor(table)
	if err != nil {
		paper, perr := Paper(table)
		if perr != nil {
			return nil, perr
		}
		spec = &Spec{Paper: paper, Datasets: paper.Datasets, NotImplemented: paper.Methods}
	}
	p := spec.Paper
	rep := &Report{
		Table: p.ID, Number: p.Number, Caption: p.Caption, Provenance: newProvenance(),
		Reference: spec.Reference, Notes: Notes(p.ID),
	}
	if len(spec.TimedMethods) > 0 {
		rep.TimedMethods, rep.Timed = spec.TimedMethods, &TrainingTime{}
	}
	ours := map[[2]string]Stat{}
	needed, trained := map[[2]string]bool{}, map[[2]string]bool{} // distinct trainings, for rep.Time
	for _, d := range spec.Datasets {
		for _, m := range spec.rowOrder() {
			row := Row{Dataset: d, Method: m}
			if s, ok := p.Cell(m, d); ok {
				row.Paper = &s
			}
			if rc, ok := p.RelChange[m][d]; ok {
				row.PaperRelChange = &rc
			}
			td, tm := spec.trainedOn(d), spec.runAs(m)
			why, unavailable := spec.Unavailable[d]
			training := [2]string{td, tm}
			if spec.runnable(m) && !unavailable && !needed[training] {
				needed[training] = true
				rep.countTraining(m, nil)
			}
			rec, err := readCell(RecordPath(dir, p.ID, td, tm), p.ID, td, tm)
			var s Stat
			if err == nil {
				s, err = spec.readOurs(rec, d)
			}
			switch {
			case !spec.runnable(m):
				row.Status = StatusNotImplemented
			case unavailable:
				row.Status, row.Error = StatusUnavailable, why
			case errors.Is(err, os.ErrNotExist):
				row.Status = StatusNotRun
				if done, runs, ok := checkpointProgress(CheckpointPath(dir, p.ID, td, tm), td, tm); ok {
					row.Status, row.Progress = StatusInProgress, fmt.Sprintf("%d of %d runs finished (a checkpoint on the machine that rendered this report; the same command resumes it there)", done, runs)
				}
			case err != nil:
				row.Status, row.Error = StatusUnreadable, err.Error()
			default:
				row.fill(rec, s, training)
				ours[[2]string{d, m}] = s
				if !trained[training] {
					trained[training] = true
					rep.countTraining(m, &rec.SecondsTotal)
				}
				rep.add(rec.Quick, rec.Command, rec.GitRevision)
			}
			rep.Rows = append(rep.Rows, row)
		}
	}
	if spec.Reference != "" {
		for i := range rep.Rows {
			row := &rep.Rows[i]
			ref, ok := ours[[2]string{row.Dataset, spec.Reference}]
			if _, printed := p.RelChange[row.Method]; row.Ours == nil || !ok || !printed {
				continue
			}
			rc := RelativeChange(row.Ours.Mean, ref.Mean)
			row.RelChange = &rc
		}
	}
	rep.claims = spec.Claims
	rep.Claims = rep.CheckClaims(spec.Claims)
	if spec.Tuned {
		rep.loadSelected(dir, spec)
	}
	return rep, nil
}

// fill sets row's results from rec, the record of training, whose accuracy in row's column is s:
// our numbers, their provenance and the comparison with the paper's.
func (row *Row) fill(rec *Record, s Stat, training [2]string) {
	row.Status, row.Ours, row.Runs, row.Quick, row.TrainSeconds = StatusOK, &s, rec.Runs, rec.Quick, rec.SecondsTotal
	row.Record = &RecordProvenance{Training: training, Command: rec.Command, GitRevision: rec.GitRevision,
		FinishedAt: rec.FinishedAt, SharedFrom: rec.SharedFrom}
	if row.Paper != nil {
		diff := s.Mean - row.Paper.Mean
		row.Diff, row.Flagged = &diff, Flagged(s, *row.Paper)
	}
}

// countTraining counts one distinct training of row method in r.Time (and r.Timed for a timed
// method): as needed with seconds nil, as done with its seconds_total otherwise.
func (r *Report) countTraining(method string, seconds *float64) {
	sums := []*TrainingTime{&r.Time}
	if slices.Contains(r.TimedMethods, method) {
		sums = append(sums, r.Timed)
	}
	for _, t := range sums {
		if seconds == nil {
			t.Of++
		} else {
			t.Trainings++
			t.Seconds += *seconds
		}
	}
}

// markFailed records that the training of method on dataset failed in this sweep, in every row read
// from it.
func (r *Report) markFailed(spec *Spec, dataset, method string, err error) {
	for i := range r.Rows {
		if spec.trainedOn(r.Rows[i].Dataset) == dataset && spec.runAs(r.Rows[i].Method) == method {
			r.Rows[i] = Row{Dataset: r.Rows[i].Dataset, Method: r.Rows[i].Method, Status: StatusFailed, Paper: r.Rows[i].Paper,
				PaperRelChange: r.Rows[i].PaperRelChange, Error: err.Error()}
		}
	}
	r.Claims = r.CheckClaims(r.claims)
}
