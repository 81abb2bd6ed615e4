package rowops

import "golang.org/x/sys/cpu"

// hasFMA is whether expAVX may run (with useAVX2): it mirrors math.Exp's FMA kernel, which
// math.Exp runs where the CPU has AVX and FMA.
var hasFMA = cpu.X86.HasFMA

// expAVX sets out[i] = float32(math.Exp(float64(x[i]))) four at a time while every lane of a group
// has |x| ≤ 700, and returns how many it set (a multiple of four).
//
//go:noescape
func expAVX(out, x []float32) int

// expVec sets a prefix of out to the float32 exponentials of x, as expAVX, and returns its length.
func expVec(out, x []float32) int {
	if !useAVX2 || !hasFMA {
		return 0
	}
	return expAVX(out, x[:len(out)])
}
