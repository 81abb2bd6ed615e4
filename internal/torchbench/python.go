package torchbench

import (
	"bytes"
	"errors"
	"fmt"
	"os/exec"
	"slices"
	"strings"
)

// InstallHint says how to get a python3 that imports torch, for the one-line message of a skipped
// comparison.
const InstallHint = "install PyTorch for CPU (Debian 12: apt-get install python3-torch; elsewhere: pip install torch) or name an interpreter with --python"

// DefaultPythons are the interpreters tried in turn when none is named: the one on PATH, then
// Debian's, which holds python3-torch when PATH leads to another (pyenv, a venv).
var DefaultPythons = []string{"python3", "/usr/bin/python3"}

// Python is an interpreter that imports torch.
type Python struct {
	// Path is the interpreter's path.
	Path string
	// TorchVersion is torch.__version__.
	TorchVersion string
	// ImportRSSMiB is the peak resident set of the interpreter importing torch and nothing else:
	// the part of a benchmark's peak that is not the data or the training.
	ImportRSSMiB float64
}

// FindPython returns the first of candidates that runs and imports torch. Its error names every
// candidate and why it failed (not found, or the import's last line of error).
func FindPython(candidates []string) (*Python, error) {
	var reasons, seen []string
	for _, c := range candidates {
		path, err := exec.LookPath(c)
		if err != nil {
			reasons = append(reasons, fmt.Sprintf("%s: not found", c))
			continue
		}
		if slices.Contains(seen, path) {
			continue
		}
		seen = append(seen, path)
		var stderr bytes.Buffer
		cmd := exec.Command(path, "-c", "import torch; print(torch.__version__)")
		cmd.Stderr = &stderr
		out, err := cmd.Output()
		if err != nil {
			reasons = append(reasons, fmt.Sprintf("%s: %s", path, lastLine(stderr.String(), err)))
			continue
		}
		return &Python{Path: path, TorchVersion: strings.TrimSpace(string(out)), ImportRSSMiB: PeakRSSMiB(cmd.ProcessState)}, nil
	}
	if len(reasons) == 0 {
		return nil, errors.New("no python3 interpreter named")
	}
	return nil, fmt.Errorf("no python3 with torch (%s)", strings.Join(reasons, "; "))
}

// lastLine is the last non-empty line of text, or err's text when there is none.
func lastLine(text string, err error) string {
	lines := strings.Split(strings.TrimSpace(text), "\n")
	if last := strings.TrimSpace(lines[len(lines)-1]); last != "" {
		return last
	}
	return err.Error()
}
