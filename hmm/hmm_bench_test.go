package hmm

import (
	"sync/atomic"
	"testing"

	"github.com/gendisc/gendisc/internal/bundled"
	"github.com/gendisc/gendisc/seqio"
)

// BenchmarkTag measures the tagging speed of the order-2 model (TnT's
// configuration) fitted on EWT train, tagging EWT dev's sentences in
// parallel over GOMAXPROCS goroutines; it reports tokens per second.
//
//	go test -run '^$' -bench BenchmarkTag -benchtime 5x -cpu 2 ./hmm
func BenchmarkTag(b *testing.B) {
	train := bundled.Treebank(b, "ud_english_ewt", seqio.Options{}).Sentences
	dev := bundled.Treebank(b, "ud_english_ewt_dev", seqio.Options{}).Sentences
	m, err := Config{}.Fit(train)
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	var next, tagged atomic.Int64
	b.RunParallel(func(pb *testing.PB) {
		var dst []int
		for pb.Next() {
			s := dev[int(next.Add(1)-1)%len(dev)]
			dst = m.TagIndices(dst, s.Tokens)
			tagged.Add(int64(len(s.Tokens)))
		}
	})
	b.ReportMetric(float64(tagged.Load())/b.Elapsed().Seconds(), "tokens/s")
}
