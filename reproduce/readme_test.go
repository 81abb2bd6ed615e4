package main

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/geomix-go/geomix/reproduce/tables"
)

// The README and docs/ are what a newcomer reads: these tests keep them short, free of history and
// of references a user of the repository does not have, and keep their numbers and code in step
// with the repository.

const readmePath = "../README.md"

// readmeMaxLines is the README's length limit: a reader gets through it in five minutes.
const readmeMaxLines = 200

func readText(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestReadmeIsShort: README.md stays under readmeMaxLines lines; details go in docs/.
func TestReadmeIsShort(t *testing.T) {
	if n := strings.Count(readText(t, readmePath), "\n"); n >= readmeMaxLines {
		t.Errorf("README.md has %d lines, want fewer than %d: move details into docs/", n, readmeMaxLines)
	}
}

// hashLike matches a word of 7 to 40 lower-case hex digits, as a git revision is written.
var hashLike = regexp.MustCompile(`\b[0-9a-f]{7,40}\b`)

// urlLike matches a URL, which may pin a revision of another repository.
var urlLike = regexp.MustCompile(`https?://[^\s)>|]+`)

// TestDocsHoldNoHistory: README.md and docs/*.md hold no word that looks like a commit hash (a run
// of 7-40 hex digits with both a digit and a letter, outside URLs) and no references to an internal
// specification ("SPEC §"): history lives in git, and docs cite the paper and the authors' code.
func TestDocsHoldNoHistory(t *testing.T) {
	docs, err := filepath.Glob("../docs/*.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, path := range append([]string{readmePath}, docs...) {
		for i, line := range strings.Split(readText(t, path), "\n") {
			if strings.Contains(line, "SPEC §") {
				t.Errorf("%s:%d cites \"SPEC §\": cite the paper's section or the authors' code by path: %s", path, i+1, line)
			}
			for _, w := range hashLike.FindAllString(urlLike.ReplaceAllString(line, ""), -1) {
				if strings.ContainsAny(w, "0123456789") && strings.ContainsAny(w, "abcdef") {
					t.Errorf("%s:%d holds %q, which looks like a commit hash: docs say what holds now", path, i+1, w)
				}
			}
		}
	}
}

// TestReadmeTable2 checks the README's Table 2 at a glance against the committed records in
// results/table2/ and the paper's numbers: one row per data set, GCN and GeoMix-I/II/III, each cell
// "ours / paper".
func TestReadmeTable2(t *testing.T) {
	readme := readText(t, readmePath)
	paper, err := tables.Paper("table2")
	if err != nil {
		t.Fatal(err)
	}
	methods := []string{"gcn", "geomix1", "geomix2", "geomix3"}
	for _, d := range paper.Datasets {
		row := "| " + tables.DatasetNames[d] + " |"
		for _, m := range methods {
			rec, err := tables.ReadRecord(tables.RecordPath("../results", "table2", d, m))
			if err != nil {
				t.Fatal(err)
			}
			p, ok := paper.Cell(m, d)
			if !ok {
				t.Fatalf("the paper has no Table 2 cell %s/%s", d, m)
			}
			row += fmt.Sprintf(" %.2f ± %.2f / %.2f ± %.2f |", rec.TestAccMean, rec.TestAccStd, p.Mean, p.Std)
		}
		if !strings.Contains(readme, row+"\n") {
			t.Errorf("README.md lacks the Table 2 row of the records and the paper:\n%s", row)
		}
	}
}

// TestReadmeQuickStartLine checks the quick start's sample line against the committed Cora GeoMix-I
// record, which the same preset and seed reproduce.
func TestReadmeQuickStartLine(t *testing.T) {
	rec, err := tables.ReadRecord(tables.RecordPath("../results", "table2", "cora", "geomix1"))
	if err != nil {
		t.Fatal(err)
	}
	want := fmt.Sprintf("cora geomix1 (backbone gcn): Test: %.2f ± %.2f%% over %d run(s), Val: %.2f%%,",
		rec.TestAccMean, rec.TestAccStd, rec.Runs, rec.ValAccMean)
	if !strings.Contains(readText(t, readmePath), want) {
		t.Errorf("README.md's quick start lacks the line of results/table2/cora-geomix1.json:\n%s", want)
	}
}

// TestReadmeGoSnippet: the README's Go program is geomix's Example_cora, which go test compiles.
func TestReadmeGoSnippet(t *testing.T) {
	body := func(text, open string) string {
		i := strings.Index(text, open)
		if i < 0 {
			t.Fatalf("no %q", open)
		}
		rest := text[i+len(open):]
		end := strings.Index(rest, "\n}\n")
		if end < 0 {
			t.Fatalf("no end of %q", open)
		}
		return rest[:end]
	}
	readme := body(readText(t, readmePath), "func main() {")
	example := body(readText(t, "../geomix/example_readme_test.go"), "func Example_cora() {")
	if readme != example {
		t.Errorf("README.md's main and geomix/example_readme_test.go's Example_cora differ:\nREADME:%s\nexample:%s", readme, example)
	}
}

// mdLink matches the target of a Markdown link.
var mdLink = regexp.MustCompile(`\]\(([^)#\s]+)(#[^)]*)?\)`)

// TestDocLinksResolve: every relative link of README.md and docs/*.md names a file of the repository.
func TestDocLinksResolve(t *testing.T) {
	docs, err := filepath.Glob("../docs/*.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, path := range append([]string{readmePath}, docs...) {
		for _, m := range mdLink.FindAllStringSubmatch(readText(t, path), -1) {
			if strings.Contains(m[1], "://") {
				continue
			}
			if _, err := os.Stat(filepath.Join(filepath.Dir(path), m[1])); err != nil {
				t.Errorf("%s links to %s: %v", path, m[1], err)
			}
		}
	}
}
