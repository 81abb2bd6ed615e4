package tables

import (
	"cmp"
	"fmt"
	"strings"

	"github.com/geomix-go/geomix/datasets"
	"github.com/geomix-go/geomix/geomix/training"
)

// The backbone figure's OOD panel: on a data set with OOD test graphs (twitch-ood: FR, PTBR, RU,
// Table 3's columns) each point's record holds the accuracy on every graph at each run's selected
// epoch (its extra_tests), which the panel shows and the paper's OOD claim is counted on.

// BackboneOOD is one OOD test graph of a panel: the plain backbone's accuracy on it and under each
// mixing method.
type BackboneOOD struct {
	// Column is the graph's Table 3 column id ("twitch-fr"), Set its extra test set in the records
	// ("FR").
	Column string `json:"column"`
	Set    string `json:"set"`
	// Plain and Mixed[i] (under the report's Methods[i]) are mean ± std in percent, nil where no point
	// is stored.
	Plain *Stat   `json:"plain"`
	Mixed []*Stat `json:"mixed"`
}

// oodGraphs returns the OOD test graphs of dataset as Table 3 reads them (its columns trained on
// dataset, with their extra test sets), with nil Mixed of n methods; nil for a data set without.
func oodGraphs(dataset string, n int) []BackboneOOD {
	var out []BackboneOOD
	for _, s := range Specs() {
		for _, col := range s.Datasets {
			if set, ok := s.ExtraTest[col]; ok && s.trainedOn(col) == dataset {
				out = append(out, BackboneOOD{Column: col, Set: set, Mixed: make([]*Stat, n)})
			}
		}
	}
	return out
}

// addOOD stores the OOD accuracies and the features of rec, the record of the panel's i-th point
// (0 the plain backbone, i the report's Methods[i-1]); an OOD data set's record without them is an
// error naming path.
func (p *BackbonePanel) addOOD(i int, rec *Record, path string) error {
	if rec == nil || len(p.OOD) == 0 {
		return nil
	}
	for j := range p.OOD {
		ms, ok := rec.ExtraTests[p.OOD[j].Set]
		if !ok {
			return fmt.Errorf("%s: record has no extra test set %q (the OOD graph %s)", path, p.OOD[j].Set, DatasetNames[p.OOD[j].Column])
		}
		s := &Stat{Mean: ms.Mean, Std: ms.Std}
		if i == 0 {
			p.OOD[j].Plain = s
		} else {
			p.OOD[j].Mixed[i-1] = s
		}
	}
	features, _ := rec.Params[training.ParamTwitchFeatures].(string)
	if features == "" {
		features = "not recorded"
	}
	p.Features = appendNew(p.Features, features)
	return nil
}

// twitchFeatureWords says what each twitch_features value is.
var twitchFeatureWords = map[string]string{
	datasets.TwitchFeaturesRaw:    "the raw 3,170-d binary game features",
	datasets.TwitchFeaturesSVD128: "a 128-d truncated SVD of the raw features fitted on DE+ENGB+ES",
}

// featureWords says which features the stored points of panels used, or, with none stored, which
// the sweep's command trains with.
func featureWords(panels []BackbonePanel) string {
	var used []string
	for _, p := range panels {
		for _, f := range p.Features {
			used = appendNew(used, f)
		}
	}
	if len(used) == 0 {
		return fmt.Sprintf("the points not yet run train with the preset's default, %s (`twitch_features=%s`)",
			twitchFeatureWords[datasets.TwitchFeaturesRaw], datasets.TwitchFeaturesRaw)
	}
	var parts []string
	for _, f := range used {
		parts = append(parts, fmt.Sprintf("%s (`twitch_features=%s`)", cmp.Or(twitchFeatureWords[f], "unknown features"), f))
	}
	return "the stored points use " + joinWords(parts)
}

// backboneDatasetName is the name of dataset in the report's main table: an OOD data set's is its
// in-distribution test.
func backboneDatasetName(dataset string) string {
	if len(oodGraphs(dataset, 0)) > 0 {
		return "Twitch, in-distribution test"
	}
	return DatasetNames[dataset]
}

// BackboneComparison is a mixing method against the plain backbone on one panel: on the test
// accuracy, or on one OOD graph.
type BackboneComparison struct {
	// Dataset, Backbone and Method name the point; Graph is the OOD column ("" for the test
	// accuracy).
	Dataset, Backbone, Method, Graph string
	// Plain and Mixed are the two results, nil where not stored.
	Plain, Mixed *Stat
}

// Comparisons returns every (panel, method) comparison of the standard data sets' test accuracy
// (ood false), or of every OOD graph of the OOD data sets (ood true), in panel order.
func (r *BackboneReport) Comparisons(ood bool) []BackboneComparison {
	var out []BackboneComparison
	for _, p := range r.Panels {
		if ood != (len(p.OOD) > 0) {
			continue
		}
		if !ood {
			for i, m := range r.Methods {
				out = append(out, BackboneComparison{Dataset: p.Dataset, Backbone: p.Backbone, Method: m, Plain: p.Plain, Mixed: p.Mixed[i]})
			}
			continue
		}
		for _, g := range p.OOD {
			for i, m := range r.Methods {
				out = append(out, BackboneComparison{Dataset: p.Dataset, Backbone: p.Backbone, Method: m, Graph: g.Column, Plain: g.Plain, Mixed: g.Mixed[i]})
			}
		}
	}
	return out
}

