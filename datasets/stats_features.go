package datasets

import (
	"fmt"
	"math"
)

// FeatureUsage is how a set of rows of a sparse feature matrix uses its columns, e.g. which of
// Twitch's 3,170 games a region's users play.
type FeatureUsage struct {
	// Rows is the number of rows counted.
	Rows int
	// MeanNonZeros is the mean number of stored non-zeros per row.
	MeanNonZeros float64
	// EmptyRows is the number of rows without a non-zero.
	EmptyRows int
	// ColumnsUsed is the number of columns with a non-zero in at least one row.
	ColumnsUsed int
	// Counts is [F]: in how many of the rows each column is non-zero.
	Counts []int
}

// UsageOf counts the non-zeros of the rows of m in rows (nil: all). A row outside [0, NumRows) is
// an error.
func UsageOf(m *CSR, rows []int32) (FeatureUsage, error) {
	in, err := nodeMask(m.NumRows, rows)
	if err != nil {
		return FeatureUsage{}, err
	}
	u := FeatureUsage{Counts: make([]int, m.NumCols)}
	nnz := 0
	for r, ok := range in {
		if !ok {
			continue
		}
		u.Rows++
		k := 0
		for p := m.RowPtr[r]; p < m.RowPtr[r+1]; p++ {
			if m.Values[p] != 0 {
				u.Counts[m.ColIdx[p]]++
				k++
			}
		}
		if k == 0 {
			u.EmptyRows++
		}
		nnz += k
	}
	for _, c := range u.Counts {
		if c > 0 {
			u.ColumnsUsed++
		}
	}
	if u.Rows > 0 {
		u.MeanNonZeros = float64(nnz) / float64(u.Rows)
	}
	return u, nil
}

// Distance is the total variation distance between how u and base spread their non-zeros over the
// columns, ½ Σ_f |p_u(f) − p_base(f)| with p(f) a column's share of all non-zeros: 0 when both use
// the columns in the same proportions, 1 when they use disjoint columns. NaN when either has no
// non-zero; an error when their widths differ.
func (u FeatureUsage) Distance(base FeatureUsage) (float64, error) {
	if len(u.Counts) != len(base.Counts) {
		return 0, fmt.Errorf("datasets: feature usages of %d and %d columns cannot be compared", len(u.Counts), len(base.Counts))
	}
	tu, tb := sum(u.Counts), sum(base.Counts)
	if tu == 0 || tb == 0 {
		return math.NaN(), nil
	}
	d := 0.0
	for f, c := range u.Counts {
		d += math.Abs(float64(c)/tu - float64(base.Counts[f])/tb)
	}
	return d / 2, nil
}

// UnseenShare is the percentage of u's non-zeros on columns that base never uses; NaN when u has
// none, an error when their widths differ.
func (u FeatureUsage) UnseenShare(base FeatureUsage) (float64, error) {
	if len(u.Counts) != len(base.Counts) {
		return 0, fmt.Errorf("datasets: feature usages of %d and %d columns cannot be compared", len(u.Counts), len(base.Counts))
	}
	unseen := 0
	for f, c := range u.Counts {
		if base.Counts[f] == 0 {
			unseen += c
		}
	}
	if t := sum(u.Counts); t > 0 {
		return 100 * float64(unseen) / t, nil
	}
	return math.NaN(), nil
}

// sum is the sum of counts as a float64.
func sum(counts []int) float64 {
	t := 0
	for _, c := range counts {
		t += c
	}
	return float64(t)
}
