#include "textflag.h"

// The Taylor coefficients 1/j! of eʳ, j = 13 down to 0, each four times
// (a 256-bit operand), as in expAVX2 (kernel_amd64.s).
DATA softexp<>+0(SB)/8, $0x3de6124613a86d09
DATA softexp<>+8(SB)/8, $0x3de6124613a86d09
DATA softexp<>+16(SB)/8, $0x3de6124613a86d09
DATA softexp<>+24(SB)/8, $0x3de6124613a86d09
DATA softexp<>+32(SB)/8, $0x3e21eed8eff8d898
DATA softexp<>+40(SB)/8, $0x3e21eed8eff8d898
DATA softexp<>+48(SB)/8, $0x3e21eed8eff8d898
DATA softexp<>+56(SB)/8, $0x3e21eed8eff8d898
DATA softexp<>+64(SB)/8, $0x3e5ae64567f544e4
DATA softexp<>+72(SB)/8, $0x3e5ae64567f544e4
DATA softexp<>+80(SB)/8, $0x3e5ae64567f544e4
DATA softexp<>+88(SB)/8, $0x3e5ae64567f544e4
DATA softexp<>+96(SB)/8, $0x3e927e4fb7789f5c
DATA softexp<>+104(SB)/8, $0x3e927e4fb7789f5c
DATA softexp<>+112(SB)/8, $0x3e927e4fb7789f5c
DATA softexp<>+120(SB)/8, $0x3e927e4fb7789f5c
DATA softexp<>+128(SB)/8, $0x3ec71de3a556c734
DATA softexp<>+136(SB)/8, $0x3ec71de3a556c734
DATA softexp<>+144(SB)/8, $0x3ec71de3a556c734
DATA softexp<>+152(SB)/8, $0x3ec71de3a556c734
DATA softexp<>+160(SB)/8, $0x3efa01a01a01a01a
DATA softexp<>+168(SB)/8, $0x3efa01a01a01a01a
DATA softexp<>+176(SB)/8, $0x3efa01a01a01a01a
DATA softexp<>+184(SB)/8, $0x3efa01a01a01a01a
DATA softexp<>+192(SB)/8, $0x3f2a01a01a01a01a
DATA softexp<>+200(SB)/8, $0x3f2a01a01a01a01a
DATA softexp<>+208(SB)/8, $0x3f2a01a01a01a01a
DATA softexp<>+216(SB)/8, $0x3f2a01a01a01a01a
DATA softexp<>+224(SB)/8, $0x3f56c16c16c16c17
DATA softexp<>+232(SB)/8, $0x3f56c16c16c16c17
DATA softexp<>+240(SB)/8, $0x3f56c16c16c16c17
DATA softexp<>+248(SB)/8, $0x3f56c16c16c16c17
DATA softexp<>+256(SB)/8, $0x3f81111111111111
DATA softexp<>+264(SB)/8, $0x3f81111111111111
DATA softexp<>+272(SB)/8, $0x3f81111111111111
DATA softexp<>+280(SB)/8, $0x3f81111111111111
DATA softexp<>+288(SB)/8, $0x3fa5555555555555
DATA softexp<>+296(SB)/8, $0x3fa5555555555555
DATA softexp<>+304(SB)/8, $0x3fa5555555555555
DATA softexp<>+312(SB)/8, $0x3fa5555555555555
DATA softexp<>+320(SB)/8, $0x3fc5555555555555
DATA softexp<>+328(SB)/8, $0x3fc5555555555555
DATA softexp<>+336(SB)/8, $0x3fc5555555555555
DATA softexp<>+344(SB)/8, $0x3fc5555555555555
DATA softexp<>+352(SB)/8, $0x3fe0000000000000
DATA softexp<>+360(SB)/8, $0x3fe0000000000000
DATA softexp<>+368(SB)/8, $0x3fe0000000000000
DATA softexp<>+376(SB)/8, $0x3fe0000000000000
DATA softexp<>+384(SB)/8, $0x3ff0000000000000
DATA softexp<>+392(SB)/8, $0x3ff0000000000000
DATA softexp<>+400(SB)/8, $0x3ff0000000000000
DATA softexp<>+408(SB)/8, $0x3ff0000000000000
DATA softexp<>+416(SB)/8, $0x3ff0000000000000
DATA softexp<>+424(SB)/8, $0x3ff0000000000000
DATA softexp<>+432(SB)/8, $0x3ff0000000000000
DATA softexp<>+440(SB)/8, $0x3ff0000000000000
GLOBL softexp<>(SB), RODATA|NOPTR, $448

