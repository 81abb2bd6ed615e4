package tables

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestGitRevision checks "unknown" outside a repository and the short-hash form inside this one.
func TestGitRevision(t *testing.T) {
	if got := GitRevision(t.TempDir()); got != "unknown" {
		t.Errorf("GitRevision(temp dir) = %q, want unknown", got)
	}
	got := GitRevision(".")
	if got == "unknown" {
		t.Skip("git or the repository is not available")
	}
	hash := strings.TrimSuffix(got, "-dirty")
	if len(hash) < 7 || strings.Trim(hash, "0123456789abcdef") != "" {
		t.Errorf("GitRevision(.) = %q, want a short hash with optional -dirty", got)
	}
}

// TestGitRevisionIgnoresOutput: files under an ignored path (a sweep's output, relative or
// absolute) do not make the tree dirty, nor does an output directory outside the tree; any other
// change does.
func TestGitRevisionIgnoresOutput(t *testing.T) {
	dir := t.TempDir()
	git := func(args ...string) {
		cmd := exec.Command("git", append([]string{"-C", dir, "-c", "user.name=t", "-c", "user.email=t@t", "-c", "commit.gpgsign=false"}, args...)...)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Skipf("git %v: %v: %s", args, err, out)
		}
	}
	git("init", "-q")
	write := func(name string) {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, name)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), []byte(name), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("a.go")
	git("add", ".")
	git("commit", "-q", "-m", "x")
	write("results/table2/cora-gcn.json")
	if got := GitRevision(dir, "results"); strings.HasSuffix(got, "-dirty") || got == "unknown" {
		t.Errorf("with only results/ changed, GitRevision = %q, want a clean hash", got)
	}
	if got := GitRevision(dir, filepath.Join(dir, "results")); strings.HasSuffix(got, "-dirty") || got == "unknown" {
		t.Errorf("with only results/ changed, ignored by absolute path, GitRevision = %q, want a clean hash", got)
	}
	if got := GitRevision(dir); !strings.HasSuffix(got, "-dirty") {
		t.Errorf("results/ not ignored: GitRevision = %q, want -dirty", got)
	}
	if got := GitRevision(dir, "results", t.TempDir()); strings.HasSuffix(got, "-dirty") || got == "unknown" {
		t.Errorf("with an output directory outside the tree, GitRevision = %q, want a clean hash", got)
	}
	write("b.go")
	if got := GitRevision(dir, "results"); !strings.HasSuffix(got, "-dirty") {
		t.Errorf("with b.go untracked, GitRevision = %q, want -dirty", got)
	}
}
