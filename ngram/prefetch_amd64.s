#include "textflag.h"

// func prefetch(p unsafe.Pointer)
//
// PREFETCHT0: a hint to bring the cache line at p into every level of the
// cache; it never faults, whatever p.
TEXT ·prefetch(SB), NOSPLIT, $0-8
	MOVQ       p+0(FP), AX
	PREFETCHT0 (AX)
	RET