// Lane masks for the last k mod 4 values of a row: entry t (32 bytes)
// selects the first t lanes.
DATA softmask<>+32(SB)/8, $0xffffffffffffffff
DATA softmask<>+64(SB)/8, $0xffffffffffffffff
DATA softmask<>+72(SB)/8, $0xffffffffffffffff
DATA softmask<>+96(SB)/8, $0xffffffffffffffff
DATA softmask<>+104(SB)/8, $0xffffffffffffffff
DATA softmask<>+112(SB)/8, $0xffffffffffffffff
GLOBL softmask<>(SB), RODATA|NOPTR, $128

// The other constants: log2(e), the rounding shifter 1.5·2⁵², ln 2 in two
// parts, the floor −708, the exponent bias 1023, −Inf and 1.
DATA softconst<>+0(SB)/8, $0x3ff71547652b82fe
DATA softconst<>+8(SB)/8, $0x4338000000000000
DATA softconst<>+16(SB)/8, $0x3fe62e42fee00000
DATA softconst<>+24(SB)/8, $0x3dea39ef35793c76
DATA softconst<>+32(SB)/8, $0xc086200000000000
DATA softconst<>+40(SB)/8, $1023
DATA softconst<>+48(SB)/8, $0xfff0000000000000
DATA softconst<>+56(SB)/8, $0x3ff0000000000000
GLOBL softconst<>(SB), RODATA|NOPTR, $64

// SOFTEXP sets Y4 = exp(max(Y2, −708)) as expAVX2 does (k = round(x·log2 e)
// by the shifter, r = x − k·ln 2 in two parts, Horner's rule on the Taylor
// polynomial of degree 13, 2ᵏ in the exponent bits), using Y5 and Y6 and
// the constants in Y8–Y13; Y2 is clobbered.
#define SOFTEXP \
	VMAXPD       Y12, Y2, Y2 \
	VMOVAPD      Y9, Y5 \
	VFMADD231PD  Y8, Y2, Y5 \
	VSUBPD       Y9, Y5, Y6 \
	VFNMADD231PD Y10, Y6, Y2 \
	VFNMADD231PD Y11, Y6, Y2 \
	VMOVUPD      softexp<>+0(SB), Y4 \
	VFMADD213PD softexp<>+32(SB), Y2, Y4 \
	VFMADD213PD softexp<>+64(SB), Y2, Y4 \
	VFMADD213PD softexp<>+96(SB), Y2, Y4 \
	VFMADD213PD softexp<>+128(SB), Y2, Y4 \
	VFMADD213PD softexp<>+160(SB), Y2, Y4 \
	VFMADD213PD softexp<>+192(SB), Y2, Y4 \
	VFMADD213PD softexp<>+224(SB), Y2, Y4 \
	VFMADD213PD softexp<>+256(SB), Y2, Y4 \
	VFMADD213PD softexp<>+288(SB), Y2, Y4 \
	VFMADD213PD softexp<>+320(SB), Y2, Y4 \
	VFMADD213PD softexp<>+352(SB), Y2, Y4 \
	VFMADD213PD softexp<>+384(SB), Y2, Y4 \
	VFMADD213PD softexp<>+416(SB), Y2, Y4 \
	VPADDQ       Y13, Y5, Y5 \
	VPSLLQ       $52, Y5, Y5 \
	VMULPD       Y5, Y4, Y4

