package tables

import (
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"slices"
	"strings"

	"github.com/geomix-go/geomix/internal/stats"
)

// PileupReport is a PileupSweep's stored points: one panel per shift.
type PileupReport struct {
	// Figure is FigurePileup.
	Figure string `json:"figure"`
	Provenance
	// Methods are every panel's methods, in sweep order (ERM, GCN, first when present).
	Methods []string      `json:"methods"`
	Panels  []PileupPanel `json:"panels"`
	// Simulated and Real count the stored points whose events come from the simulator and from the
	// Zenodo files.
	Simulated int `json:"simulated_points"`
	Real      int `json:"real_points"`
}

// PileupPanel is one shift: each method's point and the majority-class baseline of its test set.
type PileupPanel struct {
	// Shift is the shift's name (pileup.Shifts).
	Shift string `json:"shift"`
	// Points[i] is Methods[i]'s point, nil where none is stored.
	Points []*PileupPoint `json:"points"`
	// Majority is the accuracy of predicting the majority class for every test neutral, in percent
	// (nil when no point is stored).
	Majority *float64 `json:"majority"`
	pointTally
}

// PileupPoint is one method on one shift, over its runs: accuracy over all test neutrals and
// balanced accuracy in percent, ROC AUC in [0, 1], each mean ± unbiased std.
type PileupPoint struct {
	Acc         Stat `json:"acc"`
	BalancedAcc Stat `json:"balanced_acc"`
	AUC         Stat `json:"auc"`
	Runs        int  `json:"runs"`
	Simulated   bool `json:"simulated"`
}

// pileupPoint summarises a record's PileupCell.
func pileupPoint(rec *Record) (*PileupPoint, error) {
	pc := rec.Pileup
	if pc == nil || len(pc.Runs) != rec.Runs {
		return nil, fmt.Errorf("%s record of %s/%s holds metrics of %d runs, want %d", FigurePileup, rec.Dataset, rec.Method, pileupRuns(pc), rec.Runs)
	}
	var acc, bal, auc []float64
	for _, r := range pc.Runs {
		acc, bal, auc = append(acc, r.Acc), append(bal, r.BalancedAcc), append(auc, r.AUC)
	}
	stat := func(x []float64) Stat { m, s := stats.MeanStd(x); return Stat{Mean: m, Std: s} }
	return &PileupPoint{Acc: stat(acc), BalancedAcc: stat(bal), AUC: stat(auc), Runs: rec.Runs, Simulated: pc.Simulated}, nil
}

// LoadPileup reads sweep's stored points under dir (a missing point is nil; an unreadable record
// is an error naming it).
func LoadPileup(dir string, sweep PileupSweep) (*PileupReport, error) {
	if err := sweep.Check(); err != nil {
		return nil, err
	}
	r := &PileupReport{Figure: FigurePileup, Provenance: newProvenance(), Methods: sweep.Methods}
	for _, sh := range sweep.Shifts {
		p := PileupPanel{Shift: sh, Points: make([]*PileupPoint, len(sweep.Methods))}
		for i, m := range sweep.Methods {
			rec, err := readPoint(PileupRecordPath(dir, sh, m), FigurePileup, Cell{Dataset: PileupPrefix + sh, Method: m})
			if errors.Is(err, os.ErrNotExist) {
				continue
			} else if err != nil {
				return nil, err
			}
			if p.Points[i], err = pileupPoint(rec); err != nil {
				return nil, err
			}
			majority := rec.Pileup.MajorityAcc
			p.Majority = &majority
			p.Runs = max(p.Runs, rec.Runs)
			p.TrainSeconds += rec.SecondsTotal
			r.Provenance.add(rec.Quick, rec.Command, rec.GitRevision)
			if rec.Pileup.Simulated {
				r.Simulated++
			} else {
				r.Real++
			}
		}
		r.Panels = append(r.Panels, p)
	}
	return r, nil
}

