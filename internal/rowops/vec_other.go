//go:build !amd64

package rowops

// This architecture has no vector kernels: they handle nothing (empty prefixes, false, nil), and
// the portable loops of the callers do all the work.

func mulVec(out, a, b []float32) int                         { return 0 }
func selectVec(out []float32, c []bool, t, f []float32) int  { return 0 }
func signVec(out, x []float32) int                           { return 0 }
func lessEqVec(out []bool, a, b []float32) int               { return 0 }
func rowsVec(op rowOp, dst, src []float32, idx []int32) bool { return false }
func scaleRowsVec(out, x, scale []float32, width int) bool   { return false }
func scaleAddRowsVec(out, x, scale []float32, src, dst []int32, width, sub, lo int) bool {
	return false
}
func vectorDot(d dotDims, lhs, rhs, out any) (func(from, to int) int, func()) { return nil, func() {} }
func leadingVec(d dotDims, lhs, rhs, out []float32) bool                      { return false }
func sumScaledRowsVec(out, coef, y []float32, k, z int) int                   { return 0 }
func arithVec(op arithOp, out, a, b []float32) int                            { return 0 }
func minMaxVec(isMax bool, out, a, b []float32) int                           { return 0 }
func absVec(out, x []float32) int                                             { return 0 }
func uint32ToFloat32Vec(out []float32, x []uint32) int                        { return 0 }
func expVec(out, x []float32) int                                             { return 0 }
