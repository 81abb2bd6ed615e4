package tables

import (
	"cmp"
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"

	"github.com/geomix-go/geomix/geomix/presets"
)

// StatusNotTuned is a validation-selected row whose tuning has not started.
const StatusNotTuned = "not tuned yet"

// loadSelected fills r.Selected, r.SelectedClaims, r.TuningTime and r.ScriptRows from the
// validation-selected cells under dir (TunedRecordPath), when the table has at least one; r.Rows,
// already loaded, are the script settings group and give the Spec.ScriptRows' cells.
func (r *Report) loadSelected(dir string, spec *Spec) {
	var rows []Row
	found := false
	tuning := &TrainingTime{}
	needed, done := map[[2]string]bool{}, map[[2]string]bool{}
	for _, script := range r.Rows {
		row := Row{Dataset: script.Dataset, Method: script.Method, Paper: script.Paper, PaperRelChange: script.PaperRelChange}
		td, tm := spec.trainedOn(row.Dataset), spec.runAs(row.Method)
		training := [2]string{td, tm}
		_, gridErr := presets.GridFor(tm)
		switch {
		case slices.Contains(spec.ScriptRows, row.Method):
			row = script
			row.ScriptSettings = true
		case script.Status == StatusNotImplemented || script.Status == StatusUnavailable || gridErr != nil:
			row.Status, row.Error = script.Status, script.Error
			if gridErr != nil && row.Status != StatusUnavailable {
				row.Status = StatusNotImplemented
			}
		default:
			if !needed[training] {
				needed[training] = true
				tuning.Of++
			}
			rec, err := readSelected(TunedRecordPath(dir, r.Table, td, tm), r.Table, td, tm)
			var s Stat
			if err == nil {
				s, err = spec.readOurs(rec, row.Dataset)
			}
			switch {
			case errors.Is(err, os.ErrNotExist):
				row.Status = StatusNotTuned
				if p := tuneProgress(dir, r.Table, td, tm); p != "" {
					row.Status, row.Progress = StatusInProgress, p
				}
			case err != nil:
				row.Status, row.Error = StatusUnreadable, err.Error()
			default:
				found = true
				row.fill(rec, s, training)
				row.Tuning = rec.Tuning
				r.add(rec.Quick, rec.Command, rec.GitRevision)
				if !done[training] {
					done[training] = true
					tuning.Trainings++
					tuning.Seconds += rec.Tuning.TuningSeconds
				}
			}
		}
		rows = append(rows, row)
	}
	if !found {
		return
	}
	r.Selected, r.TuningTime, r.ScriptRows = rows, tuning, spec.ScriptRows
	r.SelectedClaims = (&Report{Rows: rows}).CheckClaims(r.claims)
}

// writeSelected writes the validation-selected group: how its cells were chosen, its table (the
// rows keeping the script settings marked †), the tuning time, every tuned cell's settings and the
// claims counted on it.
func (r *Report) writeSelected(b *strings.Builder) {
	b.WriteString("\n## Validation-selected settings (headline)\n\n")
	b.WriteString("Each tuned cell is the configuration of its method's grid (the paper's appendix, \"Additional Experimental Details\"; " +
		"`presets.GridFor`) with the best mean validation accuracy over the data set's runs, never the test accuracy " +
		"(ties: fewer trainable parameters), every configuration trained with the data set's full protocol by `reproduce tune`")
	if slices.ContainsFunc(r.Selected, func(row Row) bool { return row.Tuning != nil && row.Tuning.Finalists > 0 }) {
		b.WriteString(", except in a cell whose settings below say \"screened\" (`tune --screen`): there every configuration trained " +
			"the protocol's first run only, and the best of those by its validation accuracy the full protocol, among which the selection is made")
	}
	b.WriteString(".")
	if len(r.ScriptRows) > 0 {
		names := make([]string, len(r.ScriptRows))
		for i, m := range r.ScriptRows {
			names[i] = MethodNames[m]
		}
		fmt.Fprintf(b, " † %s keep the authors' script settings: the authors tuned them, so they are not re-tuned here.", joinWords(names))
	}
	b.WriteString("\n")
	r.writeTable(b, r.Selected, func(m string) string {
		if slices.Contains(r.ScriptRows, m) {
			return " †"
		}
		return ""
	})
	fmt.Fprintf(b, "\nTuning time (every configuration tried): %s.\n", tuningTime(*r.TuningTime))
	b.WriteString("\nSelected settings (validation accuracy of the selected configuration, then of the runner-up):\n\n")
	columns := tunedColumns(r.Selected)
	seen := map[[2]string]bool{}
	for _, row := range r.Selected {
		if row.Tuning == nil || seen[row.Record.Training] {
			continue
		}
		seen[row.Record.Training] = true
		t := row.Tuning
		val := fmt.Sprintf("validation %.2f", t.Candidates[0].ValAccMean)
		if len(t.Candidates) > 1 {
			val += fmt.Sprintf(", runner-up %.2f", t.Candidates[1].ValAccMean)
		}
		fmt.Fprintf(b, "- %s, %s: `%s` (%s; %s; tuning %s)\n", joinWords(columns[row.Record.Training]), MethodNames[row.Method],
			t.SettingsString(), val, t.Searched(), Duration(t.TuningSeconds))
	}
	writeClaims(b, "### Claims counted on the validation-selected group", "", r.SelectedClaims)
}

// tunedColumns maps each tuned training of rows to the printed names of the columns it serves, in
// the rows' order: Table 3's three Twitch columns share one training (and one tuning), the other
// tables' columns have one each (Table 4's "20news" training serves "20News (100 per class)").
func tunedColumns(rows []Row) map[[2]string][]string {
	columns := map[[2]string][]string{}
	for _, row := range rows {
		if row.Tuning != nil {
			columns[row.Record.Training] = append(columns[row.Record.Training], cmp.Or(DatasetNames[row.Dataset], row.Dataset))
		}
	}
	return columns
}

// tuningTime says the summed tuning time and how many of the needed tunings it covers.
func tuningTime(t TrainingTime) string {
	return fmt.Sprintf("%s (%d of the %d tunings needed)", Duration(t.Seconds), t.Trainings, t.Of)
}
