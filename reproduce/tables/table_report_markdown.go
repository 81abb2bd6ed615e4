package tables

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
)

// Markdown renders the report: the table in the paper's layout (a row per method, a column per data
// set, ours and the paper's mean ± std in each cell, ⚠ on flagged cells), the counts and training
// times under it, the paper's claims counted on our results, the notes (Notes(Table)), and a folded
// block with the provenance of every cell's record. When cells were tuned (Report.Selected), the
// validation-selected group comes first, as the headline, with its settings, tuning time and
// claims; the table of today's cells follows as the "script settings" group.
func (r *Report) Markdown() string {
	var b strings.Builder
	fmt.Fprintf(&b, "# Table %d: ours vs paper\n\n%s\n\n", r.Number, r.Caption)
	b.WriteString("Each cell: ours / the paper's, test accuracy in percent, mean ± std over runs; ⚠ marks |ours − paper| > max(2 × paper std, 1.0 point).")
	if r.Reference != "" {
		fmt.Fprintf(&b, " (%%) is the relative change against %s: ours against our %s, the paper's as printed.", MethodNames[r.Reference], MethodNames[r.Reference])
	}
	b.WriteString("\n")
	if r.Quick {
		b.WriteString("\n> **Cells marked (quick) are NOT the paper's protocol**: 1 run, few epochs; do not compare them with the paper.\n")
	}
	if r.Selected != nil {
		r.writeSelected(&b)
		b.WriteString("\n## Script settings\n\nThe cells trained with the authors' script settings: GeoMix's rows from its run scripts, the baselines' as the notes say.\n")
	}
	r.writeTable(&b, r.Rows, nil)
	fmt.Fprintf(&b, "\nTraining time of the cells with results: %s.\n", r.Time)
	if r.Timed != nil {
		names := make([]string, len(r.TimedMethods))
		for i, m := range r.TimedMethods {
			names[i] = MethodNames[m]
		}
		fmt.Fprintf(&b, "Training time of %s on every data set: %s.\n", strings.Join(names, ", "), *r.Timed)
	}
	intro := ""
	if r.Selected != nil {
		intro = "Counted on the script settings (the validation-selected group's are above)."
	}
	writeClaims(&b, "## Claims", intro, r.Claims)
	writeNotes(&b, r.Notes)
	r.writeProvenance(&b)
	return b.String()
}

// writeTable writes rows in the paper's layout (a row per method, a column per data set), the
// count of cells with results and flagged under it, and why cells have none; mark, when set, is
// appended to a method's name.
func (r *Report) writeTable(b *strings.Builder, rows []Row, mark func(method string) string) {
	datasets, methods := r.layout()
	b.WriteString("\n| Method |")
	for _, d := range datasets {
		fmt.Fprintf(b, " %s |", DatasetNames[d])
	}
	b.WriteString("\n|---|" + strings.Repeat("---|", len(datasets)) + "\n")
	runs := datasetRuns(rows)
	cells := map[[2]string]Row{}
	for _, row := range rows {
		cells[[2]string{row.Dataset, row.Method}] = row
	}
	for _, m := range methods {
		name := MethodNames[m]
		if mark != nil {
			name += mark(m)
		}
		fmt.Fprintf(b, "| %s |", name)
		for _, d := range datasets {
			fmt.Fprintf(b, " %s |", cells[[2]string{d, m}].cell(runs[d]))
		}
		b.WriteString("\n")
	}
	ran, flagged := 0, 0
	for _, row := range rows {
		if row.Ours != nil {
			ran++
		}
		if row.Flagged {
			flagged++
		}
	}
	fmt.Fprintf(b, "\n%d of %d cells have results; %d flagged.", ran, len(rows), flagged)
	if line := runsLine(datasets, runs); line != "" {
		b.WriteString(" " + line)
	}
	b.WriteString("\n")
	writeStatusDetails(b, rows)
}

// layout returns the report's data sets (columns) and methods (rows) in print order.
func (r *Report) layout() (datasets, methods []string) {
	for _, row := range r.Rows {
		datasets, methods = appendNew(datasets, row.Dataset), appendNew(methods, row.Method)
	}
	return datasets, methods
}

// datasetRuns returns, for every data set with results, the run count most of its cells have.
func datasetRuns(rows []Row) map[string]int {
	counts := map[string]map[int]int{}
	for _, row := range rows {
		if row.Ours == nil {
			continue
		}
		if counts[row.Dataset] == nil {
			counts[row.Dataset] = map[int]int{}
		}
		counts[row.Dataset][row.Runs]++
	}
	runs := map[string]int{}
	for d, c := range counts {
		for n, k := range c {
			if k > c[runs[d]] || (k == c[runs[d]] && n < runs[d]) {
				runs[d] = n
			}
		}
	}
	return runs
}

// runsLine says how many runs the cells of each data set have, e.g. "5 runs per cell on Cora and
// CiteSeer, 10 on Squirrel."; "" without results.
func runsLine(datasets []string, runs map[string]int) string {
	byRuns := map[int][]string{}
	var counts []int
	for _, d := range datasets {
		if n, ok := runs[d]; ok {
			if byRuns[n] == nil {
				counts = append(counts, n)
			}
			byRuns[n] = append(byRuns[n], DatasetNames[d])
		}
	}
	var parts []string
	for i, n := range counts {
		unit := ""
		if i == 0 {
			unit = " runs per cell"
			if n == 1 {
				unit = " run per cell"
			}
		}
		parts = append(parts, fmt.Sprintf("%d%s on %s", n, unit, joinWords(byRuns[n])))
	}
	if len(parts) == 0 {
		return ""
	}
	return strings.Join(parts, ", ") + "."
}

