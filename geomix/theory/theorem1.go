package theory

import (
	"fmt"

	"github.com/geomix-go/geomix/datasets"
)

// The sampled graphs of Theorems 1-2: C=4 classes, F=4 features in [-1, 1], mean degree 10.
const (
	sampledClasses  = 4
	sampledFeatures = 4
	sampledDegree   = 10
	sampledBound    = 1.0
)

// sampledConfig is the synthetic configuration of the sampling checks at homophily p, pseudo-label
// error eps and mean degree deg, with the check's fixed class means.
func sampledConfig(o Options, means [][]float64, p, eps float64, deg int) datasets.SyntheticConfig {
	return datasets.SyntheticConfig{Nodes: o.nodes(), Classes: sampledClasses, Features: sampledFeatures,
		Degree: deg, P: p, Epsilon: eps, Bound: sampledBound, Means: means}
}

// hadamardMeans returns the [4][4] class means (B/2)·H₄ (rows of the Sylvester–Hadamard matrix):
// orthogonal and at the corners of the bound's cube (‖μ(c) − mean of the others‖ = 2B/√3 for every c),
// which makes a wrong centre visible in the concentration checks.
func hadamardMeans() [][]float64 {
	h := [][]float64{{1, 1, 1, 1}, {1, -1, 1, -1}, {1, 1, -1, -1}, {1, -1, -1, 1}}
	for _, row := range h {
		for k := range row {
			row[k] *= sampledBound / 2
		}
	}
	return h
}

// featureComponent labels component j of the flattened [C][F] class means.
func featureComponent(j int) string {
	return fmt.Sprintf("class=%d coord=%d", j/sampledFeatures, j%sampledFeatures)
}

// Theorem1ExpectedFeature checks Eq. 6: over p in {0.1, 0.25 (= 1/C), 0.5, 0.9}, the mean of the mixed
// features h_i = Σ_j x_j / deg(i) (mixing.MixI with α = 0 on mixing.NormRow) over the nodes of each
// class equals p μ(c) + (1−p)/(C−1) Σ_{c'≠c} μ(c'), coordinate by coordinate (ε does not enter
// Eq. 6; the graphs use ε = 0.2).
func Theorem1ExpectedFeature(o Options) (Check, error) {
	return theorem1ExpectedFeature(o, ExpectedMixedFeature)
}

func theorem1ExpectedFeature(o Options, predict func(means [][]float64, c int, p float64) []float64) (Check, error) {
	const name = "theorem1/expected-feature"
	means := classMeansFor(o, name, sampledClasses, sampledFeatures, sampledBound)
	var points []gridPoint
	for _, p := range []float64{0.1, 0.25, 0.5, 0.9} {
		points = append(points, gridPoint{label: fmt.Sprintf("p=%g", p), x: p, cfg: sampledConfig(o, means, p, 0.2, sampledDegree)})
	}
	series, err := compareSampled(o, name, points, flatClassMeans(0, sampledFeatures),
		func(pt gridPoint, truth *datasets.SyntheticTruth) []float64 {
			var out []float64
			for c := range sampledClasses {
				out = append(out, predict(truth.Means, c, pt.cfg.P)...)
			}
			return out
		}, featureComponent)
	if err != nil {
		return Check{}, err
	}
	return Check{Name: name, Comparison: Equal, Series: series, Note: fmt.Sprintf(
		"class means of one basic mixup with e_ij = 1/deg(i) (the proof's weights; the code uses D̃^-1/2(A+I)D̃^-1/2) "+
			"on synthetic graphs (N=%d, C=%d, F=%d, mean degree %d), %d replicates per p; tolerance = Student-t "+
			"quantile (family level %g, Bonferroni) x standard error across replicates + %g",
		o.nodes(), sampledClasses, sampledFeatures, sampledDegree, o.replicates(), familyLevel, float32Slack)}.finish(), nil
}

// Theorem1Concentration checks Eq. 7: for growing mean degree, at the distance t where the bound
// 2F exp(−deg t²/(2B²F)) equals 1/2, the fraction of nodes with ‖h_i − E h_i‖₂ >= t stays below the
// bound averaged over the nodes' actual degrees (E h_i from Eq. 6, p = 0.7).
func Theorem1Concentration(o Options) (Check, error) {
	return theorem1Concentration(o, ExpectedMixedFeature, func(deg int, t float64) float64 {
		return FeatureTailBound(deg, sampledFeatures, sampledBound, t)
	})
}

func theorem1Concentration(o Options, center func(means [][]float64, c int, p float64) []float64,
	bound func(deg int, t float64) float64) (Check, error) {
	const name = "theorem1/concentration"
	const p = 0.7
	means := hadamardMeans()
	c, err := concentration(o, name, 0, sampledFeatures,
		func(deg int) datasets.SyntheticConfig { return sampledConfig(o, means, p, 0.2, deg) },
		func(truth *datasets.SyntheticTruth, c int) []float64 { return center(truth.Means, c, p) },
		bound, 2*sampledBound*sampledFeatures)
	if err != nil {
		return Check{}, err
	}
	c.Note = "feature " + c.Note
	return c, nil
}