// Lane masks for the last k mod 4 values of a row in the whole vector
// that ends it: entry t (32 bytes) selects the last t lanes.
DATA softlast<>+56(SB)/8, $0xffffffffffffffff
DATA softlast<>+80(SB)/8, $0xffffffffffffffff
DATA softlast<>+88(SB)/8, $0xffffffffffffffff
DATA softlast<>+104(SB)/8, $0xffffffffffffffff
DATA softlast<>+112(SB)/8, $0xffffffffffffffff
DATA softlast<>+120(SB)/8, $0xffffffffffffffff
GLOBL softlast<>(SB), RODATA|NOPTR, $128

// func softmaxAVX2(x *float64, rows, k int, ms *float64) int
//
// For each row of k values, in place, in three passes over the rows (each
// row's work independent of the others' within a pass, so that the
// processor overlaps rows): its largest value m, kept in ms (four lanes
// of maxima over the whole vectors and the last k mod 4 values, loaded
// under the mask Y15 with −Inf in the other lanes, then the lanes'
// maximum); then e_i = exp(max(x_i − m, −708)), set to 0 where
// x_i − m < −708, stored over x_i and summed in four lanes added as
// (l0 + l2) + (l1 + l3), the sum kept in ms; then every e_i multiplied by
// 1/Σ. When k ≥ 4, the last k mod 4 values of a row are in the whole
// vector that ends the row (R11 bytes in), loaded before the vectors it
// overlaps are stored and stored after them, its lanes already counted
// left out of the sum; when k < 4 the row is loaded under the mask and
// stored as two and one values by the bits of k: VMASKMOVPD stores cost
// several times whole ones on some processors. The first pass stops at the first row that holds a NaN or whose
// largest value is ±Inf; the rows before it are done, it is left as it
// is, and its index is returned (rows when there is none).
TEXT ·softmaxAVX2(SB), NOSPLIT, $0-40
	MOVQ         x+0(FP), SI
	MOVQ         rows+8(FP), R8
	MOVQ         k+16(FP), CX
	MOVQ         ms+24(FP), DI
	MOVQ         CX, DX
	ANDQ         $3, DX
	SHLQ         $5, DX
	LEAQ         softmask<>(SB), AX
	VMOVDQU      (AX)(DX*1), Y15
	LEAQ         softlast<>(SB), R13
	ADDQ         DX, R13             // the last k mod 4 lanes
	MOVQ         CX, R14             // k
	SHLQ         $3, CX              // bytes of a row
	MOVQ         CX, BX
	ANDQ         $-32, BX            // bytes of the whole vectors
	XORQ         R12, R12            // 1 when the tail overlaps
	LEAQ         -32(CX), R11        // bytes before the overlapping tail
	CMPQ         CX, $32
	JLT          smsetup
	CMPQ         BX, CX
	JEQ          smsetup
	MOVQ         $1, R12

smsetup:
	VBROADCASTSD softconst<>+0(SB), Y8
	VBROADCASTSD softconst<>+8(SB), Y9
	VBROADCASTSD softconst<>+16(SB), Y10
	VBROADCASTSD softconst<>+24(SB), Y11
	VBROADCASTSD softconst<>+32(SB), Y12
	VPBROADCASTQ softconst<>+40(SB), Y13
	VBROADCASTSD softconst<>+48(SB), Y14
	XORQ         R9, R9              // rows
	MOVQ         SI, R10             // their values

smrow:
	CMPQ    R9, R8
	JGE     smexps
	VMOVAPD Y14, Y0                  // lanes of the maximum
	VXORPD  Y1, Y1, Y1               // lanes that met a NaN
	XORQ    AX, AX

smmax:
	CMPQ    AX, BX
	JGE     smmaxtail
	VMOVUPD (R10)(AX*1), Y2
	VCMPPD  $3, Y2, Y2, Y3
	VORPD   Y3, Y1, Y1
	VMAXPD  Y2, Y0, Y0
	ADDQ    $32, AX
	JMP     smmax

smmaxtail:
	TESTQ      R12, R12
	JZ         smmaxmask
	VMOVUPD    (R10)(R11*1), Y2
	VCMPPD     $3, Y2, Y2, Y3
	VORPD      Y3, Y1, Y1
	VMAXPD     Y2, Y0, Y0
	JMP        smmaxred

