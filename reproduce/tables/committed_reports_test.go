package tables

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// committedDir is the repository's results directory, where the committed records and reports are.
const committedDir = "../../results"

// reportIDs are the ids of every committed report: the runnable tables and the figures.
func reportIDs() []string {
	var ids []string
	for _, s := range Specs() {
		ids = append(ids, s.Paper.ID)
	}
	return append(ids, FigureHyper, FigureBackbones, FigureTSNE, FigurePileup)
}

// renderCommitted renders the report of id from the committed records as `go run ./reproduce <id>
// --report-only --out results` does.
func renderCommitted(t *testing.T, id string) string {
	t.Helper()
	command := "go run ./reproduce " + id + " --report-only --out results"
	var md string
	switch id {
	case FigureHyper:
		r, err := LoadGrid(committedDir, DefaultGrid())
		if err != nil {
			t.Fatal(err)
		}
		r.Command = command
		md = r.Markdown()
	case FigureBackbones:
		r, err := LoadBackbones(committedDir, DefaultBackboneSweep())
		if err != nil {
			t.Fatal(err)
		}
		r.Command = command
		md = r.Markdown()
	case FigureTSNE:
		r, err := LoadTSNE(committedDir, DefaultTSNESweep())
		if err != nil {
			t.Fatal(err)
		}
		r.Command = command
		md = r.Markdown()
	case FigurePileup:
		r, err := LoadPileup(committedDir, DefaultPileupSweep())
		if err != nil {
			t.Fatal(err)
		}
		r.Command = command
		md = r.Markdown()
	default:
		r, err := LoadReport(committedDir, id)
		if err != nil {
			t.Fatal(err)
		}
		r.Command = command
		md = r.Markdown()
	}
	return md
}

// hexWord matches a word that looks like a commit hash.
var hexWord = regexp.MustCompile(`\b[0-9a-f]{7,40}\b`)

// outsideDetails returns md without its <details> blocks.
func outsideDetails(md string) string {
	var kept []string
	in := false
	for _, line := range strings.Split(md, "\n") {
		switch {
		case strings.HasPrefix(line, "<details>"):
			in = true
		case strings.HasPrefix(line, "</details>"):
			in = false
		case !in:
			kept = append(kept, line)
		}
	}
	return strings.Join(kept, "\n")
}

// TestCommittedReportsReadable checks every committed report: its (first) table starts within its
// first 15 lines, and outside the folded provenance block it names no temporary path and no word
// that looks like a commit hash.
func TestCommittedReportsReadable(t *testing.T) {
	for _, id := range reportIDs() {
		data, err := os.ReadFile(ReportPath(committedDir, id))
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(string(data), "\n")
		if i := slices.IndexFunc(lines, func(l string) bool { return strings.HasPrefix(l, "|") }); i < 0 || i >= 15 {
			t.Errorf("%s.md: the table starts at line %d, want within the first 15", id, i+1)
		}
		body := outsideDetails(string(data))
		for _, path := range []string{"/tmp/", "/work/", "/root/"} {
			if strings.Contains(string(data), path) {
				t.Errorf("%s.md names a machine path (%s...), even in its provenance", id, path)
			}
		}
		if w := hexWord.FindAllString(body, -1); len(w) > 0 {
			t.Errorf("%s.md has words that look like commit hashes outside <details>: %v", id, w)
		}
		if !strings.Contains(string(data), "<details>") {
			t.Errorf("%s.md has no provenance block", id)
		}
	}
}

// TestCommittedReportsUpToDate checks that every committed report is what its committed records
// and notes render: after a change of the notes or the layout, re-render with --report-only.
func TestCommittedReportsUpToDate(t *testing.T) {
	for _, id := range reportIDs() {
		data, err := os.ReadFile(ReportPath(committedDir, id))
		if err != nil {
			t.Fatal(err)
		}
		if got := renderCommitted(t, id); got != string(data) {
			t.Errorf("results/%s.md is not what its records and notes render: run `go run ./reproduce %s --report-only`", id, id)
		}
	}
}

// noteLabel matches the bold label of a note about flagged cells: "**Data set, Data set: Method,
// Method**".
var noteLabel = regexp.MustCompile(`(?m)^- \*\*([^*:]+): ([^*]+)\*\*`)

// TestNotes checks the notes files: one per report and no other, none citing files or revisions a
// reader does not have, and a note for every flagged cell of the committed tables (of either group
// where a table has a validation-selected one) that names only flagged cells.
func TestNotes(t *testing.T) {
	files, err := filepath.Glob("notes/*.md")
	if err != nil {
		t.Fatal(err)
	}
	ids := reportIDs()
	for _, f := range files {
		if id := strings.TrimSuffix(filepath.Base(f), ".md"); !slices.Contains(ids, id) {
			t.Errorf("%s belongs to no report (ids: %v)", f, ids)
		}
	}
	date := regexp.MustCompile(`\b20\d\d-\d\d-\d\d\b`)
	for _, id := range ids {
		notes := Notes(id)
		if notes == "" {
			t.Errorf("no notes for %s (want notes/%s.md)", id, id)
		}
		for _, bad := range []string{"SPEC", "/tmp/", "/work/", "../shared"} {
			if strings.Contains(notes, bad) {
				t.Errorf("notes of %s contain %q", id, bad)
			}
		}
		if w := append(hexWord.FindAllString(notes, -1), date.FindAllString(notes, -1)...); len(w) > 0 {
			t.Errorf("notes of %s contain revisions or dates: %v", id, w)
		}
	}
	for _, spec := range Specs() {
		rep, err := LoadReport(committedDir, spec.Paper.ID)
		if err != nil {
			t.Fatal(err)
		}
		flagged, named := map[string]bool{}, map[string]bool{}
		for _, row := range slices.Concat(rep.Rows, rep.Selected) {
			if row.Flagged {
				flagged[DatasetNames[row.Dataset]+": "+MethodNames[row.Method]] = true
			}
		}
		for _, m := range noteLabel.FindAllStringSubmatch(rep.Notes, -1) {
			for _, d := range strings.Split(m[1], ", ") {
				for _, method := range strings.Split(m[2], ", ") {
					cell := d + ": " + method
					named[cell] = true
					if !flagged[cell] {
						t.Errorf("notes of %s explain %s, which is not a flagged cell", spec.Paper.ID, cell)
					}
				}
			}
		}
		for cell := range flagged {
			if !named[cell] {
				t.Errorf("notes of %s have no note on the flagged cell %s (a bullet starting \"- **%s**\")", spec.Paper.ID, cell, cell)
			}
		}
	}
}
