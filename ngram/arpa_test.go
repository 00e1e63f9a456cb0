package ngram

import (
	"bytes"
	"errors"
	"math"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
)

// TestARPARoundTrip exports Kneser–Ney and Witten–Bell models of
// Shakespeare to ARPA, reads them back and checks that the back-off model
// gives every held-out document the log-probability of the original, to
// 1e-12 relative.
func TestARPARoundTrip(t *testing.T) {
	train, test := shakespeare(t)
	train, test = train[:4000], test[:300]
	for _, c := range []Config{{Order: 3}, {Order: 2, Smoothing: WittenBell, MinCount: 2}, {Order: 4, KeepPunct: true}} {
		m := fit(t, c, docs(train, nil))
		var buf bytes.Buffer
		if err := m.WriteARPA(&buf, 0); err != nil {
			t.Fatal(err)
		}
		a, err := ReadARPA(bytes.NewReader(buf.Bytes()))
		if err != nil {
			t.Fatal(err)
		}
		if a.Order() != c.Order || a.Size()[0] != len(m.Vocabulary()) {
			t.Errorf("%+v: order %d, %d unigrams; want %d, %d", c, a.Order(), a.Size()[0], c.Order, len(m.Vocabulary()))
		}
		for _, doc := range append(test, "zzyzx qqq the", "") {
			want, n := m.LogProb(doc, 0)
			got, n2 := a.LogProb(doc, 0)
			if doc == "" {
				continue
			}
			if relErr(got, want) > 1e-12 || n != n2 {
				t.Fatalf("%+v: %q: log P %v (%d tokens) from ARPA, %v (%d) from the model", c, doc, got, n2, want, n)
			}
		}
	}
	m := fit(t, Config{Order: 2, Smoothing: Lidstone}, docs(toy, nil))
	if err := m.WriteARPA(&bytes.Buffer{}, 0); !errors.Is(err, ErrARPA) {
		t.Errorf("Lidstone to ARPA: error %v", err)
	}
	for _, bad := range []string{"", "\\data\\\nngram 1=2\n\n\\1-grams:\n-1\t<unk>\n\\end\\\n", "\\data\\\nngram 1=1\n\\1-grams:\n-1\ta\n\\end\\\n", "\\data\\\nngram 1=1\n\\2-grams:\n"} {
		if _, err := ReadARPA(strings.NewReader(bad)); !errors.Is(err, ErrARPA) {
			t.Errorf("ReadARPA(%q): error %v", bad, err)
		}
	}
}

// TestARPAModel reads a model's ARPA file as a model: P(w | h) sums to
// one over the words for every context of a held-out document (the
// export is a distribution, the first word after <s> included), scores
// rows as the model does (ScoreSamples), and samples documents that
// continue their prompt, stop at </s> or the limit, and repeat with a
// seed.
func TestARPAModel(t *testing.T) {
	train, test := shakespeare(t)
	m := fit(t, Config{Order: 3, KeepPunct: true}, docs(train[:2000], nil))
	var buf bytes.Buffer
	if err := m.WriteARPA(&buf, 0); err != nil {
		t.Fatal(err)
	}
	a, err := ReadARPA(bytes.NewReader(buf.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	if a.Kind() != KindARPA || len(a.Schema().Features) != 1 || a.Schema().Target != nil || a.Classes() != nil {
		t.Fatalf("kind %q, schema %+v", a.Kind(), a.Schema())
	}
	for _, doc := range test[:20] {
		h := []string{Start}
		for _, w := range append(a.Tokenize(doc), End) {
			sum := 0.0
			for _, v := range a.words {
				if v != Start {
					sum += math.Pow(10, a.Log10Prob(h, v))
				}
			}
			if math.Abs(sum-1) > 1e-12 {
				t.Fatalf("%q after %q: the probabilities sum to %v", doc, h, sum)
			}
			h = append(h, a.known(w))
		}
	}
	d := docs(test[:50], nil)
	got, want := a.ScoreSamples(nil, d), m.ScoreSamples(nil, d)
	for i := range got {
		if relErr(got[i], want[i]) > 1e-12 && !(got[i] == 0 && want[i] == 0) {
			t.Errorf("row %d: %v from the ARPA model, %v from the model", i, got[i], want[i])
		}
	}
	sample := func(seed uint64) [][]string {
		rng := rand.New(rand.NewPCG(seed, 0))
		var out [][]string
		for range 5 {
			out = append(out, a.Sample(0, "My lord,", 12, 0.8, rng))
		}
		return out
	}
	s := sample(1)
	for _, words := range s {
		if len(words) < 3 || len(words) > 12 || words[0] != "My" || words[1] != "lord" || words[2] != "," {
			t.Errorf("sample %q does not continue the prompt within 12 tokens", words)
		}
		for _, w := range words {
			if _, ok := a.grams[0][w]; !ok || w == Start || w == End {
				t.Errorf("sample %q: token %q is not a word of the model", words, w)
			}
		}
	}
	if again := sample(1); !reflect.DeepEqual(s, again) {
		t.Errorf("the same seed sampled %q, then %q", s, again)
	}
}

// TestReadARPALongLine: a line longer than the reader takes is an error
// that names it, not a silent truncation.
func TestReadARPALongLine(t *testing.T) {
	in := "\\data\\\nngram 1=2\n\n\\1-grams:\n-1\t<unk>\n-1\t" + strings.Repeat("a", maxARPALine) + "\n\\end\\\n"
	_, err := ReadARPA(strings.NewReader(in))
	if !errors.Is(err, ErrARPA) || !strings.Contains(err.Error(), "line 6: longer than") {
		t.Errorf("error %v", err)
	}
}
