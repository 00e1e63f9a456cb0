package kernel

import "unsafe"

// StreamCopy copies src to dst (of the same length) with stores that
// bypass the caches where the processor has them (amd64: MOVNTPD on the
// whole 64-byte lines of dst, plain copies before and after them, then
// SFENCE): for results written once into memory that will not be read
// again soon, such as the N×K probabilities of a prediction, it saves
// reading each line of dst into the cache before it is written over
// (half the memory traffic of the store). Elsewhere it is copy.
func StreamCopy(dst, src []float64) {
	if len(dst) != len(src) {
		panic("kernel: StreamCopy of slices of different lengths")
	}
	if !streamAsm || len(dst) < 2*lineValues {
		copy(dst, src)
		return
	}
	head := int((lineBytes-uintptr(unsafe.Pointer(&dst[0]))%lineBytes)%lineBytes) / 8
	lines := (len(dst) - head) / lineValues
	copy(dst[:head], src)
	streamLines(&dst[head], &src[head], lines)
	body := head + lines*lineValues
	copy(dst[body:], src[body:])
}

// A cache line: 64 bytes, 8 float64.
const (
	lineBytes  = 64
	lineValues = lineBytes / 8
)
