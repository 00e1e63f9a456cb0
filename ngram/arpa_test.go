package ngram

import (
	"bytes"
	"errors"
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
			got, n2 := a.LogProb(c.Tokenize(doc))
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
