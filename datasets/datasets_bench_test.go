package datasets

import (
	"io"
	"testing"
)

// BenchmarkOpenAdult measures the decompression of the largest data set;
// the throughput is in bytes of CSV text.
func BenchmarkOpenAdult(b *testing.B) {
	read := func() int64 {
		r, err := Open("adult")
		if err != nil {
			b.Fatal(err)
		}
		defer r.Close()
		n, err := io.Copy(io.Discard, r)
		if err != nil {
			b.Fatal(err)
		}
		return n
	}
	b.SetBytes(read())
	for b.Loop() {
		read()
	}
}
