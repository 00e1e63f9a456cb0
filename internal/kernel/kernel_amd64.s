#include "textflag.h"

// func dotRows2AVX2(x *float64, rows, n int, w0, w1, out *float64)
//
// For each row: four 4-wide accumulators, two per vector; per eight
// elements, two loads of the row and four fused multiply-adds with w_0
// and w_1 from memory; then one 4-wide step if four or more elements
// remain, the sums across lanes, and the last n mod 4 elements one by
// one.
TEXT ·dotRows2AVX2(SB), NOSPLIT, $0-48
	MOVQ x+0(FP), SI
	MOVQ rows+8(FP), R8
	MOVQ n+16(FP), CX
	MOVQ w0+24(FP), R10
	MOVQ w1+32(FP), R11
	MOVQ out+40(FP), DX
	SHLQ $3, CX            // bytes of a row
	MOVQ CX, BX
	ANDQ $-64, BX          // bytes of the whole 8-wide steps
	MOVQ CX, R9
	ANDQ $-32, R9          // bytes of the whole 4-wide steps

d2row:
	TESTQ  R8, R8
	JZ     d2done
	VXORPD Y0, Y0, Y0
	VXORPD Y1, Y1, Y1
	VXORPD Y2, Y2, Y2
	VXORPD Y3, Y3, Y3
	XORQ   AX, AX

d2loop:
	CMPQ        AX, BX
	JGE         d2four
	VMOVUPD     (SI)(AX*1), Y4
	VMOVUPD     32(SI)(AX*1), Y5
	VFMADD231PD (R10)(AX*1), Y4, Y0
	VFMADD231PD (R11)(AX*1), Y4, Y1
	VFMADD231PD 32(R10)(AX*1), Y5, Y2
	VFMADD231PD 32(R11)(AX*1), Y5, Y3
	ADDQ        $64, AX
	JMP         d2loop

d2four:
	CMPQ        AX, R9
	JGE         d2reduce
	VMOVUPD     (SI)(AX*1), Y4
	VFMADD231PD (R10)(AX*1), Y4, Y0
	VFMADD231PD (R11)(AX*1), Y4, Y1
	ADDQ        $32, AX

d2reduce:
	VADDPD       Y2, Y0, Y0
	VADDPD       Y3, Y1, Y1
	VEXTRACTF128 $1, Y0, X14
	VADDPD       X14, X0, X0
	VHADDPD      X0, X0, X0
	VEXTRACTF128 $1, Y1, X14
	VADDPD       X14, X1, X1
	VHADDPD      X1, X1, X1

d2tail:
	CMPQ        AX, CX
	JGE         d2store
	VMOVSD      (SI)(AX*1), X4
	VFMADD231SD (R10)(AX*1), X4, X0
	VFMADD231SD (R11)(AX*1), X4, X1
	ADDQ        $8, AX
	JMP         d2tail

d2store:
	VMOVSD X0, 0(DX)
	VMOVSD X1, 8(DX)
	ADDQ   $16, DX
	ADDQ   CX, SI
	DECQ   R8
	JMP    d2row

d2done:
	VZEROUPPER
	RET

// func axpyRows2AVX2(g0, g1, coef, x *float64, quads, n int)
//
// For each group of four rows x_0..x_3: the eight coefficients broadcast
// into Y8–Y15; per four elements, one load of each x_r and g_c, four
// fused multiply-adds into each g_c and its store; then the last n mod 4
// elements one by one.
TEXT ·axpyRows2AVX2(SB), NOSPLIT, $0-48
	MOVQ g0+0(FP), R12
	MOVQ g1+8(FP), R13
	MOVQ coef+16(FP), DX
	MOVQ x+24(FP), SI
	MOVQ quads+32(FP), R10
	MOVQ n+40(FP), CX
	SHLQ $3, CX            // bytes of a row
	MOVQ CX, BX
	ANDQ $-32, BX          // bytes of the whole 4-wide steps

