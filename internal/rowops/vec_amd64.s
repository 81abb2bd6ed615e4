#include "textflag.h"

// The macros of scaleAddRuns.

// RUN_AHEAD(none) sets AX and DX to the current chunk (R10 bytes into a row) of the rows of out
// and x of message e + ahead, where e is message R13 of the run, or jumps to none where there is
// no such message (there is none for ahead ≥ len(dst)) or its row of out is not one of out's.
// The row of x is not clamped: a prefetch never faults.
#define RUN_AHEAD(none) \
	MOVQ    CX, DX; \
	SUBQ    R13, DX; \
	CMPQ    DX, ahead+128(FP); \
	JLE     none; \
	MOVQ    ahead+128(FP), DX; \
	ADDQ    R13, DX; \
	MOVLQSX (R9)(DX*4), AX; \
	SUBQ    lo+136(FP), AX; \
	CMPQ    AX, rows-8(SP); \
	JAE     none; \
	MOVLQSX (R8)(DX*4), DX; \
	IMULQ   R12, AX; \
	ADDQ    DI, AX; \
	ADDQ    R10, AX; \
	IMULQ   R12, DX; \
	ADDQ    SI, DX; \
	ADDQ    R10, DX

// RUN_MESSAGE sets AX to the current chunk of message e's row of x (src[e] clamped to x's rows)
// and Y8 to its scale, for e message R13 of the run.
#define RUN_MESSAGE \
	MOVLQSX      (R8)(R13*4), AX; \
	XORQ         DX, DX; \
	CMPQ         AX, DX; \
	CMOVQLT      DX, AX; \
	MOVQ         last-16(SP), DX; \
	CMPQ         AX, DX; \
	CMOVQGT      DX, AX; \
	IMULQ        R12, AX; \
	ADDQ         SI, AX; \
	ADDQ         R10, AX; \
	VBROADCASTSS (BX)(R13*4), Y8

// ADD_SCALED(off, acc, tmp) adds the 8 floats at off(AX) times Y8 to acc: the product, then the
// sum, acc + product, each rounded.
#define ADD_SCALED(off, acc, tmp) \
	VMOVUPS off(AX), tmp; \
	VMULPS  Y8, tmp, tmp; \
	VADDPS  tmp, acc, acc

// func mulAVX(out, a, b []float32)
// out[i] = a[i] * b[i] for i < len(out) &^ 7.
TEXT ·mulAVX(SB), NOSPLIT, $0-72
	MOVQ out_base+0(FP), DI
	MOVQ out_len+8(FP), CX
	MOVQ a_base+24(FP), SI
	MOVQ b_base+48(FP), DX
	SHRQ $3, CX
	JZ   mulDone

mulLoop:
	VMOVUPS (SI), Y0
	VMULPS  (DX), Y0, Y0
	VMOVUPS Y0, (DI)
	ADDQ    $32, SI
	ADDQ    $32, DX
	ADDQ    $32, DI
	DECQ    CX
	JNZ     mulLoop

mulDone:
	VZEROUPPER
	RET

// dotStep adds product k (byte offset off in each lhs row, boff in the packed rhs) of a group of
// eight to the group sums Y4-Y7 of the four rows: Y4 += a0[k] * bt[k], and so on.
#define dotStep(off, boff) \
	VMOVUPS      boff(CX), Y8; \
	VBROADCASTSS off(AX), Y9; \
	VMULPS       Y8, Y9, Y9; \
	VADDPS       Y9, Y4, Y4; \
	VBROADCASTSS off(R8), Y10; \
	VMULPS       Y8, Y10, Y10; \
	VADDPS       Y10, Y5, Y5; \
	VBROADCASTSS off(R9), Y11; \
	VMULPS       Y8, Y11, Y11; \
	VADDPS       Y11, Y6, Y6; \
	VBROADCASTSS off(R10), Y12; \
	VMULPS       Y8, Y12, Y12; \
	VADDPS       Y12, Y7, Y7

// func dot4x8(a *float32, lda uintptr, bt *float32, out *float32, ldo uintptr, groups int)
// For four lhs rows (a, a+lda, … bytes apart) and eight rhs rows packed as bt [8·groups][8], adds
// to the 4 × 8 outputs (rows ldo bytes apart) each group of eight products, summed left to right.
TEXT ·dot4x8(SB), NOSPLIT, $0-48
	MOVQ a+0(FP), AX
	MOVQ lda+8(FP), BX
	MOVQ bt+16(FP), CX
	MOVQ out+24(FP), DX
	MOVQ ldo+32(FP), SI
	MOVQ groups+40(FP), DI
	LEAQ (AX)(BX*1), R8
	LEAQ (R8)(BX*1), R9
	LEAQ (R9)(BX*1), R10
	LEAQ (DX)(SI*1), R11
	LEAQ (R11)(SI*1), R12
	LEAQ (R12)(SI*1), R13
	VMOVUPS (DX), Y0
	VMOVUPS (R11), Y1
	VMOVUPS (R12), Y2
	VMOVUPS (R13), Y3
	TESTQ   DI, DI
	JZ      dotDone

