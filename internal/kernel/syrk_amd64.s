#include "textflag.h"

// func tile512(kc int, a, b, c *float64, ldc int, mask [8]uint16)
//
// The 8×16 tile of Syrk in sixteen 8-wide accumulators (Z0-Z15, two per
// row): per column of the panel, two loads of the 16 columns of b, eight
// broadcasts of the rows of a and sixteen fused multiply-adds; then each
// row added to C under its mask (the low 8 bits for the first vector, the
// high 8 for the second): masked-off elements are neither loaded nor
// stored.
TEXT ·tile512(SB), NOSPLIT, $0-56
	MOVQ kc+0(FP), CX
	MOVQ a+8(FP), SI
	MOVQ b+16(FP), BX
	MOVQ c+24(FP), DI
	MOVQ ldc+32(FP), DX
	LEAQ mask+40(FP), R8
	SHLQ $3, DX
	VPXORQ Z0, Z0, Z0
	VPXORQ Z1, Z1, Z1
	VPXORQ Z2, Z2, Z2
	VPXORQ Z3, Z3, Z3
	VPXORQ Z4, Z4, Z4
	VPXORQ Z5, Z5, Z5
	VPXORQ Z6, Z6, Z6
	VPXORQ Z7, Z7, Z7
	VPXORQ Z8, Z8, Z8
	VPXORQ Z9, Z9, Z9
	VPXORQ Z10, Z10, Z10
	VPXORQ Z11, Z11, Z11
	VPXORQ Z12, Z12, Z12
	VPXORQ Z13, Z13, Z13
	VPXORQ Z14, Z14, Z14
	VPXORQ Z15, Z15, Z15

t512loop:
	VMOVUPD (BX), Z16
	VMOVUPD 64(BX), Z17
	VBROADCASTSD 0(SI), Z18
	VBROADCASTSD 8(SI), Z19
	VBROADCASTSD 16(SI), Z20
	VBROADCASTSD 24(SI), Z21
	VBROADCASTSD 32(SI), Z22
	VBROADCASTSD 40(SI), Z23
	VBROADCASTSD 48(SI), Z24
	VBROADCASTSD 56(SI), Z25
	VFMADD231PD Z16, Z18, Z0
	VFMADD231PD Z17, Z18, Z1
	VFMADD231PD Z16, Z19, Z2
	VFMADD231PD Z17, Z19, Z3
	VFMADD231PD Z16, Z20, Z4
	VFMADD231PD Z17, Z20, Z5
	VFMADD231PD Z16, Z21, Z6
	VFMADD231PD Z17, Z21, Z7
	VFMADD231PD Z16, Z22, Z8
	VFMADD231PD Z17, Z22, Z9
	VFMADD231PD Z16, Z23, Z10
	VFMADD231PD Z17, Z23, Z11
	VFMADD231PD Z16, Z24, Z12
	VFMADD231PD Z17, Z24, Z13
	VFMADD231PD Z16, Z25, Z14
	VFMADD231PD Z17, Z25, Z15
	ADDQ $128, SI
	ADDQ $128, BX
	DECQ CX
	JNZ  t512loop

	KMOVW     0(R8), K1
	KSHIFTRW  $8, K1, K2
	VMOVUPD.Z (DI), K1, Z16
	VADDPD    Z16, Z0, Z16
	VMOVUPD   Z16, K1, (DI)
	VMOVUPD.Z 64(DI), K2, Z17
	VADDPD    Z17, Z1, Z17
	VMOVUPD   Z17, K2, 64(DI)
	ADDQ      DX, DI
	KMOVW     2(R8), K1
	KSHIFTRW  $8, K1, K2
	VMOVUPD.Z (DI), K1, Z16
	VADDPD    Z16, Z2, Z16
	VMOVUPD   Z16, K1, (DI)
	VMOVUPD.Z 64(DI), K2, Z17
	VADDPD    Z17, Z3, Z17
	VMOVUPD   Z17, K2, 64(DI)
	ADDQ      DX, DI
	KMOVW     4(R8), K1
	KSHIFTRW  $8, K1, K2
	VMOVUPD.Z (DI), K1, Z16
	VADDPD    Z16, Z4, Z16
	VMOVUPD   Z16, K1, (DI)
	VMOVUPD.Z 64(DI), K2, Z17
	VADDPD    Z17, Z5, Z17
	VMOVUPD   Z17, K2, 64(DI)
	ADDQ      DX, DI
	KMOVW     6(R8), K1
	KSHIFTRW  $8, K1, K2
	VMOVUPD.Z (DI), K1, Z16
	VADDPD    Z16, Z6, Z16
	VMOVUPD   Z16, K1, (DI)
	VMOVUPD.Z 64(DI), K2, Z17
	VADDPD    Z17, Z7, Z17
	VMOVUPD   Z17, K2, 64(DI)
	ADDQ      DX, DI
	KMOVW     8(R8), K1
	KSHIFTRW  $8, K1, K2
	VMOVUPD.Z (DI), K1, Z16
	VADDPD    Z16, Z8, Z16
	VMOVUPD   Z16, K1, (DI)
	VMOVUPD.Z 64(DI), K2, Z17
	VADDPD    Z17, Z9, Z17
	VMOVUPD   Z17, K2, 64(DI)
	ADDQ      DX, DI
	KMOVW     10(R8), K1
	KSHIFTRW  $8, K1, K2
	VMOVUPD.Z (DI), K1, Z16
	VADDPD    Z16, Z10, Z16
	VMOVUPD   Z16, K1, (DI)
	VMOVUPD.Z 64(DI), K2, Z17
	VADDPD    Z17, Z11, Z17
	VMOVUPD   Z17, K2, 64(DI)
	ADDQ      DX, DI
	KMOVW     12(R8), K1
	KSHIFTRW  $8, K1, K2
	VMOVUPD.Z (DI), K1, Z16
	VADDPD    Z16, Z12, Z16
	VMOVUPD   Z16, K1, (DI)
	VMOVUPD.Z 64(DI), K2, Z17
	VADDPD    Z17, Z13, Z17
	VMOVUPD   Z17, K2, 64(DI)
	ADDQ      DX, DI
	KMOVW     14(R8), K1
	KSHIFTRW  $8, K1, K2
	VMOVUPD.Z (DI), K1, Z16
	VADDPD    Z16, Z14, Z16
	VMOVUPD   Z16, K1, (DI)
	VMOVUPD.Z 64(DI), K2, Z17
	VADDPD    Z17, Z15, Z17
	VMOVUPD   Z17, K2, 64(DI)
	VZEROUPPER
	RET

