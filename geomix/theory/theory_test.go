package theory

import (
	"math"
	"testing"

	"github.com/geomix-go/geomix/datasets"
	"github.com/geomix-go/geomix/geomix"
	"github.com/geomix-go/geomix/geomix/mixing"
	"github.com/gomlx/gomlx/pkg/core/graph"
)

// TestAllPass runs every check (quick with -short) and wants each to pass.
func TestAllPass(t *testing.T) {
	checks, err := All(Options{Seed: 1, Quick: testing.Short()}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(checks) != len(Names()) {
		t.Fatalf("%d checks, want %d", len(checks), len(Names()))
	}
	for _, c := range checks {
		t.Logf("%-28s pred=%.6g obs=%.6g tol=%.3g pass=%v", c.Name, c.Predicted, c.Observed, c.Tolerance, c.Pass)
		if !c.Pass {
			t.Errorf("%s failed: %+v", c.Name, c)
		}
	}
}

func TestDeterministicBySeed(t *testing.T) {
	a, err := Theorem2ExpectedLabel(Options{Seed: 5, Quick: true})
	if err != nil {
		t.Fatal(err)
	}
	b, _ := Theorem2ExpectedLabel(Options{Seed: 5, Quick: true})
	c, _ := Theorem2ExpectedLabel(Options{Seed: 6, Quick: true})
	if a.Observed != b.Observed || a.Series[7].Observed != b.Series[7].Observed {
		t.Fatalf("seed 5 twice: %g vs %g", a.Series[7].Observed, b.Series[7].Observed)
	}
	if a.Series[7].Observed == c.Series[7].Observed {
		t.Fatalf("seeds 5 and 6 gave the same sample")
	}
}

// The tests below feed each check a deliberately wrong prediction and want it to fail.

func wantFail(t *testing.T, c Check, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
	if c.Pass {
		t.Errorf("%s passed with a wrong prediction: predicted %g, observed %g, tolerance %g", c.Name, c.Predicted, c.Observed, c.Tolerance)
	}
}

var quick = Options{Seed: 1, Quick: true}

func TestTheorem1ExpectedFeatureWrongP(t *testing.T) {
	c, err := theorem1ExpectedFeature(quick, func(means [][]float64, c int, p float64) []float64 {
		return ExpectedMixedFeature(means, c, p+0.1)
	})
	wantFail(t, c, err)
}

func TestTheorem1ConcentrationWrongCenter(t *testing.T) {
	// Centre at p = 0 instead of 0.7: the bias does not shrink with the degree, t_D does.
	c, err := theorem1Concentration(quick, func(means [][]float64, c int, _ float64) []float64 {
		return ExpectedMixedFeature(means, c, 0)
	}, func(deg int, t float64) float64 { return FeatureTailBound(deg, sampledFeatures, sampledBound, t) })
	wantFail(t, c, err)
}

func TestTheorem2ExpectedLabelWrongFormula(t *testing.T) {
	// Drop the ε(1−p)(C−2)/(C−1)² term of the off-diagonal entries (and renormalise nothing).
	c, err := theorem2ExpectedLabel(quick, func(numC, c int, p, eps float64) []float64 {
		out := ExpectedMixedLabel(numC, c, p, eps)
		for j := range out {
			if j != c {
				out[j] -= eps * (1 - p) * float64(numC-2) / float64((numC-1)*(numC-1))
			}
		}
		return out
	})
	wantFail(t, c, err)
}

func TestTheorem2ConcentrationWrongCenter(t *testing.T) {
	// Centre at p = 0, ε = 0 instead of p = 0.7, ε = 0.2.
	c, err := theorem2Concentration(quick, func(numC, c int, _, _ float64) []float64 {
		return ExpectedMixedLabel(numC, c, 0, 0)
	}, func(deg int, t float64) float64 { return LabelTailBound(deg, sampledClasses, t) })
	wantFail(t, c, err)
}

func TestTheorem3PaperRelationFails(t *testing.T) {
	// The appendix's last line, α = 2τβ, i.e. τ = α/(2β).
	c, err := theorem3(quick, "theorem3/f1-gradient-step", theorem3Variant{params: func(alpha, beta float64) (float64, float64) {
		return beta, alpha / (2 * beta)
	}})
	wantFail(t, c, err)
	for _, p := range c.Series {
		if p.X == 0.5 && !p.Pass {
			t.Errorf("at alpha=0.5 the two relations agree, yet %s failed", p.Label)
		}
	}
}

func TestTheorem3WithoutDegreeCorrectionFails(t *testing.T) {
	c, err := theorem3(quick, "theorem3/f1-gradient-step", theorem3Variant{paperForm: true,
		params: func(alpha, beta float64) (float64, float64) { return beta, F1StepSize(alpha, beta) }})
	wantFail(t, c, err)
	if c.Observed < 1e-3 {
		t.Errorf("paper form on an irregular graph is off by only %g, want a visible (>= 1e-3) difference", c.Observed)
	}
}

func TestTheorem3F2WrongStep(t *testing.T) {
	c, err := theorem3(quick, "theorem3/f2-gradient-step", theorem3Variant{second: true,
		params: func(alpha, _ float64) (float64, float64) {
			beta, tau := F2Parameters(alpha)
			return beta, 1.1 * tau
		}})
	wantFail(t, c, err)
}

func TestHeterophilyCollapseWrongSeparation(t *testing.T) {
	// Naively taking the separation to be p misses the collapse at p = 1/C.
	c, err := heterophilyCollapse(quick, func(_ int, p float64) float64 { return p })
	wantFail(t, c, err)
}

func TestHeterophilyAlphaRestoresWithoutResidual(t *testing.T) {
	// Predicting that the collapse persists (separation 0) whatever α.
	c, err := heterophilyAlphaRestores(quick, func(numC int, p, _ float64) float64 { return ClassSeparation(numC, p) })
	wantFail(t, c, err)
}

func TestFormulasHandComputed(t *testing.T) {
	near := func(got, want float64) bool { return math.Abs(got-want) < 1e-12 }
	// C=4, c=0, p=0.5, ε=0.2: own 0.5*0.8 + 0.2*0.5/3; other (0.1+0.4)/3 + 0.2*0.5*2/9.
	y := ExpectedMixedLabel(4, 0, 0.5, 0.2)
	if !near(y[0], 0.4+0.1/3) || !near(y[2], 0.5/3+0.2/9) || !near(y[0]+y[1]+y[2]+y[3], 1) {
		t.Errorf("ExpectedMixedLabel = %v", y)
	}
	h := ExpectedMixedFeature([][]float64{{1, 0}, {0, 1}, {0, 0}}, 0, 0.5)
	if !near(h[0], 0.5) || !near(h[1], 0.25) {
		t.Errorf("ExpectedMixedFeature = %v, want [0.5 0.25]", h)
	}
	if b := FeatureTailBound(50, 2, 1, 0.5); !near(b, 4*math.Exp(-3.125)) {
		t.Errorf("FeatureTailBound = %g, want 4 exp(-3.125)", b)
	}
	if b := LabelTailBound(8, 4, 2); !near(b, 8*math.Exp(-4)) {
		t.Errorf("LabelTailBound = %g, want 8 exp(-4)", b)
	}
	if !near(ClassSeparation(4, 0.25), 0) || !near(ClassSeparation(4, 0), -1.0/3) || !near(ResidualSeparation(4, 0.25, 0.3), 0.3) {
		t.Errorf("separations: %g %g %g", ClassSeparation(4, 0.25), ClassSeparation(4, 0), ResidualSeparation(4, 0.25, 0.3))
	}
	if !near(F1StepSize(0.3, 1.4), 0.25) {
		t.Errorf("F1StepSize(0.3, 1.4) = %g, want 0.25", F1StepSize(0.3, 1.4))
	}
	if beta, tau := F2Parameters(0.2); !near(beta, 4) || !near(tau, 0.1) {
		t.Errorf("F2Parameters(0.2) = %g, %g, want 4, 0.1", beta, tau)
	}
}

// TestSmoothnessEnergyTwoNodes: nodes 0-1, code adjacency: every entry 1/2 (degree 1, one self-loop).
// H = [1, 3]: edge term ½(½·4 + ½·4) = 2, rows sum to 1 so no correction; tr(Hᵀ(I−Â)H) = 2 too.
func TestSmoothnessEnergyTwoNodes(t *testing.T) {
	backend, err := geomix.NewBackend()
	if err != nil {
		t.Fatal(err)
	}
	defer backend.Finalize()
	adj := &mixing.Adjacency{NumNodes: 2, Src: []int32{0, 1, 0, 1}, Dst: []int32{1, 0, 0, 1}, Weight: []float32{0.5, 0.5, 0.5, 0.5}}
	src, dst, w := adj.Inputs()
	out := graph.MustExecOnce(backend, func(h, src, dst, w, corr *graph.Node) *graph.Node {
		return SmoothnessEnergy(mixing.NewAdjacencyNodes(2, src, dst, w), h, corr)
	}, [][]float64{{1}, {3}}, src, dst, w, [][]float64{{0}, {0}})
	if got := out.Value().(float64); math.Abs(got-2) > 1e-12 {
		t.Fatalf("S(H) = %g, want 2", got)
	}
}

// BenchmarkAllQuick measures the quick suite (what `reproduce theory --quick` and CI run).
func BenchmarkAllQuick(b *testing.B) {
	for range b.N {
		if _, err := All(Options{Seed: 1, Quick: true}, nil); err != nil {
			b.Fatal(err)
		}
	}
}

// TestTheorem3PaperFormOnRegularGraph: on a cycle (2-regular) the code's Â = (A+I)/3 has rows summing
// to 1, so the paper's F1 without our degree correction is exact.
func TestTheorem3PaperFormOnRegularGraph(t *testing.T) {
	backend, err := geomix.NewBackend()
	if err != nil {
		t.Fatal(err)
	}
	defer backend.Finalize()
	const n = 10
	g := &datasets.Graph{NumNodes: n}
	for i := range n {
		g.Src = append(g.Src, int32(i), int32(i))
		g.Dst = append(g.Dst, int32((i+1)%n), int32((i+n-1)%n))
	}
	adj := mixing.BuildAdjacency(g, mixing.NormSymmetric)
	h0 := make([]float64, 2*n)
	for i := range h0 {
		h0[i] = math.Sin(float64(i))
	}
	diff, err := mixMinusGradientSteps(backend, adj, h0, 2, make([]float64, n), false, 0.3, 1.5, F1StepSize(0.3, 1.5))
	if err != nil {
		t.Fatal(err)
	}
	// The weights are float32: each row sums to 1 within a few 2^-24, hence 1e-6, not float64 rounding.
	if diff > 1e-6 {
		t.Fatalf("max |GeoMix-I - GD(F1 paper form)| = %g on a regular graph, want < 1e-6", diff)
	}
}
