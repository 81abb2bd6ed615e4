package tables

import (
	"os/exec"
	"path/filepath"
	"strings"
)

// GitRevision returns the short commit of the git work tree holding dir ("git rev-parse --short
// HEAD"), with "-dirty" appended when the tree has uncommitted changes or untracked files outside
// the ignored paths (absolute, or relative to dir; a sweep's own output directory; one outside dir
// cannot make it dirty), or its status cannot be read, and "unknown" when git or the repository is
// not available.
func GitRevision(dir string, ignored ...string) string {
	out, err := exec.Command("git", "-C", dir, "rev-parse", "--short", "HEAD").Output()
	if err != nil {
		return "unknown"
	}
	rev := strings.TrimSpace(string(out))
	if rev == "" {
		return "unknown"
	}
	args := []string{"-C", dir, "status", "--porcelain", "--", "."}
	for _, p := range ignored {
		if rel, ok := within(dir, p); ok {
			args = append(args, ":(exclude)"+rel)
		}
	}
	status, err := exec.Command("git", args...).Output()
	if err != nil || len(strings.TrimSpace(string(status))) > 0 {
		rev += "-dirty"
	}
	return rev
}

// within returns path p relative to dir and whether it lies inside dir; p is absolute or relative
// to dir.
func within(dir, p string) (string, bool) {
	if !filepath.IsAbs(p) {
		p = filepath.Join(dir, p)
	}
	absDir, errDir := filepath.Abs(dir)
	absP, errP := filepath.Abs(p)
	if errDir != nil || errP != nil {
		return "", false
	}
	rel, err := filepath.Rel(absDir, absP)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return "", false
	}
	return rel, true
}