smmaxmask:
	CMPQ       AX, CX
	JGE        smmaxred
	VMASKMOVPD (R10)(AX*1), Y15, Y2
	VCMPPD     $3, Y2, Y2, Y3
	VORPD      Y3, Y1, Y1
	VBLENDVPD  Y15, Y2, Y14, Y2
	VMAXPD     Y2, Y0, Y0

smmaxred:
	VEXTRACTF128 $1, Y0, X2
	VMAXPD       X2, X0, X0
	VPERMILPD    $1, X0, X2
	VMAXPD       X2, X0, X0
	VMOVMSKPD    Y1, AX
	TESTQ        AX, AX
	JNZ          smstop
	VSUBSD       X0, X0, X2          // NaN when the maximum is ±Inf
	VUCOMISD     X2, X2
	JPS          smstop
	VMOVSD       X0, (DI)(R9*8)
	ADDQ         CX, R10
	INCQ         R9
	JMP          smrow

smstop:
	MOVQ R9, R8                      // the rows before it

smexps:
	MOVQ R8, ret+32(FP)
	XORQ R9, R9
	MOVQ SI, R10

smrow2:
	CMPQ         R9, R8
	JGE          smscales
	VBROADCASTSD (DI)(R9*8), Y0
	VXORPD       Y7, Y7, Y7          // lanes of the sum
	XORQ         AX, AX
	TESTQ        R12, R12
	JZ           smexp
	VMOVUPD      (R10)(R11*1), Y2    // the overlapping tail, kept in Y1
	VSUBPD       Y0, Y2, Y2
	VCMPPD       $0x0d, Y12, Y2, Y3
	SOFTEXP
	VANDPD       Y3, Y4, Y1
	VANDPD       (R13), Y1, Y3
	VADDPD       Y3, Y7, Y7

smexp:
	CMPQ    AX, BX
	JGE     smexptail
	VMOVUPD (R10)(AX*1), Y2
	VSUBPD  Y0, Y2, Y2
	VCMPPD  $0x0d, Y12, Y2, Y3       // x − m ≥ −708
	SOFTEXP
	VANDPD  Y3, Y4, Y4
	VADDPD  Y4, Y7, Y7
	VMOVUPD Y4, (R10)(AX*1)
	ADDQ    $32, AX
	JMP     smexp

smexptail:
	TESTQ      R12, R12
	JZ         smexpmask
	VMOVUPD    Y1, (R10)(R11*1)
	JMP        smsum

smexpmask:
	CMPQ       AX, CX
	JGE        smsum
	VMASKMOVPD (R10)(AX*1), Y15, Y2
	VSUBPD     Y0, Y2, Y2
	VCMPPD     $0x0d, Y12, Y2, Y3
	VANDPD     Y15, Y3, Y3
	SOFTEXP
	VANDPD     Y3, Y4, Y4
	VADDPD     Y4, Y7, Y7
	XORQ       AX, AX
	TESTQ      $2, R14
	JZ         smes1
	VMOVUPD    X4, (R10)
	VEXTRACTF128 $1, Y4, X4
	MOVQ       $16, AX

smes1:
	TESTQ      $1, R14
	JZ         smsum
	VMOVSD     X4, (R10)(AX*1)

smsum:
	VEXTRACTF128 $1, Y7, X2
	VADDPD       X2, X7, X7
	VPERMILPD    $1, X7, X2
	VADDSD       X2, X7, X7
	VMOVSD       X7, (DI)(R9*8)
	ADDQ         CX, R10
	INCQ         R9
	JMP          smrow2

smscales:
	XORQ         R9, R9
	MOVQ         SI, R10
	VBROADCASTSD softconst<>+56(SB), Y1

smrow3:
	CMPQ         R9, R8
	JGE          smdone
	VMOVSD       (DI)(R9*8), X0
	VDIVSD       X0, X1, X0
	VBROADCASTSD X0, Y2             // 1/Σ
	XORQ         AX, AX
	TESTQ        R12, R12
	JZ           smscale
	VMULPD       (R10)(R11*1), Y2, Y0

