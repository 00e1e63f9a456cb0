package ngram

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestAddAt adds runs of random n-grams of a few words (many repeated)
// with addAt and addGrams to tables that start empty and grow during a
// run, and checks that each table, and each entry it returns, is that of
// add called on every n-gram in turn.
func TestAddAt(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for n := 0; n <= 4; n++ {
		keys := make([]int32, 5000)
		for i := range keys {
			keys[i] = int32(r.IntN(6))
		}
		var at []int
		var cs []int64
		for p := 0; p+n <= len(keys); p += 1 + r.IntN(2) {
			at = append(at, p)
			cs = append(cs, int64(1+r.IntN(3)))
		}
		want, got := newGramTable(n, 0), newGramTable(n, 0)
		wantE := make([]int32, len(at))
		for i, p := range at {
			wantE[i] = int32(want.add(keys[p:p+n], cs[i]))
		}
		gotE := make([]int32, len(at))
		hs := make([]uint64, len(at))
		got.addAt(keys, at[:len(at)/3], cs, 0, hs, gotE)
		got.addAt(keys, at[len(at)/3:], cs[len(at)/3:], 0, hs, gotE[len(at)/3:])
		sameTable(t, "addAt", got, want)
		if !slices.Equal(gotE, wantE) {
			t.Errorf("n = %d: addAt's entries differ from add's", n)
		}

		// addGrams of the suffixes of want's entries, with their counts
		// and with count 1, and the entries it reports.
		if n == 0 {
			continue
		}
		for _, c := range []int64{0, 1} {
			counts := want.counts
			if c == 1 {
				counts = nil
			}
			low, lowWant := newGramTable(n-1, 0), newGramTable(n-1, 0)
			var lowE []int32
			for e := range want.counts {
				k := c
				if counts != nil {
					k = counts[e]
				}
				lowE = append(lowE, int32(lowWant.add(want.gram(e)[1:], k)))
			}
			seen := make([]int32, want.len())
			low.addGrams(want, 1, counts, c, seen)
			sameTable(t, "addGrams", low, lowWant)
			if !slices.Equal(seen, lowE) {
				t.Errorf("n = %d: addGrams's entries differ from add's", n)
			}
		}
	}
}

// sameTable checks that got has want's entries, in the same order, with
// the same counts, and finds each of them.
func sameTable(t *testing.T, what string, got, want *gramTable) {
	t.Helper()
	if !slices.Equal(got.keys, want.keys) || !slices.Equal(got.counts, want.counts) {
		t.Errorf("n = %d: %s's table (%d entries) differs from add's (%d)", want.n, what, got.len(), want.len())
		return
	}
	for e := range want.counts {
		if got.find(want.gram(e)) != e {
			t.Errorf("n = %d: %s's table does not find entry %d", want.n, what, e)
		}
	}
}

// TestDerivedRoom fits Kneser–Ney models of orders 3 and 5 of Shakespeare,
// with the lower tables sized as for a table of its size (room for half)
// and as for a large one (gramTable.distinct's estimate), and checks that
// both give the same model (modelDigest), and that every table the build
// makes before its entries are known (the lower orders and every order's
// contexts) has at most twice the slots its entries need (the least power
// of two, from 16, that holds them 3/4 full), and room for keys and
// counts of no more entries than its slots take.
func TestDerivedRoom(t *testing.T) {
	if testing.Short() {
		t.Skip("fits four models of Shakespeare")
	}
	train, test := shakespeare(t)
	defer func(s int) { smallLower = s }(smallLower)
	for _, order := range []int{3, 5} {
		var digests []string
		for _, small := range []int{smallLower, 0} {
			smallLower = small
			m := fit(t, Config{Order: order}, docs(train, nil))
			digests = append(digests, modelDigest(t, m, test[:200]))
			l := m.lms[0]
			for k := range order {
				tables := map[string]*gramTable{"contexts": l.ctx[k]}
				if k < order-1 {
					tables["n-grams"] = l.grams[k]
				}
				for what, g := range tables {
					need := 16
					for need*3/4 < g.len() {
						need *= 2
					}
					if len(g.slots) > 2*need || cap(g.counts) > len(g.slots)*3/4 {
						t.Errorf("order %d of %d, %s, estimate from %d: %d entries in %d slots (%d needed), room for %d",
							k+1, order, what, small, g.len(), len(g.slots), need, cap(g.counts))
					}
				}
			}
		}
		if digests[0] != digests[1] {
			t.Errorf("order %d: the model differs when the tables are sized by the estimate", order)
		}
	}
}

// TestDistinct checks gramTable.distinct's bound on the distinct
// contexts and ends of the n-grams of Shakespeare (n = 3, 5, each
// sampled 1 in 8 or 16) and of 40,000 random trigrams (sampled 1 in 2):
// at least their number, and within 10 % of it.
func TestDistinct(t *testing.T) {
	train, _ := shakespeare(t)
	var tables []*gramTable
	for _, order := range []int{3, 5} {
		a, err := NewAccumulator(Config{Order: order})
		if err != nil {
			t.Fatal(err)
		}
		if err := a.Add(docs(train, nil)); err != nil {
			t.Fatal(err)
		}
		tables = append(tables, a.grams[0])
	}
	r := rand.New(rand.NewPCG(3, 4))
	random := newGramTable(3, 0)
	for range 40000 {
		random.add([]int32{int32(r.IntN(30)), int32(r.IntN(300)), int32(r.IntN(30))}, 1)
	}
	tables = append(tables, random)
	for _, u := range tables {
		for off := range 2 {
			exact := newGramTable(u.n-1, 0)
			exact.addGrams(u, off, nil, 1, nil)
			if got, want := u.distinct(off, u.n-1), exact.len(); got < want || float64(got) > 1.1*float64(want) {
				t.Errorf("%d n-grams of %d ids, offset %d: bound %d on %d distinct", u.len(), u.n, off, got, want)
			}
		}
	}
}
