package kernel

import "golang.org/x/sys/cpu"

// logExactAsm reports whether Log runs the AVX2 assembly. math.Log runs
// its SSE2 assembly on every amd64 processor; the AVX2 code performs the
// same correctly rounded operations, four lanes at a time. Tests turn it
// off to run the portable code.
var logExactAsm = cpu.X86.HasAVX && cpu.X86.HasAVX2

// logExactAVX2 sets x[j] = math.Log(x[j]) for j < n, n a multiple of 4,
// four at a time, up to the first group of four that holds a value that
// is not a positive normal number (zero, negative, denormal, infinite or
// NaN), and returns that group's index j (n when there is none).
//
//go:noescape
func logExactAVX2(x *float64, n int) int

// logExactRows is Log with logExactAVX2 on the whole groups of four and
// math.Log on the groups it stops at and on the rest.
func logExactRows(x []float64) {
	n := len(x) &^ 3
	for j := 0; j < n; {
		j += logExactAVX2(&x[j], n-j)
		if j < n {
			LogGo(x[j : j+4])
			j += 4
		}
	}
	LogGo(x[n:])
}
