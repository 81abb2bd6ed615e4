//go:build !unix

package scalebench

// processCPUMillis is 0: the CPU time is read on Unix only.
func processCPUMillis() float64 { return 0 }
