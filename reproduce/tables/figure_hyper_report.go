package tables

import (
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/geomix-go/geomix/geomix"
	"github.com/geomix-go/geomix/geomix/methods"
)

// GridReport is a Grid's stored points: one panel per (data set, method).
type GridReport struct {
	// Figure is FigureHyper.
	Figure string `json:"figure"`
	Provenance
	Panels []GridPanel `json:"panels"`
}

// GridPanel is the test accuracy of one method on one data set at every (K, α) of a Grid.
type GridPanel struct {
	// Dataset and Method are the panel's data set and GeoMix variant; Alphas and Hops the grid's axes.
	Dataset string    `json:"dataset"`
	Method  string    `json:"method"`
	Alphas  []float64 `json:"alphas"`
	Hops    []int     `json:"hops"`
	// Acc is [len(Hops)][len(Alphas)]: mean ± std over runs in percent, nil where no point is stored.
	Acc [][]*Stat `json:"acc"`
	pointTally
	// PresetAlpha and PresetHops are the point of the authors' script row.
	PresetAlpha float64 `json:"preset_alpha"`
	PresetHops  int     `json:"preset_hops"`
}

// LoadGrid reads grid's stored points under dir (a missing point is a nil Acc entry; an unreadable
// record is an error naming it).
func LoadGrid(dir string, grid Grid) (*GridReport, error) {
	if err := grid.Check(); err != nil {
		return nil, err
	}
	r := &GridReport{Figure: FigureHyper, Provenance: newProvenance()}
	for _, d := range grid.Datasets {
		for _, m := range grid.Methods {
			preset, err := geomix.PresetFor(d, m)
			if err != nil {
				return nil, err
			}
			p := GridPanel{Dataset: d, Method: m, Alphas: grid.Alphas, Hops: grid.Hops, Acc: make([][]*Stat, len(grid.Hops))}
			p.PresetAlpha, _ = preset.Params[methods.ParamAlpha].(float64)
			p.PresetHops, _ = preset.Params[methods.ParamHops].(int)
			for i, k := range grid.Hops {
				p.Acc[i] = make([]*Stat, len(grid.Alphas))
				for j, a := range grid.Alphas {
					point := Cell{Dataset: d, Method: m, Params: map[string]any{methods.ParamAlpha: a, methods.ParamHops: k}}
					if p.Acc[i][j], err = loadPoint(GridRecordPath(dir, d, m, a, k), FigureHyper, point, &p.pointTally, &r.Provenance); err != nil {
						return nil, err
					}
				}
			}
			r.Panels = append(r.Panels, p)
		}
	}
	return r, nil
}

// WriteGridReport renders OutDir/figure-hyper.md (atomically) from grid's stored points without
// training anything, and returns the report and its path.
func WriteGridReport(grid Grid, opts Options) (*GridReport, string, error) {
	opts = opts.withOutDir()
	report, err := LoadGrid(opts.OutDir, grid)
	if err != nil {
		return nil, "", err
	}
	report.Command = opts.Command
	path, err := writeFigureReport(opts, FigureHyper, report.Markdown())
	return report, path, err
}

// BestHops returns, for every α of the panel, the K of the highest mean test accuracy (the smaller
// K on a tie), or 0 when a point of that α is missing.
func (p GridPanel) BestHops() []int {
	best := make([]int, len(p.Alphas))
	for j := range p.Alphas {
		top := math.Inf(-1)
		for i, k := range p.Hops {
			s := p.Acc[i][j]
			if s == nil {
				best[j] = 0
				break
			}
			if s.Mean > top {
				top, best[j] = s.Mean, k
			}
		}
	}
	return best
}

// Heatmap returns the panel's mean test accuracies as labelled rows (K, [len(Hops)]) and columns
// (α, [len(Alphas)]), NaN where a point is missing: the input of a viz.Heatmap.
func (p GridPanel) Heatmap() (alphaLabels, hopLabels []string, values [][]float64) {
	for _, a := range p.Alphas {
		alphaLabels = append(alphaLabels, strconv.FormatFloat(a, 'g', -1, 64))
	}
	for i, k := range p.Hops {
		hopLabels = append(hopLabels, strconv.Itoa(k))
		row := make([]float64, len(p.Alphas))
		for j, s := range p.Acc[i] {
			row[j] = math.NaN()
			if s != nil {
				row[j] = s.Mean
			}
		}
		values = append(values, row)
	}
	return alphaLabels, hopLabels, values
}

// Title names the panel, e.g. "Cora, GeoMix-I".
func (p GridPanel) Title() string {
	return DatasetNames[p.Dataset] + ", " + MethodNames[p.Method]
}

