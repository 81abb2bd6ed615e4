package datasets

import (
	"fmt"
	"io"
	"math"
	"sync"

	"github.com/geomix-go/geomix/internal/progress"
)

// knnWorkers is the number of goroutines the kNN searches use: the project's machines have 2 cores.
const knnWorkers = 2

// KNearest is an exact Euclidean k-nearest-neighbour search on the host over the rows of x, a
// row-major [numRows, numCols] matrix. It returns the [numRows, k] row-major neighbour indices, each
// row ordered by increasing distance, ties broken by the lower index. Distances are sums of squared
// differences in float32.
//
// With includeSelf, row i is its own first neighbour followed by its k-1 nearest other rows
// (scikit-learn kneighbors_graph(include_self=True)); without, it has k other rows (PyG knn_graph,
// loop=False). A duplicate of row i at distance 0 is never taken for row i itself.
//
// When progress is not nil a progress bar is written to it. The search runs on 2 goroutines; it
// computes each pair's distance once, for both rows (knnSearchSymmetric).
func KNearest(x []float32, numRows, numCols, k int, includeSelf bool, progress io.Writer) ([]int32, error) {
	if numRows <= 0 || numCols <= 0 || len(x) != numRows*numCols {
		return nil, fmt.Errorf("kNN: matrix of %d values is not [%d, %d]", len(x), numRows, numCols)
	}
	if err := checkKNNArgs(numRows, k, includeSelf, x, numCols); err != nil {
		return nil, err
	}
	return knnSearchSymmetric(x, numRows, numCols, k, includeSelf, progress), nil
}

// KNearestCSR is KNearest over the rows of a sparse [NumRows, NumCols] matrix, with squared
// distances computed as |a|^2 + |b|^2 - 2 a.b in float64 (clamped at 0), as scikit-learn's
// euclidean_distances does; its cost grows with the non-zeros, not with NumCols.
func KNearestCSR(m *CSR, k int, includeSelf bool, progress io.Writer) ([]int32, error) {
	if m.NumRows <= 0 || len(m.RowPtr) != m.NumRows+1 || m.RowPtr[m.NumRows] != int64(len(m.ColIdx)) || len(m.Values) != len(m.ColIdx) {
		return nil, fmt.Errorf("kNN: CSR matrix of %d rows has %d row pointers, %d column indices and %d values",
			m.NumRows, len(m.RowPtr), len(m.ColIdx), len(m.Values))
	}
	if err := checkKNNArgs(m.NumRows, k, includeSelf, m.Values, 0); err != nil {
		return nil, err
	}
	for _, c := range m.ColIdx {
		if c < 0 || int(c) >= m.NumCols {
			return nil, fmt.Errorf("kNN: CSR column index %d outside [0, %d)", c, m.NumCols)
		}
	}
	norms := make([]float64, m.NumRows)
	for i := range norms {
		for p := m.RowPtr[i]; p < m.RowPtr[i+1]; p++ {
			norms[i] += float64(m.Values[p]) * float64(m.Values[p])
		}
	}
	rowDistances := func() func(i int) func(j int) float64 {
		dense := make([]float64, m.NumCols)
		prev := -1
		return func(i int) func(j int) float64 {
			if prev >= 0 {
				for p := m.RowPtr[prev]; p < m.RowPtr[prev+1]; p++ {
					dense[m.ColIdx[p]] = 0
				}
			}
			for p := m.RowPtr[i]; p < m.RowPtr[i+1]; p++ {
				dense[m.ColIdx[p]] = float64(m.Values[p])
			}
			prev = i
			return func(j int) float64 {
				var dot float64
				for p := m.RowPtr[j]; p < m.RowPtr[j+1]; p++ {
					dot += dense[m.ColIdx[p]] * float64(m.Values[p])
				}
				return max(norms[i]+norms[j]-2*dot, 0)
			}
		}
	}
	return knnSearch(m.NumRows, k, includeSelf, progress, rowDistances), nil
}

