package epochcost

import (
	"runtime/metrics"
	"time"
)

// SamplePeakHeap samples the Go heap every millisecond until the returned function is called,
// which returns the largest live-and-unswept heap object bytes seen.
func SamplePeakHeap() func() uint64 {
	done := make(chan struct{})
	result := make(chan uint64)
	go func() {
		var peak uint64
		sample := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}} // no stop-the-world
		ticker := time.NewTicker(time.Millisecond)
		defer ticker.Stop()
		for {
			metrics.Read(sample)
			peak = max(peak, sample[0].Value.Uint64())
			select {
			case <-done:
				result <- peak
				return
			case <-ticker.C:
			}
		}
	}()
	return func() uint64 {
		close(done)
		return <-result
	}
}