dotLoop:
	VMOVUPS      (CX), Y8
	VBROADCASTSS (AX), Y4
	VMULPS       Y8, Y4, Y4
	VBROADCASTSS (R8), Y5
	VMULPS       Y8, Y5, Y5
	VBROADCASTSS (R9), Y6
	VMULPS       Y8, Y6, Y6
	VBROADCASTSS (R10), Y7
	VMULPS       Y8, Y7, Y7
	dotStep(4, 32)
	dotStep(8, 64)
	dotStep(12, 96)
	dotStep(16, 128)
	dotStep(20, 160)
	dotStep(24, 192)
	dotStep(28, 224)
	VADDPS Y4, Y0, Y0
	VADDPS Y5, Y1, Y1
	VADDPS Y6, Y2, Y2
	VADDPS Y7, Y3, Y3
	ADDQ   $32, AX
	ADDQ   $32, R8
	ADDQ   $32, R9
	ADDQ   $32, R10
	ADDQ   $256, CX
	DECQ   DI
	JNZ    dotLoop

dotDone:
	VMOVUPS Y0, (DX)
	VMOVUPS Y1, (R11)
	VMOVUPS Y2, (R12)
	VMOVUPS Y3, (R13)
	VZEROUPPER
	RET

// leadStep adds one product of a group of eight (the lhs row at AX, the rhs row at CX) to the
// group sums Y4-Y7 of the four outputs rows (four adjacent lhs columns), then moves both operands
// one row on (BX and R8 bytes).
#define leadStep \
	VMOVUPS      (CX), Y8; \
	VBROADCASTSS (AX), Y9; \
	VMULPS       Y8, Y9, Y9; \
	VADDPS       Y9, Y4, Y4; \
	VBROADCASTSS 4(AX), Y10; \
	VMULPS       Y8, Y10, Y10; \
	VADDPS       Y10, Y5, Y5; \
	VBROADCASTSS 8(AX), Y11; \
	VMULPS       Y8, Y11, Y11; \
	VADDPS       Y11, Y6, Y6; \
	VBROADCASTSS 12(AX), Y12; \
	VMULPS       Y8, Y12, Y12; \
	VADDPS       Y12, Y7, Y7; \
	ADDQ         BX, AX; \
	ADDQ         R8, CX

// func dotLead4x8(a *float32, lda uintptr, b *float32, ldb uintptr, out *float32, ldo uintptr, groups int)
// For four adjacent lhs columns (from a, rows lda bytes apart) and eight adjacent rhs columns
// (from b, rows ldb bytes apart), adds to the 4 × 8 outputs (rows ldo bytes apart) each group of
// eight rows' products, summed left to right.
TEXT ·dotLead4x8(SB), NOSPLIT, $0-56
	MOVQ a+0(FP), AX
	MOVQ lda+8(FP), BX
	MOVQ b+16(FP), CX
	MOVQ ldb+24(FP), R8
	MOVQ out+32(FP), DX
	MOVQ ldo+40(FP), SI
	MOVQ groups+48(FP), DI
	LEAQ (DX)(SI*1), R11
	LEAQ (R11)(SI*1), R12
	LEAQ (R12)(SI*1), R13
	VMOVUPS (DX), Y0
	VMOVUPS (R11), Y1
	VMOVUPS (R12), Y2
	VMOVUPS (R13), Y3
	TESTQ   DI, DI
	JZ      leadDone

leadLoop:
	VMOVUPS      (CX), Y8
	VBROADCASTSS (AX), Y4
	VMULPS       Y8, Y4, Y4
	VBROADCASTSS 4(AX), Y5
	VMULPS       Y8, Y5, Y5
	VBROADCASTSS 8(AX), Y6
	VMULPS       Y8, Y6, Y6
	VBROADCASTSS 12(AX), Y7
	VMULPS       Y8, Y7, Y7
	ADDQ         BX, AX
	ADDQ         R8, CX
	leadStep
	leadStep
	leadStep
	leadStep
	leadStep
	leadStep
	leadStep
	VADDPS Y4, Y0, Y0
	VADDPS Y5, Y1, Y1
	VADDPS Y6, Y2, Y2
	VADDPS Y7, Y3, Y3
	DECQ   DI
	JNZ    leadLoop

leadDone:
	VMOVUPS Y0, (DX)
	VMOVUPS Y1, (R11)
	VMOVUPS Y2, (R12)
	VMOVUPS Y3, (R13)
	VZEROUPPER
	RET

// func scatterAddRows32(out, updates []float32, idx []int32, width int)
// For each i in order, adds row i of updates (width floats) to row idx[i] of out, skipping
// indices outside out's rows; width > 0.
TEXT ·scatterAddRows32(SB), NOSPLIT, $0-80
	MOVQ out_base+0(FP), DI
	MOVQ out_len+8(FP), AX
	MOVQ updates_base+24(FP), SI
	MOVQ idx_base+48(FP), BX
	MOVQ idx_len+56(FP), CX
	MOVQ width+72(FP), R8
	XORQ DX, DX
	DIVQ R8                     // AX = rows of out
	MOVQ AX, R9
	MOVQ R8, R10
	SHRQ $3, R10                // groups of eight per row
	MOVQ R8, R11
	ANDQ $7, R11                // the rest
	MOVQ R8, R12
	SHLQ $2, R12                // bytes per row
	TESTQ CX, CX
	JZ   scatterDone

