#include "textflag.h"

// CDREDUCE sums each of the accumulators Z0–Z3 across its lanes (halves
// added, VHADDPD, the halves of the pairs added) into the four lanes of
// Y4, using Y5.
#define CDREDUCE \
	VEXTRACTF64X4 $1, Z0, Y5 \
	VADDPD        Y5, Y0, Y0 \
	VEXTRACTF64X4 $1, Z1, Y5 \
	VADDPD        Y5, Y1, Y1 \
	VEXTRACTF64X4 $1, Z2, Y5 \
	VADDPD        Y5, Y2, Y2 \
	VEXTRACTF64X4 $1, Z3, Y5 \
	VADDPD        Y5, Y3, Y3 \
	CDPAIRS

// CDPAIRS adds the lanes of each of Y0–Y3 into the four lanes of Y4, in
// the order ((l0 + l1) + (l2 + l3)), using Y5.
#define CDPAIRS \
	VHADDPD       Y1, Y0, Y0 \
	VHADDPD       Y3, Y2, Y2 \
	VPERM2F128    $0x20, Y2, Y0, Y4 \
	VPERM2F128    $0x31, Y2, Y0, Y5 \
	VADDPD        Y5, Y4, Y4


// func centredDots(out, x *float64, rows, n int, c, w *float64, k, npad int)
//
// Two rows at a time, then the last one alone. For each group of four
// classes (first class min(4g, k−4)): Z0–Z3 accumulate, per eight
// features, (x − c)·w_t for the first row, Z16–Z19 for the second, each
// row loaded once and centred (Z4, Z20) and the weights of the four
// classes loaded once for both; the last n mod 8 features under the mask
// K1. Then each accumulator summed across its lanes (CDREDUCE) and the
// four scores of each row stored at once. A row's operations are the same
// whether it is paired or not, so its scores are the same bits. Each step
// asks for the lines 4 kB ahead of both rows (PREFETCHT0); the tails test
// the mask K1 itself, CX serving the prefetch.
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

cdpair:
	CMPQ    R8, $2
	JLT     cdrow
	LEAQ    (SI)(R13*1), R15      // the second row
	XORQ    DX, DX
	MOVQ    R10, R14

cdpgroup:
	MOVQ    R11, AX
	SUBQ    $4, AX
	CMPQ    DX, AX
	CMOVQGT AX, DX
	VPXORQ  Z0, Z0, Z0
	VPXORQ  Z1, Z1, Z1
	VPXORQ  Z2, Z2, Z2
	VPXORQ  Z3, Z3, Z3
	VPXORQ  Z16, Z16, Z16
	VPXORQ  Z17, Z17, Z17
	VPXORQ  Z18, Z18, Z18
	VPXORQ  Z19, Z19, Z19
	XORQ    AX, AX

cdpvec:
	CMPQ        AX, BX
	JGE         cdptail
	LEAQ        (SI)(AX*1), CX
	PREFETCHT0  4096(CX)
	PREFETCHT0  4096(CX)(R13*1)
	VMOVUPD     (R9)(AX*1), Z21
	VMOVUPD     (SI)(AX*1), Z4
	VSUBPD      Z21, Z4, Z4
	VMOVUPD     (R15)(AX*1), Z20
	VSUBPD      Z21, Z20, Z20
	VMOVUPD     (R14)(AX*4), Z5
	VMOVUPD     64(R14)(AX*4), Z6
	VMOVUPD     128(R14)(AX*4), Z7
	VMOVUPD     192(R14)(AX*4), Z8
	VFMADD231PD Z5, Z4, Z0
	VFMADD231PD Z6, Z4, Z1
	VFMADD231PD Z7, Z4, Z2
	VFMADD231PD Z8, Z4, Z3
	VFMADD231PD Z5, Z20, Z16
	VFMADD231PD Z6, Z20, Z17
	VFMADD231PD Z7, Z20, Z18
	VFMADD231PD Z8, Z20, Z19
	ADDQ        $64, AX
	JMP         cdpvec