// cell renders a row as one table cell: ours (its run count when it differs from the data set's
// usual runs, its relative change, quick) or its status, then the paper's, then ⚠ when flagged.
func (row Row) cell(usualRuns int) string {
	ours := row.Status
	if row.Ours != nil {
		ours = fmt.Sprintf("%.2f ± %.2f", row.Ours.Mean, row.Ours.Std)
		if row.Runs == 1 {
			ours = fmt.Sprintf("%.2f", row.Ours.Mean)
		}
		if row.RelChange != nil {
			ours += fmt.Sprintf(" (%+.2f%%)", *row.RelChange)
		}
		if row.Runs != usualRuns {
			ours += fmt.Sprintf(" (%d runs)", row.Runs)
		}
		if row.Quick {
			ours += " (quick)"
		}
	} else if row.Status == StatusUnavailable {
		ours = "no data"
	} else if row.Status == "" {
		ours = "not in this table"
	}
	paper := "not printed"
	if row.Paper != nil {
		paper = stat(row.Paper)
		if row.PaperRelChange != nil {
			paper += fmt.Sprintf(" (%+.2f%%)", *row.PaperRelChange)
		}
	}
	s := ours + " / " + paper
	if row.Flagged {
		s += " ⚠"
	}
	return s
}

// writeStatusDetails lists under the table why cells without results have none, where the cell
// cannot say it: the data sets whose data cannot be obtained, and the cells in progress, failed or
// unreadable.
func writeStatusDetails(b *strings.Builder, rows []Row) {
	var reasons []string
	unavailable := map[string][]string{}
	for _, row := range rows {
		switch row.Status {
		case StatusUnavailable:
			if !slices.Contains(unavailable[row.Error], DatasetNames[row.Dataset]) {
				if unavailable[row.Error] == nil {
					reasons = append(reasons, row.Error)
				}
				unavailable[row.Error] = append(unavailable[row.Error], DatasetNames[row.Dataset])
			}
		case StatusInProgress:
			fmt.Fprintf(b, "\n%s, %s in progress: %s.", DatasetNames[row.Dataset], MethodNames[row.Method], row.Progress)
		case StatusFailed, StatusUnreadable:
			fmt.Fprintf(b, "\n%s, %s %s: %s", DatasetNames[row.Dataset], MethodNames[row.Method], row.Status, row.Error)
		}
	}
	for _, why := range reasons {
		fmt.Fprintf(b, "\nNo data for %s: %s.", joinWords(unavailable[why]), why)
	}
	if len(reasons) > 0 {
		b.WriteString("\n")
	}
}

// writeProvenance writes the folded block that lists, training by training, the runs, training
// time, finish time, revision and command of every record behind the table.
func (r *Report) writeProvenance(b *strings.Builder) {
	b.WriteString("\n<details>\n<summary>Provenance: the command, revision and time of every cell</summary>\n\n")
	if r.Command != "" {
		fmt.Fprintf(b, "Rendered by `%s` from the records in `%s/`.\n\n", r.Command, r.Table)
	}
	b.WriteString("| Cell | Runs | Training time | Finished (UTC) | Revision | Command |\n|---|---|---|---|---|---|\n")
	seen := map[[2]string]bool{}
	for _, row := range append(slices.Clone(r.Rows), r.Selected...) {
		rec := row.Record
		if rec == nil || row.ScriptSettings { // the selected group's script rows are listed with Rows
			continue
		}
		key := rec.Training
		if row.Tuning != nil {
			key[1] += " tuned"
		}
		if seen[key] {
			continue
		}
		seen[key] = true
		name := cmp.Or(DatasetNames[rec.Training[0]], rec.Training[0]) + " " + cmp.Or(MethodNames[rec.Training[1]], rec.Training[1])
		if row.Tuning != nil {
			name += " (validation-selected, `" + row.Tuning.SelectedFrom + "`)"
		}
		command := ""
		if i := slices.Index(r.CellCommands, rec.Command); i >= 0 {
			command = fmt.Sprint(i + 1)
		}
		if rec.SharedFrom != "" {
			command += fmt.Sprintf(" (copied from `%s`)", rec.SharedFrom)
		}
		fmt.Fprintf(b, "| %s | %d | %s | %s | %s | %s |\n", name, row.Runs, Duration(row.TrainSeconds),
			rec.FinishedAt.UTC().Format("2006-01-02 15:04"), rec.GitRevision, command)
	}
	if len(r.CellCommands) > 0 {
		b.WriteString("\nCommands:\n\n")
		for i, c := range r.CellCommands {
			fmt.Fprintf(b, "%d. `%s`\n", i+1, portableCommand(c))
		}
	}
	b.WriteString("\n</details>\n")
}

// writeNotes writes the notes under a "Notes" heading, nothing when there are none.
func writeNotes(b *strings.Builder, notes string) {
	if notes != "" {
		b.WriteString("\n## Notes\n\n" + notes + "\n")
	}
}
