package hugepage

import (
	"slices"
	"testing"
)

// TestMake: Make and Clone give the length, capacity and values of make
// and of a copy, below and above the two huge pages from which the memory
// is advised, at any alignment.
func TestMake(t *testing.T) {
	for _, n := range []int{0, 1, 1000, 2*Size/8 - 1, 2 * Size / 8, 3*Size/8 + 5} {
		s := Make[float64](n/2, n)
		if len(s) != n/2 || cap(s) != n {
			t.Fatalf("Make(%d, %d): len %d, cap %d", n/2, n, len(s), cap(s))
		}
		s = s[:n]
		for i, v := range s {
			if v != 0 {
				t.Fatalf("Make(%d): s[%d] = %v, want 0", n, i, v)
			}
			s[i] = float64(i)
		}
		c := Clone(s, n+3)
		if !slices.Equal(c, s) || cap(c) != n+3 {
			t.Fatalf("Clone of %d values: cap %d, equal %v", n, cap(c), slices.Equal(c, s))
		}
		b := Make[byte](n, n)
		if len(b) != n || cap(b) != n {
			t.Fatalf("Make[byte](%d): len %d, cap %d", n, len(b), cap(b))
		}
	}
}
