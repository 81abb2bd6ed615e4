package main

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/geomix-go/geomix/internal/scalebench"
	"github.com/geomix-go/geomix/reproduce/tables"
	"github.com/geomix-go/geomix/viz"
)

// writeMarkdown writes the report's tables: per size the edges, every method's ms/epoch and peak
// resident memory, then the fitted exponents.
func (r *scaleReport) writeMarkdown(w io.Writer) error {
	ms := r.methods()
	names := make([]string, len(ms))
	for i, m := range ms {
		names[i] = tables.MethodNames[m]
	}
	var b strings.Builder
	fmt.Fprintf(&b, "# Epoch time and memory against graph size\n\n")
	fmt.Fprintf(&b, "Synthetic graphs of the GeoMix paper's assumptions (`datasets.SyntheticScale`): mean degree %d, %d dense features, "+
		"%d classes, homophily %g; full-batch training with the %s presets (hidden %d, %d layers). "+
		"ms/epoch is the median of the timed epochs (evaluation, then update) after a warm-up epoch, in brackets the "+
		"process's CPU time per epoch (all threads; less sensitive to other jobs on the machine); peak RSS is the whole "+
		"process's (generation included), each (size, method) in a process of its own. Made by `go run ./reproduce bench --scale`; "+
		"the log-log chart with the fits is scale.html beside this file (not committed, like every chart: "+
		"`go run ./reproduce bench --scale --report-only` writes it from scale.json).\n\n",
		r.Degree, r.Features, r.Classes, r.Homophily, r.Presets, r.Hidden, r.Layers)
	fmt.Fprintf(&b, "| nodes | directed edges | %s | peak RSS GiB: %s |\n|---|---|%s---|\n", strings.Join(suffixAll(names, " ms/epoch"), " | "),
		strings.Join(names, ", "), strings.Repeat("---|", len(ms)))
	for _, n := range r.sizes() {
		row := []string{fmt.Sprintf("%d", n), ""}
		var rss []string
		for _, m := range ms {
			i := slices.IndexFunc(r.Points, func(p *scalePoint) bool { return p.Nodes == n && p.Method == m })
			if i < 0 {
				row, rss = append(row, "-"), append(rss, "-")
				continue
			}
			p := r.Points[i]
			row[1] = fmt.Sprintf("%d", p.Edges)
			row = append(row, formatMillis(p.MillisPerEpoch)+" ("+formatMillis(p.CPUMillisPerEpoch)+")")
			rss = append(rss, fmt.Sprintf("%.2f", p.PeakRSSMiB/1024))
		}
		fmt.Fprintf(&b, "| %s | %s |\n", strings.Join(row, " | "), strings.Join(rss, ", "))
	}
	if len(r.Fits) > 0 {
		fmt.Fprintf(&b, "\nExponent b of time per epoch ∝ edges^b, least squares on log-log axes, of the wall time (and of the CPU time):\n\n"+
			"| method | b, all points | b, from %.0e edges |\n|---|---|---|\n", fitFromEdges)
		for _, f := range r.Fits {
			large := "-"
			if f.LargePoints >= 2 {
				large = fmt.Sprintf("%.3f (%.3f), %d points", f.ExponentFrom, f.CPUExponentFrom, f.LargePoints)
			}
			fmt.Fprintf(&b, "| %s | %.3f (%.3f), %d points | %s |\n", tables.MethodNames[f.Method], f.Exponent, f.CPUExponent, f.Points, large)
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// suffixAll returns every s with suffix appended.
func suffixAll(ss []string, suffix string) []string {
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = s + suffix
	}
	return out
}

// formatMillis writes ms with three significant digits.
func formatMillis(ms float64) string {
	if ms >= 100 {
		return fmt.Sprintf("%.0f", ms)
	}
	return fmt.Sprintf("%.3g", ms)
}

// sizes lists the report's graph sizes, ascending.
func (r *scaleReport) sizes() []int {
	var out []int
	for _, p := range r.Points {
		out = append(out, p.Nodes)
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// chart draws ms/epoch against directed edges on log-log axes, a line per method with its fit
// dashed; nil before any method has two sizes.
func (r *scaleReport) chart() (*viz.Chart, error) {
	if len(r.Fits) == 0 {
		return nil, nil
	}
	var series []viz.XYSeries
	for i, f := range r.Fits {
		color := viz.Palette[i%len(viz.Palette)]
		s := viz.XYSeries{Name: fmt.Sprintf("%s (b = %.2f)", tables.MethodNames[f.Method], f.Exponent), Color: color}
		for _, p := range r.Points {
			if p.Method == f.Method {
				s.X, s.Y = append(s.X, float64(p.Edges)), append(s.Y, p.MillisPerEpoch)
			}
		}
		fit := viz.XYSeries{Name: tables.MethodNames[f.Method] + " fit", Dashed: true, Color: color,
			X: []float64{s.X[0], s.X[len(s.X)-1]}}
		for _, x := range fit.X {
			fit.Y = append(fit.Y, scalebench.Power(f.Prefactor, f.Exponent, x))
		}
		series = append(series, s, fit)
	}
	return viz.LogLog{ID: "bench_scale", Title: "Epoch time against graph size",
		Subtitle: fmt.Sprintf("synthetic graphs, mean degree %d, %d features; wall time, median of the timed epochs; dashed: least-squares fits t ∝ edges^b", r.Degree, r.Features),
		XName:    "directed edges", YName: "ms per epoch", Series: series}.Chart()
}
