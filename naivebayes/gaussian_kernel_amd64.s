#include "textflag.h"

// Lane masks for the last n mod 4 features of a row: entry t (32 bytes)
// selects the first t lanes.
DATA quadTailMask<>+32(SB)/8, $0xffffffffffffffff
DATA quadTailMask<>+64(SB)/8, $0xffffffffffffffff
DATA quadTailMask<>+72(SB)/8, $0xffffffffffffffff
DATA quadTailMask<>+96(SB)/8, $0xffffffffffffffff
DATA quadTailMask<>+104(SB)/8, $0xffffffffffffffff
DATA quadTailMask<>+112(SB)/8, $0xffffffffffffffff
GLOBL quadTailMask<>(SB), RODATA|NOPTR, $128

// QUADSTEP adds h_c (x − μ_c)² for the four classes c of a group to the
// accumulators Y0–Y3, the four features in Y4, μ_c and h_c at 64c and
// 64c + 32 from R14.
#define QUADSTEP \
	VSUBPD      0(R14), Y4, Y5   \
	VMULPD      32(R14), Y5, Y6  \
	VFMADD231PD Y6, Y5, Y0       \
	VSUBPD      64(R14), Y4, Y7  \
	VMULPD      96(R14), Y7, Y8  \
	VFMADD231PD Y8, Y7, Y1       \
	VSUBPD      128(R14), Y4, Y9 \
	VMULPD      160(R14), Y9, Y10 \
	VFMADD231PD Y10, Y9, Y2      \
	VSUBPD      192(R14), Y4, Y11 \
	VMULPD      224(R14), Y11, Y12 \
	VFMADD231PD Y12, Y11, Y3

// func quadRowsAVX2(q, x *float64, rows, d int, p *float64, groups, stride, lastBase int)
//
// For each row and each group of four classes: four 4-wide accumulators,
// lane l of class c summing h_cj (x_j − μ_cj)² over j ≡ l (mod 4); per
// four features one load of the row and, per class, a subtraction of μ_c,
// a multiplication by h_c (both from the packed parameters) and a fused
// multiply-add; the last d mod 4 features through a masked load (zeros,
// against μ = h = 0 in the padding). Then (s_0 + s_1) + (s_2 + s_3) for
// the four classes at once and one store. Each row first asks for the
// cache lines of the row four ahead (PREFETCHT0): the hardware prefetcher
// alone leaves the kernel waiting for memory between chunks of rows.
TEXT ·quadRowsAVX2(SB), NOSPLIT, $0-64
	MOVQ q+0(FP), DI
	MOVQ x+8(FP), SI
	MOVQ rows+16(FP), R8
	MOVQ d+24(FP), CX
	MOVQ p+32(FP), R9
	MOVQ groups+40(FP), R10
	MOVQ stride+48(FP), R11
	MOVQ lastBase+56(FP), R12
	SHLQ $3, R11           // bytes of a row of q
	SHLQ $3, R12           // byte offset of the last group in a row of q
	MOVQ CX, DX
	ANDQ $3, DX
	SHLQ $5, DX
	LEAQ quadTailMask<>(SB), AX
	VMOVDQU (AX)(DX*1), Y15
	SHLQ $3, CX            // bytes of a row of x
	MOVQ CX, BX
	ANDQ $-32, BX          // bytes of the whole 4-wide steps

qrow:
	TESTQ R8, R8
	JZ    qdone
	LEAQ  (SI)(CX*4), DX   // the row four ahead
	XORQ  AX, AX

qprefetch:
	PREFETCHT0 (DX)(AX*1)
	ADDQ       $64, AX
	CMPQ       AX, CX
	JL         qprefetch
	MOVQ       R9, R14     // packed parameters of the first group
	XORQ       R13, R13    // 32·g
	MOVQ       R10, DX     // groups left

qgroup:
	VXORPD Y0, Y0, Y0
	VXORPD Y1, Y1, Y1
	VXORPD Y2, Y2, Y2
	VXORPD Y3, Y3, Y3
	XORQ   AX, AX

