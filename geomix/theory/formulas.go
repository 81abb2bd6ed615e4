package theory

import "math"

// The paper's predictions, as printed (Sec. 3.1-3.2 and Appendix A-B). C is the number of classes.

// ExpectedMixedFeature is Theorem 1, Eq. 6: after one basic mixup h_i = Σ_j e_ij x_j with
// e_ij = 1/deg(i), E[h_i] = p μ(c) + (1−p)/(C−1) Σ_{c'≠c} μ(c') for a node of class c.
// means is [C][F]; the result is [F].
func ExpectedMixedFeature(means [][]float64, c int, p float64) []float64 {
	numC := len(means)
	out := make([]float64, len(means[c]))
	for k := range out {
		for c2 := range means {
			w := (1 - p) / float64(numC-1)
			if c2 == c {
				w = p
			}
			out[k] += w * means[c2][k]
		}
	}
	return out
}

// ExpectedMixedLabel is Theorem 2, Eq. 8: the expected mixed pseudo label of a node of class c,
// [p(1−ε) + ε(1−p)/(C−1)] on e_c and [(pε + (1−p)(1−ε))/(C−1) + ε(1−p)(C−2)/(C−1)²] on every other
// class. The result is [C].
func ExpectedMixedLabel(numC, c int, p, eps float64) []float64 {
	k := float64(numC - 1)
	own := p*(1-eps) + eps*(1-p)/k
	other := (p*eps+(1-p)*(1-eps))/k + eps*(1-p)*float64(numC-2)/(k*k)
	out := make([]float64, numC)
	for j := range out {
		out[j] = other
	}
	out[c] = own
	return out
}

// FeatureTailBound is Theorem 1, Eq. 7: P(‖h_i − E h_i‖₂ >= t) <= 2F exp(−deg t² / (2B²F)),
// capped at 1.
func FeatureTailBound(deg, numF int, bound, t float64) float64 {
	return math.Min(1, 2*float64(numF)*math.Exp(-float64(deg)*t*t/(2*bound*bound*float64(numF))))
}

// LabelTailBound is Theorem 2, Eq. 9: P(‖ȳ_i − E ȳ_i‖₂ >= t) <= 2C exp(−deg t² / (2C)), capped at 1.
func LabelTailBound(deg, numC int, t float64) float64 {
	return math.Min(1, 2*float64(numC)*math.Exp(-float64(deg)*t*t/(2*float64(numC))))
}

// ClassSeparation is the heterophily discussion (Sec. 3.1) made quantitative: by Theorem 1,
// E[h | a] − E[h | b] = λ (μ(a) − μ(b)) with λ = (pC − 1)/(C − 1), which is 0 at p = 1/C (the class
// means collapse) and negative below it.
func ClassSeparation(numC int, p float64) float64 {
	return (p*float64(numC) - 1) / float64(numC-1)
}

// ResidualSeparation is the separation factor after one GeoMix-I step with residual α (Eq. 10 with
// e_ij = 1/deg(i)): E[h | a] − E[h | b] = (α + (1−α)λ) (μ(a) − μ(b)); at p = 1/C it is α, so the
// residual restores a separation of α.
func ResidualSeparation(numC int, p, alpha float64) float64 {
	return alpha + (1-alpha)*ClassSeparation(numC, p)
}

// F1StepSize is the gradient step τ for which one GeoMix-I step (residual α) equals a gradient step of
// F1 with smoothness weight β (Theorem 3): 1 − α = 2τβ. The paper's Appendix B ends with "α = 2τβ",
// which contradicts its own previous line (h ← (1−2τβ) h + 2τβ Σ e h) and Eq. 10; that reading only
// agrees at α = 1/2.
func F1StepSize(alpha, beta float64) float64 {
	return (1 - alpha) / (2 * beta)
}

// F2Parameters gives β and τ for which one GeoMix-II step (residual α to h⁽⁰⁾) equals a gradient step
// of F2 (Theorem 3, Appendix B): τ = 1/(2(β+1)) and α = 2τ, i.e. β = (1−α)/α.
func F2Parameters(alpha float64) (beta, tau float64) {
	beta = (1 - alpha) / alpha
	return beta, 1 / (2 * (beta + 1))
}