smscale:
	CMPQ    AX, BX
	JGE     smscaletail
	VMULPD  (R10)(AX*1), Y2, Y3
	VMOVUPD Y3, (R10)(AX*1)
	ADDQ    $32, AX
	JMP     smscale

smscaletail:
	TESTQ      R12, R12
	JZ         smscalemask
	VMOVUPD    Y0, (R10)(R11*1)
	JMP        smnext

smscalemask:
	CMPQ       AX, CX
	JGE        smnext
	VMASKMOVPD (R10)(AX*1), Y15, Y3
	VMULPD     Y3, Y2, Y3
	XORQ       AX, AX
	TESTQ      $2, R14
	JZ         smss1
	VMOVUPD    X3, (R10)
	VEXTRACTF128 $1, Y3, X3
	MOVQ       $16, AX

smss1:
	TESTQ      $1, R14
	JZ         smnext
	VMOVSD     X3, (R10)(AX*1)

smnext:
	ADDQ CX, R10
	INCQ R9
	JMP  smrow3

smdone:
	VZEROUPPER
	RET

// SOFTEXP512 is SOFTEXP on eight lanes: Z4 = exp(max(Z2, −708)), using Z5
// and Z6 and the constants in Z8–Z13 (the coefficients broadcast from
// softexp); Z2 is clobbered.
#define SOFTEXP512 \
	VMAXPD           Z12, Z2, Z2 \
	VMOVAPD          Z9, Z5 \
	VFMADD231PD      Z8, Z2, Z5 \
	VSUBPD           Z9, Z5, Z6 \
	VFNMADD231PD     Z10, Z6, Z2 \
	VFNMADD231PD     Z11, Z6, Z2 \
	VBROADCASTSD     softexp<>+0(SB), Z4 \
	VFMADD213PD.BCST softexp<>+32(SB), Z2, Z4 \
	VFMADD213PD.BCST softexp<>+64(SB), Z2, Z4 \
	VFMADD213PD.BCST softexp<>+96(SB), Z2, Z4 \
	VFMADD213PD.BCST softexp<>+128(SB), Z2, Z4 \
	VFMADD213PD.BCST softexp<>+160(SB), Z2, Z4 \
	VFMADD213PD.BCST softexp<>+192(SB), Z2, Z4 \
	VFMADD213PD.BCST softexp<>+224(SB), Z2, Z4 \
	VFMADD213PD.BCST softexp<>+256(SB), Z2, Z4 \
	VFMADD213PD.BCST softexp<>+288(SB), Z2, Z4 \
	VFMADD213PD.BCST softexp<>+320(SB), Z2, Z4 \
	VFMADD213PD.BCST softexp<>+352(SB), Z2, Z4 \
	VFMADD213PD.BCST softexp<>+384(SB), Z2, Z4 \
	VFMADD213PD.BCST softexp<>+416(SB), Z2, Z4 \
	VPADDQ           Z13, Z5, Z5 \
	VPSLLQ           $52, Z5, Z5 \
	VMULPD           Z5, Z4, Z4

// func softmaxAVX512(x *float64, rows, k int, ms *float64) int
//
// softmaxAVX2 on eight lanes, the sum in eight lanes added as
// ((l0 + l4) + (l2 + l6)) + ((l1 + l5) + (l3 + l7)). When k ≥ 8, the last
// k mod 8 values of a row are in the whole vector that ends the row (R11
// bytes in), loaded before the vectors it overlaps are stored and stored
// after them, its lanes already counted left out of the sum (the mask K4):
// a store under a mask costs several times a whole one on some
// processors. When k < 8, the row is one vector loaded under the mask K1
// and stored as four, two and one values by the bits of k.
TEXT ·softmaxAVX512(SB), NOSPLIT, $0-40
	MOVQ         x+0(FP), SI
	MOVQ         rows+8(FP), R8
	MOVQ         k+16(FP), CX
	MOVQ         ms+24(FP), DI
	MOVQ         CX, R13
	MOVQ         CX, DX
	ANDQ         $7, CX
	MOVQ         $1, AX
	SHLQ         CX, AX
	DECQ         AX
	KMOVW        AX, K1              // the first k mod 8 lanes
	MOVQ         CX, R12
	MOVQ         $8, CX
	SUBQ         R12, CX
	SHLQ         CX, AX
	KMOVW        AX, K4              // the last k mod 8 lanes
	MOVQ         DX, CX
	SHLQ         $3, CX              // bytes of a row
	MOVQ         CX, BX
	ANDQ         $-64, BX            // bytes of the whole vectors
	XORQ         R12, R12            // 1 when the tail overlaps
	LEAQ         -64(CX), R11        // bytes before the overlapping tail
	CMPQ         CX, $64
	JLT          zsmsetup
	CMPQ         BX, CX
	JEQ          zsmsetup
	MOVQ         $1, R12

