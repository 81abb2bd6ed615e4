package theory

import (
	"fmt"

	"github.com/geomix-go/geomix/datasets"
)

// gridPoint is one setting of a sampling check.
type gridPoint struct {
	label string
	x     float64
	cfg   datasets.SyntheticConfig
	// alpha is GeoMix-I's residual for the mixing step (0: the basic mixup of Theorems 1-2).
	alpha float64
}

// statFn reduces one mixed sample to a vector of statistics.
type statFn func(s *mixedSample) []float64

// predictFn gives the predicted value of every statistic at a grid point, from the sample's truth.
type predictFn func(pt gridPoint, truth *datasets.SyntheticTruth) []float64

// compareSampled draws o.replicates() graphs per grid point (seeded from o.Seed, name and the point),
// computes stat on each, and compares the replicate mean of every component with predict. The
// tolerance of a component is the two-sided Student-t quantile (family level familyLevel,
// Bonferroni over all components of the grid) times its standard error across replicates, plus
// float32Slack for rounding. Component labels come from componentLabel.
func compareSampled(o Options, name string, points []gridPoint, stat statFn, predict predictFn,
	componentLabel func(j int) string) ([]Point, error) {
	backend, err := o.backend()
	if err != nil {
		return nil, err
	}
	if o.Backend == nil {
		defer backend.Finalize()
	}
	reps := o.replicates()
	type result struct {
		pred  []float64
		draws [][]float64
	}
	results := make([]result, len(points))
	total := 0
	for pi, pt := range points {
		for r := range reps {
			cfg := pt.cfg
			cfg.Seed = sampleSeed(o, name, pi, r)
			s, err := drawMixed(backend, cfg, pt.alpha)
			if err != nil {
				return nil, fmt.Errorf("%s: %w", pt.label, err)
			}
			if r == 0 {
				results[pi].pred = predict(pt, s.truth)
			}
			results[pi].draws = append(results[pi].draws, stat(s))
		}
		total += len(results[pi].pred)
	}
	tq := tQuantile(reps, total)
	var series []Point
	for pi, pt := range points {
		res := results[pi]
		for j, pred := range res.pred {
			xs := make([]float64, reps)
			for r := range reps {
				xs[r] = res.draws[r][j]
			}
			mean, se := meanAndSE(xs)
			series = append(series, Point{Label: pt.label + " " + componentLabel(j), X: pt.x,
				Predicted: pred, Observed: mean, Tolerance: tq*se + float32Slack})
		}
	}
	return series, nil
}

// flatClassMeans returns a statFn giving the class means of the mixed columns [from, to), flattened
// class-major.
func flatClassMeans(from, to int) statFn {
	return func(s *mixedSample) []float64 {
		var out []float64
		for _, row := range s.classMeans() {
			out = append(out, row[from:to]...)
		}
		return out
	}
}
