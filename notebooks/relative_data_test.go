package notebooks_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/geomix-go/geomix/datasets"
)

// TestNotebookRelativeDataRoot runs 00-quickstart (quick) with scripts/notebooks.sh started in another
// folder and $GEOMIX_DATA written relative to that folder, as a user would type it, and checks that
// the notebook, whose kernel runs its cells elsewhere, loaded Cora and did not fall back to the
// synthetic data set.
func TestNotebookRelativeDataRoot(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: runs a notebook (about half a minute)")
	}
	if os.Getenv(datasets.EnvData) == "" {
		t.Skipf("$%s is not set: no Cora to load", datasets.EnvData)
	}
	if err := exec.Command("/usr/bin/jupyter", "nbconvert", "--version").Run(); err != nil && os.Getenv("JUPYTER") == "" {
		t.Skip("no Debian jupyter nbconvert (apt-get install -y jupyter-nbconvert python3-nbclient jupyter-client python3-ipykernel)")
	}
	data := datasets.DefaultRoot() // $GEOMIX_DATA, a relative one from the module root
	if _, err := os.Stat(filepath.Join(data, "planetoid", "ind.cora.x")); err != nil {
		t.Skipf("no Cora under %s: %v", data, err)
	}
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	// A folder two levels under the repository: the relative path from it is wrong from the
	// repository root and from the kernel's folder, so only resolving it where the command started
	// finds Cora (a path up to / and down again would be right from anywhere).
	if err := os.MkdirAll(filepath.Join(root, "build"), 0o755); err != nil {
		t.Fatal(err)
	}
	start, err := os.MkdirTemp(filepath.Join(root, "build"), "relative-data-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(start) })
	out := t.TempDir()
	rel, err := filepath.Rel(start, data)
	if err != nil || filepath.IsAbs(rel) {
		t.Fatalf("no relative path from %s to %s (%v)", start, data, err)
	}
	cmd := exec.Command(filepath.Join(root, "scripts", "notebooks.sh"))
	cmd.Dir = start
	cmd.Env = append(os.Environ(), datasets.EnvData+"="+rel, "GEOMIX_QUICK=1", "GEOMIX_NB_OUT="+out,
		"NOTEBOOKS="+filepath.Join(root, "notebooks", "00-quickstart.ipynb"))
	if log, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("scripts/notebooks.sh from %s with %s=%s: %v\n%s", start, datasets.EnvData, rel, err, log)
	}
	nb := readNotebook(t, filepath.Join(out, "00-quickstart.ipynb"))
	var stdout strings.Builder
	for _, c := range nb.Cells {
		for _, o := range c.Outputs {
			if o.OutputType == "stream" && o.Name == "stdout" {
				stdout.WriteString(string(o.Text))
			}
		}
	}
	if !strings.Contains(stdout.String(), "cora: 2708 nodes") || strings.Contains(stdout.String(), "synthetic data set instead") {
		t.Errorf("with %s=%s from %s the quickstart did not load Cora:\n%s", datasets.EnvData, rel, start, stdout.String())
	}
}
