//go:build !amd64

package ngram

import "unsafe"

// prefetch does nothing but on amd64 (see prefetch_amd64.s): a hint only.
func prefetch(unsafe.Pointer) {}
