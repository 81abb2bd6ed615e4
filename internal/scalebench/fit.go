package scalebench

import (
	"fmt"
	"math"
)

// Fit returns the least-squares line log t = b log e + log a through the points (edges[i],
// millis[i]): the exponent b of t ∝ e^b and the prefactor a. It needs two distinct edge counts and
// positive values.
func Fit(edges, millis []float64) (exponent, prefactor float64, err error) {
	if len(edges) != len(millis) || len(edges) < 2 {
		return 0, 0, fmt.Errorf("fit: want at least 2 points with one time each, got %d edge counts and %d times", len(edges), len(millis))
	}
	var sx, sy, sxx, sxy float64
	for i := range edges {
		if edges[i] <= 0 || millis[i] <= 0 {
			return 0, 0, fmt.Errorf("fit: point %d has edges %g and time %g, want both positive", i, edges[i], millis[i])
		}
		x, y := math.Log(edges[i]), math.Log(millis[i])
		sx, sy, sxx, sxy = sx+x, sy+y, sxx+x*x, sxy+x*y
	}
	n := float64(len(edges))
	den := n*sxx - sx*sx
	if den <= 1e-12*n*sxx {
		return 0, 0, fmt.Errorf("fit: all %d points have the same edge count", len(edges))
	}
	exponent = (n*sxy - sx*sy) / den
	return exponent, math.Exp((sy - exponent*sx) / n), nil
}

// Power is the fitted line's value a·x^b.
func Power(a, b, x float64) float64 { return a * math.Pow(x, b) }
