#include "textflag.h"

// func solve32AVX2(z, coef, inv []float64, p int)
//
// For each feature j: load the 32 lanes of z_j into Y0–Y7, add
// −U_ij·z_i for i < j (coef advances by one per i), scale by 1/U_jj and
// store.
TEXT ·solve32AVX2(SB), NOSPLIT, $0-80
	MOVQ z_base+0(FP), DI
	MOVQ coef_base+24(FP), SI
	MOVQ inv_base+48(FP), DX
	MOVQ p+72(FP), CX
	XORQ R8, R8
	MOVQ DI, R9

loopj:
	CMPQ R8, CX
	JGE  done
	VMOVUPD 0(R9), Y0
	VMOVUPD 32(R9), Y1
	VMOVUPD 64(R9), Y2
	VMOVUPD 96(R9), Y3
	VMOVUPD 128(R9), Y4
	VMOVUPD 160(R9), Y5
	VMOVUPD 192(R9), Y6
	VMOVUPD 224(R9), Y7
	MOVQ    DI, R10
	MOVQ    R8, R11
	TESTQ   R11, R11
	JZ      scale

loopi:
	VBROADCASTSD (SI), Y8
	VFMADD231PD  0(R10), Y8, Y0
	VFMADD231PD  32(R10), Y8, Y1
	VFMADD231PD  64(R10), Y8, Y2
	VFMADD231PD  96(R10), Y8, Y3
	VFMADD231PD  128(R10), Y8, Y4
	VFMADD231PD  160(R10), Y8, Y5
	VFMADD231PD  192(R10), Y8, Y6
	VFMADD231PD  224(R10), Y8, Y7
	ADDQ         $8, SI
	ADDQ         $256, R10
	DECQ         R11
	JNZ          loopi

scale:
	VBROADCASTSD (DX)(R8*8), Y8
	VMULPD       Y8, Y0, Y0
	VMULPD       Y8, Y1, Y1
	VMULPD       Y8, Y2, Y2
	VMULPD       Y8, Y3, Y3
	VMULPD       Y8, Y4, Y4
	VMULPD       Y8, Y5, Y5
	VMULPD       Y8, Y6, Y6
	VMULPD       Y8, Y7, Y7
	VMOVUPD      Y0, 0(R9)
	VMOVUPD      Y1, 32(R9)
	VMOVUPD      Y2, 64(R9)
	VMOVUPD      Y3, 96(R9)
	VMOVUPD      Y4, 128(R9)
	VMOVUPD      Y5, 160(R9)
	VMOVUPD      Y6, 192(R9)
	VMOVUPD      Y7, 224(R9)
	ADDQ         $256, R9
	INCQ         R8
	JMP          loopj

done:
	VZEROUPPER
	RET
