//go:build !linux

package hugepage

import "unsafe"

// advise does nothing outside Linux (see advise_linux.go).
func advise(unsafe.Pointer, int) {}
