// Package testutil holds what the tests of GeoMix's packages share: the pure-Go backend, a tiny
// graph, and real data sets loaded from $GEOMIX_DATA or skipped.
package testutil

import (
	"math"
	"math/rand/v2"
	"os"
	"sync"
	"testing"

	"github.com/geomix-go/geomix/datasets"
	"github.com/geomix-go/geomix/internal/rowops"
	"github.com/gomlx/gomlx/backends"
	"github.com/gomlx/gomlx/pkg/ml/context"
)

var (
	backendOnce sync.Once
	backendVal  backends.Backend
	backendErr  error
)

// Backend is the pure-Go backend with internal/rowops's executors, shared by all tests.
func Backend(tb testing.TB) backends.Backend {
	backendOnce.Do(func() { backendVal, backendErr = rowops.NewBackend() })
	if backendErr != nil {
		tb.Fatalf("creating the pure-Go backend: %v", backendErr)
	}
	return backendVal
}

// LoadOrSkip loads a real data set from $GEOMIX_DATA, skipping when the variable is unset or the
// files are missing.
func LoadOrSkip(tb testing.TB, name string) *datasets.Graph {
	root := os.Getenv(datasets.EnvData)
	if root == "" {
		tb.Skipf("$%s is not set: skipping the test on real data %q", datasets.EnvData, name)
	}
	g, err := datasets.Load(name, datasets.Options{Offline: true}) // the default root resolves a relative $GEOMIX_DATA
	if err != nil {
		tb.Skipf("data set %q not available under $%s=%s: %v", name, datasets.EnvData, root, err)
	}
	return g
}

// TinyGraph is a 30-node ring with chords, 3 classes by position, 5 sparse features, one split.
func TinyGraph() *datasets.Graph {
	const n, f = 30, 5
	rng := rand.New(rand.NewPCG(3, 4))
	g := &datasets.Graph{Name: "tiny", NumNodes: n, NumClasses: 3, Labels: make([]int32, n)}
	feat := &datasets.CSR{NumRows: n, NumCols: f, RowPtr: []int64{0}}
	for i := range n {
		g.Labels[i] = int32(i * 3 / n)
		j, k := (i+1)%n, (i+7)%n
		g.Src, g.Dst = append(g.Src, int32(i), int32(j), int32(i), int32(k)), append(g.Dst, int32(j), int32(i), int32(k), int32(i))
		for col := range f {
			if rng.Float64() < 0.5 || col == int(g.Labels[i]) {
				feat.ColIdx, feat.Values = append(feat.ColIdx, int32(col)), append(feat.Values, float32(rng.Float64()))
			}
		}
		feat.RowPtr = append(feat.RowPtr, int64(len(feat.ColIdx)))
	}
	var err error
	if g.Src, g.Dst, err = datasets.UndirectedEdges(n, g.Src, g.Dst); err != nil {
		panic(err)
	}
	g.Features = feat
	g.Splits = []datasets.Split{{Train: []int32{0, 1, 10, 11, 20, 21}, Val: []int32{2, 3, 12, 13, 22, 23}, Test: []int32{4, 5, 14, 15, 24, 25}}}
	return g
}

// NonZeros returns x's non-zeros as Features' sparse inputs: rows, cols [NNZ, 1] and values [NNZ, 1].
func NonZeros(x [][]float64) (rows, cols [][]int32, vals [][]float64) {
	for i := range x {
		for j, v := range x[i] {
			if v != 0 {
				rows, cols, vals = append(rows, []int32{int32(i)}), append(cols, []int32{int32(j)}), append(vals, []float64{v})
			}
		}
	}
	return rows, cols, vals
}

// FlatRows concatenates the rows of m.
func FlatRows(m [][]float64) []float64 {
	var out []float64
	for _, row := range m {
		out = append(out, row...)
	}
	return out
}

func RandomMatrix(rng *rand.Rand, rows, cols int, zeroFrac float64) [][]float64 {
	out := make([][]float64, rows)
	for i := range out {
		out[i] = make([]float64, cols)
		for j := range out[i] {
			if rng.Float64() >= zeroFrac {
				out[i][j] = rng.Float64()*2 - 1
			}
		}
	}
	return out
}

func AssertNear(t *testing.T, what string, got, want []float64, tol float64) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s: got %d values, want %d", what, len(got), len(want))
	}
	for i := range want {
		if math.Abs(got[i]-want[i]) > tol {
			t.Fatalf("%s[%d] = %.8g, want %.8g (all: got %v, want %v)", what, i, got[i], want[i], got, want)
		}
	}
}

func To64(x []float32) []float64 {
	out := make([]float64, len(x))
	for i, v := range x {
		out[i] = float64(v)
	}
	return out
}

// NewContext returns an unchecked context (variables set beforehand are reused by Rest), with a
// fixed RNG seed and the given parameters.
func NewContext(t *testing.T, params map[string]any) *context.Context {
	ctx := context.New().Checked(false)
	if err := ctx.SetRNGStateFromSeed(7); err != nil {
		t.Fatal(err)
	}
	ctx.SetParams(params)
	return ctx
}

// PathGraph is 0 - 1 - 2 plus an isolated node 3, with both edge directions.
func PathGraph() *datasets.Graph {
	return &datasets.Graph{Name: "path", NumNodes: 4, Src: []int32{0, 1, 1, 2}, Dst: []int32{1, 0, 2, 1}}
}

// NormalMatrix32 returns a [rows, cols] matrix of standard normal float32 values drawn from rng.
func NormalMatrix32(rng *rand.Rand, rows, cols int) [][]float32 {
	m := make([][]float32, rows)
	for i := range m {
		m[i] = make([]float32, cols)
		for j := range m[i] {
			m[i][j] = float32(rng.NormFloat64())
		}
	}
	return m
}

// LargestDifference returns the largest |want − got| over two matrices of the same shape and the
// largest |want|, to compare sums of the same terms added in another order.
func LargestDifference(want, got [][]float32) (diff, scale float64) {
	for r := range want {
		for k := range want[r] {
			diff, scale = max(diff, math.Abs(float64(want[r][k]-got[r][k]))), max(scale, math.Abs(float64(want[r][k])))
		}
	}
	return diff, scale
}
