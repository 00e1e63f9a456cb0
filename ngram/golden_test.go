package ngram

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"flag"
	"math"
	"os"
	"testing"
)

var updateGolden = flag.Bool("update-golden", false, "rewrite testdata/golden.json from the models of this code")

// goldenFits are the models whose every table TestGolden checks against
// testdata/golden.json, written by the code before the build derived the
// orders by sorting: each smoothing, orders 1 to 5 (the order 5 keys of
// Shakespeare's vocabulary do not fit 64 bits), a minimum count, kept
// punctuation, classes, and a fit in two Adds.
var goldenFits = map[string]Config{
	"kn3": {Order: 3}, "kn1": {Order: 1}, "kn2_punct": {Order: 2, KeepPunct: true},
	"kn3_min2_punct": {Order: 3, MinCount: 2, KeepPunct: true}, "kn5": {Order: 5},
	"wb4_min3": {Order: 4, Smoothing: WittenBell, MinCount: 3}, "lidstone2": {Order: 2, Smoothing: Lidstone, Alpha: 0.5},
	"mle3": {Order: 3, Smoothing: MLE}, "kn3_classes": {Order: 3, MinCount: 2}, "kn3_twice": {Order: 3},
}

// TestGolden fits the models of goldenFits on Shakespeare and checks, bit
// for bit against a SHA-256 committed in testdata/golden.json, the model
// file, the accumulator's encoding, the ARPA export, every order's n-grams
// with their counts and its contexts with their statistics c(h•), n₁, n₂
// and n₃₊, in their entry order (however the model holds them), the
// counts of counts and discounts, the frequent contexts, and the log
// probability of every held-out line.
func TestGolden(t *testing.T) {
	if testing.Short() {
		t.Skip("fits ten models of Shakespeare")
	}
	train, test := shakespeare(t)
	want := map[string]string{}
	if !*updateGolden {
		b, err := os.ReadFile("testdata/golden.json")
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(b, &want); err != nil {
			t.Fatal(err)
		}
	}
	got := map[string]string{}
	for name, c := range goldenFits {
		var labels []string
		if name == "kn3_classes" {
			for i := range train {
				labels = append(labels, []string{"a", "b", "c"}[i*7%3])
			}
		}
		a, err := NewAccumulator(c)
		if err != nil {
			t.Fatal(err)
		}
		if name == "kn3_twice" {
			half := len(train) / 2
			if err := a.Add(docs(train[:half], nil)); err != nil {
				t.Fatal(err)
			}
			if err := a.Add(docs(train[half:], nil)); err != nil {
				t.Fatal(err)
			}
		} else if err := a.Add(docs(train, labels)); err != nil {
			t.Fatal(err)
		}
		m, err := a.model(true)
		if err != nil {
			t.Fatal(err)
		}
		got[name] = modelDigest(t, m, test)
		if !*updateGolden && got[name] != want[name] {
			t.Errorf("%s: the model's digest is %s, want %s", name, got[name], want[name])
		}
	}
	if *updateGolden {
		b, _ := json.MarshalIndent(got, "", "\t")
		if err := os.WriteFile("testdata/golden.json", append(b, '\n'), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// modelDigest returns the SHA-256 of everything m computes or holds.
func modelDigest(t *testing.T, m *Model, test []string) string {
	h := sha256.New()
	j, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	h.Write(j)
	enc, err := m.stats.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	h.Write(enc)
	put := func(vs ...any) {
		for _, v := range vs {
			if err := binary.Write(h, binary.LittleEndian, v); err != nil {
				t.Fatal(err)
			}
		}
	}
	for k, l := range m.lms {
		if l.smoothing == KneserNey || l.smoothing == WittenBell {
			var b bytes.Buffer
			if err := m.WriteARPA(&b, k); err != nil {
				t.Fatal(err)
			}
			h.Write(b.Bytes())
		}
		for i := range l.order {
			st := make([]int64, 0, 4*l.ctx[i].len()) // c(h•), n₁, n₂, n₃₊ of each context h
			for e, c := range l.ctxStats[i] {
				st = append(st, l.ctx[i].counts[e], c.n1, c.n2, c.n3)
			}
			put(l.grams[i].keys, l.grams[i].counts, l.ctx[i].keys, st, l.coc[i], l.disc[i])
		}
		for _, ws := range m.FrequentContexts(k, 50) {
			for _, w := range ws {
				h.Write([]byte(w + " "))
			}
		}
		for _, doc := range test {
			lp, n := m.LogProb(doc, k)
			put(math.Float64bits(lp), int64(n))
		}
	}
	return hex.EncodeToString(h.Sum(nil))
}
