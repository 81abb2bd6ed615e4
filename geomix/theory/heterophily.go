package theory

import (
	"fmt"

	"github.com/geomix-go/geomix/datasets"
)

// separation is a statFn: the signed separation factor of the mixed features' class means,
// Σ_{a<b} <M_a − M_b, μ(a) − μ(b)> / Σ_{a<b} ‖μ(a) − μ(b)‖², which is λ when M_c = λ μ(c) + const.
func separation(s *mixedSample) []float64 {
	m, mu := s.classMeans(), s.truth.Means
	num, den := 0.0, 0.0
	for a := range mu {
		for b := a + 1; b < len(mu); b++ {
			for k := range mu[a] {
				d := mu[a][k] - mu[b][k]
				num += (m[a][k] - m[b][k]) * d
				den += d * d
			}
		}
	}
	return []float64{num / den}
}

// HeterophilyCollapse checks the heterophily discussion of Sec. 3.1: over p in {0.05, 0.25 (= 1/C),
// 0.5, 0.9}, the class means of the basic mixup are separated by the factor λ = (pC−1)/(C−1) of the
// raw means (ClassSeparation), which vanishes at p = 1/C: the expected mixed features of all classes
// collapse to one point.
func HeterophilyCollapse(o Options) (Check, error) {
	return heterophilyCollapse(o, ClassSeparation)
}

func heterophilyCollapse(o Options, predict func(numC int, p float64) float64) (Check, error) {
	const name = "heterophily/collapse"
	means := classMeansFor(o, name, sampledClasses, sampledFeatures, sampledBound)
	var points []gridPoint
	for _, p := range []float64{0.05, 0.25, 0.5, 0.9} {
		points = append(points, gridPoint{label: fmt.Sprintf("p=%g", p), x: p, cfg: sampledConfig(o, means, p, 0.2, sampledDegree)})
	}
	series, err := compareSampled(o, name, points, separation,
		func(pt gridPoint, _ *datasets.SyntheticTruth) []float64 {
			return []float64{predict(sampledClasses, pt.cfg.P)}
		}, func(int) string { return "separation" })
	if err != nil {
		return Check{}, err
	}
	return Check{Name: name, Comparison: Equal, Series: series, Note: fmt.Sprintf(
		"separation factor of the class means after one basic mixup (e_ij = 1/deg(i)) vs (pC-1)/(C-1), "+
			"0 at p = 1/C = 0.25; N=%d, C=%d, %d replicates per p; tolerance from the replicates' standard error",
		o.nodes(), sampledClasses, o.replicates())}.finish(), nil
}

// HeterophilyAlphaRestores checks the remedy of Sec. 3.2 at p = 1/C, where the basic mixup collapses:
// one GeoMix-I step with residual α in {0.25, 0.5, 0.75} (mixing.MixI on mixing.NormRow) keeps the
// class means separated by the factor α + (1−α)λ = α (ResidualSeparation).
func HeterophilyAlphaRestores(o Options) (Check, error) {
	return heterophilyAlphaRestores(o, ResidualSeparation)
}

func heterophilyAlphaRestores(o Options, predict func(numC int, p, alpha float64) float64) (Check, error) {
	const name = "heterophily/alpha-restores"
	const p = 1.0 / sampledClasses
	means := classMeansFor(o, name, sampledClasses, sampledFeatures, sampledBound)
	var points []gridPoint
	for _, alpha := range []float64{0.25, 0.5, 0.75} {
		points = append(points, gridPoint{label: fmt.Sprintf("p=1/C alpha=%g", alpha), x: alpha, alpha: alpha,
			cfg: sampledConfig(o, means, p, 0.2, sampledDegree)})
	}
	series, err := compareSampled(o, name, points, separation,
		func(pt gridPoint, _ *datasets.SyntheticTruth) []float64 {
			return []float64{predict(sampledClasses, pt.cfg.P, pt.alpha)}
		}, func(int) string { return "separation" })
	if err != nil {
		return Check{}, err
	}
	return Check{Name: name, Comparison: Equal, Series: series, Note: fmt.Sprintf(
		"separation factor of the class means after one GeoMix-I step (e_ij = 1/deg(i)) at p = 1/C, vs alpha; "+
			"N=%d, C=%d, %d replicates per alpha; tolerance from the replicates' standard error",
		o.nodes(), sampledClasses, o.replicates())}.finish(), nil
}
