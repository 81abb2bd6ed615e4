package tables

import (
	"fmt"
	"math"
	"strings"
)

// Claim is a sentence of the paper about a table that its numbers can check: every row of Rows is
// above every row of Than, data set by data set. A report counts the (row, data set) pairs where
// it holds, in our results and in the paper's numbers of the same pairs.
type Claim struct {
	// Quote is the paper's sentence, Section where it is (e.g. "4.1").
	Quote, Section string
	// Rows are the rows the claim is about, Than those they should be above (each of them: a row
	// counts as above when its mean is above the highest mean of Than on that data set).
	Rows, Than []string
}

// ClaimCheck is a Claim counted on a report's rows.
type ClaimCheck struct {
	Claim
	// Pairs is the number of (row, data set) pairs with our results for the row and all of Than;
	// Ours and Paper count those where the claim holds in ours and in the paper's numbers.
	Pairs, Ours, Paper int
	// Misses names the pairs where it does not hold in ours, e.g. "CiteSeer GeoMix-III" ("CiteSeer"
	// for a claim about one row).
	Misses []string
}

// CheckClaims counts each of claims on r's rows.
func (r *Report) CheckClaims(claims []Claim) []ClaimCheck {
	ours, paper := map[[2]string]float64{}, map[[2]string]float64{}
	var datasets []string
	for _, row := range r.Rows {
		datasets = appendNew(datasets, row.Dataset)
		if row.Ours != nil && row.Paper != nil {
			ours[[2]string{row.Dataset, row.Method}] = row.Ours.Mean
			paper[[2]string{row.Dataset, row.Method}] = row.Paper.Mean
		}
	}
	var checks []ClaimCheck
	for _, c := range claims {
		check := ClaimCheck{Claim: c}
		for _, d := range datasets {
			oursTop, paperTop, complete := math.Inf(-1), math.Inf(-1), true
			for _, m := range c.Than {
				o, ok := ours[[2]string{d, m}]
				complete = complete && ok
				oursTop, paperTop = math.Max(oursTop, o), math.Max(paperTop, paper[[2]string{d, m}])
			}
			if !complete {
				continue
			}
			for _, m := range c.Rows {
				o, ok := ours[[2]string{d, m}]
				if !ok {
					continue
				}
				check.Pairs++
				if o > oursTop {
					check.Ours++
				} else {
					miss := DatasetNames[d]
					if len(c.Rows) > 1 {
						miss += " " + MethodNames[m]
					}
					check.Misses = append(check.Misses, miss)
				}
				if paper[[2]string{d, m}] > paperTop {
					check.Paper++
				}
			}
		}
		checks = append(checks, check)
	}
	return checks
}

// String says the claim and how often it holds in ours and in the paper, with our misses.
func (c ClaimCheck) String() string {
	var rows, than []string
	for _, m := range c.Rows {
		rows = append(rows, MethodNames[m])
	}
	for _, m := range c.Than {
		than = append(than, MethodNames[m])
	}
	claim := joinWords(rows) + " above " + joinWords(than)
	if len(rows) > 1 {
		claim = joinWords(rows) + ", each above " + joinWords(than)
	}
	s := fmt.Sprintf("%s: ours in %d of %d (row, data set) pairs, the paper in %d of the same.", claim, c.Ours, c.Pairs, c.Paper)
	if c.Pairs == 0 {
		s = claim + ": no data set has our results for these rows yet."
	} else if len(c.Misses) > 0 {
		s += " Not in ours: " + strings.Join(c.Misses, ", ") + "."
	}
	return fmt.Sprintf("%s The paper (Section %s): \"%s\"", s, c.Section, c.Quote)
}

// joinWords joins words as "a, b and c".
func joinWords(words []string) string {
	if len(words) < 2 {
		return strings.Join(words, "")
	}
	return strings.Join(words[:len(words)-1], ", ") + " and " + words[len(words)-1]
}