scatterRow:
	MOVLQSX (BX), AX
	CMPQ    AX, R9
	JAE     scatterNext         // unsigned: negative or past the last row
	IMULQ   R12, AX
	LEAQ    (DI)(AX*1), R13
	MOVQ    SI, R14
	MOVQ    R10, DX
	TESTQ   DX, DX
	JZ      scatterTail

scatterVec:
	VMOVUPS (R13), Y0
	VADDPS  (R14), Y0, Y0
	VMOVUPS Y0, (R13)
	ADDQ    $32, R13
	ADDQ    $32, R14
	DECQ    DX
	JNZ     scatterVec

scatterTail:
	MOVQ  R11, DX
	TESTQ DX, DX
	JZ    scatterNext

scatterScalar:
	VMOVSS (R13), X0
	VADDSS (R14), X0, X0
	VMOVSS X0, (R13)
	ADDQ   $4, R13
	ADDQ   $4, R14
	DECQ   DX
	JNZ    scatterScalar

scatterNext:
	ADDQ R12, SI
	ADDQ $4, BX
	DECQ CX
	JNZ  scatterRow

scatterDone:
	VZEROUPPER
	RET

// func gatherRows32(out, src []float32, idx []int32, width int)
// Copies row idx[i] of src (clamped to its rows) into row i of out, width floats each; src holds
// at least one row, width > 0.
TEXT ·gatherRows32(SB), NOSPLIT, $0-80
	MOVQ out_base+0(FP), DI
	MOVQ src_base+24(FP), SI
	MOVQ src_len+32(FP), AX
	MOVQ idx_base+48(FP), BX
	MOVQ idx_len+56(FP), CX
	MOVQ width+72(FP), R8
	XORQ DX, DX
	DIVQ R8
	DECQ AX
	MOVQ AX, R9                 // last row of src
	MOVQ R8, R10
	SHRQ $3, R10
	MOVQ R8, R11
	ANDQ $7, R11
	MOVQ R8, R12
	SHLQ $2, R12
	TESTQ CX, CX
	JZ   gatherDone

gatherRow:
	MOVLQSX (BX), AX
	CMPQ    AX, $0
	JGE     gatherLow
	XORQ    AX, AX

gatherLow:
	CMPQ AX, R9
	JLE  gatherHigh
	MOVQ R9, AX

gatherHigh:
	IMULQ R12, AX
	LEAQ  (SI)(AX*1), R14
	MOVQ  R10, DX
	TESTQ DX, DX
	JZ    gatherTail

gatherVec:
	VMOVUPS (R14), Y0
	VMOVUPS Y0, (DI)
	ADDQ    $32, R14
	ADDQ    $32, DI
	DECQ    DX
	JNZ     gatherVec

gatherTail:
	MOVQ  R11, DX
	TESTQ DX, DX
	JZ    gatherNext

gatherScalar:
	MOVL (R14), AX
	MOVL AX, (DI)
	ADDQ $4, R14
	ADDQ $4, DI
	DECQ DX
	JNZ  gatherScalar

gatherNext:
	ADDQ $4, BX
	DECQ CX
	JNZ  gatherRow

gatherDone:
	VZEROUPPER
	RET

// func scaleRows32(out, x, scale []float32, width int)
// Sets row r of out (width floats) to row r of x times scale[r], for every r of scale; out may
// be x.
TEXT ·scaleRows32(SB), NOSPLIT, $0-80
	MOVQ out_base+0(FP), DI
	MOVQ x_base+24(FP), SI
	MOVQ scale_base+48(FP), BX
	MOVQ scale_len+56(FP), CX
	MOVQ width+72(FP), R8
	MOVQ R8, R10
	SHRQ $3, R10
	MOVQ R8, R11
	ANDQ $7, R11
	TESTQ CX, CX
	JZ   scaleDone

scaleRow:
	VBROADCASTSS (BX), Y1
	MOVQ         R10, DX
	TESTQ        DX, DX
	JZ           scaleTail

scaleVec:
	VMOVUPS (SI), Y0
	VMULPS  Y1, Y0, Y0
	VMOVUPS Y0, (DI)
	ADDQ    $32, SI
	ADDQ    $32, DI
	DECQ    DX
	JNZ     scaleVec

scaleTail:
	MOVQ  R11, DX
	TESTQ DX, DX
	JZ    scaleNext

scaleScalar:
	VMOVSS (SI), X0
	VMULSS X1, X0, X0
	VMOVSS X0, (DI)
	ADDQ   $4, SI
	ADDQ   $4, DI
	DECQ   DX
	JNZ    scaleScalar

scaleNext:
	ADDQ $4, BX
	DECQ CX
	JNZ  scaleRow

scaleDone:
	VZEROUPPER
	RET

