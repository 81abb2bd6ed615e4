//go:build unix

package torchbench

import (
	"os"
	"runtime"
	"syscall"
)

// PeakRSSMiB is the largest resident set of a finished child process in MiB (getrusage's maxrss),
// 0 where the system does not say.
func PeakRSSMiB(state *os.ProcessState) float64 {
	usage, ok := state.SysUsage().(*syscall.Rusage)
	if !ok {
		return 0
	}
	if runtime.GOOS == "darwin" { // bytes there, KiB on Linux and the BSDs
		return float64(usage.Maxrss) / (1 << 20)
	}
	return float64(usage.Maxrss) / (1 << 10)
}
