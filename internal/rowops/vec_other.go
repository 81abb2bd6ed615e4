//go:build !amd64

package rowops

// This architecture has no vector kernels: the prefixes they would handle are empty, and the
// portable loops of the callers do all the work.

func mulVec(out, a, b []float32) int                                { return 0 }
func mulScalarVec(out, a []float32, c float32) int                  { return 0 }
func addVec(dst, src []float32) int                                 { return 0 }
func vectorDot(d dotDims, lhs, rhs, out any) func(from, to int) int { return nil }
