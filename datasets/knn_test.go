package datasets

import (
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

func TestKNearestHandExample(t *testing.T) {
	x := []float32{0, 1, 3, 6, 10} // 1-d points; row 2 (x=3) has rows 0 and 3 both at squared distance 9.
	got, err := KNearest(x, 5, 1, 2, false, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := []int32{1, 2, 0, 2, 1, 0, 2, 4, 3, 2}
	if !slices.Equal(got, want) {
		t.Errorf("2-NN without self = %v, want %v", got, want)
	}
	got, err = KNearest(x, 5, 1, 3, true, nil)
	if err != nil {
		t.Fatal(err)
	}
	want = []int32{0, 1, 2, 1, 0, 2, 2, 1, 0, 3, 2, 4, 4, 3, 2}
	if !slices.Equal(got, want) {
		t.Errorf("3-NN with self = %v, want %v", got, want)
	}
}

func TestKNearestDuplicateRowsKeepSelfFirst(t *testing.T) {
	x := []float32{0, 0, 0, 0, 5, 5} // rows 0 and 1 are equal.
	got, err := KNearest(x, 3, 2, 2, true, nil)
	if err != nil {
		t.Fatal(err)
	}
	if want := []int32{0, 1, 1, 0, 2, 0}; !slices.Equal(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
}

func TestKNearestMatchesSortedDistances(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	n, f, k := 301, 7, 6
	x := make([]float32, n*f)
	for i := range x {
		x[i] = float32(rng.IntN(4)) // small integers: many exact ties.
	}
	got, err := KNearest(x, n, f, k, false, nil)
	if err != nil {
		t.Fatal(err)
	}
	for i := range n {
		order := make([]int32, 0, n-1)
		for j := range n {
			if j != i {
				order = append(order, int32(j))
			}
		}
		dist := func(j int32) float64 {
			var s float64
			for c := range f {
				d := float64(x[i*f+c] - x[int(j)*f+c])
				s += d * d
			}
			return s
		}
		slices.SortStableFunc(order, func(a, b int32) int {
			if da, db := dist(a), dist(b); da != db {
				return int(math.Copysign(1, da-db))
			}
			return int(a - b)
		})
		if !slices.Equal(got[i*k:(i+1)*k], order[:k]) {
			t.Fatalf("row %d: got %v, want %v", i, got[i*k:(i+1)*k], order[:k])
		}
	}
}

// TestKNearestMatchesRowScan: the symmetric tiled search returns the row-by-row scan's neighbours
// (knnSearch over squaredDistance) to the index, with and without self, on sizes that end inside a
// tile, with many exact ties and duplicate rows.
func TestKNearestMatchesRowScan(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for _, c := range []struct{ n, f, k, levels int }{{1, 3, 1, 4}, {70, 5, 1, 3}, {70, 5, 3, 3}, {200, 9, 6, 2}, {333, 16, 5, 1000}} {
		x := make([]float32, c.n*c.f)
		for i := range x {
			x[i] = float32(rng.IntN(c.levels)) / float32(c.levels)
		}
		for _, self := range []bool{false, true} {
			if c.n == 1 && !self {
				continue
			}
			got, err := KNearest(x, c.n, c.f, c.k, self, nil)
			if err != nil {
				t.Fatal(err)
			}
			want := knnSearch(c.n, c.k, self, nil, func() func(i int) func(j int) float64 {
				return func(i int) func(j int) float64 {
					return func(j int) float64 {
						return float64(squaredDistance(x[i*c.f:(i+1)*c.f], x[j*c.f:(j+1)*c.f]))
					}
				}
			})
			if !slices.Equal(got, want) {
				t.Errorf("n=%d f=%d k=%d self=%v: the tiled search differs from the row scan", c.n, c.f, c.k, self)
			}
		}
	}
}

func TestKNearestRejectsBadInput(t *testing.T) {
	cases := []struct {
		x          []float32
		n, f, k    int
		self       bool
		wantErrSub string
	}{
		{[]float32{0, 1, 2}, 2, 2, 1, false, "is not [2, 2]"},
		{[]float32{0, 1}, 2, 1, 2, false, "needs at least 3 rows"},
		{[]float32{0, 1}, 2, 1, 3, true, "needs at least 3 rows"},
		{[]float32{0, float32(math.NaN())}, 2, 1, 1, false, "row 1, column 0 is NaN"},
	}
	for _, c := range cases {
		_, err := KNearest(c.x, c.n, c.f, c.k, c.self, nil)
		if err == nil || !strings.Contains(err.Error(), c.wantErrSub) {
			t.Errorf("KNearest(%v, %d, %d, k=%d): got %v, want an error containing %q", c.x, c.n, c.f, c.k, err, c.wantErrSub)
		}
	}
}

func TestKNNEdgesUndirected(t *testing.T) {
	// Neighbour rows (self first): 0: [0 1], 1: [1 0], 2: [2 0]; the undirected edges are 0-1 and 0-2.
	src, dst, err := knnEdges(3, 2, []int32{0, 1, 1, 0, 2, 0})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(src, []int32{0, 0, 1, 2}) || !slices.Equal(dst, []int32{1, 2, 0, 0}) {
		t.Errorf("edges %v -> %v, want [0 0 1 2] -> [1 2 0 0]", src, dst)
	}
}

func BenchmarkKNearest(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 2))
	n, f := 3000, 128
	x := make([]float32, n*f)
	for i := range x {
		x[i] = rng.Float32()
	}
	b.ResetTimer()
	for range b.N {
		if _, err := KNearest(x, n, f, 5, false, nil); err != nil {
			b.Fatal(err)
		}
	}
}

func TestKNearestCSRMatchesDense(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	n, f, k := 250, 9, 5
	x := make([]float32, n*f)
	for i := range x {
		if rng.IntN(2) == 0 {
			x[i] = rng.Float32()
		}
	}
	for _, self := range []bool{false, true} {
		dense, err := KNearest(x, n, f, k, self, nil)
		if err != nil {
			t.Fatal(err)
		}
		sparse, err := KNearestCSR(denseToCSR(n, f, x), k, self, nil)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(dense, sparse) {
			t.Errorf("includeSelf=%v: sparse and dense neighbours differ", self)
		}
	}
	got, err := KNearestCSR(denseToCSR(5, 1, []float32{0, 1, 3, 6, 10}), 2, false, nil)
	if want := []int32{1, 2, 0, 2, 1, 0, 2, 4, 3, 2}; err != nil || !slices.Equal(got, want) {
		t.Errorf("hand example: %v, %v; want %v", got, err, want)
	}
	bad := &CSR{NumRows: 2, NumCols: 1, RowPtr: []int64{0, 1, 2}, ColIdx: []int32{0, 1}, Values: []float32{1, 2}}
	if _, err := KNearestCSR(bad, 1, false, nil); err == nil || !strings.Contains(err.Error(), "column index 1 outside [0, 1)") {
		t.Errorf("bad column index: got %v", err)
	}
}