// func scaleAddRows32(out, x, scale []float32, src, dst []int32, width, sub, ahead, lo int)
// out holds rows [lo, lo + rows) of the output. For each e < len(dst) in order, adds row src[e]
// of x (clamped to x's rows) to row dst[e] of the output,
// each of its width/sub pieces of sub floats times its own scale (scale[e·width/sub + s] for
// piece s), skipping dst outside out's rows (their scales are skipped too); width > 0, sub > 0
// divides it, x holds at least one row. Products first (x · scale), then sums (out + product), as
// scaleRows32 and scatterAddRows32 compute them. Before message e it prefetches the two rows of
// message e + ahead, where there is one (none for ahead ≥ len(dst)) and its row of out is one
// of out's; a prefetch never faults, so the row of x is not checked.
TEXT ·scaleAddRows32(SB), NOSPLIT, $16-152
	MOVQ width+120(FP), R12
	MOVQ out_len+8(FP), AX
	XORQ DX, DX
	DIVQ R12
	MOVQ AX, rows-8(SP)         // rows of out
	MOVQ x_len+32(FP), AX
	XORQ DX, DX
	DIVQ R12
	DECQ AX
	MOVQ AX, last-16(SP)        // last row of x
	MOVQ R12, AX
	MOVQ sub+128(FP), R10
	XORQ DX, DX
	DIVQ R10
	MOVQ AX, R14                // pieces per row
	MOVQ R10, R11
	SHRQ $3, R10                // groups of eight per piece
	ANDQ $7, R11                // the rest of a piece
	SHLQ $2, R12                // bytes per row
	MOVQ out_base+0(FP), DI
	MOVQ x_base+24(FP), SI
	MOVQ scale_base+48(FP), BX
	MOVQ src_base+72(FP), R8
	MOVQ dst_base+96(FP), R9
	MOVQ dst_len+104(FP), CX
	TESTQ CX, CX
	JZ   fusedDone

fusedRow:
	CMPQ    CX, ahead+136(FP)
	JLE     fusedFetched        // no message e + ahead
	MOVQ    ahead+136(FP), AX
	MOVLQSX (R9)(AX*4), DX      // dst[e + ahead]
	SUBQ    lo+144(FP), DX
	CMPQ    DX, rows-8(SP)
	JAE     fusedFetched        // not one of out's rows
	MOVLQSX (R8)(AX*4), AX      // src[e + ahead]
	IMULQ   R12, DX
	ADDQ    DI, DX
	IMULQ   R12, AX
	ADDQ    SI, AX
	XORQ    R13, R13

fusedFetch:
	PREFETCHT0 (DX)(R13*1)
	PREFETCHT0 (AX)(R13*1)
	ADDQ       $64, R13
	CMPQ       R13, R12
	JB         fusedFetch
	PREFETCHT0 -1(DX)(R12*1)    // a row's last cache line
	PREFETCHT0 -1(AX)(R12*1)

fusedFetched:
	MOVLQSX (R9), R15
	SUBQ    lo+144(FP), R15
	CMPQ    R15, rows-8(SP)
	JAE     fusedSkip           // unsigned: negative or past the last row
	IMULQ   R12, R15
	ADDQ    DI, R15             // the output row
	MOVLQSX (R8), AX
	CMPQ    AX, $0
	JGE     fusedLow
	XORQ    AX, AX

fusedLow:
	CMPQ AX, last-16(SP)
	JLE  fusedHigh
	MOVQ last-16(SP), AX

fusedHigh:
	IMULQ R12, AX
	ADDQ  SI, AX                // the row of x
	MOVQ  R14, R13

fusedPiece:
	VBROADCASTSS (BX), Y1
	MOVQ         R10, DX
	TESTQ        DX, DX
	JZ           fusedTail

fusedVec:
	VMOVUPS (AX), Y0
	VMULPS  Y1, Y0, Y0
	VMOVUPS (R15), Y2
	VADDPS  Y0, Y2, Y2
	VMOVUPS Y2, (R15)
	ADDQ    $32, AX
	ADDQ    $32, R15
	DECQ    DX
	JNZ     fusedVec

fusedTail:                      // the last sub mod 8 floats: four, two, one at a time
	TESTQ $4, R11
	JZ    fusedTwo
	VMOVUPS (AX), X0
	VMULPS  X1, X0, X0
	VMOVUPS (R15), X2
	VADDPS  X0, X2, X2
	VMOVUPS X2, (R15)
	ADDQ    $16, AX
	ADDQ    $16, R15

fusedTwo:
	TESTQ $2, R11
	JZ    fusedOne
	VMOVQ  (AX), X0             // two floats; the upper lanes are zero and never stored
	VMULPS X1, X0, X0
	VMOVQ  (R15), X2
	VADDPS X0, X2, X2
	VMOVQ  X2, (R15)
	ADDQ   $8, AX
	ADDQ   $8, R15

fusedOne:
	TESTQ $1, R11
	JZ    fusedPieceNext
	VMOVSS (AX), X0
	VMULSS X1, X0, X0
	VMOVSS (R15), X2
	VADDSS X0, X2, X2
	VMOVSS X2, (R15)
	ADDQ   $4, AX
	ADDQ   $4, R15

fusedPieceNext:
	ADDQ $4, BX
	DECQ R13
	JNZ  fusedPiece
	JMP  fusedNext

fusedSkip:
	LEAQ (BX)(R14*4), BX

fusedNext:
	ADDQ $4, R8
	ADDQ $4, R9
	DECQ CX
	JNZ  fusedRow

