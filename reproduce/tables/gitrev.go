package tables

import (
	"os/exec"
	"strings"
)

// GitRevision returns the short commit of the git work tree holding dir ("git rev-parse --short
// HEAD"), with "-dirty" appended when the tree has uncommitted changes or untracked files (or its
// status cannot be read), and
// "unknown" when git or the repository is not available.
func GitRevision(dir string) string {
	out, err := exec.Command("git", "-C", dir, "rev-parse", "--short", "HEAD").Output()
	if err != nil {
		return "unknown"
	}
	rev := strings.TrimSpace(string(out))
	if rev == "" {
		return "unknown"
	}
	status, err := exec.Command("git", "-C", dir, "status", "--porcelain").Output()
	if err != nil || len(strings.TrimSpace(string(status))) > 0 {
		rev += "-dirty"
	}
	return rev
}
