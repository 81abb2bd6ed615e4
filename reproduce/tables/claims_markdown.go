package tables

import (
	"fmt"
	"slices"
	"strings"
)

// claimRule is the rule every claims section states before its claims.
const claimRule = "A comparison holds when our mean is above the other row's (the strongest of them where the claim names several); " +
	"\"within std\" marks a margin under the larger of the two stds, decided by the means all the same. " +
	"A claim holds when every comparison on the paper's columns holds; a cell without results is listed as missing and never counted as holding. " +
	"The paper's printed numbers are counted by the same rule."

// writeClaims writes a claims section under heading (intro, if any, before the rule): the rule, then per claim its verdict, counts
// and the paper's sentence, with one line per data set giving the numbers; nothing without claims.
func writeClaims(b *strings.Builder, heading, intro string, checks []ClaimCheck) {
	if len(checks) == 0 {
		return
	}
	b.WriteString("\n" + heading + "\n\n")
	if intro != "" {
		b.WriteString(intro + " ")
	}
	b.WriteString(claimRule + "\n\n")
	for _, c := range checks {
		fmt.Fprintf(b, "- **%s**: %s. %s %s\n", capitalize(c.Verdict), c.Text(), c.counts(), c.Source())
		for _, line := range c.lines() {
			b.WriteString("  - " + line + "\n")
		}
	}
}