// Markdown renders the report: per panel a K × α table of mean ± std with the best mean in bold and
// the preset's point marked †, and the best K for every α against the paper's claim; then the notes
// (Notes(FigureHyper)) and a folded provenance block.
func (r *GridReport) Markdown() string {
	var b strings.Builder
	b.WriteString("# Figure (appendix): impact of α and mixup hops K on GeoMix\n\n")
	b.WriteString("Test accuracy of GeoMix-I/II over a grid of the locality weight α and the number of mixup hops K; every other hyper-parameter is the data set's preset.\n")
	r.Provenance.writeQuickWarning(&b)
	for _, p := range r.Panels {
		fmt.Fprintf(&b, "\n## %s\n\n", p.Title())
		fmt.Fprintf(&b, "Preset point † α = %g, K = %d; %d runs per point; training time %s.\n\n", p.PresetAlpha, p.PresetHops, p.Runs, Duration(p.TrainSeconds))
		b.WriteString("| K \\ α |")
		for _, a := range p.Alphas {
			fmt.Fprintf(&b, " %g |", a)
		}
		b.WriteString("\n|---|" + strings.Repeat("---|", len(p.Alphas)) + "\n")
		best := p.BestHops()
		for i, k := range p.Hops {
			fmt.Fprintf(&b, "| %d |", k)
			for j, a := range p.Alphas {
				cell := "not run"
				if s := p.Acc[i][j]; s != nil {
					cell = fmt.Sprintf("%.2f ± %.2f", s.Mean, s.Std)
					if best[j] == k {
						cell = "**" + cell + "**"
					}
				}
				if a == p.PresetAlpha && k == p.PresetHops {
					cell += " †"
				}
				fmt.Fprintf(&b, " %s |", cell)
			}
			b.WriteString("\n")
		}
		b.WriteString("\n" + bestHopsLine(p, best) + "\n")
	}
	r.Provenance.writeFigureFooter(&b, FigureHyper)
	return b.String()
}

// bestHopsLine says which K does best at every complete α of p (best is p.BestHops()), how often
// that is K = 2 (the paper's claim), and how often K = 2's mean is within the best point's std of
// the best mean.
func bestHopsLine(p GridPanel, best []int) string {
	two := slices.Index(p.Hops, 2)
	var parts []string
	complete, isBest, near := 0, 0, 0
	for j, k := range best {
		if k == 0 {
			continue
		}
		complete++
		parts = append(parts, fmt.Sprintf("α %g: K = %d", p.Alphas[j], k))
		if two < 0 {
			continue
		}
		top := p.Acc[slices.Index(p.Hops, k)][j]
		if k == 2 {
			isBest++
		}
		if top.Mean-p.Acc[two][j].Mean <= top.Std {
			near++
		}
	}
	if complete == 0 {
		return "Best K per α: no α has all its points yet."
	}
	line := fmt.Sprintf("Best K per α (bold): %s.", strings.Join(parts, ", "))
	if two >= 0 {
		line += fmt.Sprintf(" K = 2 is the best at %d of %d α values, and within one std (the best point's) of the best at %d (the paper: \"using 2 hops generally yields the most competitive performance\").",
			isBest, complete, near)
	}
	return line
}

// Points counts the stored points of every panel.
func (r *GridReport) Points() int {
	n := 0
	for _, p := range r.Panels {
		for _, row := range p.Acc {
			for _, s := range row {
				if s != nil {
					n++
				}
			}
		}
	}
	return n
}

// WritePoints writes one line per stored point, in key=value form (what notebooks print and their
// tests parse):
//
//	point cora geomix1 alpha=0.1 hops=3: acc=83.82 std=0.72 runs=5 quick=false preset=true best=true
//
// best marks the K of the highest mean at that α (GridPanel.BestHops).
func (r *GridReport) WritePoints(w io.Writer) error {
	for _, p := range r.Panels {
		best := p.BestHops()
		for i, k := range p.Hops {
			for j, a := range p.Alphas {
				s := p.Acc[i][j]
				if s == nil {
					continue
				}
				if _, err := fmt.Fprintf(w, "point %s %s alpha=%s hops=%d: acc=%.2f std=%.2f runs=%d quick=%v preset=%v best=%v\n",
					p.Dataset, p.Method, strconv.FormatFloat(a, 'g', -1, 64), k, s.Mean, s.Std, p.Runs, r.Quick,
					a == p.PresetAlpha && k == p.PresetHops, best[j] == k); err != nil {
					return err
				}
			}
		}
	}
	return nil
}
