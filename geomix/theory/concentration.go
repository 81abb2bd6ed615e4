package theory

import (
	"fmt"
	"math"

	"github.com/geomix-go/geomix/datasets"
)

// degrees is the grid of mean degrees of the concentration checks.
func (o Options) degrees() []int {
	if o.Quick {
		return []int{8, 32, 128}
	}
	return []int{8, 16, 32, 64, 128}
}

// solveHalf returns the t in [0, tMax] where the decreasing bound(deg, t) crosses 1/2 (bisection).
func solveHalf(bound func(deg int, t float64) float64, deg int, tMax float64) float64 {
	lo, hi := 0.0, tMax
	for range 100 {
		mid := (lo + hi) / 2
		if bound(deg, mid) > 0.5 {
			lo = mid
		} else {
			hi = mid
		}
	}
	return hi
}

// concentration is the shared body of the Theorem 1 and 2 tail checks on the mixed columns
// [from, to): for each mean degree D, t_D solves bound(D, t) = 1/2; each replicate measures the
// fraction of nodes with ‖row_i − center(y_i)‖₂ >= t_D and the bound averaged over the nodes' degrees.
// The check is "observed <= bound" per degree, with a tolerance of the Student-t quantile times the
// standard error of (observed − bound) across replicates. Hoeffding's bound with a union over the
// coordinates is loose (the observed tails at t_D are near 0), so the check catches a wrong centre
// (expectation) or a grossly wrong rate, not a wrong constant.
func concentration(o Options, name string, from, to int, config func(deg int) datasets.SyntheticConfig,
	center func(truth *datasets.SyntheticTruth, c int) []float64, bound func(deg int, t float64) float64,
	tMax float64) (Check, error) {
	backend, err := o.backend()
	if err != nil {
		return Check{}, err
	}
	if o.Backend == nil {
		defer backend.Finalize()
	}
	reps, degs := o.replicates(), o.degrees()
	tq := tQuantile(reps, len(degs))
	var series []Point
	for di, deg := range degs {
		t := solveHalf(bound, deg, tMax)
		obs, pred, diff := make([]float64, reps), make([]float64, reps), make([]float64, reps)
		for r := range reps {
			cfg := config(deg)
			cfg.Seed = sampleSeed(o, name, di, r)
			s, err := drawMixed(backend, cfg, 0)
			if err != nil {
				return Check{}, fmt.Errorf("degree %d: %w", deg, err)
			}
			centers := make([][]float64, s.graph.NumClasses)
			for c := range centers {
				centers[c] = center(s.truth, c)
			}
			width, tail, sumBound := s.width(), 0.0, 0.0
			for i, y := range s.graph.Labels {
				dist2 := 0.0
				for k := from; k < to; k++ {
					d := float64(s.mixed[i*width+k]) - centers[y][k-from]
					dist2 += d * d
				}
				if math.Sqrt(dist2) >= t {
					tail++
				}
				sumBound += bound(s.degree[i], t)
			}
			n := float64(s.graph.NumNodes)
			obs[r], pred[r] = tail/n, sumBound/n
			diff[r] = obs[r] - pred[r]
		}
		mObs, _ := meanAndSE(obs)
		mPred, _ := meanAndSE(pred)
		_, seDiff := meanAndSE(diff)
		series = append(series, Point{Label: fmt.Sprintf("degree=%d t=%.3f", deg, t), X: float64(deg),
			Predicted: mPred, Observed: mObs, Tolerance: tq * seDiff})
	}
	return Check{Name: name, Comparison: AtMost, Series: series, Note: fmt.Sprintf(
		"tail P(||mix - E mix|| >= t) vs the paper's Hoeffding bound, mean degrees %v, t where the bound is 1/2, "+
			"N=%d, %d replicates; the bound is averaged over the nodes' actual degrees (they vary around the mean); "+
			"tolerance = Student-t quantile (family level %g) x standard error of (tail - bound)",
		degs, o.nodes(), reps, familyLevel)}.finish(), nil
}