fusedDone:
	VZEROUPPER
	RET

// func scaleAddRuns(out, x, scale []float32, src, dst []int32, width, ahead, lo int)
// scaleAddRows32 for one scale per message (sub = width) and width a multiple of 16, out holding
// rows [lo, lo + rows) of the output: each run of messages to one row (equal dst, consecutive) is
// added in registers, 64 floats at a time in eight (while 64 are left in the row, then 16 at a
// time in two), loaded from out before the run's first message and stored after its last, so
// each element gets the same products and sums in the same order as one message at a time,
// without the stores and loads between them. Before message e it prefetches the rows' chunks of
// message e + ahead, where there is one (none for ahead ≥ len(dst)) and its row is one of out's.
TEXT ·scaleAddRuns(SB), NOSPLIT, $16-144
	MOVQ width+120(FP), R12
	MOVQ out_len+8(FP), AX
	XORQ DX, DX
	DIVQ R12
	MOVQ AX, rows-8(SP)         // rows of out
	MOVQ x_len+32(FP), AX
	XORQ DX, DX
	DIVQ R12
	DECQ AX
	MOVQ AX, last-16(SP)        // last row of x
	SHLQ $2, R12                // bytes per row
	MOVQ out_base+0(FP), DI
	MOVQ x_base+24(FP), SI
	MOVQ scale_base+48(FP), BX
	MOVQ src_base+72(FP), R8
	MOVQ dst_base+96(FP), R9
	MOVQ dst_len+104(FP), CX

runStart:
	TESTQ CX, CX
	JZ    runsDone
	MOVLQSX (R9), R15           // the run's row of out
	MOVQ    $1, R11             // its length

runScan:
	CMPQ    R11, CX
	JAE     runScanned
	MOVLQSX (R9)(R11*4), AX
	CMPQ    AX, R15
	JNE     runScanned
	INCQ    R11
	JMP     runScan

runScanned:
	SUBQ  lo+136(FP), R15
	CMPQ  R15, rows-8(SP)
	JAE   runNext               // unsigned: negative or past the last row
	IMULQ R12, R15
	ADDQ  DI, R15
	XORQ  R10, R10              // the chunk's byte offset in a row

runChunk:
	MOVQ R12, DX
	SUBQ R10, DX
	CMPQ DX, $256
	JB   runChunk16             // fewer than 64 floats left
	VMOVUPS 0(R15)(R10*1), Y0
	VMOVUPS 32(R15)(R10*1), Y1
	VMOVUPS 64(R15)(R10*1), Y2
	VMOVUPS 96(R15)(R10*1), Y3
	VMOVUPS 128(R15)(R10*1), Y4
	VMOVUPS 160(R15)(R10*1), Y5
	VMOVUPS 192(R15)(R10*1), Y6
	VMOVUPS 224(R15)(R10*1), Y7
	XORQ    R13, R13            // the message in the run

runMessage64:
	RUN_AHEAD(runFetched64)
	PREFETCHT0 0(AX)
	PREFETCHT0 64(AX)
	PREFETCHT0 128(AX)
	PREFETCHT0 192(AX)
	PREFETCHT0 255(AX)
	PREFETCHT0 0(DX)
	PREFETCHT0 64(DX)
	PREFETCHT0 128(DX)
	PREFETCHT0 192(DX)
	PREFETCHT0 255(DX)

runFetched64:
	RUN_MESSAGE
	ADD_SCALED(0, Y0, Y9)
	ADD_SCALED(32, Y1, Y10)
	ADD_SCALED(64, Y2, Y11)
	ADD_SCALED(96, Y3, Y12)
	ADD_SCALED(128, Y4, Y13)
	ADD_SCALED(160, Y5, Y14)
	ADD_SCALED(192, Y6, Y15)
	ADD_SCALED(224, Y7, Y9)
	INCQ R13
	CMPQ R13, R11
	JB   runMessage64
	VMOVUPS Y0, 0(R15)(R10*1)
	VMOVUPS Y1, 32(R15)(R10*1)
	VMOVUPS Y2, 64(R15)(R10*1)
	VMOVUPS Y3, 96(R15)(R10*1)
	VMOVUPS Y4, 128(R15)(R10*1)
	VMOVUPS Y5, 160(R15)(R10*1)
	VMOVUPS Y6, 192(R15)(R10*1)
	VMOVUPS Y7, 224(R15)(R10*1)
	ADDQ    $256, R10
	JMP     runChunkNext

runChunk16:
	VMOVUPS 0(R15)(R10*1), Y0
	VMOVUPS 32(R15)(R10*1), Y1
	XORQ    R13, R13

runMessage16:
	RUN_AHEAD(runFetched16)
	PREFETCHT0 0(AX)
	PREFETCHT0 63(AX)
	PREFETCHT0 0(DX)
	PREFETCHT0 63(DX)

runFetched16:
	RUN_MESSAGE
	ADD_SCALED(0, Y0, Y9)
	ADD_SCALED(32, Y1, Y10)
	INCQ R13
	CMPQ R13, R11
	JB   runMessage16
	VMOVUPS Y0, 0(R15)(R10*1)
	VMOVUPS Y1, 32(R15)(R10*1)
	ADDQ    $64, R10

