package theory

import (
	"fmt"

	"github.com/geomix-go/geomix/datasets"
)

// labelComponent labels component j of the flattened [C][C] class means of the mixed labels.
func labelComponent(j int) string {
	return fmt.Sprintf("class=%d label=%d", j/sampledClasses, j%sampledClasses)
}

// Theorem2ExpectedLabel checks Eq. 8: over p in {0.1, 0.5, 0.9} and ε in {0, 0.2, 0.5}, the mean of the
// mixed one-hot pseudo labels ȳ_i = Σ_j ŷ_j / deg(i) over the nodes of each class equals the paper's
// expectation, label by label. Pseudo labels carry the error ε on every node (assumption 4; the
// training code would overwrite the labelled rows with the truth).
func Theorem2ExpectedLabel(o Options) (Check, error) {
	return theorem2ExpectedLabel(o, ExpectedMixedLabel)
}

func theorem2ExpectedLabel(o Options, predict func(numC, c int, p, eps float64) []float64) (Check, error) {
	const name = "theorem2/expected-label"
	means := classMeansFor(o, name, sampledClasses, sampledFeatures, sampledBound)
	var points []gridPoint
	for _, p := range []float64{0.1, 0.5, 0.9} {
		for _, eps := range []float64{0, 0.2, 0.5} {
			points = append(points, gridPoint{label: fmt.Sprintf("p=%g eps=%g", p, eps), x: p,
				cfg: sampledConfig(o, means, p, eps, sampledDegree)})
		}
	}
	series, err := compareSampled(o, name, points, flatClassMeans(sampledFeatures, sampledFeatures+sampledClasses),
		func(pt gridPoint, _ *datasets.SyntheticTruth) []float64 {
			var out []float64
			for c := range sampledClasses {
				out = append(out, predict(sampledClasses, c, pt.cfg.P, pt.cfg.Epsilon)...)
			}
			return out
		}, labelComponent)
	if err != nil {
		return Check{}, err
	}
	return Check{Name: name, Comparison: Equal, Series: series, Note: fmt.Sprintf(
		"class means of one basic mixup of one-hot pseudo labels with e_ij = 1/deg(i) on synthetic graphs "+
			"(N=%d, C=%d, mean degree %d), %d replicates per (p, eps); tolerance = Student-t quantile "+
			"(family level %g, Bonferroni) x standard error across replicates + %g",
		o.nodes(), sampledClasses, sampledDegree, o.replicates(), familyLevel, float32Slack)}.finish(), nil
}

// Theorem2Concentration checks Eq. 9 as Theorem1Concentration does Eq. 7, for the mixed pseudo labels
// (p = 0.7, ε = 0.2) and the bound 2C exp(−deg t²/(2C)).
func Theorem2Concentration(o Options) (Check, error) {
	return theorem2Concentration(o, ExpectedMixedLabel, func(deg int, t float64) float64 {
		return LabelTailBound(deg, sampledClasses, t)
	})
}

func theorem2Concentration(o Options, center func(numC, c int, p, eps float64) []float64,
	bound func(deg int, t float64) float64) (Check, error) {
	const name = "theorem2/concentration"
	const p, eps = 0.7, 0.2
	means := hadamardMeans()
	c, err := concentration(o, name, sampledFeatures, sampledFeatures+sampledClasses,
		func(deg int) datasets.SyntheticConfig { return sampledConfig(o, means, p, eps, deg) },
		func(_ *datasets.SyntheticTruth, c int) []float64 { return center(sampledClasses, c, p, eps) },
		bound, 2*sampledClasses)
	if err != nil {
		return Check{}, err
	}
	c.Note = "pseudo-label " + c.Note
	return c, nil
}
