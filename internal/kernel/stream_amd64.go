package kernel

// streamAsm reports whether StreamCopy uses streamLines: always on amd64
// (SSE2). Tests turn it off to run copy.
var streamAsm = true

// streamLines copies lines 64-byte lines from src to dst, 64-byte aligned,
// with non-temporal stores, then SFENCE.
//
//go:noescape
func streamLines(dst, src *float64, lines int)
