package datasets

import (
	"fmt"
	"io"
	"sync"
	"sync/atomic"

	"github.com/geomix-go/geomix/internal/progress"
)

// knnTile is the number of rows in a tile of knnSearchSymmetric: two tiles of 784-wide rows
// (Fashion-MNIST's pixels) take 400 KiB, which stays in a core's L2 cache while every pair
// between them is compared.
const knnTile = 64

// knnSearchSymmetric is KNearest's search over the rows of the dense row-major [numRows, numCols]
// x. The distance of a pair is the same both ways (squaredDistance of a−b and of b−a square the
// same numbers), so it visits each pair of tiles once, computes each pair's distance once and
// offers it to both rows. The workers take tiles of first rows in turn, each keeping every row's
// nearest others in its own lists, merged at the end; kept neighbours are ordered by (distance,
// index), so the result is the row-by-row scan's whatever the order of the offers.
func knnSearchSymmetric(x []float32, numRows, numCols, k int, includeSelf bool, out io.Writer) []int32 {
	m := k
	if includeSelf {
		m = k - 1
	}
	tiles := (numRows + knnTile - 1) / knnTile
	if m == 0 {
		tiles = 0 // every row is its own only neighbour: no pair to compare
	}
	var bar progress.Bar
	if out != nil && tiles > 0 {
		bar = progress.New(out, int64(tiles*(tiles+1)/2), fmt.Sprintf("%d-NN over %d rows (pairs of %d-row tiles)", k, numRows, knnTile), false)
	}
	lists := make([]*nearestLists, knnWorkers)
	var next atomic.Int64
	var wg sync.WaitGroup
	for w := range knnWorkers {
		lists[w] = newNearestLists(numRows, m)
		wg.Go(func() {
			l := lists[w]
			for first := int(next.Add(1) - 1); first < tiles; first = int(next.Add(1) - 1) {
				for second := first; second < tiles; second++ {
					compareTiles(x, numRows, numCols, first, second, l)
				}
				if bar != nil {
					_ = bar.Add(tiles - first)
				}
			}
		})
	}
	wg.Wait()
	if bar != nil {
		_ = bar.Finish()
	}
	for _, l := range lists[1:] {
		lists[0].merge(l)
	}
	nbrs := make([]int32, numRows*k)
	for i := range numRows {
		row := nbrs[i*k : (i+1)*k]
		if includeSelf {
			row[0] = int32(i)
			row = row[1:]
		}
		copy(row, lists[0].idx[i*m:(i+1)*m])
	}
	return nbrs
}

// compareTiles offers the distance of every pair of rows (i in tile first, j in tile second, i < j)
// to both rows' lists in l.
func compareTiles(x []float32, numRows, numCols, first, second int, l *nearestLists) {
	iEnd, jEnd := min((first+1)*knnTile, numRows), min((second+1)*knnTile, numRows)
	for i := first * knnTile; i < iEnd; i++ {
		xi := x[i*numCols : (i+1)*numCols]
		jStart := second * knnTile
		if first == second {
			jStart = i + 1
		}
		for j := jStart; j < jEnd; j++ {
			d := squaredDistance(xi, x[j*numCols:(j+1)*numCols])
			l.offer(i, d, int32(j))
			l.offer(j, d, int32(i))
		}
	}
}

// nearestLists keeps, for each row, its m nearest others offered so far in increasing (distance,
// index) order: dist and idx [numRows, m] row-major, count how many of a row's m are set.
type nearestLists struct {
	m     int
	dist  []float32
	idx   []int32
	count []int32
}

// newNearestLists returns empty lists of m neighbours for numRows rows.
func newNearestLists(numRows, m int) *nearestLists {
	return &nearestLists{m: m, dist: make([]float32, numRows*m), idx: make([]int32, numRows*m), count: make([]int32, numRows)}
}

// offer keeps row j at distance d among row i's m nearest if it is nearer, in (distance, index)
// order, than the farthest kept one or fewer than m are kept.
func (l *nearestLists) offer(i int, d float32, j int32) {
	if l.m == 0 {
		return
	}
	dist, idx := l.dist[i*l.m:(i+1)*l.m], l.idx[i*l.m:(i+1)*l.m]
	n := int(l.count[i])
	if n == l.m && !nearer(d, j, dist[n-1], idx[n-1]) {
		return
	}
	p := n
	if n < l.m {
		l.count[i]++
	} else {
		p = n - 1
	}
	for p > 0 && nearer(d, j, dist[p-1], idx[p-1]) {
		dist[p], idx[p] = dist[p-1], idx[p-1]
		p--
	}
	dist[p], idx[p] = d, j
}

// merge offers every neighbour kept in o to l's lists of the same rows.
func (l *nearestLists) merge(o *nearestLists) {
	for i, n := range o.count {
		for p := range int(n) {
			l.offer(i, o.dist[i*o.m+p], o.idx[i*o.m+p])
		}
	}
}

// nearer reports whether (d, j) comes before (e, k): a smaller distance, or the same and a lower index.
func nearer(d float32, j int32, e float32, k int32) bool {
	return d < e || (d == e && j < k)
}
