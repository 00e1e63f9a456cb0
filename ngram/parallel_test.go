package ngram

import (
	"bytes"
	"testing"
)

// TestWorkers fits models of the first 3,000 lines of Shakespeare in
// blocks of about 2 kB on 1, 2 and 3 workers, with and without classes,
// and checks that every model's file, accumulator encoding and digest of
// every table (modelDigest) are the same bytes whatever the workers.
func TestWorkers(t *testing.T) {
	train, test := shakespeare(t)
	train, test = train[:3000], test[:200]
	train[5], train[17] = "", "" // skipped rows
	defer func(b int) { blockBytes = b }(blockBytes)
	blockBytes = 2 << 10
	labels := make([]string, len(train))
	for i := range labels {
		labels[i] = []string{"a", "b", "c"}[i*7%3]
	}
	for _, c := range []Config{{Order: 3}, {Order: 4, MinCount: 2, KeepPunct: true}, {Order: 2, Smoothing: WittenBell}} {
		for _, lab := range [][]string{nil, labels} {
			var want [3][]byte
			for _, workers := range []int{1, 2, 3} {
				a, err := NewAccumulator(c)
				if err != nil {
					t.Fatal(err)
				}
				a.workers = workers
				if err := a.Add(docs(train, lab)); err != nil {
					t.Fatal(err)
				}
				m, err := a.model(true)
				if err != nil {
					t.Fatal(err)
				}
				j, err := m.MarshalJSON()
				if err != nil {
					t.Fatal(err)
				}
				enc, err := a.MarshalBinary()
				if err != nil {
					t.Fatal(err)
				}
				got := [3][]byte{j, enc, []byte(modelDigest(t, m, test))}
				if workers == 1 {
					want = got
					continue
				}
				for i, what := range []string{"model file", "accumulator encoding", "digest of the tables"} {
					if !bytes.Equal(got[i], want[i]) {
						t.Errorf("%+v, classes %v: the %s on %d workers differs from that on 1", c, lab != nil, what, workers)
					}
				}
			}
		}
	}
}
