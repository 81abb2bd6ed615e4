package torchbench

import (
	"bufio"
	"os"
	"strings"
)

// CPUModel is the first "model name" of /proc/cpuinfo, or "unknown" where there is none.
func CPUModel() string {
	f, err := os.Open("/proc/cpuinfo")
	if err != nil {
		return "unknown"
	}
	defer f.Close()
	s := bufio.NewScanner(f)
	for s.Scan() {
		if key, value, ok := strings.Cut(s.Text(), ":"); ok && strings.TrimSpace(key) == "model name" {
			return strings.TrimSpace(value)
		}
	}
	return "unknown"
}

// LoadAverage is the 1, 5 and 15 minute load averages of /proc/loadavg ("1.52 1.20 0.98"), or
// "unknown" where there is none.
func LoadAverage() string {
	data, err := os.ReadFile("/proc/loadavg")
	if f := strings.Fields(string(data)); err == nil && len(f) >= 3 {
		return strings.Join(f[:3], " ")
	}
	return "unknown"
}
