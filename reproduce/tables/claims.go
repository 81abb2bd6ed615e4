package tables

import (
	"math"
	"slices"
	"strings"
)

// Claim is a sentence of the paper about a table that its numbers can check, column by column. The
// rule is the same for ours and the paper's numbers: a row is above another when its mean is
// higher; a comparison whose margin is under the larger of the two stds is marked "within std" but
// still decided by the means.
type Claim struct {
	// Quote is the paper's sentence, Section where it is (e.g. "4.1"); without a Quote, Section says
	// where the paper makes the claim (e.g. "Table 2 shades a GeoMix cell as the best of every column").
	Quote   string `json:"quote,omitempty"`
	Section string `json:"section"`
	// Words say the claim in our words ("" for words made from Rows and Than; see Text).
	Words string `json:"words,omitempty"`
	// Rows are the rows the claim is about, Than those they should be above: each row of Rows is
	// compared with the strongest of Than on each column.
	Rows []string `json:"rows"`
	Than []string `json:"than"`
	// Best makes the claim about the best of Rows on each column (the highest mean), not each row.
	Best bool `json:"best,omitempty"`
	// LargestDropOn makes the claim "each row of Than drops the most, relative to Rows[0], on this
	// column" (Table 5's Squirrel): the relative changes of every column are compared.
	LargestDropOn string `json:"largest_drop_on,omitempty"`
}

// Claim verdicts.
const (
	// ClaimHolds: every comparison on the paper's columns has results and holds.
	ClaimHolds = "holds"
	// ClaimFails: at least one comparison with results does not hold.
	ClaimFails = "does not hold"
	// ClaimOpen: none fails, but some lack results (never counted as holding).
	ClaimOpen = "not settled"
	// ClaimUnchecked: no comparison has results yet.
	ClaimUnchecked = "not checked yet"
)

// ClaimComparison is one comparison of a claim: a row against the strongest of the claim's other
// rows on one column, or a drop claim's row over every column.
type ClaimComparison struct {
	// Dataset is the column ("" for a drop claim, which spans the columns).
	Dataset string `json:"dataset,omitempty"`
	// Row is the row compared: one of the claim's Rows, our best of them for a Best claim, the row
	// whose drop is compared for a drop claim.
	Row string `json:"row"`
	// Ours is Row's result; Against the strongest of the claim's Than with our result, AgainstOurs
	// its result.
	Ours        *Stat  `json:"ours,omitempty"`
	Against     string `json:"against,omitempty"`
	AgainstOurs *Stat  `json:"against_ours,omitempty"`
	// Missing names what the comparison needs and has no result yet, e.g. "GraphMixup not yet run".
	Missing []string `json:"missing,omitempty"`
	// Holds is whether the comparison holds in ours, nil while results are missing; WithinStd marks a
	// margin under the larger of the two stds.
	Holds     *bool `json:"holds,omitempty"`
	WithinStd bool  `json:"within_std,omitempty"`
	// PaperRow, Paper, PaperAgainst, PaperAgainstStat and PaperHolds are the same comparison on the
	// paper's numbers (nil where the paper prints none).
	PaperRow         string `json:"paper_row,omitempty"`
	Paper            *Stat  `json:"paper,omitempty"`
	PaperAgainst     string `json:"paper_against,omitempty"`
	PaperAgainstStat *Stat  `json:"paper_against_stat,omitempty"`
	PaperHolds       *bool  `json:"paper_holds,omitempty"`
	// Datasets are a drop claim's columns, in order; Drops and PaperDrops its relative changes in
	// percent against the reference row, by column.
	Datasets   []string           `json:"datasets,omitempty"`
	Drops      map[string]float64 `json:"drops,omitempty"`
	PaperDrops map[string]float64 `json:"paper_drops,omitempty"`
	// Counted is false on the columns the paper does not print (our stand-ins): shown beside the
	// claim, not counted in its verdict.
	Counted bool `json:"counted"`
}

// ClaimCheck is a Claim counted on a report's rows.
type ClaimCheck struct {
	Claim
	// Verdict is one of the Claim* verdicts.
	Verdict string `json:"verdict"`
	// Compared counts the counted comparisons decided in ours, Held those that hold; HeldWithinStd and
	// FailedWithinStd those decided by a margin under the larger std; Missing the undecided ones.
	Compared        int `json:"compared"`
	Held            int `json:"held"`
	HeldWithinStd   int `json:"held_within_std"`
	FailedWithinStd int `json:"failed_within_std"`
	Missing         int `json:"missing"`
	// PaperCompared and PaperHeld count the same on the paper's numbers.
	PaperCompared int `json:"paper_compared"`
	PaperHeld     int `json:"paper_held"`
	// Comparisons are every comparison, column by column.
	Comparisons []ClaimComparison `json:"comparisons"`
	// Unavailable are the columns whose data cannot be obtained: not checked.
	Unavailable []string `json:"unavailable,omitempty"`
}

