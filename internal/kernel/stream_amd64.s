#include "textflag.h"

// func streamLines(dst, src *float64, lines int)
//
// Per line: four unaligned 16-byte loads and four MOVNTPD stores to the
// aligned line of dst; SFENCE at the end orders the stores before the
// caller's next ones.
TEXT ·streamLines(SB), NOSPLIT, $0-24
	MOVQ dst+0(FP), DI
	MOVQ src+8(FP), SI
	MOVQ lines+16(FP), CX
	TESTQ CX, CX
	JZ    sdone

sloop:
	MOVUPD  (SI), X0
	MOVUPD  16(SI), X1
	MOVUPD  32(SI), X2
	MOVUPD  48(SI), X3
	MOVNTPD X0, (DI)
	MOVNTPD X1, 16(DI)
	MOVNTPD X2, 32(DI)
	MOVNTPD X3, 48(DI)
	ADDQ    $64, SI
	ADDQ    $64, DI
	DECQ    CX
	JNZ     sloop

sdone:
	SFENCE
	RET
