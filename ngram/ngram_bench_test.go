package ngram

import "testing"

// BenchmarkFit fits a trigram Kneser–Ney model of Shakespeare's training
// lines (about 300,000 tokens).
func BenchmarkFit(b *testing.B) {
	train, _ := shakespeare(b)
	d := docs(train, nil)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := (Config{Order: 3}).Fit(d); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkLogProb scores the held-out lines of Shakespeare (about 22,000
// tokens) under a trigram Kneser–Ney model.
func BenchmarkLogProb(b *testing.B) {
	train, test := shakespeare(b)
	m, err := (Config{Order: 3}).Fit(docs(train, nil))
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		for _, doc := range test {
			m.LogProb(doc, 0)
		}
	}
}