// claimCells is what a claim reads of a report: its rows by (data set, method) and its columns.
type claimCells struct {
	rows      map[[2]string]Row
	datasets  []string
	paperCols map[string]bool
}

// ours returns our result of method on d, or nil with what is missing.
func (c claimCells) ours(d, method string) (*Stat, string) {
	row := c.rows[[2]string{d, method}]
	if row.Ours != nil {
		return row.Ours, ""
	}
	status := row.Status
	if status == StatusNotRun || status == "" {
		status = "not yet run"
	}
	return nil, MethodNames[method] + " " + status
}

// paper returns the paper's printed result of method on d, nil where it prints none.
func (c claimCells) paper(d, method string) *Stat { return c.rows[[2]string{d, method}].Paper }

// unavailable reports whether every row of methods on d is a column whose data cannot be obtained.
func (c claimCells) unavailable(d string, methods []string) bool {
	for _, m := range methods {
		if c.rows[[2]string{d, m}].Status != StatusUnavailable {
			return false
		}
	}
	return true
}

// strongest returns the method of methods with the highest mean under get (nil where missing), its
// result, and the methods get has none for.
func strongest(methods []string, get func(string) (*Stat, string)) (best string, s *Stat, missing []string) {
	for _, m := range methods {
		v, why := get(m)
		if v == nil {
			missing = append(missing, why)
		} else if s == nil || v.Mean > s.Mean {
			best, s = m, v
		}
	}
	return best, s, missing
}

// paperGet is claimCells.paper on column d in strongest's form.
func (c claimCells) paperGet(d string) func(string) (*Stat, string) {
	return func(m string) (*Stat, string) {
		s := c.paper(d, m)
		return s, MethodNames[m]
	}
}

// above returns whether a is above b (means compared) and whether the margin is under the larger std.
func above(a, b Stat) (holds, withinStd bool) {
	return a.Mean > b.Mean, math.Abs(a.Mean-b.Mean) < math.Max(a.Std, b.Std)
}

// CheckClaims counts each of claims on r's rows.
func (r *Report) CheckClaims(claims []Claim) []ClaimCheck {
	c := claimCells{rows: map[[2]string]Row{}, paperCols: map[string]bool{}}
	for _, row := range r.Rows {
		c.datasets = appendNew(c.datasets, row.Dataset)
		c.rows[[2]string{row.Dataset, row.Method}] = row
		if row.Paper != nil {
			c.paperCols[row.Dataset] = true
		}
	}
	var checks []ClaimCheck
	for _, claim := range claims {
		check := ClaimCheck{Claim: claim}
		if claim.LargestDropOn != "" {
			for _, m := range claim.Than {
				check.Comparisons = append(check.Comparisons, c.drop(claim, m))
			}
		} else {
			for _, d := range c.datasets {
				if c.unavailable(d, append(slices.Clone(claim.Rows), claim.Than...)) {
					check.Unavailable = append(check.Unavailable, d)
					continue
				}
				if claim.Best {
					check.Comparisons = append(check.Comparisons, c.best(claim, d))
					continue
				}
				for _, m := range claim.Rows {
					check.Comparisons = append(check.Comparisons, c.each(claim, d, m))
				}
			}
		}
		check.count()
		checks = append(checks, check)
	}
	return checks
}

// each compares row m with the strongest of claim.Than on column d.
func (c claimCells) each(claim Claim, d, m string) ClaimComparison {
	cmp := ClaimComparison{Dataset: d, Row: m, Counted: c.paperCols[d]}
	get := func(x string) (*Stat, string) { return c.ours(d, x) }
	cmp.Against, cmp.AgainstOurs, cmp.Missing = strongest(claim.Than, get)
	ours, why := c.ours(d, m)
	cmp.Ours = ours
	switch {
	case ours == nil:
		cmp.Missing = append([]string{why}, cmp.Missing...)
	case cmp.AgainstOurs != nil && ours.Mean <= cmp.AgainstOurs.Mean:
		cmp.decide(false, *ours, *cmp.AgainstOurs)
	case len(cmp.Missing) == 0:
		cmp.decide(true, *ours, *cmp.AgainstOurs)
	}
	cmp.PaperRow, cmp.Paper = m, c.paper(d, m)
	cmp.paperAgainst(claim, c, d)
	return cmp
}

