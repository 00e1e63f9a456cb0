//go:build !linux

package ngram

import "unsafe"

// adviseHuge does nothing outside Linux (see huge_linux.go).
func adviseHuge(unsafe.Pointer, int) {}