// capitalize upper-cases the first letter of an ASCII s.
func capitalize(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// names returns the printed names of methods.
func names(methods []string) []string {
	out := make([]string, len(methods))
	for i, m := range methods {
		out[i] = MethodNames[m]
	}
	return out
}

// Text says the claim in words: its Words, or words made from its rows.
func (c Claim) Text() string {
	rows, than := joinWords(names(c.Rows)), joinWords(names(c.Than))
	switch {
	case c.Words != "":
		return c.Words
	case c.LargestDropOn != "":
		return fmt.Sprintf("%s drop the most against %s on %s", than, rows, DatasetNames[c.LargestDropOn])
	case c.Best:
		return fmt.Sprintf("the best of %s above %s on every data set", rows, than)
	case len(c.Rows) > 1:
		return fmt.Sprintf("%s, each above %s on every data set", rows, than)
	}
	return fmt.Sprintf("%s above %s on every data set", rows, than)
}

// Source says where the paper makes the claim: its quoted sentence, or what Section says.
func (c Claim) Source() string {
	if c.Quote == "" {
		return "The paper: " + c.Section + "."
	}
	return fmt.Sprintf("The paper (Section %s): \"%s\"", c.Section, c.Quote)
}

// counts says how many comparisons hold in ours and in the paper's numbers.
func (c ClaimCheck) counts() string {
	within := func(n int) string {
		if n == 0 {
			return ""
		}
		return fmt.Sprintf(" (%d within std)", n)
	}
	s := fmt.Sprintf("Ours: %d of %d comparisons hold%s", c.Held, c.Compared, within(c.HeldWithinStd))
	if failed := c.Compared - c.Held; failed == 1 {
		s += ", 1 does not" + within(c.FailedWithinStd)
	} else if failed > 1 {
		s += fmt.Sprintf(", %d do not%s", failed, within(c.FailedWithinStd))
	}
	if c.Missing > 0 {
		s += fmt.Sprintf("; %d not decided, results missing", c.Missing)
	}
	return s + fmt.Sprintf("; the paper's numbers: %d of %d.", c.PaperHeld, c.PaperCompared)
}

// mark is a comparison's outcome: ✓ or ✗ (with "within std"), "open" when undecided.
func mark(holds *bool, withinStd bool) string {
	switch {
	case holds == nil:
		return "open"
	case *holds && withinStd:
		return "✓ within std"
	case *holds:
		return "✓"
	case withinStd:
		return "✗ within std"
	}
	return "✗"
}

// statOr renders s as "mean ± std", or what instead.
func statOr(s *Stat, instead string) string {
	if s == nil {
		return instead
	}
	return stat(s)
}

// lines returns the check's lines under it: one per data set (per row for a drop claim), the
// uncounted columns marked, and the columns whose data cannot be obtained.
func (c ClaimCheck) lines() []string {
	var lines []string
	if c.LargestDropOn != "" {
		for _, cmp := range c.Comparisons {
			lines = append(lines, cmp.dropLine(c.Claim))
		}
		return lines
	}
	for i := 0; i < len(c.Comparisons); {
		j := i + 1
		for j < len(c.Comparisons) && c.Comparisons[j].Dataset == c.Comparisons[i].Dataset {
			j++
		}
		line := datasetLine(c.Claim, c.Comparisons[i:j])
		if !c.Comparisons[i].Counted {
			line = "not counted (our stand-in, no paper numbers): " + line
		}
		lines = append(lines, line)
		i = j
	}
	if len(c.Unavailable) > 0 {
		var ds []string
		for _, d := range c.Unavailable {
			ds = append(ds, DatasetNames[d])
		}
		lines = append(lines, "not checkable, the data cannot be obtained: "+joinWords(ds))
	}
	return lines
}

// datasetLine renders the comparisons of one data set: the strongest competitor in ours and in
// the paper, then each row's result and outcome beside the paper's.
func datasetLine(claim Claim, cmps []ClaimComparison) string {
	first := cmps[0]
	name := DatasetNames[first.Dataset]
	if nothingRun(cmps) {
		return name + ": nothing run yet"
	}
	var against []string
	if first.AgainstOurs != nil {
		against = append(against, MethodNames[first.Against]+" "+stat(first.AgainstOurs))
	}
	if claim.Best {
		s := fmt.Sprintf("%s: %s %s %s", name, MethodNames[first.Row], statOr(first.Ours, ""), mark(first.Holds, first.WithinStd))
		if first.Ours == nil {
			s = name + ": open"
		}
		if len(first.Missing) > 0 {
			against = append(against, joinWords(first.Missing))
		}
		s += " against " + strings.Join(against, "; ")
		if first.Paper != nil && first.PaperAgainstStat != nil {
			s += fmt.Sprintf(" (paper: %s %s %s against %s %s)", MethodNames[first.PaperRow], stat(first.Paper), paperMark(first),
				MethodNames[first.PaperAgainst], stat(first.PaperAgainstStat))
		}
		return s
	}
	var rows, missing []string
	for _, cmp := range cmps {
		r := MethodNames[cmp.Row] + " " + statOr(cmp.Ours, "not yet run")
		if cmp.Ours != nil {
			r += " " + mark(cmp.Holds, cmp.WithinStd)
		}
		if cmp.Paper != nil {
			r += fmt.Sprintf(" (paper %.2f %s)", cmp.Paper.Mean, paperMark(cmp))
		}
		rows = append(rows, r)
		for _, m := range cmp.Missing {
			for _, t := range claim.Than {
				if strings.HasPrefix(m, MethodNames[t]+" ") && !slices.Contains(missing, m) {
					missing = append(missing, m)
				}
			}
		}
	}
	if len(missing) > 0 {
		against = append(against, joinWords(missing))
	}
	paper := ""
	if first.PaperAgainstStat != nil {
		paper = fmt.Sprintf(" (paper: %s %s)", MethodNames[first.PaperAgainst], stat(first.PaperAgainstStat))
	}
	return fmt.Sprintf("%s, against %s%s: %s", name, strings.Join(against, "; "), paper, strings.Join(rows, ", "))
}

// nothingRun reports whether none of the rows the comparisons name has a result.
func nothingRun(cmps []ClaimComparison) bool {
	for _, cmp := range cmps {
		if cmp.Ours != nil || cmp.AgainstOurs != nil {
			return false
		}
	}
	return true
}

// paperMark is the outcome of the comparison in the paper's numbers ("" where it prints none).
func paperMark(cmp ClaimComparison) string {
	if cmp.PaperHolds == nil {
		return ""
	}
	return mark(cmp.PaperHolds, false)
}

// dropLine renders a drop claim's row: its relative change on every data set, in ours and in the
// paper's numbers.
func (cmp ClaimComparison) dropLine(claim Claim) string {
	var ours, paper []string
	for _, d := range cmp.Datasets {
		if v, ok := cmp.Drops[d]; ok {
			ours = append(ours, fmt.Sprintf("%s %+.2f%%", DatasetNames[d], v))
		}
		if v, ok := cmp.PaperDrops[d]; ok {
			paper = append(paper, fmt.Sprintf("%+.2f%%", v))
		}
	}
	s := fmt.Sprintf("%s against %s: %s %s", MethodNames[cmp.Row], MethodNames[claim.Rows[0]], strings.Join(ours, ", "), mark(cmp.Holds, false))
	if len(cmp.Missing) > 0 {
		s += "; " + joinWords(cmp.Missing)
	}
	return s + fmt.Sprintf(" (paper: %s %s)", strings.Join(paper, ", "), paperMark(cmp))
}