// WritePileupReport renders OutDir/figure-pileup.md (atomically) from sweep's stored points without
// training anything, and returns the report and its path.
func WritePileupReport(sweep PileupSweep, opts Options) (*PileupReport, string, error) {
	opts = opts.withOutDir()
	report, err := LoadPileup(opts.OutDir, sweep)
	if err != nil {
		return nil, "", err
	}
	report.Command = opts.Command
	path, err := writeFigureReport(opts, FigurePileup, report.Markdown())
	return report, path, err
}

// point returns method's point on panel p (nil when not stored or not swept).
func (r *PileupReport) point(p PileupPanel, method string) *PileupPoint {
	if i := slices.Index(r.Methods, method); i >= 0 {
		return p.Points[i]
	}
	return nil
}

// PileupGeoMix are the GeoMix variants the Pileup claims are about.
var PileupGeoMix = []string{"geomix1", "geomix2", "geomix3"}

// PileupProcessShifts are the two process shifts, where the paper reports its largest gains.
var PileupProcessShifts = []string{"pu30-gg-qq", "pu30-qq-gg"}

// AboveERM counts the (shift, GeoMix variant) pairs with both the variant and GCN stored, and those
// where the variant's mean accuracy (balanced accuracy with balanced) is above GCN's.
func (r *PileupReport) AboveERM(balanced bool) (compared, above int) {
	for _, p := range r.Panels {
		erm := r.point(p, "gcn")
		for _, m := range PileupGeoMix {
			if v := r.point(p, m); v != nil && erm != nil {
				compared++
				if v.metric(balanced) > erm.metric(balanced) {
					above++
				}
			}
		}
	}
	return compared, above
}

// metric is the mean accuracy, or the mean balanced accuracy.
func (p *PileupPoint) metric(balanced bool) float64 {
	if balanced {
		return p.BalancedAcc.Mean
	}
	return p.Acc.Mean
}

// RelativeGain is the largest relative improvement in accuracy of a GeoMix variant over GCN on
// panel p, in percent ((best − GCN) / GCN · 100; the paper's "relative improvements as high as
// 7.22% and 11.14%"), with ok false when GCN or every variant is missing.
func (r *PileupReport) RelativeGain(p PileupPanel) (gain float64, ok bool) {
	erm := r.point(p, "gcn")
	gain = math.Inf(-1)
	for _, m := range PileupGeoMix {
		if v := r.point(p, m); v != nil && erm != nil {
			gain, ok = max(gain, 100*(v.Acc.Mean-erm.Acc.Mean)/erm.Acc.Mean), true
		}
	}
	return gain, ok
}

// LargestGainShifts returns the shifts with a relative gain, sorted by it, largest first.
func (r *PileupReport) LargestGainShifts() []string {
	type sg struct {
		shift string
		gain  float64
	}
	var list []sg
	for _, p := range r.Panels {
		if g, ok := r.RelativeGain(p); ok {
			list = append(list, sg{p.Shift, g})
		}
	}
	slices.SortStableFunc(list, func(a, b sg) int { return -compareFloat(a.gain, b.gain) })
	out := make([]string, len(list))
	for i, x := range list {
		out[i] = x.shift
	}
	return out
}

