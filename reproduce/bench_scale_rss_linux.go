package main

import (
	"bufio"
	"fmt"
	"os"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
)

// peakRSSMiB is a finished process's peak resident memory in MiB (Linux reports ru_maxrss in KiB).
func peakRSSMiB(state *os.ProcessState) float64 {
	if u, ok := state.SysUsage().(*syscall.Rusage); ok {
		return float64(u.Maxrss) / 1024
	}
	return 0
}

// watchRSS samples p's resident memory every 100 ms and kills p once it passes limitGiB (no watch
// when limitGiB <= 0). The returned function, called after p has ended, stops the watch and returns
// the resident GiB at which p was killed, or 0.
func watchRSS(p *os.Process, limitGiB float64) func() float64 {
	if limitGiB <= 0 {
		return func() float64 { return 0 }
	}
	done := make(chan struct{})
	var mu sync.Mutex
	var killedAt float64
	go func() {
		tick := time.NewTicker(100 * time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-done:
				return
			case <-tick.C:
			}
			if gib := residentGiB(p.Pid); gib > limitGiB {
				mu.Lock()
				killedAt = gib
				mu.Unlock()
				_ = p.Kill()
				return
			}
		}
	}()
	return func() float64 {
		close(done)
		mu.Lock()
		defer mu.Unlock()
		return killedAt
	}
}

// residentGiB reads VmRSS of process pid from /proc (0 when it cannot).
func residentGiB(pid int) float64 {
	f, err := os.Open(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if rest, ok := strings.CutPrefix(sc.Text(), "VmRSS:"); ok {
			kib, _ := strconv.ParseFloat(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 64)
			return kib / (1 << 20)
		}
	}
	return 0
}