// checkKNNArgs checks k against the number of rows and that every value is finite (values of a
// dense matrix with numCols columns are located by row and column; numCols 0 gives the position).
func checkKNNArgs(numRows, k int, includeSelf bool, values []float32, numCols int) error {
	others := k
	if includeSelf {
		others = k - 1
	}
	if k <= 0 || others < 0 || others > numRows-1 {
		return fmt.Errorf("kNN: k=%d (includeSelf=%v) needs at least %d rows, got %d", k, includeSelf, others+1, numRows)
	}
	for i, v := range values {
		if math.IsNaN(float64(v)) || math.IsInf(float64(v), 0) {
			if numCols > 0 {
				return fmt.Errorf("kNN: value at row %d, column %d is %v, expected a finite number", i/numCols, i%numCols, v)
			}
			return fmt.Errorf("kNN: stored value %d is %v, expected a finite number", i, v)
		}
	}
	return nil
}

// knnSearch runs the search on knnWorkers goroutines. rowDistances is called once per goroutine and
// returns a function that, given row i, returns the distance from row i to any row j.
func knnSearch(numRows, k int, includeSelf bool, out io.Writer, rowDistances func() func(i int) func(j int) float64) []int32 {
	others := k
	if includeSelf {
		others = k - 1
	}
	var bar progress.Bar
	if out != nil {
		bar = progress.New(out, int64(numRows), fmt.Sprintf("%d-NN over %d rows", k, numRows), false)
	}
	nbrs := make([]int32, numRows*k)
	var wg sync.WaitGroup
	for w := range knnWorkers {
		wg.Go(func() {
			distancesFrom := rowDistances()
			dist := make([]float64, others)
			idx := make([]int32, others)
			done := 0
			for i := w; i < numRows; i += knnWorkers {
				nearestOthers(numRows, i, distancesFrom(i), dist, idx)
				out := nbrs[i*k : (i+1)*k]
				if includeSelf {
					out[0] = int32(i)
					out = out[1:]
				}
				copy(out, idx)
				if done++; bar != nil && done%64 == 0 {
					_ = bar.Add(64)
				}
			}
			if bar != nil {
				_ = bar.Add(done % 64)
			}
		})
	}
	wg.Wait()
	if bar != nil {
		_ = bar.Finish()
	}
	return nbrs
}

// nearestOthers fills dist/idx (length m) with the m rows nearest to row i, other than i, in
// increasing (distance, index) order; distanceTo(j) is the distance from row i to row j.
func nearestOthers(numRows, i int, distanceTo func(j int) float64, dist []float64, idx []int32) {
	m := len(idx)
	if m == 0 {
		return
	}
	filled := 0
	for j := range numRows {
		if j == i {
			continue
		}
		d := distanceTo(j)
		if filled == m && d >= dist[m-1] {
			continue // j is larger than every kept index, so an equal distance loses the tie.
		}
		p := filled
		if filled < m {
			filled++
		} else {
			p = m - 1
		}
		for p > 0 && dist[p-1] > d {
			dist[p], idx[p] = dist[p-1], idx[p-1]
			p--
		}
		dist[p], idx[p] = d, int32(j)
	}
}

// squaredDistance is the squared Euclidean distance of two equal-length rows.
func squaredDistance(a, b []float32) float32 {
	var s0, s1, s2, s3 float32
	n := len(a)
	b = b[:n]
	j := 0
	for ; j+4 <= n; j += 4 {
		d0, d1, d2, d3 := a[j]-b[j], a[j+1]-b[j+1], a[j+2]-b[j+2], a[j+3]-b[j+3]
		s0 += d0 * d0
		s1 += d1 * d1
		s2 += d2 * d2
		s3 += d3 * d3
	}
	for ; j < n; j++ {
		d := a[j] - b[j]
		s0 += d * d
	}
	return (s0 + s1) + (s2 + s3)
}

// knnEdges returns the undirected edge list (both directions, no self-loops, sorted) of a kNN
// graph given as [numRows, k] neighbour indices: PyG to_undirected applied to the kNN edges.
func knnEdges(numRows, k int, nbrs []int32) (src, dst []int32, err error) {
	if len(nbrs) != numRows*k {
		return nil, nil, fmt.Errorf("kNN: %d neighbour indices, want [%d, %d]", len(nbrs), numRows, k)
	}
	return KNNEdges(nbrs, k, k)
}
