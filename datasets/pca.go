package datasets

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"
)

// pcaProject returns the projection of the rows of x, a row-major [n, cols] matrix, on its dims
// leading principal components: (x − mean) V, [n, dims] row-major, where V are the eigenvectors of
// the covariance of x with the dims largest eigenvalues, in decreasing order. It uses no labels.
// Each component's sign is fixed so that its largest-magnitude entry is positive (ties: the first),
// which makes the projection independent of the eigen-solver's sign choice.
func pcaProject(x []float32, n, cols, dims int) ([]float32, error) {
	if n < 2 || cols <= 0 || len(x) != n*cols {
		return nil, fmt.Errorf("PCA: %d values are not a [%d, %d] matrix with at least 2 rows", len(x), n, cols)
	}
	if dims <= 0 || dims > cols {
		return nil, fmt.Errorf("PCA: %d components of %d columns, expected 1..%d", dims, cols, cols)
	}
	centred := mat.NewDense(n, cols, nil)
	mean := make([]float64, cols)
	for i := range n {
		for j := range cols {
			mean[j] += float64(x[i*cols+j])
		}
	}
	for j := range mean {
		mean[j] /= float64(n)
	}
	for i := range n {
		for j := range cols {
			centred.Set(i, j, float64(x[i*cols+j])-mean[j])
		}
	}
	cov := mat.NewSymDense(cols, nil)
	cov.SymRankK(cov, 1/float64(n-1), centred.T())
	var eig mat.EigenSym
	if !eig.Factorize(cov, true) {
		return nil, fmt.Errorf("PCA: the eigen-decomposition of the %dx%d covariance did not converge", cols, cols)
	}
	var vectors mat.Dense
	eig.VectorsTo(&vectors) // columns in increasing eigenvalue order
	basis := mat.NewDense(cols, dims, nil)
	for d := range dims {
		col := cols - 1 - d
		sign, largest := 1.0, -1.0
		for j := range cols {
			if v := vectors.At(j, col); math.Abs(v) > largest {
				largest = math.Abs(v)
				sign = math.Copysign(1, v)
			}
		}
		for j := range cols {
			basis.Set(j, d, sign*vectors.At(j, col))
		}
	}
	var proj mat.Dense
	proj.Mul(centred, basis)
	out := make([]float32, n*dims)
	for i := range n {
		for d := range dims {
			out[i*dims+d] = float32(proj.At(i, d))
		}
	}
	return out, nil
}
