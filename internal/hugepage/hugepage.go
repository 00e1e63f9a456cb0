// Package hugepage allocates large arrays of plain values on transparent
// huge pages where the system has them.
//
// The first write to each 4 kB page of fresh memory is a page fault, which
// costs microseconds on a virtual machine: an array of 80 MB written once,
// such as the probabilities of a million rows, spends more in faults than
// in the arithmetic that fills it. Backed by 2 MB pages it faults 512
// times less often. Go's runtime leaves its heap to the system's setting,
// which is often "madvise" (huge pages only where asked for), so Make
// asks (madvise MADV_HUGEPAGE on Linux; nothing elsewhere).
package hugepage

import "unsafe"

// Size is the size of a transparent huge page on the platforms Go runs
// Linux on with them (x86-64, and arm64 with 4 kB pages).
const Size = 2 << 20

// Make returns make([]T, n, c) for a T without pointers, its memory on
// transparent huge pages where the system has them (see the package
// documentation): the whole huge pages within the c values are advised,
// when they are at least two, before anything is written to them.
func Make[T any](n, c int) []T {
	s := make([]T, n, c)
	var z T
	advise(unsafe.Pointer(unsafe.SliceData(s)), c*int(unsafe.Sizeof(z)))
	return s
}

// Clone returns a copy of s of capacity c ≥ len(s) made by Make.
func Clone[T any](s []T, c int) []T {
	d := Make[T](len(s), c)
	copy(d, s)
	return d
}
