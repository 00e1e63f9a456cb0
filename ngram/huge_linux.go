//go:build linux

package ngram

import (
	"unsafe"

	"golang.org/x/sys/unix"
)

// hugePage is the size of a transparent huge page on the platforms Go
// runs Linux on with them (x86-64, arm64 with 4 kB pages).
const hugePage = 2 << 20

// adviseHuge asks the kernel to back the whole huge pages within the n
// bytes at p, not yet touched, with transparent huge pages (madvise
// MADV_HUGEPAGE), where the system's setting is "madvise" or "always": the
// first write then faults once per 2 MB instead of once per 4 kB. Below
// two huge pages it does nothing, and an error (no such support) is
// ignored: the advice only changes how the memory is mapped.
func adviseHuge(p unsafe.Pointer, n int) {
	if n < 2*hugePage {
		return
	}
	lo := (uintptr(p) + hugePage - 1) &^ (hugePage - 1)
	hi := (uintptr(p) + uintptr(n)) &^ (hugePage - 1)
	_ = unix.Madvise(unsafe.Slice((*byte)(unsafe.Add(p, lo-uintptr(p))), hi-lo), unix.MADV_HUGEPAGE)
}