// func tile4x8AVX2(kc int, a, b, c *float64, ldc int)
//
// A 4×8 block of the tile of Syrk in eight 4-wide accumulators (Y0-Y7,
// two per row): per column of the panel, two loads of b, four broadcasts
// of a and eight fused multiply-adds; then the block added to C.
TEXT ·tile4x8AVX2(SB), NOSPLIT, $0-40
	MOVQ kc+0(FP), CX
	MOVQ a+8(FP), SI
	MOVQ b+16(FP), BX
	MOVQ c+24(FP), DI
	MOVQ ldc+32(FP), DX
	SHLQ $3, DX
	VXORPD Y0, Y0, Y0
	VXORPD Y1, Y1, Y1
	VXORPD Y2, Y2, Y2
	VXORPD Y3, Y3, Y3
	VXORPD Y4, Y4, Y4
	VXORPD Y5, Y5, Y5
	VXORPD Y6, Y6, Y6
	VXORPD Y7, Y7, Y7

t48loop:
	VMOVUPD (BX), Y8
	VMOVUPD 32(BX), Y9
	VBROADCASTSD 0(SI), Y10
	VBROADCASTSD 8(SI), Y11
	VBROADCASTSD 16(SI), Y12
	VBROADCASTSD 24(SI), Y13
	VFMADD231PD Y8, Y10, Y0
	VFMADD231PD Y9, Y10, Y1
	VFMADD231PD Y8, Y11, Y2
	VFMADD231PD Y9, Y11, Y3
	VFMADD231PD Y8, Y12, Y4
	VFMADD231PD Y9, Y12, Y5
	VFMADD231PD Y8, Y13, Y6
	VFMADD231PD Y9, Y13, Y7
	ADDQ $128, SI
	ADDQ $128, BX
	DECQ CX
	JNZ  t48loop

	VADDPD  (DI), Y0, Y0
	VMOVUPD Y0, (DI)
	VADDPD  32(DI), Y1, Y1
	VMOVUPD Y1, 32(DI)
	ADDQ    DX, DI
	VADDPD  (DI), Y2, Y2
	VMOVUPD Y2, (DI)
	VADDPD  32(DI), Y3, Y3
	VMOVUPD Y3, 32(DI)
	ADDQ    DX, DI
	VADDPD  (DI), Y4, Y4
	VMOVUPD Y4, (DI)
	VADDPD  32(DI), Y5, Y5
	VMOVUPD Y5, 32(DI)
	ADDQ    DX, DI
	VADDPD  (DI), Y6, Y6
	VMOVUPD Y6, (DI)
	VADDPD  32(DI), Y7, Y7
	VMOVUPD Y7, 32(DI)
	VZEROUPPER
	RET

