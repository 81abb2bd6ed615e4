//go:build !unix

package torchbench

import "os"

// PeakRSSMiB is the largest resident set of a finished child process in MiB: 0, as this system's
// process accounting has no maxrss.
func PeakRSSMiB(*os.ProcessState) float64 { return 0 }