// writeBackboneClaims writes the paper's claim counted on the standard data sets and on the OOD
// graphs: a verdict (as Claim's rule: means compared, missing points never count as holding), the
// counts, and the comparisons that do not hold with their numbers.
func (r *BackboneReport) writeBackboneClaims(b *strings.Builder) {
	b.WriteString("\n## The paper's claim\n\nThe paper (Section 4.7): \"Geometric Mixup consistently enhances the performance of GAT and APPNP across both standard datasets and out-of-distribution (OOD) generalization tasks.\" " +
		"A comparison holds when the mixing method's mean is above the plain backbone's; a point not yet run is missing and never counts as holding.\n\n")
	for _, part := range []struct {
		ood   bool
		words string
	}{{false, "on the standard data sets' test accuracy"}, {true, "on the OOD graphs (Twitch FR, PT, RU)"}} {
		cmps := r.Comparisons(part.ood)
		if len(cmps) == 0 {
			continue
		}
		compared, above, aboveStd, missing := 0, 0, 0, 0
		var misses []string
		for _, c := range cmps {
			if c.Plain == nil || c.Mixed == nil {
				missing++
				continue
			}
			compared++
			if c.Mixed.Mean > c.Plain.Mean {
				above++
			} else {
				where := DatasetNames[c.Dataset]
				if c.Graph != "" {
					where = DatasetNames[c.Graph]
				}
				misses = append(misses, fmt.Sprintf("%s %s %s %s against %s", where, BackboneNames[c.Backbone], MethodNames[c.Method], stat(c.Mixed), stat(c.Plain)))
			}
			if c.Mixed.Mean > c.Plain.Mean+c.Plain.Std {
				aboveStd++
			}
		}
		verdict := ClaimHolds
		switch {
		case above < compared:
			verdict = ClaimFails
		case compared == 0:
			verdict = ClaimUnchecked
		case missing > 0:
			verdict = ClaimOpen
		}
		if compared == 0 {
			fmt.Fprintf(b, "- **%s** %s: no comparison has results yet", capitalize(verdict), part.words)
		} else {
			fmt.Fprintf(b, "- **%s** %s: GeoMix is above the plain backbone in %d of %d comparisons, by more than the plain backbone's std in %d",
				capitalize(verdict), part.words, above, compared, aboveStd)
		}
		if missing > 0 {
			fmt.Fprintf(b, "; %d comparisons missing (points not yet run)", missing)
		}
		b.WriteString(".")
		if len(misses) > 0 {
			b.WriteString(" Not above: " + strings.Join(misses, "; ") + ".")
		}
		b.WriteString("\n")
	}
}

// writeOOD writes the OOD panel: one row per (backbone, OOD graph), the features, and the command
// that trains the points not yet run; nothing when the sweep has no OOD data set.
func (r *BackboneReport) writeOOD(b *strings.Builder) {
	var panels []BackbonePanel
	for _, p := range r.Panels {
		if len(p.OOD) > 0 {
			panels = append(panels, p)
		}
	}
	if len(panels) == 0 {
		return
	}
	b.WriteString("\n## OOD panel: Twitch\n\nTrained on DE+ENGB+ES (labels on 50% of their nodes, the epoch selected on the 25% in-distribution validation) and tested on FR, PT and RU at each run's selected epoch, as Table 3 reads them; " +
		featureWords(panels) + ". Accuracy in percent, mean ± std over runs; (Δ) is the difference to the plain backbone in points.\n\n")
	b.WriteString("| Backbone | Graph | plain |")
	for _, m := range r.Methods {
		fmt.Fprintf(b, " %s |", MethodNames[m])
	}
	b.WriteString("\n|---|---|---|" + strings.Repeat("---|", len(r.Methods)) + "\n")
	notRun := map[string][]string{}
	var datasetsNotRun []string
	for _, p := range panels {
		for _, g := range p.OOD {
			fmt.Fprintf(b, "| %s | %s | %s |", BackboneNames[p.Backbone], DatasetNames[g.Column], statOr(g.Plain, "not yet run"))
			for _, s := range g.Mixed {
				b.WriteString(" " + deltaCell(s, g.Plain) + " |")
			}
			b.WriteString("\n")
		}
		for i, s := range append([]*Stat{p.Plain}, p.Mixed...) {
			if s == nil {
				name := "plain"
				if i > 0 {
					name = MethodNames[r.Methods[i-1]]
				}
				datasetsNotRun = appendNew(datasetsNotRun, p.Dataset)
				notRun[p.Dataset] = append(notRun[p.Dataset], BackboneNames[p.Backbone]+" "+name)
			}
		}
	}
	for _, d := range datasetsNotRun {
		points := fmt.Sprintf("%d points", len(notRun[d]))
		if len(notRun[d]) == 1 {
			points = "1 point"
		}
		fmt.Fprintf(b, "\nNot yet run: %s (%s). `go run ./reproduce %s --datasets %s --jobs 2` trains them with the twitch preset's settings (%d runs each); the OOD accuracies are read from each record's extra_tests.\n",
			points, strings.Join(notRun[d], ", "), FigureBackbones, d, DefaultRuns(d))
	}
}

// deltaCell renders a mixed point with its difference to the plain backbone, or "not yet run".
func deltaCell(s, plain *Stat) string {
	if s == nil {
		return "not yet run"
	}
	cell := stat(s)
	if plain != nil {
		cell += fmt.Sprintf(" (%+.2f)", s.Mean-plain.Mean)
	}
	return cell
}