runChunkNext:
	CMPQ R10, R12
	JB   runChunk

runNext:
	LEAQ (R8)(R11*4), R8
	LEAQ (R9)(R11*4), R9
	LEAQ (BX)(R11*4), BX
	SUBQ R11, CX
	JMP  runStart

runsDone:
	VZEROUPPER
	RET

// func sumScaledRows4x16(out *float32, ldo uintptr, y *float32, ldy uintptr, coef *float32, ldc uintptr, k int)
// Sets a tile of 4 rows (ldo bytes apart) × 16 floats at out to Σ_j coef_r[j] · (the 16 floats at
// y + j·ldy bytes) for row r, coef_r at coef + r·ldc bytes, j ascending from a sum of 0: per
// element the product (coef · y), then the sum (sum + product).
TEXT ·sumScaledRows4x16(SB), NOSPLIT, $0-56
	MOVQ   out+0(FP), DI
	MOVQ   ldo+8(FP), R12
	MOVQ   y+16(FP), SI
	MOVQ   ldy+24(FP), DX
	MOVQ   coef+32(FP), BX
	MOVQ   ldc+40(FP), R8
	MOVQ   k+48(FP), CX
	LEAQ   (R8)(R8*2), R9       // 3·ldc
	VXORPS Y0, Y0, Y0
	VXORPS Y1, Y1, Y1
	VXORPS Y2, Y2, Y2
	VXORPS Y3, Y3, Y3
	VXORPS Y4, Y4, Y4
	VXORPS Y5, Y5, Y5
	VXORPS Y6, Y6, Y6
	VXORPS Y7, Y7, Y7
	TESTQ  CX, CX
	JZ     tileStore

tileTerm:
	VMOVUPS      (SI), Y8
	VMOVUPS      32(SI), Y9
	VBROADCASTSS (BX), Y10
	VMULPS       Y8, Y10, Y11
	VADDPS       Y11, Y0, Y0
	VMULPS       Y9, Y10, Y12
	VADDPS       Y12, Y1, Y1
	VBROADCASTSS (BX)(R8*1), Y10
	VMULPS       Y8, Y10, Y11
	VADDPS       Y11, Y2, Y2
	VMULPS       Y9, Y10, Y12
	VADDPS       Y12, Y3, Y3
	VBROADCASTSS (BX)(R8*2), Y10
	VMULPS       Y8, Y10, Y11
	VADDPS       Y11, Y4, Y4
	VMULPS       Y9, Y10, Y12
	VADDPS       Y12, Y5, Y5
	VBROADCASTSS (BX)(R9*1), Y10
	VMULPS       Y8, Y10, Y11
	VADDPS       Y11, Y6, Y6
	VMULPS       Y9, Y10, Y12
	VADDPS       Y12, Y7, Y7
	ADDQ         DX, SI
	ADDQ         $4, BX
	DECQ         CX
	JNZ          tileTerm

tileStore:
	VMOVUPS Y0, (DI)
	VMOVUPS Y1, 32(DI)
	ADDQ    R12, DI
	VMOVUPS Y2, (DI)
	VMOVUPS Y3, 32(DI)
	ADDQ    R12, DI
	VMOVUPS Y4, (DI)
	VMOVUPS Y5, 32(DI)
	ADDQ    R12, DI
	VMOVUPS Y6, (DI)
	VMOVUPS Y7, 32(DI)
	VZEROUPPER
	RET

// func sumScaledRows8(out, y *float32, ldy uintptr, coef *float32, k int)
// Sets the 8 floats at out to Σ_j coef[j] · (the 8 floats at y + j·ldy bytes), j ascending from a
// sum of 0: per element the product (coef · y), then the sum (sum + product).
TEXT ·sumScaledRows8(SB), NOSPLIT, $0-40
	MOVQ   out+0(FP), DI
	MOVQ   y+8(FP), SI
	MOVQ   ldy+16(FP), DX
	MOVQ   coef+24(FP), BX
	MOVQ   k+32(FP), CX
	VXORPS Y0, Y0, Y0
	TESTQ  CX, CX
	JZ     sum8Store

sum8Term:
	VBROADCASTSS (BX), Y8
	VMULPS       (SI), Y8, Y9
	VADDPS       Y9, Y0, Y0
	ADDQ         DX, SI
	ADDQ         $4, BX
	DECQ         CX
	JNZ          sum8Term

sum8Store:
	VMOVUPS Y0, (DI)
	VZEROUPPER
	RET

// func selectAVX(out *float32, c *bool, t *float32, tStep uintptr, f *float32, fStep uintptr, n int)
// Sets out[i] to t's element where c[i], else f's, for i < n &^ 7, eight at a time: t and f advance
// tStep and fStep bytes per eight (0: the same eight values, a repeated scalar). Bits are moved,
// not computed on.
TEXT ·selectAVX(SB), NOSPLIT, $0-56
	MOVQ   out+0(FP), DI
	MOVQ   c+8(FP), SI
	MOVQ   t+16(FP), AX
	MOVQ   tStep+24(FP), R8
	MOVQ   f+32(FP), BX
	MOVQ   fStep+40(FP), R9
	MOVQ   n+48(FP), CX
	SHRQ   $3, CX
	JZ     selectDone
	VPXOR  Y15, Y15, Y15

