package kernel

import (
	"math"
	"testing"
)

// TestStreamCopy copies every length up to five lines from every
// alignment of dst and src, and checks the copy and that the values
// around dst are left as they were.
func TestStreamCopy(t *testing.T) {
	for _, asm := range []bool{streamAsm, false} {
		in := streamAsm
		streamAsm = asm
		for n := range 5*lineValues + 3 {
			for off := range lineValues {
				for soff := range 3 {
					buf := make([]float64, n+2*lineValues)
					for i := range buf {
						buf[i] = -1
					}
					src := make([]float64, n+soff)[soff:]
					for i := range src {
						src[i] = float64(i) + 0.5
					}
					dst := buf[off : off+n]
					StreamCopy(dst, src)
					for i, v := range buf {
						want := -1.0
						if i >= off && i < off+n {
							want = src[i-off]
						}
						if math.Float64bits(v) != math.Float64bits(want) {
							t.Fatalf("asm %v, %d values at offset %d (src %d): buf[%d] = %v, want %v", asm, n, off, soff, i, v, want)
						}
					}
				}
			}
		}
		streamAsm = in
	}
}
