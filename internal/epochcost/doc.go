// Package epochcost measures what a training epoch costs, for `reproduce bench` and the Go
// benchmarks: wall time per epoch side by side with GCN's (TimeEpochsPresets), peak heap, and one
// op at a time the work, the longest chain of ops and the bound on P cores (ProfileEpochsPresets).
package epochcost