selectLoop:
	VPMOVZXBD (SI), Y0
	VPCMPEQD  Y15, Y0, Y0       // all ones where c is false
	VMOVUPS   (AX), Y1
	VMOVUPS   (BX), Y2
	VBLENDVPS Y0, Y2, Y1, Y3    // f where the mask is set, else t
	VMOVUPS   Y3, (DI)
	ADDQ      $8, SI
	ADDQ      R8, AX
	ADDQ      R9, BX
	ADDQ      $32, DI
	DECQ      CX
	JNZ       selectLoop

selectDone:
	VZEROUPPER
	RET

// func signAVX(out, x []float32)
// Sets out[i] to 1 where x[i] > 0, −1 where x[i] < 0, else +0 (±0 and NaN: ordered comparisons
// are false), for i < len(out) &^ 7 (x at least as long).
TEXT ·signAVX(SB), NOSPLIT, $0-48
	MOVQ         out_base+0(FP), DI
	MOVQ         out_len+8(FP), CX
	MOVQ         x_base+24(FP), SI
	SHRQ         $3, CX
	JZ           signDone
	MOVL         $0x3f800000, AX // the bits of 1
	VMOVD        AX, X13
	VPBROADCASTD X13, Y13
	MOVL         $0xbf800000, AX // the bits of −1
	VMOVD        AX, X14
	VPBROADCASTD X14, Y14
	VXORPS       Y15, Y15, Y15

signLoop:
	VMOVUPS (SI), Y0
	VCMPPS  $0x1e, Y15, Y0, Y1  // x > 0 (GT_OQ)
	VCMPPS  $0x11, Y15, Y0, Y2  // x < 0 (LT_OQ)
	VANDPS  Y13, Y1, Y1
	VANDPS  Y14, Y2, Y2
	VORPS   Y1, Y2, Y3
	VMOVUPS Y3, (DI)
	ADDQ    $32, SI
	ADDQ    $32, DI
	DECQ    CX
	JNZ     signLoop

signDone:
	VZEROUPPER
	RET

// func arithAVX(op int, out, a *float32, aStep uintptr, b *float32, bStep uintptr, n int)
// Sets out[i] = a[i] op b[i] (op 0 add, 1 subtract, 2 divide) for i < n &^ 7, eight at a time; a
// and b advance aStep and bStep bytes per eight (0 for eight copies of one value). One IEEE
// operation per element, a's element first, as Go's a + b, a − b and a / b.
TEXT ·arithAVX(SB), NOSPLIT, $0-56
	MOVQ op+0(FP), DX
	MOVQ out+8(FP), DI
	MOVQ a+16(FP), AX
	MOVQ aStep+24(FP), R8
	MOVQ b+32(FP), BX
	MOVQ bStep+40(FP), R9
	MOVQ n+48(FP), CX
	SHRQ $3, CX
	JZ   arithDone
	CMPQ DX, $1
	JEQ  arithSub
	JA   arithDiv

arithAdd:
	VMOVUPS (AX), Y0
	VADDPS  (BX), Y0, Y0
	VMOVUPS Y0, (DI)
	ADDQ    R8, AX
	ADDQ    R9, BX
	ADDQ    $32, DI
	DECQ    CX
	JNZ     arithAdd
	JMP     arithDone

arithSub:
	VMOVUPS (AX), Y0
	VSUBPS  (BX), Y0, Y0
	VMOVUPS Y0, (DI)
	ADDQ    R8, AX
	ADDQ    R9, BX
	ADDQ    $32, DI
	DECQ    CX
	JNZ     arithSub
	JMP     arithDone

arithDiv:
	VMOVUPS (AX), Y0
	VDIVPS  (BX), Y0, Y0
	VMOVUPS Y0, (DI)
	ADDQ    R8, AX
	ADDQ    R9, BX
	ADDQ    $32, DI
	DECQ    CX
	JNZ     arithDiv

arithDone:
	VZEROUPPER
	RET

// func minMaxAVX(isMax int, out, a *float32, aStep uintptr, b *float32, bStep uintptr, n int)
// Sets out[i] = min(a[i], b[i]), or max with isMax 1, for i < n &^ 7, eight at a time, as Go's
// min and max builtins compile on amd64 (NaN payloads and ±0 included): min(x, y) is
// (MIN(MIN(x, y), x)) | MIN(x, y), MIN being MINPS's "x < y ? x : y", and max(x, y) is
// −min(−x, −y). a and b advance aStep and bStep bytes per eight (0: one value repeated).
TEXT ·minMaxAVX(SB), NOSPLIT, $0-56
	MOVQ         isMax+0(FP), DX
	MOVQ         out+8(FP), DI
	MOVQ         a+16(FP), AX
	MOVQ         aStep+24(FP), R8
	MOVQ         b+32(FP), BX
	MOVQ         bStep+40(FP), R9
	MOVQ         n+48(FP), CX
	SHRQ         $3, CX
	JZ           minMaxDone
	MOVL         $0x80000000, R10 // the sign bit
	VMOVD        R10, X13
	VPBROADCASTD X13, Y13
	TESTQ        DX, DX
	JNZ          maxLoop