qloop:
	CMPQ    AX, BX
	JGE     qtail
	VMOVUPD (SI)(AX*1), Y4
	QUADSTEP
	ADDQ    $256, R14
	ADDQ    $32, AX
	JMP     qloop

qtail:
	CMPQ       AX, CX
	JGE        qreduce
	VMASKMOVPD (SI)(AX*1), Y15, Y4
	QUADSTEP
	ADDQ       $256, R14

qreduce:
	VHADDPD    Y1, Y0, Y8        // s0+s1 and s2+s3 of classes 0, 1
	VHADDPD    Y3, Y2, Y9        // of classes 2, 3
	VPERM2F128 $0x20, Y9, Y8, Y10
	VPERM2F128 $0x31, Y9, Y8, Y11
	VADDPD     Y11, Y10, Y8
	MOVQ       R13, AX
	CMPQ       AX, R12
	CMOVQGT    R12, AX
	VMOVUPD    Y8, (DI)(AX*1)
	ADDQ       $32, R13
	DECQ       DX
	JNZ        qgroup

	ADDQ R11, DI
	ADDQ CX, SI
	DECQ R8
	JMP  qrow

qdone:
	VZEROUPPER
	RET

// QUADSTEP512 adds h_c (x − μ_c)² for classes 0 and 1 of a group to Z0
// and for classes 2 and 3 to Z1, the four features in both halves of Z4,
// μ and h of classes 0 and 1 at 0 and 64 from R14, of 2 and 3 at 128 and
// 192.
#define QUADSTEP512 \
	VSUBPD      0(R14), Z4, Z5   \
	VMULPD      64(R14), Z5, Z6  \
	VFMADD231PD Z6, Z5, Z0       \
	VSUBPD      128(R14), Z4, Z7 \
	VMULPD      192(R14), Z7, Z8 \
	VFMADD231PD Z8, Z7, Z1

// QUADSTEP512X2 is QUADSTEP512 for two rows, the parameters loaded once:
// the first row's features in Z4 and accumulators Z0, Z1, the second's in
// Z20 and Z16, Z17.
#define QUADSTEP512X2 \
	VMOVUPD     0(R14), Z21      \
	VMOVUPD     64(R14), Z22     \
	VMOVUPD     128(R14), Z23    \
	VMOVUPD     192(R14), Z24    \
	VSUBPD      Z21, Z4, Z5      \
	VMULPD      Z22, Z5, Z6      \
	VFMADD231PD Z6, Z5, Z0       \
	VSUBPD      Z23, Z4, Z7      \
	VMULPD      Z24, Z7, Z8      \
	VFMADD231PD Z8, Z7, Z1       \
	VSUBPD      Z21, Z20, Z25    \
	VMULPD      Z22, Z25, Z26    \
	VFMADD231PD Z26, Z25, Z16    \
	VSUBPD      Z23, Z20, Z27    \
	VMULPD      Z24, Z27, Z28    \
	VFMADD231PD Z28, Z27, Z17

// QUADREDUCE512 stores the forms of the four classes of a group, summed
// from Z0 (classes 0 and 1) and Z1 (2 and 3), at (DI) plus the group's
// offset R13, using Y8–Y13.
#define QUADREDUCE512 \
	VEXTRACTF64X4 $1, Z0, Y9     \
	VEXTRACTF64X4 $1, Z1, Y11    \
	VHADDPD       Y9, Y0, Y8     \
	VHADDPD       Y11, Y1, Y10   \
	VPERM2F128    $0x20, Y10, Y8, Y12 \
	VPERM2F128    $0x31, Y10, Y8, Y13 \
	VADDPD        Y13, Y12, Y8   \
	VMOVUPD       Y8, (DI)(R13*1)

// QUADSTEPHALF is QUADSTEP512 for the last pair of classes alone (the
// half group): their μ and h at 0 and 64 from R14, into Z0.
#define QUADSTEPHALF \
	VSUBPD      0(R14), Z4, Z5   \
	VMULPD      64(R14), Z5, Z6  \
	VFMADD231PD Z6, Z5, Z0