// func tile512x8(kc int, a, b, c *float64, ldc int, mask [8]uint16)
//
// The left half of tile512, 8 rows × 8 columns in eight accumulators
// (Z0-Z7), for tiles whose columns 8 to 15 are all masked off (the last
// columns of C when d mod 16 ≤ 8), and for those whose columns 0 to 7
// are, called from their eighth column (the odd row tiles on the
// diagonal): per column one load of b, eight broadcasts of a and eight
// fused multiply-adds.
TEXT ·tile512x8(SB), NOSPLIT, $0-56
	MOVQ kc+0(FP), CX
	MOVQ a+8(FP), SI
	MOVQ b+16(FP), BX
	MOVQ c+24(FP), DI
	MOVQ ldc+32(FP), DX
	LEAQ mask+40(FP), R8
	SHLQ $3, DX
	VPXORQ Z0, Z0, Z0
	VPXORQ Z1, Z1, Z1
	VPXORQ Z2, Z2, Z2
	VPXORQ Z3, Z3, Z3
	VPXORQ Z4, Z4, Z4
	VPXORQ Z5, Z5, Z5
	VPXORQ Z6, Z6, Z6
	VPXORQ Z7, Z7, Z7

t512x8loop:
	VMOVUPD (BX), Z16
	VBROADCASTSD 0(SI), Z18
	VBROADCASTSD 8(SI), Z19
	VBROADCASTSD 16(SI), Z20
	VBROADCASTSD 24(SI), Z21
	VBROADCASTSD 32(SI), Z22
	VBROADCASTSD 40(SI), Z23
	VBROADCASTSD 48(SI), Z24
	VBROADCASTSD 56(SI), Z25
	VFMADD231PD Z16, Z18, Z0
	VFMADD231PD Z16, Z19, Z1
	VFMADD231PD Z16, Z20, Z2
	VFMADD231PD Z16, Z21, Z3
	VFMADD231PD Z16, Z22, Z4
	VFMADD231PD Z16, Z23, Z5
	VFMADD231PD Z16, Z24, Z6
	VFMADD231PD Z16, Z25, Z7
	ADDQ $128, SI
	ADDQ $128, BX
	DECQ CX
	JNZ  t512x8loop

	KMOVW     0(R8), K1
	VMOVUPD.Z (DI), K1, Z16
	VADDPD    Z16, Z0, Z16
	VMOVUPD   Z16, K1, (DI)
	ADDQ      DX, DI
	KMOVW     2(R8), K1
	VMOVUPD.Z (DI), K1, Z16
	VADDPD    Z16, Z1, Z16
	VMOVUPD   Z16, K1, (DI)
	ADDQ      DX, DI
	KMOVW     4(R8), K1
	VMOVUPD.Z (DI), K1, Z16
	VADDPD    Z16, Z2, Z16
	VMOVUPD   Z16, K1, (DI)
	ADDQ      DX, DI
	KMOVW     6(R8), K1
	VMOVUPD.Z (DI), K1, Z16
	VADDPD    Z16, Z3, Z16
	VMOVUPD   Z16, K1, (DI)
	ADDQ      DX, DI
	KMOVW     8(R8), K1
	VMOVUPD.Z (DI), K1, Z16
	VADDPD    Z16, Z4, Z16
	VMOVUPD   Z16, K1, (DI)
	ADDQ      DX, DI
	KMOVW     10(R8), K1
	VMOVUPD.Z (DI), K1, Z16
	VADDPD    Z16, Z5, Z16
	VMOVUPD   Z16, K1, (DI)
	ADDQ      DX, DI
	KMOVW     12(R8), K1
	VMOVUPD.Z (DI), K1, Z16
	VADDPD    Z16, Z6, Z16
	VMOVUPD   Z16, K1, (DI)
	ADDQ      DX, DI
	KMOVW     14(R8), K1
	VMOVUPD.Z (DI), K1, Z16
	VADDPD    Z16, Z7, Z16
	VMOVUPD   Z16, K1, (DI)
	VZEROUPPER
	RET

// func row512(p *float64, gs int, x, o *float64, n int, s float64) uint64
//
// Per group of 16 values: two loads of x, the differences from o (memory
// operands), the products by s broadcast in Z31, two stores at p; x − x
// (+0 or NaN) or-ed into Z30, whose non-zero lanes are returned as a mask.
// The lines 4 kB ahead of x are asked for (PREFETCHT0): the rows come one
// after another, and the hardware prefetcher, which stops at each 4 kB
// page, leaves the loop waiting for memory.
// The last n mod 16 values the same under the opmasks K1 (the first 8)
// and K2 (the next 8): masked-off lanes are loaded as zeros, not stored.
TEXT ·row512(SB), NOSPLIT, $0-56
	MOVQ         p+0(FP), DI
	MOVQ         gs+8(FP), DX
	MOVQ         x+16(FP), SI
	MOVQ         o+24(FP), BX
	MOVQ         n+32(FP), CX
	VBROADCASTSD s+40(FP), Z31
	SHLQ         $3, DX
	VPXORQ       Z30, Z30, Z30
	MOVQ         CX, R8
	ANDQ         $15, R8
	SHRQ         $4, CX
	JZ           r512tail