a2quad:
	TESTQ        R10, R10
	JZ           a2done
	LEAQ         (SI)(CX*1), DI
	LEAQ         (DI)(CX*1), R8
	LEAQ         (R8)(CX*1), R9
	VBROADCASTSD 0(DX), Y8
	VBROADCASTSD 8(DX), Y9
	VBROADCASTSD 16(DX), Y10
	VBROADCASTSD 24(DX), Y11
	VBROADCASTSD 32(DX), Y12
	VBROADCASTSD 40(DX), Y13
	VBROADCASTSD 48(DX), Y14
	VBROADCASTSD 56(DX), Y15
	XORQ         AX, AX

a2loop:
	CMPQ        AX, BX
	JGE         a2tail
	VMOVUPD     (SI)(AX*1), Y0
	VMOVUPD     (DI)(AX*1), Y1
	VMOVUPD     (R8)(AX*1), Y2
	VMOVUPD     (R9)(AX*1), Y3
	VMOVUPD     (R12)(AX*1), Y4
	VMOVUPD     (R13)(AX*1), Y5
	VFMADD231PD Y8, Y0, Y4
	VFMADD231PD Y9, Y0, Y5
	VFMADD231PD Y10, Y1, Y4
	VFMADD231PD Y11, Y1, Y5
	VFMADD231PD Y12, Y2, Y4
	VFMADD231PD Y13, Y2, Y5
	VFMADD231PD Y14, Y3, Y4
	VFMADD231PD Y15, Y3, Y5
	VMOVUPD     Y4, (R12)(AX*1)
	VMOVUPD     Y5, (R13)(AX*1)
	ADDQ        $32, AX
	JMP         a2loop

a2tail:
	CMPQ        AX, CX
	JGE         a2next
	VMOVSD      (SI)(AX*1), X0
	VMOVSD      (DI)(AX*1), X1
	VMOVSD      (R8)(AX*1), X2
	VMOVSD      (R9)(AX*1), X3
	VMOVSD      (R12)(AX*1), X4
	VMOVSD      (R13)(AX*1), X5
	VFMADD231SD X8, X0, X4
	VFMADD231SD X9, X0, X5
	VFMADD231SD X10, X1, X4
	VFMADD231SD X11, X1, X5
	VFMADD231SD X12, X2, X4
	VFMADD231SD X13, X2, X5
	VFMADD231SD X14, X3, X4
	VFMADD231SD X15, X3, X5
	VMOVSD      X4, (R12)(AX*1)
	VMOVSD      X5, (R13)(AX*1)
	ADDQ        $8, AX
	JMP         a2tail

a2next:
	LEAQ (R9)(CX*1), SI
	ADDQ $64, DX
	DECQ R10
	JMP  a2quad

a2done:
	VZEROUPPER
	RET

// Constants of expAVX2: log2(e), the rounding shifter 1.5·2⁵², ln 2 in
// two parts (the high part with 21 trailing zero bits, so that k·ln2hi is
// exact), the floor −708 of the argument, the exponent bias 1023 as an
// integer, and the Taylor coefficients 1/j! of eʳ, j = 13 down to 0.
DATA expconst<>+0(SB)/8, $0x3ff71547652b82fe
DATA expconst<>+8(SB)/8, $0x4338000000000000
DATA expconst<>+16(SB)/8, $0x3fe62e42fee00000
DATA expconst<>+24(SB)/8, $0x3dea39ef35793c76
DATA expconst<>+32(SB)/8, $0xc086200000000000
DATA expconst<>+40(SB)/8, $1023
DATA expconst<>+48(SB)/8, $0x3de6124613a86d09
DATA expconst<>+56(SB)/8, $0x3e21eed8eff8d898
DATA expconst<>+64(SB)/8, $0x3e5ae64567f544e4
DATA expconst<>+72(SB)/8, $0x3e927e4fb7789f5c
DATA expconst<>+80(SB)/8, $0x3ec71de3a556c734
DATA expconst<>+88(SB)/8, $0x3efa01a01a01a01a
DATA expconst<>+96(SB)/8, $0x3f2a01a01a01a01a
DATA expconst<>+104(SB)/8, $0x3f56c16c16c16c17
DATA expconst<>+112(SB)/8, $0x3f81111111111111
DATA expconst<>+120(SB)/8, $0x3fa5555555555555
DATA expconst<>+128(SB)/8, $0x3fc5555555555555
DATA expconst<>+136(SB)/8, $0x3fe0000000000000
DATA expconst<>+144(SB)/8, $0x3ff0000000000000
DATA expconst<>+152(SB)/8, $0x3ff0000000000000
GLOBL expconst<>(SB), RODATA|NOPTR, $160