// compareFloat orders a and b.
func compareFloat(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// AboveCompetitors counts the shifts where the best GeoMix variant and the best of DANN, Mixup and
// GraphMix are stored, and those where GeoMix's accuracy is above.
func (r *PileupReport) AboveCompetitors() (compared, above int) {
	for _, p := range r.Panels {
		best := func(methods []string) (float64, bool) {
			v, ok := math.Inf(-1), false
			for _, m := range methods {
				if pt := r.point(p, m); pt != nil {
					v, ok = max(v, pt.Acc.Mean), true
				}
			}
			return v, ok
		}
		geo, okG := best(PileupGeoMix)
		other, okO := best([]string{"dann", "mixup", "graphmix"})
		if okG && okO {
			compared++
			if geo > other {
				above++
			}
		}
	}
	return compared, above
}

// PileupShiftNames are the shifts' printed names, as the paper's figure labels them.
var PileupShiftNames = map[string]string{
	"gg-pu10-pu30": "PU10→PU30", "gg-pu30-pu10": "PU30→PU10", "gg-pu30-pu50": "PU30→PU50",
	"gg-pu50-pu30": "PU50→PU30", "pu30-gg-qq": "gg→qq", "pu30-qq-gg": "qq→gg",
}

// Bars returns the accuracies as bar-chart data: one category per shift, one series per method
// (mean ± std, no error bar for a single run, NaN where no point is stored) and one for the
// majority-class baseline.
func (r *PileupReport) Bars() (categories []string, series []BarValues) {
	for _, m := range r.Methods {
		series = append(series, BarValues{Name: MethodNames[m]})
	}
	series = append(series, BarValues{Name: "majority class"})
	for _, p := range r.Panels {
		categories = append(categories, PileupShiftNames[p.Shift])
		for i, pt := range p.Points {
			v, e := math.NaN(), math.NaN()
			if pt != nil {
				v = pt.Acc.Mean
				if pt.Runs > 1 {
					e = pt.Acc.Std
				}
			}
			series[i].Values, series[i].Errors = append(series[i].Values, v), append(series[i].Errors, e)
		}
		maj := &series[len(series)-1]
		v := math.NaN()
		if p.Majority != nil {
			v = *p.Majority
		}
		maj.Values, maj.Errors = append(maj.Values, v), append(maj.Errors, math.NaN())
	}
	return categories, series
}

// Markdown renders the report: the table (methods × shifts: accuracy mean ± std, balanced
// accuracy, AUC; the majority-class row), the paper's claims counted, where the events came from,
// the notes (Notes(FigurePileup)) and a folded provenance block.
func (r *PileupReport) Markdown() string {
	var b strings.Builder
	b.WriteString("# Figure: Pileup Mitigation OOD generalization\n\nEach method trains on a shift's source events and is tested on the neutral particles of its target events. " +
		"Each cell: accuracy over all test neutrals in percent (mean ± std over runs; the reference's metric) · balanced accuracy in percent · ROC AUC of P(LV). " +
		r.originSentence() + "\n")
	r.Provenance.writeQuickWarning(&b)
	b.WriteString("\n| Method |")
	for _, p := range r.Panels {
		fmt.Fprintf(&b, " %s |", PileupShiftNames[p.Shift])
	}
	b.WriteString("\n|---|" + strings.Repeat("---|", len(r.Panels)) + "\n")
	for i, m := range r.Methods {
		fmt.Fprintf(&b, "| %s |", MethodNames[m])
		for _, p := range r.Panels {
			cell := "not run"
			if pt := p.Points[i]; pt != nil {
				cell = fmt.Sprintf("%.2f ± %.2f · %.1f · %.3f", pt.Acc.Mean, pt.Acc.Std, pt.BalancedAcc.Mean, pt.AUC.Mean)
			}
			b.WriteString(" " + cell + " |")
		}
		b.WriteString("\n")
	}
	b.WriteString("| majority class |")
	for _, p := range r.Panels {
		cell := "not run"
		if p.Majority != nil {
			cell = fmt.Sprintf("%.2f · 50.0 · 0.500", *p.Majority)
		}
		b.WriteString(" " + cell + " |")
	}
	b.WriteString("\n| Time |")
	for _, p := range r.Panels {
		cell := "—"
		if p.Runs > 0 {
			cell = Duration(p.TrainSeconds)
		}
		b.WriteString(" " + cell + " |")
	}
	b.WriteString("\n")
	r.writeClaims(&b)
	r.Provenance.writeFigureFooter(&b, FigurePileup)
	return b.String()
}

// originSentence says where the stored points' events come from.
func (r *PileupReport) originSentence() string {
	switch {
	case r.Simulated > 0 && r.Real == 0:
		return "**The numbers come from this toolkit's calibrated event simulator, not the Zenodo Delphes files** (which are not reachable offline)."
	case r.Simulated > 0:
		return fmt.Sprintf("%d points come from the simulator and %d from the Zenodo Delphes files; each record says which.", r.Simulated, r.Real)
	case r.Real > 0:
		return "The events come from the Zenodo Delphes files."
	}
	return "No point is stored yet."
}

// writeClaims counts the paper's sentences on the stored points.
func (r *PileupReport) writeClaims(b *strings.Builder) {
	holds := func(ok bool) string {
		if ok {
			return "**holds**"
		}
		return "**does not hold**"
	}
	b.WriteString("\n## The paper's claims\n\n")
	compared, above := r.AboveERM(false)
	_, aboveBal := r.AboveERM(true)
	fmt.Fprintf(b, "- \"GeoMix-I, GeoMix-II and GeoMix-III all significantly enhance the testing accuracy of the underlying GCN across all tasks\": %s: "+
		"a variant's mean accuracy is above GCN's in %d of %d (shift, variant) pairs (in balanced accuracy: %d of %d).\n",
		holds(compared > 0 && above == compared), above, compared, aboveBal, compared)
	var gains []string
	for _, p := range r.Panels {
		if g, ok := r.RelativeGain(p); ok {
			gains = append(gains, fmt.Sprintf("%s %+.2f%%", PileupShiftNames[p.Shift], g))
		}
	}
	order := r.LargestGainShifts()
	verdict := "**not judged** (it needs both process shifts and another)"
	if len(order) > 2 && slices.Contains(order, PileupProcessShifts[0]) && slices.Contains(order, PileupProcessShifts[1]) {
		verdict = holds(slices.Contains(order[:2], PileupProcessShifts[0]) && slices.Contains(order[:2], PileupProcessShifts[1]))
	}
	fmt.Fprintf(b, "- \"the most substantial improvements are observed in distribution shifts caused by different physical processes ... relative improvements as high as 7.22%% and 11.14%% over ERM\" (gg→qq, qq→gg): %s: "+
		"the best variant's relative gain in accuracy over GCN per shift is %s.\n", verdict, strings.Join(gains, ", "))
	compared, above = r.AboveCompetitors()
	fmt.Fprintf(b, "- \"Geometric Mixup consistently outperforms other advanced competitors throughout all scenarios\": %s: "+
		"the best GeoMix variant's accuracy is above the best of DANN, Mixup and GraphMix on %d of %d shifts.\n", holds(compared > 0 && above == compared), above, compared)
	beat, total := r.aboveMajority()
	fmt.Fprintf(b, "- Beside the claims: %d of %d points have a mean accuracy above the majority-class baseline of their shift (predicting \"pileup\" for every neutral).\n", beat, total)
}

// aboveMajority counts the stored points and those whose mean accuracy is above their shift's
// majority-class accuracy.
func (r *PileupReport) aboveMajority() (above, total int) {
	for _, p := range r.Panels {
		for _, pt := range p.Points {
			if pt != nil && p.Majority != nil {
				total++
				if pt.Acc.Mean > *p.Majority {
					above++
				}
			}
		}
	}
	return above, total
}

// WritePanels writes one line per stored point in key=value form (what notebooks print and their
// tests parse), accuracies in percent:
//
//	pileup gg-pu10-pu30 geomix1: acc=81.20 std=0.40 bal=66.10 auc=0.731 majority=79.02 runs=5 quick=false simulated=true
func (r *PileupReport) WritePanels(w io.Writer) error {
	for _, p := range r.Panels {
		for i, pt := range p.Points {
			if pt == nil {
				continue
			}
			if _, err := fmt.Fprintf(w, "pileup %s %s: acc=%.2f std=%.2f bal=%.2f auc=%.3f majority=%.2f runs=%d quick=%v simulated=%v\n",
				p.Shift, r.Methods[i], pt.Acc.Mean, pt.Acc.Std, pt.BalancedAcc.Mean, pt.AUC.Mean, *p.Majority, pt.Runs, r.Quick, pt.Simulated); err != nil {
				return err
			}
		}
	}
	return nil
}
