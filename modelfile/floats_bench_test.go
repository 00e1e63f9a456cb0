package modelfile

import (
	"math/rand/v2"
	"testing"
)

// benchFloats are 100,000 values of a typical parameter vector: normal
// numbers of magnitudes 1e-3 to 1e3.
func benchFloats() Floats {
	rng := rand.New(rand.NewPCG(1, 1))
	f := make(Floats, 100000)
	for i := range f {
		f[i] = rng.NormFloat64() * float64(int(1)<<rng.IntN(20)) / 1000
	}
	return f
}

func BenchmarkFloatsMarshal(b *testing.B) {
	f := benchFloats()
	b.SetBytes(int64(8 * len(f)))
	for b.Loop() {
		f.MarshalJSON()
	}
}

func BenchmarkFloatsUnmarshal(b *testing.B) {
	text, _ := benchFloats().MarshalJSON()
	b.SetBytes(int64(len(text)))
	var f Floats
	for b.Loop() {
		if err := f.UnmarshalJSON(text); err != nil {
			b.Fatal(err)
		}
	}
}
