#include "textflag.h"

// Constants of logExactAVX2, those of math.Log (src/math/log_amd64.s):
// √2/2, ln 2 in two parts, the coefficients L1…L7; then 0.5, 1, 2, the
// bits of 2⁵² and 2⁵² + 1022 (to turn the biased exponent into k), the
// mantissa mask, and the bounds of the positive normal numbers (the
// largest denormal and +Inf).
DATA logxconst<>+0(SB)/8, $7.07106781186547524401e-01
DATA logxconst<>+8(SB)/8, $6.93147180369123816490e-01
DATA logxconst<>+16(SB)/8, $1.90821492927058770002e-10
DATA logxconst<>+24(SB)/8, $6.666666666666735130e-01
DATA logxconst<>+32(SB)/8, $3.999999999940941908e-01
DATA logxconst<>+40(SB)/8, $2.857142874366239149e-01
DATA logxconst<>+48(SB)/8, $2.222219843214978396e-01
DATA logxconst<>+56(SB)/8, $1.818357216161805012e-01
DATA logxconst<>+64(SB)/8, $1.531383769920937332e-01
DATA logxconst<>+72(SB)/8, $1.479819860511658591e-01
DATA logxconst<>+80(SB)/8, $0.5
DATA logxconst<>+88(SB)/8, $1.0
DATA logxconst<>+96(SB)/8, $2.0
DATA logxconst<>+104(SB)/8, $0x4330000000000000
DATA logxconst<>+112(SB)/8, $0x43300000000003fe
DATA logxconst<>+120(SB)/8, $0x000fffffffffffff
DATA logxconst<>+128(SB)/8, $0x7ff0000000000000
GLOBL logxconst<>(SB), RODATA|NOPTR, $136

// func logExactAVX2(x *float64, n int) int
//
// math.Log's amd64 assembly on four lanes: f1 = the mantissa with the
// exponent of 0.5, k = the biased exponent − 1022 (as 2⁵² + e − (2⁵² +
// 1022), exact); where f1 ≤ √2/2 (the assembly's cmpnlt), k − 1 and
// f1·2; f = f1 − 1, s = f/(2 + f), s2 = s², s4 = s2², t1 = s2·(L1 +
// s4·(L3 + s4·(L5 + s4·L7))), t2 = s4·(L2 + s4·(L4 + s4·L6)), R = t1 +
// t2, hfsq = 0.5·f·f, and k·Ln2Hi − ((hfsq − (s·(hfsq + R) + k·Ln2Lo)) −
// f), every product and sum rounded on its own as there. A group with a
// value that is not a positive normal number stops the loop, for
// math.Log to do.
TEXT ·logExactAVX2(SB), NOSPLIT, $0-24
	MOVQ         x+0(FP), SI
	MOVQ         n+8(FP), CX
	SHLQ         $3, CX
	XORQ         AX, AX
	VPBROADCASTQ logxconst<>+120(SB), Y8  // mantissa mask, largest denormal
	VPBROADCASTQ logxconst<>+128(SB), Y9  // +Inf
	VBROADCASTSD logxconst<>+80(SB), Y10  // 0.5
	VBROADCASTSD logxconst<>+88(SB), Y11  // 1
	VBROADCASTSD logxconst<>+0(SB), Y12   // √2/2
	VBROADCASTSD logxconst<>+104(SB), Y13 // 2⁵²
	VBROADCASTSD logxconst<>+112(SB), Y14 // 2⁵² + 1022

loop:
	CMPQ         AX, CX
	JGE          done
	VMOVUPD      (SI)(AX*1), Y0
	VPCMPGTQ     Y8, Y0, Y1               // bits > largest denormal (signed)
	VPCMPGTQ     Y0, Y9, Y2               // bits < +Inf
	VPAND        Y2, Y1, Y1
	VMOVMSKPD    Y1, DX
	CMPQ         DX, $15
	JNE          done
	VPAND        Y8, Y0, Y2
	VPOR         Y10, Y2, Y2              // f1
	VPSRLQ       $52, Y0, Y1              // biased exponent e
	VPOR         Y13, Y1, Y1              // 2⁵² + e
	VSUBPD       Y14, Y1, Y1              // k = e − 1022
	VCMPPD       $2, Y12, Y2, Y3          // f1 ≤ √2/2
	VANDPD       Y11, Y3, Y3              // 0 or 1
	VSUBPD       Y3, Y1, Y1               // k
	VADDPD       Y11, Y3, Y3              // 1 or 2
	VMULPD       Y3, Y2, Y2               // f1
	VSUBPD       Y11, Y2, Y2              // f
	VBROADCASTSD logxconst<>+96(SB), Y0
	VADDPD       Y2, Y0, Y0               // 2 + f
	VDIVPD       Y0, Y2, Y3               // s
	VMULPD       Y3, Y3, Y4               // s2
	VMULPD       Y4, Y4, Y5               // s4
	VBROADCASTSD logxconst<>+72(SB), Y6   // L7
	VMULPD       Y5, Y6, Y6
	VBROADCASTSD logxconst<>+56(SB), Y7   // L5
	VADDPD       Y7, Y6, Y6
	VMULPD       Y5, Y6, Y6
	VBROADCASTSD logxconst<>+40(SB), Y7   // L3
	VADDPD       Y7, Y6, Y6
	VMULPD       Y5, Y6, Y6
	VBROADCASTSD logxconst<>+24(SB), Y7   // L1
	VADDPD       Y7, Y6, Y6
	VMULPD       Y6, Y4, Y4               // t1
	VBROADCASTSD logxconst<>+64(SB), Y6   // L6
	VMULPD       Y5, Y6, Y6
	VBROADCASTSD logxconst<>+48(SB), Y7   // L4
	VADDPD       Y7, Y6, Y6
	VMULPD       Y5, Y6, Y6
	VBROADCASTSD logxconst<>+32(SB), Y7   // L2
	VADDPD       Y7, Y6, Y6
	VMULPD       Y6, Y5, Y5               // t2
	VADDPD       Y5, Y4, Y4               // R
	VMULPD       Y2, Y10, Y0
	VMULPD       Y2, Y0, Y0               // hfsq = 0.5·f·f
	VADDPD       Y0, Y4, Y4               // hfsq + R
	VMULPD       Y4, Y3, Y3               // s·(hfsq + R)
	VBROADCASTSD logxconst<>+16(SB), Y4   // Ln2Lo
	VMULPD       Y1, Y4, Y4               // k·Ln2Lo
	VADDPD       Y4, Y3, Y3
	VSUBPD       Y3, Y0, Y0               // hfsq − (s·(hfsq + R) + k·Ln2Lo)
	VSUBPD       Y2, Y0, Y0               // − f
	VBROADCASTSD logxconst<>+8(SB), Y4    // Ln2Hi
	VMULPD       Y4, Y1, Y1               // k·Ln2Hi
	VSUBPD       Y0, Y1, Y1
	VMOVUPD      Y1, (SI)(AX*1)
	ADDQ         $32, AX
	JMP          loop

done:
	SHRQ         $3, AX
	MOVQ         AX, ret+16(FP)
	VZEROUPPER
	RET
