#include "textflag.h"

// Constants of expExactAVX2, those of math.Exp (src/math/exp_amd64.s):
// log2(e), ln 2 in two parts, the Taylor coefficients 1/8!, …, 1/3!,
// 1/2, 1, 2; the reduction 1/16; then the largest argument done here
// (709: e⁷⁰⁹ < MaxFloat64 and k + 1023 < 2047), and the integers of the
// scaling: the bias 1023, the bias less one 1022, −53 (below which the
// result is 0), and the bits of 1 and of 2⁻¹⁰²² (the denormal step).
DATA expxconst<>+0(SB)/8, $1.4426950408889634073599246810018920
DATA expxconst<>+8(SB)/8, $0.69314718055966295651160180568695068359375
DATA expxconst<>+16(SB)/8, $0.28235290563031577122588448175013436025525412068e-12
DATA expxconst<>+24(SB)/8, $2.4801587301587301587e-5
DATA expxconst<>+32(SB)/8, $1.9841269841269841270e-4
DATA expxconst<>+40(SB)/8, $1.3888888888888888889e-3
DATA expxconst<>+48(SB)/8, $8.3333333333333333333e-3
DATA expxconst<>+56(SB)/8, $4.1666666666666666667e-2
DATA expxconst<>+64(SB)/8, $1.6666666666666666667e-1
DATA expxconst<>+72(SB)/8, $0.5
DATA expxconst<>+80(SB)/8, $1.0
DATA expxconst<>+88(SB)/8, $2.0
DATA expxconst<>+96(SB)/8, $0.0625
DATA expxconst<>+104(SB)/8, $709.0
DATA expxconst<>+112(SB)/8, $1023
DATA expxconst<>+120(SB)/8, $1022
DATA expxconst<>+128(SB)/8, $-53
DATA expxconst<>+136(SB)/8, $0x3ff0000000000000
DATA expxconst<>+144(SB)/8, $0x0010000000000000
GLOBL expxconst<>(SB), RODATA|NOPTR, $152

// func expExactAVX2(x *float64, n int) int
//
// math.Exp's FMA path on four lanes: k = int32(round(x·log2 e)) (the
// product rounded, then converted), r = (x − k·ln2U − k·ln2L)/16 with
// fused products, the Taylor polynomial of e^r by fused Horner steps,
// then e^(16r) by squaring as (p·(p + 2)) four times, the last fused with
// the + 1; then the result times 2ᵏ: for k + 1023 ≥ 1 the bits of
// k + 1023 shifted into the exponent; for −52 ≤ k + 1023 ≤ 0 (a denormal
// result) times the bits of k + 1023 + 1022, then times 2⁻¹⁰²², both
// rounded as math.Exp rounds them; for k + 1023 < −52 (and x = −Inf,
// whose k is the integer indefinite value) +0. A group with a NaN or a
// value above 709 stops the loop, for math.Exp to do.
TEXT ·expExactAVX2(SB), NOSPLIT, $0-24
	MOVQ         x+0(FP), SI
	MOVQ         n+8(FP), CX
	SHLQ         $3, CX
	XORQ         AX, AX
	VBROADCASTSD expxconst<>+0(SB), Y8    // log2 e
	VBROADCASTSD expxconst<>+8(SB), Y9    // ln2U
	VBROADCASTSD expxconst<>+16(SB), Y10  // ln2L
	VBROADCASTSD expxconst<>+88(SB), Y11  // 2
	VBROADCASTSD expxconst<>+104(SB), Y12 // 709
	VPBROADCASTQ expxconst<>+112(SB), Y13 // 1023
	VPXOR        Y14, Y14, Y14            // 0

loop:
	CMPQ         AX, CX
	JGE          done
	VMOVUPD      (SI)(AX*1), Y0
	VCMPPD       $2, Y12, Y0, Y1          // x ≤ 709, false for NaN
	VMOVMSKPD    Y1, DX
	CMPQ         DX, $15
	JNE          done
	VMULPD       Y8, Y0, Y1               // x·log2 e
	VCVTPD2DQY   Y1, X2                   // k
	VCVTDQ2PD    X2, Y3                   // float64(k)
	VFNMADD231PD Y9, Y3, Y0               // x − k·ln2U
	VFNMADD231PD Y10, Y3, Y0              // − k·ln2L
	VBROADCASTSD expxconst<>+96(SB), Y4
	VMULPD       Y4, Y0, Y0               // r
	VBROADCASTSD expxconst<>+24(SB), Y1   // 1/8!
	VBROADCASTSD expxconst<>+32(SB), Y4
	VFMADD213PD  Y4, Y0, Y1               // p = p·r + 1/7!
	VBROADCASTSD expxconst<>+40(SB), Y4
	VFMADD213PD  Y4, Y0, Y1
	VBROADCASTSD expxconst<>+48(SB), Y4
	VFMADD213PD  Y4, Y0, Y1
	VBROADCASTSD expxconst<>+56(SB), Y4
	VFMADD213PD  Y4, Y0, Y1
	VBROADCASTSD expxconst<>+64(SB), Y4
	VFMADD213PD  Y4, Y0, Y1
	VBROADCASTSD expxconst<>+72(SB), Y4
	VFMADD213PD  Y4, Y0, Y1
	VBROADCASTSD expxconst<>+80(SB), Y4
	VFMADD213PD  Y4, Y0, Y1               // + 1
	VMULPD       Y1, Y0, Y0               // q = r·p
	VADDPD       Y11, Y0, Y1
	VMULPD       Y1, Y0, Y0               // q ← q·(q + 2)
	VADDPD       Y11, Y0, Y1
	VMULPD       Y1, Y0, Y0
	VADDPD       Y11, Y0, Y1
	VMULPD       Y1, Y0, Y0
	VADDPD       Y11, Y0, Y1
	VBROADCASTSD expxconst<>+80(SB), Y4
	VFMADD213PD  Y4, Y1, Y0               // q·(q + 2) + 1 = e^x / 2ᵏ
	VPMOVSXDQ    X2, Y2                   // k, 64-bit
	VPADDQ       Y13, Y2, Y2              // b = k + 1023
	VPCMPGTQ     Y14, Y2, Y5              // b ≥ 1: normal
	VPBROADCASTQ expxconst<>+120(SB), Y4
	VPANDN       Y4, Y5, Y6               // 1022 where denormal
	VPADDQ       Y6, Y2, Y6
	VPSLLQ       $52, Y6, Y6              // 2^(b−1023), or 2^(b+1022−1023)
	VMULPD       Y6, Y0, Y0
	VPBROADCASTQ expxconst<>+136(SB), Y4
	VPAND        Y4, Y5, Y6               // 1 where normal
	VPBROADCASTQ expxconst<>+144(SB), Y4
	VPANDN       Y4, Y5, Y7               // 2⁻¹⁰²² where denormal
	VPOR         Y7, Y6, Y6
	VMULPD       Y6, Y0, Y0
	VPBROADCASTQ expxconst<>+128(SB), Y4
	VPCMPGTQ     Y4, Y2, Y5               // b ≥ −52
	VPAND        Y5, Y0, Y0               // else +0
	VMOVUPD      Y0, (SI)(AX*1)
	ADDQ         $32, AX
	JMP          loop

done:
	SHRQ         $3, AX
	MOVQ         AX, ret+16(FP)
	VZEROUPPER
	RET
