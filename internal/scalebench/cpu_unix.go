//go:build unix

package scalebench

import "syscall"

// processCPUMillis is the process's user and system CPU time so far, in ms.
func processCPUMillis() float64 {
	var u syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &u); err != nil {
		return 0
	}
	return float64(u.Utime.Nano()+u.Stime.Nano()) / 1e6
}
