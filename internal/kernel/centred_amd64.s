#include "textflag.h"

// func centredDots(out, x *float64, rows, n int, c, w *float64, k, npad int)
//
// For each row and each group of four classes (first class min(4g, k−4)):
// Z0–Z3 accumulate, per eight features, (x − c)·w_t with x loaded once and
// centred in Z4 and the weights of the four classes read from the packed
// block; the last n mod 8 features under the mask K1. Then each
// accumulator summed across its lanes (halves added, VHADDPD, the halves
// of the pairs added) and the four scores stored at once.
TEXT ·centredDots(SB), NOSPLIT, $0-64
	MOVQ out+0(FP), DI
	MOVQ x+8(FP), SI
	MOVQ rows+16(FP), R8
	MOVQ n+24(FP), R13
	MOVQ c+32(FP), R9
	MOVQ w+40(FP), R10
	MOVQ k+48(FP), R11
	MOVQ npad+56(FP), R12
	SHLQ $5, R12          // bytes of a group of packed weights
	MOVQ R13, CX
	ANDQ $7, CX           // features in the masked vector
	MOVQ $1, AX
	SHLQ CX, AX
	DECQ AX
	KMOVW AX, K1
	SHLQ $3, R13          // bytes of a row of x
	MOVQ R13, BX
	ANDQ $-64, BX         // bytes of the whole vectors

cdrow:
	TESTQ R8, R8
	JZ    cddone
	XORQ  DX, DX          // first class of the group
	MOVQ  R10, R14        // its packed weights

cdgroup:
	MOVQ    R11, AX
	SUBQ    $4, AX
	CMPQ    DX, AX
	CMOVQGT AX, DX        // the last group: classes k−4 … k−1
	VPXORQ  Z0, Z0, Z0
	VPXORQ  Z1, Z1, Z1
	VPXORQ  Z2, Z2, Z2
	VPXORQ  Z3, Z3, Z3
	XORQ    AX, AX

cdvec:
	CMPQ        AX, BX
	JGE         cdtail
	VMOVUPD     (SI)(AX*1), Z4
	VSUBPD      (R9)(AX*1), Z4, Z4
	VFMADD231PD (R14)(AX*4), Z4, Z0
	VFMADD231PD 64(R14)(AX*4), Z4, Z1
	VFMADD231PD 128(R14)(AX*4), Z4, Z2
	VFMADD231PD 192(R14)(AX*4), Z4, Z3
	ADDQ        $64, AX
	JMP         cdvec

cdtail:
	TESTQ       CX, CX
	JZ          cdreduce
	VMOVUPD.Z   (SI)(AX*1), K1, Z4
	VSUBPD      (R9)(AX*1), Z4, Z4
	VFMADD231PD (R14)(AX*4), Z4, Z0
	VFMADD231PD 64(R14)(AX*4), Z4, Z1
	VFMADD231PD 128(R14)(AX*4), Z4, Z2
	VFMADD231PD 192(R14)(AX*4), Z4, Z3

cdreduce:
	VEXTRACTF64X4 $1, Z0, Y5
	VADDPD        Y5, Y0, Y0
	VEXTRACTF64X4 $1, Z1, Y5
	VADDPD        Y5, Y1, Y1
	VEXTRACTF64X4 $1, Z2, Y5
	VADDPD        Y5, Y2, Y2
	VEXTRACTF64X4 $1, Z3, Y5
	VADDPD        Y5, Y3, Y3
	VHADDPD       Y1, Y0, Y0  // a01 b01 a23 b23
	VHADDPD       Y3, Y2, Y2  // c01 d01 c23 d23
	VPERM2F128    $0x20, Y2, Y0, Y4
	VPERM2F128    $0x31, Y2, Y0, Y5
	VADDPD        Y5, Y4, Y4
	VMOVUPD       Y4, (DI)(DX*8)
	ADDQ          R12, R14
	ADDQ          $4, DX
	CMPQ          DX, R11
	JLT           cdgroup
	ADDQ          R13, SI
	LEAQ          (DI)(R11*8), DI
	DECQ          R8
	JMP           cdrow

cddone:
	VZEROUPPER
	RET