// best compares the best of claim.Rows with the strongest of claim.Than on column d. A failing
// comparison is decided only once every row of claim.Rows has a result.
func (c claimCells) best(claim Claim, d string) ClaimComparison {
	cmp := ClaimComparison{Dataset: d, Counted: c.paperCols[d]}
	get := func(x string) (*Stat, string) { return c.ours(d, x) }
	row, ours, missingRows := strongest(claim.Rows, get)
	against, againstOurs, missingThan := strongest(claim.Than, get)
	cmp.Row, cmp.Ours, cmp.Against, cmp.AgainstOurs = row, ours, against, againstOurs
	switch {
	case ours == nil:
		cmp.Missing = missingRows
	case againstOurs != nil && ours.Mean <= againstOurs.Mean:
		if cmp.Missing = missingRows; len(missingRows) == 0 {
			cmp.decide(false, *ours, *againstOurs)
		}
	default:
		if cmp.Missing = missingThan; len(missingThan) == 0 {
			cmp.decide(true, *ours, *againstOurs)
		}
	}
	cmp.PaperRow, cmp.Paper, _ = strongest(claim.Rows, c.paperGet(d))
	cmp.paperAgainst(claim, c, d)
	return cmp
}

// decide sets the comparison's outcome in ours, the row at ours against the strongest at against.
func (cmp *ClaimComparison) decide(holds bool, ours, against Stat) {
	_, within := above(ours, against)
	cmp.Holds, cmp.WithinStd = &holds, within
}

// paperAgainst sets the paper's side of a comparison on column d (PaperRow and Paper set).
func (cmp *ClaimComparison) paperAgainst(claim Claim, c claimCells, d string) {
	against, s, missing := strongest(claim.Than, c.paperGet(d))
	if cmp.Paper == nil || s == nil || len(missing) > 0 {
		return
	}
	holds, _ := above(*cmp.Paper, *s)
	cmp.PaperAgainst, cmp.PaperAgainstStat, cmp.PaperHolds = against, s, &holds
}

// drop compares row m's relative change against claim.Rows[0] over every column: it holds when the
// change on claim.LargestDropOn is below every other column's.
func (c claimCells) drop(claim Claim, m string) ClaimComparison {
	cmp := ClaimComparison{Row: m, Against: claim.Rows[0], Counted: true, Datasets: c.datasets, Drops: map[string]float64{}, PaperDrops: map[string]float64{}}
	for _, d := range c.datasets {
		for _, x := range []string{m, claim.Rows[0]} {
			if _, why := c.ours(d, x); why != "" && !slices.Contains(cmp.Missing, DatasetNames[d]+" "+why) {
				cmp.Missing = append(cmp.Missing, DatasetNames[d]+" "+why)
			}
		}
		if o, ref := c.rows[[2]string{d, m}].Ours, c.rows[[2]string{d, claim.Rows[0]}].Ours; o != nil && ref != nil {
			cmp.Drops[d] = RelativeChange(o.Mean, ref.Mean)
		}
		if p, ref := c.paper(d, m), c.paper(d, claim.Rows[0]); p != nil && ref != nil {
			cmp.PaperDrops[d] = RelativeChange(p.Mean, ref.Mean)
		}
	}
	largest := func(drops map[string]float64) *bool {
		if len(drops) != len(c.datasets) {
			return nil
		}
		holds := true
		for d, v := range drops {
			holds = holds && (d == claim.LargestDropOn || drops[claim.LargestDropOn] < v)
		}
		return &holds
	}
	if len(cmp.Missing) == 0 {
		cmp.Holds = largest(cmp.Drops)
	}
	cmp.PaperHolds = largest(cmp.PaperDrops)
	return cmp
}

// count sets the check's counts and verdict from its comparisons.
func (c *ClaimCheck) count() {
	for _, cmp := range c.Comparisons {
		if !cmp.Counted {
			continue
		}
		switch {
		case cmp.Holds == nil:
			c.Missing++
		case *cmp.Holds:
			c.Compared++
			c.Held++
			if cmp.WithinStd {
				c.HeldWithinStd++
			}
		default:
			c.Compared++
			if cmp.WithinStd {
				c.FailedWithinStd++
			}
		}
		if cmp.PaperHolds != nil {
			c.PaperCompared++
			if *cmp.PaperHolds {
				c.PaperHeld++
			}
		}
	}
	switch {
	case c.Held < c.Compared:
		c.Verdict = ClaimFails
	case c.Compared == 0:
		c.Verdict = ClaimUnchecked
	case c.Missing > 0:
		c.Verdict = ClaimOpen
	default:
		c.Verdict = ClaimHolds
	}
}

// joinWords joins words as "a, b and c".
func joinWords(words []string) string {
	if len(words) < 2 {
		return strings.Join(words, "")
	}
	return strings.Join(words[:len(words)-1], ", ") + " and " + words[len(words)-1]
}
