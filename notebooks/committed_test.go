package notebooks_test

import (
	"encoding/base64"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// The size budget of a committed notebook (scripts/notebooks.sh --commit): charts are images
// (notebooks/freeze), PNG of 25-100 KB for bars, lines and heatmaps, JPEG of about 55-65 KB for a
// t-SNE scatter of a few thousand points, instead of about 1 MB of inlined ECharts per chart.
const (
	notebookBudget = 1 << 20   // bytes per notebook file
	imageBudget    = 150 << 10 // bytes per decoded image
)

// machinePath matches an absolute path of a build machine in an output (temporary folders, home and
// work directories), which a committed notebook must not show. The reports' folded provenance
// (<details>) quotes the commands of the committed records verbatim and is not checked.
var (
	machinePath = regexp.MustCompile(`(^|[\s"'(=:])/(tmp|home|root|work|Users|private)/`)
	provenance  = regexp.MustCompile(`(?s)<details>.*?</details>`)
)

// TestCommittedNotebooksHaveOutputs checks every notebook under notebooks/ as committed: executed in
// order by a full run (no quick results), its charts as images within the size budget, a quiet setup
// cell, no error output, no inlined ECharts and no machine paths.
func TestCommittedNotebooksHaveOutputs(t *testing.T) {
	paths, err := filepath.Glob("*.ipynb")
	if err != nil || len(paths) == 0 {
		t.Fatalf("no notebooks in notebooks/ (%v)", err)
	}
	for _, path := range paths {
		t.Run(path, func(t *testing.T) {
			info, err := os.Stat(path)
			if err != nil {
				t.Fatal(err)
			}
			if info.Size() > notebookBudget {
				t.Errorf("%d bytes, over the budget of %d", info.Size(), notebookBudget)
			}
			var nb struct {
				Cells []struct {
					CellType       string    `json:"cell_type"`
					Source         multiline `json:"source"`
					ExecutionCount *int      `json:"execution_count"`
					Outputs        []struct {
						OutputType string               `json:"output_type"`
						Name       string               `json:"name"`
						Text       multiline            `json:"text"`
						Data       map[string]multiline `json:"data"`
						EName      string               `json:"ename"`
					} `json:"outputs"`
				} `json:"cells"`
			}
			b, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if err := json.Unmarshal(b, &nb); err != nil {
				t.Fatal(err)
			}
			stdout, images, code, last := 0, 0, 0, 0
			for i, c := range nb.Cells {
				if c.CellType != "code" {
					continue
				}
				code++
				if c.ExecutionCount == nil || *c.ExecutionCount <= last {
					t.Errorf("cell %d: execution count %v after %d: not executed in order by one run (scripts/notebooks.sh --commit)", i, c.ExecutionCount, last)
				} else {
					last = *c.ExecutionCount
				}
				if strings.Contains(string(c.Source), "go work init") && len(c.Outputs) > 0 {
					t.Errorf("cell %d: the setup cell printed %d output(s): it should log to setup.log and print it only on failure", i, len(c.Outputs))
				}
				for _, o := range c.Outputs {
					all := string(o.Text)
					for _, v := range o.Data {
						all += string(v)
					}
					switch {
					case o.OutputType == "error":
						t.Errorf("cell %d: error output %s", i, o.EName)
					case o.OutputType == "stream" && o.Name == "stdout":
						stdout++
					}
					for mime, magic := range map[string]string{"image/png": "\x89PNG", "image/jpeg": "\xff\xd8\xff"} {
						img, ok := o.Data[mime]
						if !ok {
							continue
						}
						images++
						if raw, err := base64.StdEncoding.DecodeString(strings.TrimSpace(string(img))); err != nil {
							t.Errorf("cell %d: %s is not base64: %v", i, mime, err)
						} else if len(raw) > imageBudget || !strings.HasPrefix(string(raw), magic) {
							t.Errorf("cell %d: %s of %d bytes (magic ok: %v), want one within %d", i, mime, len(raw), strings.HasPrefix(string(raw), magic), imageBudget)
						}
					}
					if strings.Contains(all, "echarts.init") {
						t.Errorf("cell %d: an interactive chart with inlined ECharts: commit with scripts/notebooks.sh --commit", i)
					}
					if strings.Contains(all, "NOT the paper's protocol") || strings.Contains(all, "quick=true") {
						t.Errorf("cell %d: quick results: commit the outputs of a full run (without GEOMIX_QUICK)", i)
					}
					if m := machinePath.FindString(provenance.ReplaceAllString(all, "")); m != "" {
						t.Errorf("cell %d: a machine path (%q) in an output", i, m)
					}
				}
			}
			if stdout == 0 || images == 0 {
				t.Errorf("%d printed outputs and %d chart images in %d code cells: run scripts/notebooks.sh --commit", stdout, images, code)
			}
			t.Logf("%d bytes, %d code cells, %d printed outputs, %d chart images", info.Size(), code, stdout, images)
		})
	}
}
