package ngram

import "unsafe"

// prefetch asks the processor to bring the cache line at p into its
// caches (PREFETCHT0), ahead of a read; it changes no value.
//
//go:noescape
func prefetch(p unsafe.Pointer)