// func expAVX2(x *float64, n int)
//
// x[j] ← exp(max(x[j], −708)) for j < n, n a multiple of 4, four at a
// time: k = round(x·log2 e) by adding and subtracting the shifter (whose
// low mantissa bits then hold k), r = x − k·ln 2 in two parts
// (|r| ≤ ln 2 / 2), eʳ by Horner's rule on the Taylor polynomial of degree
// 13 (truncation error below 1e−17), and 2ᵏ by moving k + 1023 into the
// exponent bits.
TEXT ·expAVX2(SB), NOSPLIT, $0-16
	MOVQ         x+0(FP), SI
	MOVQ         n+8(FP), CX
	SHLQ         $3, CX
	XORQ         AX, AX
	VBROADCASTSD expconst<>+0(SB), Y8
	VBROADCASTSD expconst<>+8(SB), Y9
	VBROADCASTSD expconst<>+16(SB), Y10
	VBROADCASTSD expconst<>+24(SB), Y11
	VBROADCASTSD expconst<>+32(SB), Y12
	VPBROADCASTQ expconst<>+40(SB), Y13

exploop:
	CMPQ         AX, CX
	JGE          expdone
	VMOVUPD      (SI)(AX*1), Y0
	VMAXPD       Y12, Y0, Y0
	VMOVAPD      Y9, Y1
	VFMADD231PD  Y8, Y0, Y1           // Y1 = x·log2e + shifter
	VSUBPD       Y9, Y1, Y2           // Y2 = k
	VFNMADD231PD Y10, Y2, Y0          // Y0 = x − k·ln2hi
	VFNMADD231PD Y11, Y2, Y0          // r = Y0 − k·ln2lo
	VBROADCASTSD expconst<>+48(SB), Y3
	VBROADCASTSD expconst<>+56(SB), Y4
	VFMADD213PD  Y4, Y0, Y3           // p = p·r + c12
	VBROADCASTSD expconst<>+64(SB), Y4
	VFMADD213PD  Y4, Y0, Y3
	VBROADCASTSD expconst<>+72(SB), Y4
	VFMADD213PD  Y4, Y0, Y3
	VBROADCASTSD expconst<>+80(SB), Y4
	VFMADD213PD  Y4, Y0, Y3
	VBROADCASTSD expconst<>+88(SB), Y4
	VFMADD213PD  Y4, Y0, Y3
	VBROADCASTSD expconst<>+96(SB), Y4
	VFMADD213PD  Y4, Y0, Y3
	VBROADCASTSD expconst<>+104(SB), Y4
	VFMADD213PD  Y4, Y0, Y3
	VBROADCASTSD expconst<>+112(SB), Y4
	VFMADD213PD  Y4, Y0, Y3
	VBROADCASTSD expconst<>+120(SB), Y4
	VFMADD213PD  Y4, Y0, Y3
	VBROADCASTSD expconst<>+128(SB), Y4
	VFMADD213PD  Y4, Y0, Y3
	VBROADCASTSD expconst<>+136(SB), Y4
	VFMADD213PD  Y4, Y0, Y3
	VBROADCASTSD expconst<>+144(SB), Y4
	VFMADD213PD  Y4, Y0, Y3
	VBROADCASTSD expconst<>+152(SB), Y4
	VFMADD213PD  Y4, Y0, Y3           // p = eʳ
	VPADDQ       Y13, Y1, Y1
	VPSLLQ       $52, Y1, Y1          // 2ᵏ
	VMULPD       Y1, Y3, Y3
	VMOVUPD      Y3, (SI)(AX*1)
	ADDQ         $32, AX
	JMP          exploop

expdone:
	VZEROUPPER
	RET