// QUADSTEPHALFX2 is QUADSTEPHALF for two rows, as QUADSTEP512X2.
#define QUADSTEPHALFX2 \
	VMOVUPD     0(R14), Z21      \
	VMOVUPD     64(R14), Z22     \
	VSUBPD      Z21, Z4, Z5      \
	VMULPD      Z22, Z5, Z6      \
	VFMADD231PD Z6, Z5, Z0       \
	VSUBPD      Z21, Z20, Z25    \
	VMULPD      Z22, Z25, Z26    \
	VFMADD231PD Z26, Z25, Z16

// QUADREDUCEHALF stores the forms of the half group's two classes, summed
// from Z0 in QUADREDUCE512's order, at (DI) plus R13, using Y8–Y10.
#define QUADREDUCEHALF \
	VEXTRACTF64X4 $1, Z0, Y9     \
	VHADDPD       Y9, Y0, Y8     \
	VEXTRACTF128  $1, Y8, X10    \
	VADDPD        X10, X8, X8    \
	VMOVUPD       X8, (DI)(R13*1)

// ZQLOAD2 broadcasts the four features at AX of the rows at SI and R15
// into both halves of Z4 and Z20.
#define ZQLOAD2 \
	VBROADCASTF64X4 (SI)(AX*1), Z4 \
	VBROADCASTF64X4 (R15)(AX*1), Z20

// ZQTAIL loads the last d mod 4 features of the row at SI (under the mask
// K1, zeros elsewhere) into both halves of Z4.
#define ZQTAIL \
	VMOVUPD.Z    (SI)(AX*1), K1, Y4 \
	VINSERTF64X4 $1, Y4, Z4, Z4

// ZQTAIL2 is ZQTAIL for the rows at SI and R15, into Z4 and Z20.
#define ZQTAIL2 \
	ZQTAIL \
	VMOVUPD.Z    (R15)(AX*1), K1, Y20 \
	VINSERTF64X4 $1, Y20, Z20, Z20

// func quadRowsAVX512(q, x *float64, rows, d int, p *float64, groups, half, stride int)
//
// quadRowsAVX2 with two classes in each 8-wide vector: the four features
// broadcast into both halves of Z4, the parameters packed as μ and h of
// classes 0 and 1, then of classes 2 and 3 (pack), so that each lane
// runs the operations of the AVX2 kernel's lane and the forms come out
// with the same bits in half the instructions. The classes go in groups
// of four, then, when half is 1, a last pair alone (the half group), so
// that no class is computed twice. Two rows at a time (then the last one
// alone), the parameters loaded once for both and eight chains of
// additions in flight instead of four; the last d mod 4 features loaded
// under the mask K1 (VMASKMOVPD is slow on some processors).
TEXT ·quadRowsAVX512(SB), NOSPLIT, $0-64
	MOVQ q+0(FP), DI
	MOVQ x+8(FP), SI
	MOVQ rows+16(FP), R8
	MOVQ d+24(FP), CX
	MOVQ p+32(FP), R9
	MOVQ groups+40(FP), R10
	MOVQ half+48(FP), R12
	MOVQ stride+56(FP), R11
	SHLQ $3, R11           // bytes of a row of q
	MOVQ CX, DX
	ANDQ $3, CX
	MOVQ $1, AX
	SHLQ CX, AX
	DECQ AX
	KMOVW AX, K1           // the last d mod 4 features
	MOVQ DX, CX
	SHLQ $3, CX            // bytes of a row of x
	MOVQ CX, BX
	ANDQ $-32, BX          // bytes of the whole 4-wide steps

zqpair:
	CMPQ R8, $2
	JLT  zqrow
	LEAQ (SI)(CX*4), DX    // the rows four and five ahead
	XORQ AX, AX

zqpprefetch:
	PREFETCHT0 (DX)(AX*1)
	ADDQ       $64, AX
	CMPQ       AX, CX
	JL         zqpprefetch
	ADDQ       CX, DX
	XORQ       AX, AX

zqpprefetch2:
	PREFETCHT0 (DX)(AX*1)
	ADDQ       $64, AX
	CMPQ       AX, CX
	JL         zqpprefetch2
	LEAQ       (SI)(CX*1), R15 // the second row
	MOVQ       R9, R14
	XORQ       R13, R13
	MOVQ       R10, DX
	TESTQ      DX, DX
	JZ         zqphalf

