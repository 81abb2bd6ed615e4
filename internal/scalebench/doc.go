// Package scalebench measures how training scales with the graph: one point (RunPoint) generates a
// synthetic graph of the GeoMix paper's assumptions (datasets.SyntheticScale) and times full-batch
// training epochs of one method on it; Fit is the least-squares exponent of epoch time against
// edges on log-log axes. `reproduce bench --scale` runs every point in a fresh child process, so
// that each point's peak resident memory is its own.
package scalebench
