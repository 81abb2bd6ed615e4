package tables

import (
	"os/exec"
	"strings"
)

// GitRevision returns the short commit of the git work tree holding dir ("git rev-parse --short
// HEAD"), with "-dirty" appended when the tree has uncommitted changes or untracked files outside
// the ignored paths (relative to dir; a sweep's own output directory), or its status cannot be read,
// and "unknown" when git or the repository is not available.
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
		args = append(args, ":(exclude)"+p)
	}
	status, err := exec.Command("git", args...).Output()
	if err != nil || len(strings.TrimSpace(string(status))) > 0 {
		rev += "-dirty"
	}
	return rev
}
