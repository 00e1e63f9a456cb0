package hmm

import (
	"math/rand/v2"
	"reflect"
	"testing"
)

// TestSample checks that sampled sentences follow the model (every word
// drawn with a tag it was seen with, under maximum-likelihood emissions),
// begin with the prompt, and repeat with the seed.
func TestSample(t *testing.T) {
	m, err := Config{}.Fit(toy)
	if err != nil {
		t.Fatal(err)
	}
	seen := map[[2]string]bool{}
	for _, s := range toy {
		for i, w := range s.Tokens {
			seen[[2]string{w, s.Tags[i]}] = true
		}
	}
	draw := func(seed uint64, p Prompt) [][]string {
		rng := rand.New(rand.NewPCG(seed, 1))
		var out [][]string
		for range 50 {
			s, err := m.Sample(rng, p, 30)
			if err != nil {
				t.Fatal(err)
			}
			for i, w := range s.Tokens {
				if i >= len(p.Words) && !seen[[2]string{w, s.Tags[i]}] {
					t.Fatalf("%q drawn with the tag %s", w, s.Tags[i])
				}
			}
			if p.Tags != nil && s.Tags[0] != p.Tags[0] || p.Words != nil && s.Tokens[0] != p.Words[0] {
				t.Fatalf("sentence %q %q does not begin with the prompt %+v", s.Tokens, s.Tags, p)
			}
			out = append(out, s.Tokens, s.Tags)
		}
		return out
	}
	if a, b := draw(1, Prompt{}), draw(1, Prompt{}); !reflect.DeepEqual(a, b) {
		t.Error("the same seed drew other sentences")
	}
	draw(2, Prompt{Tags: []string{"ADJ"}})
	draw(3, Prompt{Words: []string{"Zorro"}})
	if _, err := m.Sample(rand.New(rand.NewPCG(1, 1)), Prompt{Tags: []string{"NOPE"}}, 5); err == nil {
		t.Error("a prompt of an unknown tag: no error")
	}
}
