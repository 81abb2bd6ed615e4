package datasets

import (
	"fmt"
	"math"
	"math/rand/v2"

	"gonum.org/v1/gonum/mat"
)

// Values of Options.TwitchFeatures: which node features twitch-ood trains on.
const (
	// TwitchFeaturesRaw is MUSAE's 3,170-d binary game features, row-normalised unless
	// Options.RawFeatures (the default, also selected by "").
	TwitchFeaturesRaw = "raw"
	// TwitchFeaturesSVD128 is a 128-d truncated SVD of those features, fitted on the in-distribution
	// regions DE+ENGB+ES only and applied to all six (see fitTruncatedSVD): a stand-in of the
	// 128-d PyG embeddings the reference used, which are no longer obtainable.
	TwitchFeaturesSVD128 = "svd128"
)

// Settings of the svd128 reduction.
const (
	// twitchSVDRank is its width.
	twitchSVDRank = 128
	// svdOversample extra directions are iterated beside the rank, and svdIterations rounds of
	// subspace iteration run, so that the leading rank singular vectors converge.
	svdOversample, svdIterations = 32, 8
	// twitchSVDSeed seeds the random start of the subspace iteration (the reference's seed).
	twitchSVDSeed = referenceSeed
)

// checkTwitchFeatures returns an error unless v is a valid Options.TwitchFeatures.
func checkTwitchFeatures(v string) error {
	switch v {
	case "", TwitchFeaturesRaw, TwitchFeaturesSVD128:
		return nil
	}
	return fmt.Errorf("twitch features %q: want %q or %q", v, TwitchFeaturesRaw, TwitchFeaturesSVD128)
}

// truncatedSVD is the leading right singular subspace of a matrix: Components [F, k] (row-major,
// orthonormal columns, each with its entry of largest magnitude positive) and the fraction of the
// matrix's squared Frobenius norm the k directions hold.
type truncatedSVD struct {
	NumFeatures, Rank int
	Components        []float64
	Energy            float64
}

// fitTruncatedSVD fits the rank-k truncated SVD of the first rows rows of x (rows [0, rows) only;
// the others are never read), without centring (as sklearn's TruncatedSVD): randomised subspace
// iteration on XᵀX from a seeded Gaussian start of k + svdOversample directions, svdIterations
// rounds re-orthonormalised by Gram–Schmidt, then Rayleigh–Ritz (gonum's EigenSym on the small
// projected Gram matrix). The same x, rows, k and seed give the same components.
func fitTruncatedSVD(x *CSR, rows, k int, seed uint64) (*truncatedSVD, error) {
	f := x.NumCols
	if rows < 1 || rows > x.NumRows || k < 1 || k > f {
		return nil, fmt.Errorf("truncated SVD of rank %d on %d of %d rows of a [%d, %d] matrix: want 1 <= rank <= %d and 1 <= rows <= %d",
			k, rows, x.NumRows, x.NumRows, f, f, x.NumRows)
	}
	l := min(k+svdOversample, f)
	rng := rand.New(rand.NewPCG(seed, 0x737664))
	q := make([]float64, f*l) // [F, l] row-major
	for i := range q {
		q[i] = rng.NormFloat64()
	}
	if err := orthonormalize(q, f, l); err != nil {
		return nil, err
	}
	y := make([]float64, rows*l)
	for range svdIterations {
		x.mulRows(rows, q, l, y)
		x.mulRowsT(rows, y, l, q)
		if err := orthonormalize(q, f, l); err != nil {
			return nil, err
		}
	}
	// Rayleigh–Ritz: T = (XQ)ᵀ(XQ) [l, l], its top k eigenvectors rotate Q onto the singular vectors.
	x.mulRows(rows, q, l, y)
	gram := make([]float64, l*l)
	for i := range rows {
		yi := y[i*l : (i+1)*l]
		for a, ya := range yi {
			row := gram[a*l:]
			for b := a; b < l; b++ {
				row[b] += ya * yi[b]
			}
		}
	}
	t := mat.NewSymDense(l, gram) // reads the upper triangle
	var eig mat.EigenSym
	if !eig.Factorize(t, true) {
		return nil, fmt.Errorf("truncated SVD: the %d×%d eigen-decomposition did not converge", l, l)
	}
	var vecs mat.Dense
	eig.VectorsTo(&vecs)
	values := eig.Values(nil)   // ascending
	rot := make([]float64, l*k) // [l, k]: the top k eigenvectors, largest first
	kept := 0.0
	for c := range k {
		kept += values[l-1-c]
		for j := range l {
			rot[j*k+c] = vecs.At(j, l-1-c)
		}
	}
	out := &truncatedSVD{NumFeatures: f, Rank: k, Components: make([]float64, f*k)}
	for r := range f {
		comp := out.Components[r*k : (r+1)*k]
		for j, qv := range q[r*l : (r+1)*l] {
			for c, v := range rot[j*k : (j+1)*k] {
				comp[c] += qv * v
			}
		}
	}
	out.fixSigns()
	total := 0.0
	for _, v := range x.Values[:x.RowPtr[rows]] {
		total += float64(v) * float64(v)
	}
	if total > 0 {
		out.Energy = kept / total
	}
	return out, nil
}

