package text

import "testing"

func benchmarkFit(b *testing.B, cfg VectorizerConfig) {
	docs := smsDocs(b)
	bytes := 0
	for _, d := range docs {
		bytes += len(d)
	}
	b.SetBytes(int64(bytes))
	b.ResetTimer()
	for b.Loop() {
		if _, _, err := cfg.FitTransform(docs); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(len(docs))*float64(b.N)/b.Elapsed().Seconds(), "docs/s")
}

func BenchmarkFitTransformSMS(b *testing.B) {
	b.Run("default", func(b *testing.B) { benchmarkFit(b, VectorizerConfig{}) })
	b.Run("ngram_1_2", func(b *testing.B) { benchmarkFit(b, VectorizerConfig{NGrams: NGrams{1, 2}}) })
	b.Run("stop_words", func(b *testing.B) { benchmarkFit(b, VectorizerConfig{StopWords: "english"}) })
}