zsmsetup:
	VBROADCASTSD softconst<>+0(SB), Z8
	VBROADCASTSD softconst<>+8(SB), Z9
	VBROADCASTSD softconst<>+16(SB), Z10
	VBROADCASTSD softconst<>+24(SB), Z11
	VBROADCASTSD softconst<>+32(SB), Z12
	VPBROADCASTQ softconst<>+40(SB), Z13
	VBROADCASTSD softconst<>+48(SB), Z14
	XORQ         R9, R9
	MOVQ         SI, R10

zsmrow:
	CMPQ    R9, R8
	JGE     zsmexps
	VMOVAPD Z14, Z0                  // lanes of the maximum
	KXORW   K3, K3, K3               // lanes that met a NaN
	XORQ    AX, AX

zsmmax:
	CMPQ    AX, BX
	JGE     zsmmaxtail
	VMOVUPD (R10)(AX*1), Z2
	VCMPPD  $3, Z2, Z2, K2
	KORW    K2, K3, K3
	VMAXPD  Z2, Z0, Z0
	ADDQ    $64, AX
	JMP     zsmmax

zsmmaxtail:
	TESTQ   R12, R12
	JZ      zsmmaxmask
	VMOVUPD (R10)(R11*1), Z2
	VCMPPD  $3, Z2, Z2, K2
	KORW    K2, K3, K3
	VMAXPD  Z2, Z0, Z0
	JMP     zsmmaxred

zsmmaxmask:
	CMPQ    AX, CX
	JGE     zsmmaxred
	VMOVAPD Z14, Z2
	VMOVUPD (R10)(AX*1), K1, Z2      // −Inf in the other lanes
	VCMPPD  $3, Z2, Z2, K2
	KORW    K2, K3, K3
	VMAXPD  Z2, Z0, Z0

zsmmaxred:
	VEXTRACTF64X4 $1, Z0, Y2
	VMAXPD        Y2, Y0, Y0
	VEXTRACTF128  $1, Y0, X2
	VMAXPD        X2, X0, X0
	VPERMILPD     $1, X0, X2
	VMAXPD        X2, X0, X0
	KORTESTW      K3, K3
	JNZ           zsmstop
	VSUBSD        X0, X0, X2         // NaN when the maximum is ±Inf
	VUCOMISD      X2, X2
	JPS           zsmstop
	VMOVSD        X0, (DI)(R9*8)
	ADDQ          CX, R10
	INCQ          R9
	JMP           zsmrow

zsmstop:
	MOVQ R9, R8

zsmexps:
	MOVQ R8, ret+32(FP)
	XORQ R9, R9
	MOVQ SI, R10

zsmrow2:
	CMPQ         R9, R8
	JGE          zsmscales
	VBROADCASTSD (DI)(R9*8), Z0
	VPXORQ       Z7, Z7, Z7          // lanes of the sum
	XORQ         AX, AX
	TESTQ        R12, R12
	JZ           zsmexp
	VMOVUPD      (R10)(R11*1), Z2    // the overlapping tail, kept in Z15
	VSUBPD       Z0, Z2, Z2
	VCMPPD       $0x0d, Z12, Z2, K2
	SOFTEXP512
	VMOVAPD.Z    Z4, K2, Z15
	VADDPD       Z15, Z7, K4, Z7

