package ngram

import (
	"bytes"
	"math"
	"math/rand/v2"
	"os"
	"testing"
)

// FuzzARPAFile is the fuzz test of ARPA files read as models (kind arpa):
// a file changed by the fuzzer is refused with an error or gives a model
// whose documents score a log-probability that is not NaN (−Inf where
// the file gives a word probability 0) and that samples within its
// limit. Under go test it runs over its seeds, an exported model's file
// and testdata/arpa/other.arpa; longer:
//
//	go test -run '^$' -fuzz FuzzARPAFile -fuzztime 60s ./ngram
func FuzzARPAFile(f *testing.F) {
	m := fit(f, Config{Order: 3, KeepPunct: true}, docs([]string{"the cat sat on the mat.", "the dog ate the bone!", "a cat and a dog"}, nil))
	var b bytes.Buffer
	if err := m.WriteARPA(&b, 0); err != nil {
		f.Fatal(err)
	}
	f.Add(b.Bytes())
	other, err := os.ReadFile("testdata/arpa/other.arpa")
	if err != nil {
		f.Fatal(err)
	}
	f.Add(other)
	f.Fuzz(func(t *testing.T, file []byte) {
		a, err := ReadARPA(bytes.NewReader(file))
		if err != nil {
			return
		}
		for _, doc := range []string{"the cat sat", "zzz qqq", "", "a dog and the mat on a cat"} {
			if lp, _ := a.LogProb(doc, 0); math.IsNaN(lp) || math.IsInf(lp, 1) {
				t.Fatalf("%q: log P = %v", doc, lp)
			}
		}
		rng := rand.New(rand.NewPCG(1, 2))
		if words := a.Sample(0, "the", 6, 1, rng); len(words) > 6 {
			t.Fatalf("sampled %d tokens, at most 6 asked", len(words))
		}
	})
}
