#include "textflag.h"

// Constants of the normalisation kernels: +Inf, −Inf, ExpFloor (−708).
DATA normconst<>+0(SB)/8, $0x7ff0000000000000
DATA normconst<>+8(SB)/8, $0xfff0000000000000
DATA normconst<>+16(SB)/8, $-708.0
GLOBL normconst<>(SB), RODATA|NOPTR, $24

// The kernels take groups of four rows of k values (row-major, k ≥ 2),
// the four rows as the lanes of a vector: column i of the group is
// gathered from x + 8i at the byte offsets off[0…3] = 0, 8k, 16k, 24k.

// func normDiffAVX2(x *float64, k, groups int, off *int64, e, m *float64) (bad uint64)
//
// For group g: m[4g+l] = the largest of row l (VMAXPD, left to right),
// and the differences x_i − m of its rows to e[4kg + 4i + l]. Bit g of
// bad is set when a row of the group holds a NaN or its largest is 0 or
// infinite: VMAXPD is Go's max except for NaN and for the sign of a zero,
// and such rows are for the portable code.
TEXT ·normDiffAVX2(SB), NOSPLIT, $0-56
	MOVQ         x+0(FP), SI
	MOVQ         k+8(FP), CX
	MOVQ         groups+16(FP), DX
	MOVQ         off+24(FP), AX
	VMOVDQU      (AX), Y15
	MOVQ         e+32(FP), DI
	MOVQ         m+40(FP), BX
	XORQ         R9, R9
	XORQ         R10, R10
	MOVQ         CX, R11
	SHLQ         $5, R11                  // bytes of a group
	VBROADCASTSD normconst<>+0(SB), Y13   // +Inf
	VBROADCASTSD normconst<>+8(SB), Y12   // −Inf
	VPCMPEQQ     Y11, Y11, Y11            // all ones
	VXORPD       Y10, Y10, Y10            // 0

dgroup:
	CMPQ         R10, DX
	JGE          ddone
	VMOVDQA      Y11, Y14
	VGATHERQPD   Y14, (SI)(Y15*1), Y1     // m = column 0
	VCMPPD       $3, Y1, Y1, Y2           // NaN
	MOVQ         $8, R8
	MOVQ         CX, R12
	DECQ         R12

dmax:
	LEAQ         (SI)(R8*1), R13
	VMOVDQA      Y11, Y14
	VGATHERQPD   Y14, (R13)(Y15*1), Y0
	VCMPPD       $3, Y0, Y0, Y3
	VORPD        Y3, Y2, Y2
	VMAXPD       Y1, Y0, Y1               // m = max(x_i, m)
	ADDQ         $8, R8
	DECQ         R12
	JNZ          dmax
	VCMPPD       $0, Y10, Y1, Y3          // m = 0
	VORPD        Y3, Y2, Y2
	VCMPPD       $0, Y13, Y1, Y3          // m = +Inf
	VORPD        Y3, Y2, Y2
	VCMPPD       $0, Y12, Y1, Y3          // m = −Inf
	VORPD        Y3, Y2, Y2
	VMOVMSKPD    Y2, AX
	TESTQ        AX, AX
	JZ           dok
	BTSQ         R10, R9

dok:
	VMOVUPD      Y1, (BX)
	XORQ         R8, R8
	MOVQ         CX, R12

ddiff:
	LEAQ         (SI)(R8*1), R13
	VMOVDQA      Y11, Y14
	VGATHERQPD   Y14, (R13)(Y15*1), Y0
	VSUBPD       Y1, Y0, Y0               // x_i − m
	VMOVUPD      Y0, (DI)
	ADDQ         $32, DI
	ADDQ         $8, R8
	DECQ         R12
	JNZ          ddiff
	ADDQ         R11, SI
	ADDQ         $32, BX
	INCQ         R10
	JMP          dgroup

ddone:
	MOVQ         R9, bad+48(FP)
	VZEROUPPER
	RET

// func normSumAVX2(x *float64, k, groups int, off *int64, e, m *float64)
//
// For group g, with e[4kg + 4i + l] = exp(x_i − m) of row l: s_l = Σ_i
// of them over i in increasing order, a term with x_i − m < ExpFloor
// taken as 0 (rowSum), to e[4g + l] (which only groups up to g used).
TEXT ·normSumAVX2(SB), NOSPLIT, $0-48
	MOVQ         x+0(FP), SI
	MOVQ         k+8(FP), CX
	MOVQ         groups+16(FP), DX
	MOVQ         off+24(FP), AX
	VMOVDQU      (AX), Y15
	MOVQ         e+32(FP), DI
	MOVQ         m+40(FP), BX
	MOVQ         DI, R9                   // where the sums go
	XORQ         R10, R10
	MOVQ         CX, R11
	SHLQ         $5, R11
	VBROADCASTSD normconst<>+16(SB), Y13  // ExpFloor
	VPCMPEQQ     Y11, Y11, Y11

