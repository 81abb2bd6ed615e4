package tables

import (
	"fmt"
	"slices"
	"time"
)

// Duration formats seconds for a reader: "45 s", "12 min", "3 h 05 min".
func Duration(seconds float64) string {
	d := time.Duration(seconds * float64(time.Second)).Round(time.Second)
	if d < time.Minute {
		return fmt.Sprintf("%d s", int(d.Seconds()))
	}
	if d = d.Round(time.Minute); d < time.Hour {
		return fmt.Sprintf("%d min", int(d.Minutes()))
	}
	return fmt.Sprintf("%d h %02d min", int(d.Hours()), int(d.Minutes())%60)
}

// stat formats a mean ± std, or "" for nil.
func stat(s *Stat) string {
	if s == nil {
		return ""
	}
	return fmt.Sprintf("%.2f ± %.2f", s.Mean, s.Std)
}

// signed formats v with format, or "" for nil.
func signed(v *float64, format string) string {
	if v == nil {
		return ""
	}
	return fmt.Sprintf(format, *v)
}

// statWords is "mean std=std" with two decimals, or "none std=none".
func statWords(s *Stat) string {
	if s == nil {
		return "none std=none"
	}
	return fmt.Sprintf("%.2f std=%.2f", s.Mean, s.Std)
}

// appendNew appends s to list unless it is empty or already there.
func appendNew(list []string, s string) []string {
	if s == "" || slices.Contains(list, s) {
		return list
	}
	return append(list, s)
}

// hasDuplicate reports whether a value occurs twice in list.
func hasDuplicate[T comparable](list []T) bool {
	seen := map[T]bool{}
	for _, v := range list {
		if seen[v] {
			return true
		}
		seen[v] = true
	}
	return false
}