r512loop:
	PREFETCHT0 4096(SI)
	PREFETCHT0 4160(SI)
	VMOVUPD (SI), Z0
	VMOVUPD 64(SI), Z1
	VSUBPD  (BX), Z0, Z2
	VSUBPD  64(BX), Z1, Z3
	VSUBPD  Z0, Z0, Z0
	VSUBPD  Z1, Z1, Z1
	VMULPD  Z31, Z2, Z2
	VMULPD  Z31, Z3, Z3
	VPORQ   Z0, Z30, Z30
	VPORQ   Z1, Z30, Z30
	VMOVUPD Z2, (DI)
	VMOVUPD Z3, 64(DI)
	ADDQ    $128, SI
	ADDQ    $128, BX
	ADDQ    DX, DI
	DECQ    CX
	JNZ     r512loop

r512tail:
	TESTQ     R8, R8
	JZ        r512done
	MOVQ      R8, CX
	MOVQ      $1, AX
	SHLQ      CX, AX
	DECQ      AX
	KMOVW     AX, K1
	KSHIFTRW  $8, K1, K2
	VMOVUPD.Z (SI), K1, Z0
	VMOVUPD.Z 64(SI), K2, Z1
	VMOVUPD.Z (BX), K1, Z4
	VMOVUPD.Z 64(BX), K2, Z5
	VSUBPD    Z4, Z0, Z2
	VSUBPD    Z5, Z1, Z3
	VSUBPD    Z0, Z0, Z0
	VSUBPD    Z1, Z1, Z1
	VMULPD    Z31, Z2, Z2
	VMULPD    Z31, Z3, Z3
	VPORQ     Z0, Z30, Z30
	VPORQ     Z1, Z30, Z30
	VMOVUPD   Z2, K1, (DI)
	VMOVUPD   Z3, K2, 64(DI)

r512done:
	VPTESTMQ Z30, Z30, K1
	KMOVW    K1, AX
	MOVQ     AX, ret+48(FP)
	VZEROUPPER
	RET

// func row256(p *float64, gs int, x, o *float64, groups int, s float64) uint64
//
// row512 in four 4-wide vectors a group; the or of x − x in Y14, tested
// with VPTEST.
TEXT ·row256(SB), NOSPLIT, $0-56
	MOVQ         p+0(FP), DI
	MOVQ         gs+8(FP), DX
	MOVQ         x+16(FP), SI
	MOVQ         o+24(FP), BX
	MOVQ         groups+32(FP), CX
	VBROADCASTSD s+40(FP), Y15
	SHLQ         $3, DX
	VXORPD       Y14, Y14, Y14

r256loop:
	VMOVUPD (SI), Y0
	VMOVUPD 32(SI), Y1
	VMOVUPD 64(SI), Y2
	VMOVUPD 96(SI), Y3
	VSUBPD  (BX), Y0, Y4
	VSUBPD  32(BX), Y1, Y5
	VSUBPD  64(BX), Y2, Y6
	VSUBPD  96(BX), Y3, Y7
	VSUBPD  Y0, Y0, Y0
	VSUBPD  Y1, Y1, Y1
	VSUBPD  Y2, Y2, Y2
	VSUBPD  Y3, Y3, Y3
	VMULPD  Y15, Y4, Y4
	VMULPD  Y15, Y5, Y5
	VMULPD  Y15, Y6, Y6
	VMULPD  Y15, Y7, Y7
	VORPD   Y0, Y14, Y14
	VORPD   Y1, Y14, Y14
	VORPD   Y2, Y14, Y14
	VORPD   Y3, Y14, Y14
	VMOVUPD Y4, (DI)
	VMOVUPD Y5, 32(DI)
	VMOVUPD Y6, 64(DI)
	VMOVUPD Y7, 96(DI)
	ADDQ    $128, SI
	ADDQ    $128, BX
	ADDQ    DX, DI
	DECQ    CX
	JNZ     r256loop

	XORQ  AX, AX
	VPTEST Y14, Y14
	SETNE AL
	MOVQ  AX, ret+48(FP)
	VZEROUPPER
	RET