cdptail:
	KORTESTW    K1, K1
	JZ          cdpreduce
	VMOVUPD     (R9)(AX*1), Z21
	VMOVUPD.Z   (SI)(AX*1), K1, Z4
	VSUBPD      Z21, Z4, Z4
	VMOVUPD.Z   (R15)(AX*1), K1, Z20
	VSUBPD      Z21, Z20, Z20
	VMOVUPD     (R14)(AX*4), Z5
	VMOVUPD     64(R14)(AX*4), Z6
	VMOVUPD     128(R14)(AX*4), Z7
	VMOVUPD     192(R14)(AX*4), Z8
	VFMADD231PD Z5, Z4, Z0
	VFMADD231PD Z6, Z4, Z1
	VFMADD231PD Z7, Z4, Z2
	VFMADD231PD Z8, Z4, Z3
	VFMADD231PD Z5, Z20, Z16
	VFMADD231PD Z6, Z20, Z17
	VFMADD231PD Z7, Z20, Z18
	VFMADD231PD Z8, Z20, Z19

cdpreduce:
	CDREDUCE
	VMOVUPD Y4, (DI)(DX*8)
	VMOVAPD Z16, Z0
	VMOVAPD Z17, Z1
	VMOVAPD Z18, Z2
	VMOVAPD Z19, Z3
	CDREDUCE
	LEAQ    (DI)(R11*8), AX
	VMOVUPD Y4, (AX)(DX*8)
	ADDQ    R12, R14
	ADDQ    $4, DX
	CMPQ    DX, R11
	JLT     cdpgroup
	LEAQ    (SI)(R13*2), SI
	LEAQ    (DI)(R11*8), DI
	LEAQ    (DI)(R11*8), DI
	SUBQ    $2, R8
	JMP     cdpair

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
	KORTESTW    K1, K1
	JZ          cdreduce
	VMOVUPD.Z   (SI)(AX*1), K1, Z4
	VSUBPD      (R9)(AX*1), Z4, Z4
	VFMADD231PD (R14)(AX*4), Z4, Z0
	VFMADD231PD 64(R14)(AX*4), Z4, Z1
	VFMADD231PD 128(R14)(AX*4), Z4, Z2
	VFMADD231PD 192(R14)(AX*4), Z4, Z3

cdreduce:
	CDREDUCE
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

// Lane masks for the last n mod 8 features of a row in two halves of four:
// entry t (64 bytes) selects the first t lanes.
DATA cdmask<>+64(SB)/8, $0xffffffffffffffff
DATA cdmask<>+128(SB)/8, $0xffffffffffffffff
DATA cdmask<>+136(SB)/8, $0xffffffffffffffff
DATA cdmask<>+192(SB)/8, $0xffffffffffffffff
DATA cdmask<>+200(SB)/8, $0xffffffffffffffff
DATA cdmask<>+208(SB)/8, $0xffffffffffffffff
DATA cdmask<>+256(SB)/8, $0xffffffffffffffff
DATA cdmask<>+264(SB)/8, $0xffffffffffffffff
DATA cdmask<>+272(SB)/8, $0xffffffffffffffff
DATA cdmask<>+280(SB)/8, $0xffffffffffffffff
DATA cdmask<>+320(SB)/8, $0xffffffffffffffff
DATA cdmask<>+328(SB)/8, $0xffffffffffffffff
DATA cdmask<>+336(SB)/8, $0xffffffffffffffff
DATA cdmask<>+344(SB)/8, $0xffffffffffffffff
DATA cdmask<>+352(SB)/8, $0xffffffffffffffff
DATA cdmask<>+384(SB)/8, $0xffffffffffffffff
DATA cdmask<>+392(SB)/8, $0xffffffffffffffff
DATA cdmask<>+400(SB)/8, $0xffffffffffffffff
DATA cdmask<>+408(SB)/8, $0xffffffffffffffff
DATA cdmask<>+416(SB)/8, $0xffffffffffffffff
DATA cdmask<>+424(SB)/8, $0xffffffffffffffff
DATA cdmask<>+448(SB)/8, $0xffffffffffffffff
DATA cdmask<>+456(SB)/8, $0xffffffffffffffff
DATA cdmask<>+464(SB)/8, $0xffffffffffffffff
DATA cdmask<>+472(SB)/8, $0xffffffffffffffff
DATA cdmask<>+480(SB)/8, $0xffffffffffffffff
DATA cdmask<>+488(SB)/8, $0xffffffffffffffff
DATA cdmask<>+496(SB)/8, $0xffffffffffffffff
GLOBL cdmask<>(SB), RODATA|NOPTR, $512

