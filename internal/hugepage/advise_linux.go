//go:build linux

package hugepage

import (
	"unsafe"

	"golang.org/x/sys/unix"
)

// advise asks the kernel to back the whole huge pages within the n bytes
// at p, not yet touched, with transparent huge pages (madvise
// MADV_HUGEPAGE), where the system's setting is "madvise" or "always".
// Below two huge pages it does nothing, and an error (no such support) is
// ignored: the advice only changes how the memory is mapped.
func advise(p unsafe.Pointer, n int) {
	if n < 2*Size {
		return
	}
	lo := (uintptr(p) + Size - 1) &^ (Size - 1)
	hi := (uintptr(p) + uintptr(n)) &^ (Size - 1)
	_ = unix.Madvise(unsafe.Slice((*byte)(unsafe.Add(p, lo-uintptr(p))), hi-lo), unix.MADV_HUGEPAGE)
}
