package rowops

import "golang.org/x/sys/cpu"

// useExpAVX is whether expAVX runs: it mirrors math.Exp's FMA kernel, which math.Exp runs where
// the CPU has AVX and FMA.
var useExpAVX = cpu.X86.HasAVX2 && cpu.X86.HasFMA

// expAVX sets out[i] = float32(math.Exp(float64(x[i]))) four at a time while every lane of a group
// has |x| ≤ 700, and returns how many it set (a multiple of four).
//
//go:noescape
func expAVX(out, x []float32) int

// expVec sets a prefix of out to the float32 exponentials of x, as expAVX, and returns its length.
func expVec(out, x []float32) int {
	if !useExpAVX || !useAVX2 {
		return 0
	}
	return expAVX(out, x[:len(out)])
}