// CDSTEP2 adds (x − c)·w_t for the eight features in Y8 (the first four)
// and Y9 (the last four) to the accumulators of the four classes of a
// group: Y0–Y3 the first halves, Y4–Y7 the second.
#define CDSTEP2 \
	VFMADD231PD (R14)(AX*4), Y8, Y0 \
	VFMADD231PD 32(R14)(AX*4), Y9, Y4 \
	VFMADD231PD 64(R14)(AX*4), Y8, Y1 \
	VFMADD231PD 96(R14)(AX*4), Y9, Y5 \
	VFMADD231PD 128(R14)(AX*4), Y8, Y2 \
	VFMADD231PD 160(R14)(AX*4), Y9, Y6 \
	VFMADD231PD 192(R14)(AX*4), Y8, Y3 \
	VFMADD231PD 224(R14)(AX*4), Y9, Y7

// func centredDotsAVX2(out, x *float64, rows, n int, c, w *float64, k, npad int)
//
// centredDots one row at a time in four-lane vectors: each class's eight
// lanes of the AVX-512 kernel as two accumulators of four (Y0–Y3 and
// Y4–Y7), the eight features of a block as two halves (Y8, Y9; the last
// n mod 8 under the masks Y10, Y11), so that every lane runs the same
// operations; the halves added first, then CDPAIRS: the same bits as the
// AVX-512 kernel.
TEXT ·centredDotsAVX2(SB), NOSPLIT, $0-64
	MOVQ    out+0(FP), DI
	MOVQ    x+8(FP), SI
	MOVQ    rows+16(FP), R8
	MOVQ    n+24(FP), R13
	MOVQ    c+32(FP), R9
	MOVQ    w+40(FP), R10
	MOVQ    k+48(FP), R11
	MOVQ    npad+56(FP), R12
	SHLQ    $5, R12               // bytes of a group of packed weights
	MOVQ    R13, CX
	ANDQ    $7, CX                // features in the masked block
	MOVQ    CX, AX
	SHLQ    $6, AX
	LEAQ    cdmask<>(SB), DX
	VMOVDQU (DX)(AX*1), Y10
	VMOVDQU 32(DX)(AX*1), Y11
	SHLQ    $3, R13               // bytes of a row of x
	MOVQ    R13, BX
	ANDQ    $-64, BX              // bytes of the whole blocks

ydrow:
	TESTQ R8, R8
	JZ    yddone
	XORQ  DX, DX
	MOVQ  R10, R14

ydgroup:
	MOVQ    R11, AX
	SUBQ    $4, AX
	CMPQ    DX, AX
	CMOVQGT AX, DX
	VXORPD  Y0, Y0, Y0
	VXORPD  Y1, Y1, Y1
	VXORPD  Y2, Y2, Y2
	VXORPD  Y3, Y3, Y3
	VXORPD  Y4, Y4, Y4
	VXORPD  Y5, Y5, Y5
	VXORPD  Y6, Y6, Y6
	VXORPD  Y7, Y7, Y7
	XORQ    AX, AX

ydvec:
	CMPQ    AX, BX
	JGE     ydtail
	VMOVUPD (SI)(AX*1), Y8
	VSUBPD  (R9)(AX*1), Y8, Y8
	VMOVUPD 32(SI)(AX*1), Y9
	VSUBPD  32(R9)(AX*1), Y9, Y9
	CDSTEP2
	ADDQ    $64, AX
	JMP     ydvec

ydtail:
	TESTQ      CX, CX
	JZ         ydreduce
	VMASKMOVPD (SI)(AX*1), Y10, Y8
	VSUBPD     (R9)(AX*1), Y8, Y8
	VMASKMOVPD 32(SI)(AX*1), Y11, Y9
	VSUBPD     32(R9)(AX*1), Y9, Y9
	CDSTEP2

ydreduce:
	VADDPD  Y4, Y0, Y0
	VADDPD  Y5, Y1, Y1
	VADDPD  Y6, Y2, Y2
	VADDPD  Y7, Y3, Y3
	CDPAIRS
	VMOVUPD Y4, (DI)(DX*8)
	ADDQ    R12, R14
	ADDQ    $4, DX
	CMPQ    DX, R11
	JLT     ydgroup
	ADDQ    R13, SI
	LEAQ    (DI)(R11*8), DI
	DECQ    R8
	JMP     ydrow

yddone:
	VZEROUPPER
	RET