sgroup:
	CMPQ         R10, DX
	JGE          sdone
	VMOVUPD      (BX), Y1                 // m
	VXORPD       Y2, Y2, Y2               // s = 0
	XORQ         R8, R8
	MOVQ         CX, R12

ssum:
	LEAQ         (SI)(R8*1), R13
	VMOVDQA      Y11, Y14
	VGATHERQPD   Y14, (R13)(Y15*1), Y0
	VSUBPD       Y1, Y0, Y0               // x_i − m
	VCMPPD       $1, Y13, Y0, Y3          // < ExpFloor
	VANDNPD      (DI), Y3, Y4             // the exponential, or 0
	VADDPD       Y4, Y2, Y2
	ADDQ         $32, DI
	ADDQ         $8, R8
	DECQ         R12
	JNZ          ssum
	VMOVUPD      Y2, (R9)
	ADDQ         $32, R9
	ADDQ         R11, SI
	ADDQ         $32, BX
	INCQ         R10
	JMP          sgroup

sdone:
	VZEROUPPER
	RET

// func normOutAVX2(x *float64, k, groups int, off *int64, ls, m *float64, bad uint64, best *int)
//
// For group g whose bit of bad is clear: x_i ← (x_i − m) − ls[4g + l]
// for row l, and best[4g + l] = the first i where that equals
// 0 − ls[4g + l].
TEXT ·normOutAVX2(SB), NOSPLIT, $0-64
	MOVQ         x+0(FP), SI
	MOVQ         k+8(FP), CX
	MOVQ         groups+16(FP), DX
	MOVQ         off+24(FP), AX
	VMOVDQU      (AX), Y15
	MOVQ         ls+32(FP), DI
	MOVQ         m+40(FP), BX
	MOVQ         bad+48(FP), R9
	MOVQ         best+56(FP), R15
	XORQ         R10, R10
	MOVQ         CX, R11
	SHLQ         $3, R11                  // bytes of a row
	LEAQ         (R11)(R11*2), R14        // of three rows
	MOVQ         CX, AX
	SHLQ         $5, AX                   // of a group
	VPCMPEQQ     Y11, Y11, Y11
	VPXOR        Y10, Y10, Y10            // 0
	VPSRLQ       $63, Y11, Y9             // 1 in each lane

ogroup:
	CMPQ         R10, DX
	JGE          odone
	BTQ          R10, R9
	JCS          onext
	VMOVUPD      (BX), Y1                 // m
	VMOVUPD      (DI), Y2                 // ls
	VSUBPD       Y2, Y10, Y5              // 0 − ls, the largest
	VPXOR        Y6, Y6, Y6               // found
	VPXOR        Y7, Y7, Y7               // best
	VPXOR        Y8, Y8, Y8               // i
	XORQ         R8, R8
	MOVQ         CX, R12

oterm:
	LEAQ         (SI)(R8*1), R13
	VMOVDQA      Y11, Y14
	VGATHERQPD   Y14, (R13)(Y15*1), Y0
	VSUBPD       Y1, Y0, Y0
	VSUBPD       Y2, Y0, Y0               // (x_i − m) − ls
	VCMPPD       $0, Y5, Y0, Y3           // the largest
	VPANDN       Y3, Y6, Y4               // and the first
	VPOR         Y3, Y6, Y6
	VBLENDVPD    Y4, Y8, Y7, Y7           // best = i there
	VPADDQ       Y9, Y8, Y8
	VMOVSD       X0, (R13)
	VMOVHPD      X0, (R13)(R11*1)
	VEXTRACTF128 $1, Y0, X3
	VMOVSD       X3, (R13)(R11*2)
	VMOVHPD      X3, (R13)(R14*1)
	ADDQ         $8, R8
	DECQ         R12
	JNZ          oterm
	VMOVDQU      Y7, (R15)

onext:
	ADDQ         AX, SI
	ADDQ         $32, BX
	ADDQ         $32, DI
	ADDQ         $32, R15
	INCQ         R10
	JMP          ogroup

odone:
	VZEROUPPER
	RET