zsmexp:
	CMPQ      AX, BX
	JGE       zsmexptail
	VMOVUPD   (R10)(AX*1), Z2
	VSUBPD    Z0, Z2, Z2
	VCMPPD    $0x0d, Z12, Z2, K2     // x − m ≥ −708
	SOFTEXP512
	VMOVAPD.Z Z4, K2, Z4
	VADDPD    Z4, Z7, Z7
	VMOVUPD   Z4, (R10)(AX*1)
	ADDQ      $64, AX
	JMP       zsmexp

zsmexptail:
	TESTQ     R12, R12
	JZ        zsmexpmask
	VMOVUPD   Z15, (R10)(R11*1)
	JMP       zsmsum

zsmexpmask:
	CMPQ      AX, CX
	JGE       zsmsum
	VMOVUPD.Z (R10)(AX*1), K1, Z2
	VSUBPD    Z0, Z2, Z2
	VCMPPD    $0x0d, Z12, Z2, K1, K2
	SOFTEXP512
	VMOVAPD.Z Z4, K2, Z4
	VADDPD    Z4, Z7, Z7
	XORQ          AX, AX
	TESTQ         $4, R13
	JZ            zsmes2
	VMOVUPD       Y4, (R10)
	VEXTRACTF64X4 $1, Z4, Y4
	MOVQ          $32, AX

zsmes2:
	TESTQ         $2, R13
	JZ            zsmes1
	VMOVUPD       X4, (R10)(AX*1)
	VEXTRACTF128  $1, Y4, X4
	ADDQ          $16, AX

zsmes1:
	TESTQ         $1, R13
	JZ            zsmes0
	VMOVSD        X4, (R10)(AX*1)

zsmes0:

zsmsum:
	VEXTRACTF64X4 $1, Z7, Y2
	VADDPD        Y2, Y7, Y7
	VEXTRACTF128  $1, Y7, X2
	VADDPD        X2, X7, X7
	VPERMILPD     $1, X7, X2
	VADDSD        X2, X7, X7
	VMOVSD        X7, (DI)(R9*8)
	ADDQ          CX, R10
	INCQ          R9
	JMP           zsmrow2

zsmscales:
	XORQ         R9, R9
	MOVQ         SI, R10
	VBROADCASTSD softconst<>+56(SB), Z1

zsmrow3:
	CMPQ         R9, R8
	JGE          zsmdone
	VMOVSD       (DI)(R9*8), X0
	VDIVSD       X0, X1, X0
	VBROADCASTSD X0, Z2             // 1/Σ
	XORQ         AX, AX
	TESTQ        R12, R12
	JZ           zsmscale
	VMULPD       (R10)(R11*1), Z2, Z15

zsmscale:
	CMPQ    AX, BX
	JGE     zsmscaletail
	VMULPD  (R10)(AX*1), Z2, Z3
	VMOVUPD Z3, (R10)(AX*1)
	ADDQ    $64, AX
	JMP     zsmscale

zsmscaletail:
	TESTQ     R12, R12
	JZ        zsmscalemask
	VMOVUPD   Z15, (R10)(R11*1)
	JMP       zsmnext

zsmscalemask:
	CMPQ      AX, CX
	JGE       zsmnext
	VMOVUPD.Z (R10)(AX*1), K1, Z3
	VMULPD    Z3, Z2, Z3
	XORQ          AX, AX
	TESTQ         $4, R13
	JZ            zsmss2
	VMOVUPD       Y3, (R10)
	VEXTRACTF64X4 $1, Z3, Y3
	MOVQ          $32, AX

zsmss2:
	TESTQ         $2, R13
	JZ            zsmss1
	VMOVUPD       X3, (R10)(AX*1)
	VEXTRACTF128  $1, Y3, X3
	ADDQ          $16, AX

zsmss1:
	TESTQ         $1, R13
	JZ            zsmss0
	VMOVSD        X3, (R10)(AX*1)

zsmss0:

zsmnext:
	ADDQ CX, R10
	INCQ R9
	JMP  zsmrow3

zsmdone:
	VZEROUPPER
	RET
