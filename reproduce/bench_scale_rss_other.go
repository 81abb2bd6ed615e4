//go:build !linux

package main

import "os"

// peakRSSMiB is 0: the peak resident memory is read on Linux only.
func peakRSSMiB(*os.ProcessState) float64 { return 0 }

// watchRSS does not watch: resident memory is read on Linux only.
func watchRSS(*os.Process, float64) func() float64 { return func() float64 { return 0 } }