zqpgroup:
	VPXORQ Z0, Z0, Z0
	VPXORQ Z1, Z1, Z1
	VPXORQ Z16, Z16, Z16
	VPXORQ Z17, Z17, Z17
	XORQ   AX, AX

zqploop:
	CMPQ            AX, BX
	JGE             zqptail
	ZQLOAD2
	QUADSTEP512X2
	ADDQ            $256, R14
	ADDQ            $32, AX
	JMP             zqploop

zqptail:
	CMPQ          AX, CX
	JGE           zqpreduce
	ZQTAIL2
	QUADSTEP512X2
	ADDQ          $256, R14

zqpreduce:
	QUADREDUCE512
	VMOVAPD       Z16, Z0
	VMOVAPD       Z17, Z1
	ADDQ          R11, DI
	QUADREDUCE512
	SUBQ          R11, DI
	ADDQ          $32, R13
	DECQ          DX
	JNZ           zqpgroup

zqphalf:
	TESTQ  R12, R12
	JZ     zqpnext
	VPXORQ Z0, Z0, Z0
	VPXORQ Z16, Z16, Z16
	XORQ   AX, AX

zqphloop:
	CMPQ            AX, BX
	JGE             zqphtail
	ZQLOAD2
	QUADSTEPHALFX2
	ADDQ            $128, R14
	ADDQ            $32, AX
	JMP             zqphloop

zqphtail:
	CMPQ          AX, CX
	JGE           zqphreduce
	ZQTAIL2
	QUADSTEPHALFX2

zqphreduce:
	QUADREDUCEHALF
	VMOVAPD       Z16, Z0
	ADDQ          R11, DI
	QUADREDUCEHALF
	SUBQ          R11, DI

zqpnext:
	LEAQ (DI)(R11*2), DI
	LEAQ (SI)(CX*2), SI
	SUBQ $2, R8
	JMP  zqpair

zqrow:
	TESTQ R8, R8
	JZ    zqdone
	LEAQ  (SI)(CX*4), DX   // the row four ahead
	XORQ  AX, AX

zqprefetch:
	PREFETCHT0 (DX)(AX*1)
	ADDQ       $64, AX
	CMPQ       AX, CX
	JL         zqprefetch
	MOVQ       R9, R14     // packed parameters of the first group
	XORQ       R13, R13    // 32·g
	MOVQ       R10, DX     // groups left
	TESTQ      DX, DX
	JZ         zqhalf

zqgroup:
	VPXORQ Z0, Z0, Z0
	VPXORQ Z1, Z1, Z1
	XORQ   AX, AX

zqloop:
	CMPQ    AX, BX
	JGE     zqtail
	VBROADCASTF64X4 (SI)(AX*1), Z4
	QUADSTEP512
	ADDQ    $256, R14
	ADDQ    $32, AX
	JMP     zqloop

zqtail:
	CMPQ          AX, CX
	JGE           zqreduce
	ZQTAIL
	QUADSTEP512
	ADDQ          $256, R14

zqreduce:
	QUADREDUCE512
	ADDQ       $32, R13
	DECQ       DX
	JNZ        zqgroup

zqhalf:
	TESTQ  R12, R12
	JZ     zqnext
	VPXORQ Z0, Z0, Z0
	XORQ   AX, AX

zqhloop:
	CMPQ            AX, BX
	JGE             zqhtail
	VBROADCASTF64X4 (SI)(AX*1), Z4
	QUADSTEPHALF
	ADDQ            $128, R14
	ADDQ            $32, AX
	JMP             zqhloop

zqhtail:
	CMPQ          AX, CX
	JGE           zqhreduce
	ZQTAIL
	QUADSTEPHALF

zqhreduce:
	QUADREDUCEHALF

zqnext:
	ADDQ R11, DI
	ADDQ CX, SI
	DECQ R8
	JMP  zqrow

zqdone:
	VZEROUPPER
	RET