// fixSigns makes each component's entry of largest magnitude positive (a singular vector is only
// defined up to its sign).
func (s *truncatedSVD) fixSigns() {
	for c := range s.Rank {
		best := 0.0
		for r := range s.NumFeatures {
			if v := s.Components[r*s.Rank+c]; math.Abs(v) > math.Abs(best) {
				best = v
			}
		}
		if best < 0 {
			for r := range s.NumFeatures {
				s.Components[r*s.Rank+c] = -s.Components[r*s.Rank+c]
			}
		}
	}
}

// Project returns x's rows projected on the components, x V [N, k], as a CSR of its non-zeros.
func (s *truncatedSVD) Project(x *CSR) (*CSR, error) {
	if x.NumCols != s.NumFeatures {
		return nil, fmt.Errorf("projecting a [%d, %d] matrix on components of %d features", x.NumRows, x.NumCols, s.NumFeatures)
	}
	k := s.Rank
	out := &CSR{NumRows: x.NumRows, NumCols: k, RowPtr: make([]int64, 1, x.NumRows+1)}
	row := make([]float64, k)
	for i := range x.NumRows {
		clear(row)
		for a := x.RowPtr[i]; a < x.RowPtr[i+1]; a++ {
			v, comp := float64(x.Values[a]), s.Components[int(x.ColIdx[a])*k:]
			for c := range k {
				row[c] += v * comp[c]
			}
		}
		for c, v := range row {
			if v != 0 {
				out.ColIdx, out.Values = append(out.ColIdx, int32(c)), append(out.Values, float32(v))
			}
		}
		out.RowPtr = append(out.RowPtr, int64(len(out.ColIdx)))
	}
	return out, nil
}

// mulRows sets y [rows, l] (row-major) to the first rows rows of m times q [F, l] (row-major).
func (m *CSR) mulRows(rows int, q []float64, l int, y []float64) {
	clear(y)
	for i := range rows {
		yi := y[i*l : (i+1)*l]
		for a := m.RowPtr[i]; a < m.RowPtr[i+1]; a++ {
			v, qc := float64(m.Values[a]), q[int(m.ColIdx[a])*l:]
			for j := range l {
				yi[j] += v * qc[j]
			}
		}
	}
}

// mulRowsT sets z [F, l] (row-major) to the transpose of the first rows rows of m times y [rows, l].
func (m *CSR) mulRowsT(rows int, y []float64, l int, z []float64) {
	clear(z)
	for i := range rows {
		yi := y[i*l : (i+1)*l]
		for a := m.RowPtr[i]; a < m.RowPtr[i+1]; a++ {
			v, zc := float64(m.Values[a]), z[int(m.ColIdx[a])*l:]
			for j := range l {
				zc[j] += v * yi[j]
			}
		}
	}
}

// orthonormalize makes the l columns of q [n, l] (row-major) orthonormal in place by modified
// Gram–Schmidt, twice, on a column-major copy; a column that vanishes (the start had fewer than l
// independent directions) is an error.
func orthonormalize(q []float64, n, l int) error {
	cols := make([]float64, n*l)
	for r := range n {
		for c := range l {
			cols[c*n+r] = q[r*l+c]
		}
	}
	for range 2 {
		for c := range l {
			v := cols[c*n : (c+1)*n]
			for p := range c {
				u := cols[p*n : (p+1)*n]
				dot := 0.0
				for r, x := range v {
					dot += x * u[r]
				}
				for r := range v {
					v[r] -= dot * u[r]
				}
			}
			norm := 0.0
			for _, x := range v {
				norm += x * x
			}
			if norm < 1e-300 {
				return fmt.Errorf("truncated SVD: direction %d of %d vanished while orthonormalising", c, l)
			}
			inv := 1 / math.Sqrt(norm)
			for r := range v {
				v[r] *= inv
			}
		}
	}
	for r := range n {
		for c := range l {
			q[r*l+c] = cols[c*n+r]
		}
	}
	return nil
}
