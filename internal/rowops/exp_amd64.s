#include "textflag.h"

// The constants of math.Exp's amd64 kernel (math/exp_amd64.s), four copies each, for expAVX.
#define C4(off, v) DATA expc<>+off(SB)/8, v; DATA expc<>+(off+8)(SB)/8, v; DATA expc<>+(off+16)(SB)/8, v; DATA expc<>+(off+24)(SB)/8, v

C4(0, $0.5)
C4(32, $1.0)
C4(64, $2.0)
C4(96, $1.6666666666666666667e-1)
C4(128, $4.1666666666666666667e-2)
C4(160, $8.3333333333333333333e-3)
C4(192, $1.3888888888888888889e-3)
C4(224, $1.9841269841269841270e-4)
C4(256, $2.4801587301587301587e-5)
C4(288, $0.69314718055966295651160180568695068359375)      // LN2U
C4(320, $0.28235290563031577122588448175013436025525412068e-12) // LN2L
C4(352, $1.4426950408889634073599246810018920)             // LOG2E
C4(384, $0.0625)
C4(416, $700.0)                                            // the fast path's bound on |x|
C4(448, $0x7fffffffffffffff)                               // clears the sign
C4(480, $0x3ff)                                            // the exponent's bias
GLOBL expc<>(SB), RODATA, $512

// func expAVX(out, x []float32) int
// Sets out[i] = float32(math.Exp(float64(x[i]))) four at a time, with the operations of math.Exp's
// FMA kernel in the same order on four lanes, while every lane of a group has |x| ≤ 700 (no
// overflow, underflow or special value); returns how many it set (a multiple of four), stopping at
// the first group it cannot take or the last whole group of len(out).
TEXT ·expAVX(SB), NOSPLIT, $0-56
	MOVQ    out_base+0(FP), DI
	MOVQ    out_len+8(FP), CX
	MOVQ    x_base+24(FP), SI
	SHRQ    $2, CX
	XORQ    R8, R8
	VMOVUPD expc<>+416(SB), Y14
	VMOVUPD expc<>+448(SB), Y15
	TESTQ   CX, CX
	JZ      expDone

expLoop:
	VCVTPS2PD   (SI), Y0
	VANDPD      Y15, Y0, Y2
	VCMPPD      $0x12, Y14, Y2, Y2        // |x| ≤ 700 (LE_OQ: false for NaN)
	VMOVMSKPD   Y2, AX
	CMPQ        AX, $15
	JNE         expDone
	VMULPD      expc<>+352(SB), Y0, Y1    // x · LOG2E
	VCVTPD2DQY  Y1, X3                    // the exponent, rounded to nearest
	VCVTDQ2PD   X3, Y1
	VFNMADD231PD expc<>+288(SB), Y1, Y0   // x − k·LN2U
	VFNMADD231PD expc<>+320(SB), Y1, Y0   // − k·LN2L
	VMULPD      expc<>+384(SB), Y0, Y0    // reduce the argument
	VMOVUPD     expc<>+256(SB), Y1        // Taylor series
	VFMADD213PD expc<>+224(SB), Y0, Y1
	VFMADD213PD expc<>+192(SB), Y0, Y1
	VFMADD213PD expc<>+160(SB), Y0, Y1
	VFMADD213PD expc<>+128(SB), Y0, Y1
	VFMADD213PD expc<>+96(SB), Y0, Y1
	VFMADD213PD expc<>+0(SB), Y0, Y1
	VFMADD213PD expc<>+32(SB), Y0, Y1
	VMULPD      Y1, Y0, Y0
	VADDPD      expc<>+64(SB), Y0, Y1
	VMULPD      Y1, Y0, Y0
	VADDPD      expc<>+64(SB), Y0, Y1
	VMULPD      Y1, Y0, Y0
	VADDPD      expc<>+64(SB), Y0, Y1
	VMULPD      Y1, Y0, Y0
	VADDPD      expc<>+64(SB), Y0, Y1
	VFMADD213PD expc<>+32(SB), Y1, Y0
	VPMOVSXDQ   X3, Y3                    // · 2^k
	VPADDQ      expc<>+480(SB), Y3, Y3
	VPSLLQ      $52, Y3, Y3
	VMULPD      Y3, Y0, Y0
	VCVTPD2PSY  Y0, X0
	VMOVUPS     X0, (DI)
	ADDQ        $16, SI
	ADDQ        $16, DI
	ADDQ        $4, R8
	DECQ        CX
	JNZ         expLoop

expDone:
	MOVQ R8, ret+48(FP)
	VZEROUPPER
	RET
