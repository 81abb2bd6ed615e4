package datasets

import (
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// lowRankCSR is an [n, f] matrix with singular values 0.6^i (plus 1e-3 noise), all entries stored.
func lowRankCSR(n, f int, seed uint64) *CSR {
	rng := rand.New(rand.NewPCG(seed, 2))
	r := min(n, f)
	u, v := mat.NewDense(n, r, nil), mat.NewDense(f, r, nil)
	for i := range n {
		for j := range r {
			u.Set(i, j, rng.NormFloat64())
		}
	}
	for i := range f {
		for j := range r {
			v.Set(i, j, rng.NormFloat64())
		}
	}
	var qu, qv mat.QR
	qu.Factorize(u)
	qv.Factorize(v)
	var uq, vq mat.Dense
	qu.QTo(&uq)
	qv.QTo(&vq)
	x := &CSR{NumRows: n, NumCols: f, RowPtr: []int64{0}}
	for i := range n {
		for j := range f {
			s := 1e-3 * rng.NormFloat64()
			for c := range r {
				s += uq.At(i, c) * math.Pow(0.6, float64(c)) * vq.At(j, c)
			}
			x.ColIdx, x.Values = append(x.ColIdx, int32(j)), append(x.Values, float32(s))
		}
		x.RowPtr = append(x.RowPtr, int64(len(x.ColIdx)))
	}
	return x
}

// TestTruncatedSVDMatchesExact: on the first 150 rows of a [200, 120] matrix, the rank-6 fit spans
// gonum's exact leading right singular vectors (|cos| ≈ 1 column by column) and keeps their share of
// the squared norm; the other rows are never read; the same seed gives the same components.
func TestTruncatedSVDMatchesExact(t *testing.T) {
	const n, f, rows, k = 200, 120, 150, 6
	x := lowRankCSR(n, f, 1)
	got, err := fitTruncatedSVD(x, rows, k, 5)
	if err != nil {
		t.Fatal(err)
	}
	dense := mat.NewDense(rows, f, nil)
	total := 0.0
	for i := range rows {
		for a := x.RowPtr[i]; a < x.RowPtr[i+1]; a++ {
			v := float64(x.Values[a])
			dense.Set(i, int(x.ColIdx[a]), v)
			total += v * v
		}
	}
	var svd mat.SVD
	if !svd.Factorize(dense, mat.SVDThin) {
		t.Fatal("gonum SVD failed")
	}
	var v mat.Dense
	svd.VTo(&v)
	values := svd.Values(nil)
	kept := 0.0
	for c := range k {
		kept += values[c] * values[c]
		cos := 0.0
		for r := range f {
			cos += got.Components[r*k+c] * v.At(r, c)
		}
		if math.Abs(math.Abs(cos)-1) > 1e-6 {
			t.Errorf("component %d: |cos| with the exact singular vector %g, want 1", c, math.Abs(cos))
		}
	}
	if math.Abs(got.Energy-kept/total) > 1e-9 {
		t.Errorf("energy %g, want %g", got.Energy, kept/total)
	}
	// Rows past the fitted ones do not matter, and the fit is deterministic.
	other := lowRankCSR(n, f, 1)
	for a := other.RowPtr[rows]; a < other.RowPtr[n]; a++ {
		other.Values[a] = 100 * float32(a%7)
	}
	again, err := fitTruncatedSVD(other, rows, k, 5)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(again.Components, got.Components) {
		t.Error("changing the rows outside the fit changed the components")
	}
	proj, err := got.Project(x)
	if err != nil {
		t.Fatal(err)
	}
	if proj.NumRows != n || proj.NumCols != k {
		t.Errorf("projection [%d, %d], want [%d, %d]", proj.NumRows, proj.NumCols, n, k)
	}
	if _, err := fitTruncatedSVD(x, rows, f+1, 5); err == nil {
		t.Error("a rank above the width was accepted")
	}
}

// TestTwitchOODSVD128 (real data): svd128 gives [34118, 128] features, the same on every load,
// fitted on DE+ENGB+ES only (the OOD rows changed leave the components as they were), and the
// notes name the features either way; other data sets and unknown values are refused.
func TestTwitchOODSVD128(t *testing.T) {
	raw := loadReal(t, "twitch-ood", Options{})
	reduced := loadReal(t, "twitch-ood", Options{TwitchFeatures: TwitchFeaturesSVD128})
	if reduced.NumNodes != raw.NumNodes || reduced.NumFeatures() != twitchSVDRank || reduced.Features.NumRows != raw.NumNodes {
		t.Fatalf("svd128: %d nodes, features [%d, %d]; want [%d, %d]", reduced.NumNodes, reduced.Features.NumRows, reduced.NumFeatures(), raw.NumNodes, twitchSVDRank)
	}
	if !strings.HasPrefix(raw.Notes, "twitch_features=raw: ") || !strings.Contains(reduced.Notes, "twitch_features=svd128") ||
		!strings.Contains(reduced.Notes, "fitted on DE+ENGB+ES only") {
		t.Errorf("notes do not name the features:\nraw: %s\nsvd128: %s", raw.Notes, reduced.Notes)
	}
	again := loadReal(t, "twitch-ood", Options{TwitchFeatures: TwitchFeaturesSVD128})
	if !slices.Equal(again.Features.Values, reduced.Features.Values) || !slices.Equal(again.Features.ColIdx, reduced.Features.ColIdx) {
		t.Error("two svd128 loads differ")
	}
	inDist := len(raw.Splits[0].Train) + len(raw.Splits[0].Val) + len(raw.Splits[0].Test)
	fit, err := fitTruncatedSVD(raw.Features, inDist, twitchSVDRank, twitchSVDSeed)
	if err != nil {
		t.Fatal(err)
	}
	for a := raw.Features.RowPtr[inDist]; a < int64(raw.Features.NNZ()); a++ {
		raw.Features.Values[a] *= 3
	}
	changed, err := fitTruncatedSVD(raw.Features, inDist, twitchSVDRank, twitchSVDSeed)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(fit.Components, changed.Components) {
		t.Error("changing FR/PTBR/RU's features changed the fitted components")
	}
	opts := Options{Root: coreDataRoot(t), Offline: true, TwitchFeatures: TwitchFeaturesSVD128}
	if _, err := Load("twitch-de", opts); err == nil || !strings.Contains(err.Error(), "twitch-ood only") {
		t.Errorf("twitch-de with svd128: %v", err)
	}
	opts.TwitchFeatures = "pca64"
	if _, err := Load("twitch-ood", opts); err == nil || !strings.Contains(err.Error(), `"pca64"`) {
		t.Errorf("unknown twitch features: %v", err)
	}
}