minLoop:
	VMOVUPS (AX), Y0
	VMOVUPS (BX), Y1
	VMINPS  Y1, Y0, Y2 // m = MIN(x, y)
	VMINPS  Y0, Y2, Y3 // MIN(m, x)
	VORPS   Y2, Y3, Y3
	VMOVUPS Y3, (DI)
	ADDQ    R8, AX
	ADDQ    R9, BX
	ADDQ    $32, DI
	DECQ    CX
	JNZ     minLoop
	JMP     minMaxDone

maxLoop:
	VMOVUPS (AX), Y0
	VMOVUPS (BX), Y1
	VXORPS  Y13, Y0, Y0 // −x
	VXORPS  Y13, Y1, Y1 // −y
	VMINPS  Y1, Y0, Y2
	VMINPS  Y0, Y2, Y3
	VORPS   Y2, Y3, Y3
	VXORPS  Y13, Y3, Y3
	VMOVUPS Y3, (DI)
	ADDQ    R8, AX
	ADDQ    R9, BX
	ADDQ    $32, DI
	DECQ    CX
	JNZ     maxLoop

minMaxDone:
	VZEROUPPER
	RET

// func absAVX(out, x []float32)
// Sets out[i] = −x[i] where x[i] < 0, else x[i] (−0 and NaNs kept, as simplego's Abs), for
// i < len(out) &^ 7.
TEXT ·absAVX(SB), NOSPLIT, $0-48
	MOVQ         out_base+0(FP), DI
	MOVQ         out_len+8(FP), CX
	MOVQ         x_base+24(FP), SI
	SHRQ         $3, CX
	JZ           absDone
	MOVL         $0x80000000, AX
	VMOVD        AX, X13
	VPBROADCASTD X13, Y13
	VXORPS       Y15, Y15, Y15

absLoop:
	VMOVUPS   (SI), Y0
	VCMPPS    $0x11, Y15, Y0, Y1 // x < 0 (LT_OQ)
	VXORPS    Y13, Y0, Y2        // −x
	VBLENDVPS Y1, Y2, Y0, Y3
	VMOVUPS   Y3, (DI)
	ADDQ      $32, SI
	ADDQ      $32, DI
	DECQ      CX
	JNZ       absLoop

absDone:
	VZEROUPPER
	RET

// func lessEqAVX(out *bool, a *float32, aStep uintptr, b *float32, bStep uintptr, n int)
// Sets out[i] = a[i] <= b[i] (false where either is NaN) for i < n &^ 7, eight at a time; a and
// b advance aStep and bStep bytes per eight (0: one value repeated).
TEXT ·lessEqAVX(SB), NOSPLIT, $0-48
	MOVQ  out+0(FP), DI
	MOVQ  a+8(FP), AX
	MOVQ  aStep+16(FP), R8
	MOVQ  b+24(FP), BX
	MOVQ  bStep+32(FP), R9
	MOVQ  n+40(FP), CX
	SHRQ  $3, CX
	JZ    lessEqDone
	MOVQ  $0x0101010101010101, R10
	VMOVQ R10, X12

lessEqLoop:
	VMOVUPS      (AX), Y0
	VMOVUPS      (BX), Y1
	VCMPPS       $0x12, Y1, Y0, Y2 // a <= b (LE_OQ)
	VEXTRACTF128 $1, Y2, X3
	VPACKSSDW    X3, X2, X2
	VPACKSSWB    X2, X2, X2
	VPAND        X12, X2, X2
	VMOVQ        X2, (DI)
	ADDQ         R8, AX
	ADDQ         R9, BX
	ADDQ         $8, DI
	DECQ         CX
	JNZ          lessEqLoop

lessEqDone:
	VZEROUPPER
	RET

// func uint32ToFloat32AVX(out []float32, x []uint32)
// Sets out[i] = float32(x[i]) for i < len(out) &^ 7: the upper and lower 16 bits converted
// exactly, the upper scaled by 2^16 exactly, then one rounded sum, which is the correctly rounded
// conversion Go makes.
TEXT ·uint32ToFloat32AVX(SB), NOSPLIT, $0-48
	MOVQ         out_base+0(FP), DI
	MOVQ         out_len+8(FP), CX
	MOVQ         x_base+24(FP), SI
	SHRQ         $3, CX
	JZ           u32Done
	MOVL         $0xffff, AX
	VMOVD        AX, X14
	VPBROADCASTD X14, Y14
	MOVL         $0x47800000, AX // 65536.0
	VMOVD        AX, X13
	VPBROADCASTD X13, Y13

u32Loop:
	VMOVDQU   (SI), Y0
	VPSRLD    $16, Y0, Y1
	VPAND     Y14, Y0, Y2
	VCVTDQ2PS Y1, Y1
	VCVTDQ2PS Y2, Y2
	VMULPS    Y13, Y1, Y1
	VADDPS    Y2, Y1, Y1
	VMOVUPS   Y1, (DI)
	ADDQ      $32, SI
	ADDQ      $32, DI
	DECQ      CX
	JNZ       u32Loop

u32Done:
	VZEROUPPER
	RET
