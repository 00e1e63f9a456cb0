package hmm

import (
	"encoding/json"
	"testing"

	"github.com/gendisc/gendisc/internal/bundled"
	"github.com/gendisc/gendisc/seqio"
)

// BenchmarkTag measures the tagging speed of the order-2 model (the zero
// Config) fitted on EWT train, tagging EWT dev's 25,147 tokens with TagAll
// (parallel over sentences on GOMAXPROCS cores); it reports tokens per
// second.
//
//	go test -run '^$' -bench BenchmarkTag -benchtime 20x -cpu 1,2 ./hmm
func BenchmarkTag(b *testing.B) {
	train := bundled.Treebank(b, "ud_english_ewt", seqio.Options{}).Sentences
	dev := bundled.Treebank(b, "ud_english_ewt_dev", seqio.Options{}).Sentences
	m, err := Config{}.Fit(train)
	if err != nil {
		b.Fatal(err)
	}
	sentences := make([][]string, len(dev))
	tokens := 0
	for i, s := range dev {
		sentences[i] = s.Tokens
		tokens += len(s.Tokens)
	}
	m.probs() // derived on first use: not part of tagging
	b.ResetTimer()
	for range b.N {
		m.TagAll(sentences)
	}
	b.ReportMetric(float64(tokens*b.N)/b.Elapsed().Seconds(), "tokens/s")
}

// BenchmarkModelJSON justifies the hand-written JSON of the model file's
// parameters (jsoncodec.go) against encoding/json, which writes and reads
// the same bytes (TestModelJSONBytes): the model of EWT train, encoded
// and decoded each way.
//
//	go test -run '^$' -bench BenchmarkModelJSON -count 5 ./hmm
func BenchmarkModelJSON(b *testing.B) {
	train := bundled.Treebank(b, "ud_english_ewt", seqio.Options{}).Sentences
	m, err := Config{}.Fit(train)
	if err != nil {
		b.Fatal(err)
	}
	_, j := encode(m.cfg, m.sp, &m.c)
	raw := j.appendJSON(nil)
	b.Run("encode/hand", func(b *testing.B) {
		b.SetBytes(int64(len(raw)))
		for range b.N {
			j.appendJSON(nil)
		}
	})
	b.Run("encode/encoding-json", func(b *testing.B) {
		b.SetBytes(int64(len(raw)))
		for range b.N {
			if _, err := json.Marshal(j); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("decode/hand", func(b *testing.B) {
		b.SetBytes(int64(len(raw)))
		for range b.N {
			var out modelJSON
			if err := out.unmarshalJSON(raw); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("decode/encoding-json", func(b *testing.B) {
		b.SetBytes(int64(len(raw)))
		for range b.N {
			var out modelJSON
			if err := json.Unmarshal(raw, &out); err != nil {
				b.Fatal(err)
			}
		}
	})
}
