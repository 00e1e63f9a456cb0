package text

import (
	"bytes"
	"math"
	"math/rand/v2"
	"os"
	"strconv"
	"testing"

	"github.com/gendisc/gendisc/data"
	"github.com/gendisc/gendisc/dataio"
)

// Synthetic corpus of the benchmark: 200,000 documents, a
// vocabulary of 50,000 words, about 100 tokens per document, 4 classes.
const (
	synthDocs    = 200000
	synthVocab   = 50000
	synthClasses = 4
)

// synthWord is word id of the synthetic vocabulary: id+26³ in base 26 with
// letters, four letters each.
func synthWord(dst []byte, id int) []byte {
	n := id + 26*26*26
	var w [8]byte
	i := len(w)
	for ; n > 0; n /= 26 {
		i--
		w[i] = byte('a' + n%26)
	}
	return append(dst, w[i:]...)
}

// synthCSV returns the synthetic corpus as a CSV file with columns text
// and class: Zipf-distributed words (s = 1.1) shifted by the class, 50 to
// 150 tokens per document, a capitalised first word and punctuation.
func synthCSV(docs int) []byte {
	rng := rand.New(rand.NewPCG(11, 12))
	zipf := rand.NewZipf(rng, 1.1, 1, synthVocab-1)
	var b bytes.Buffer
	b.WriteString("text,class\n")
	var line []byte
	for range docs {
		class := rng.IntN(synthClasses)
		n := 50 + rng.IntN(101)
		line = line[:0]
		for k := range n {
			if k > 0 {
				if rng.IntN(12) == 0 {
					line = append(line, ". "...)
				} else {
					line = append(line, ' ')
				}
			}
			id := int(zipf.Uint64())
			if rng.IntN(2) == 0 {
				id = (id + class*997) % synthVocab
			}
			start := len(line)
			line = synthWord(line, id)
			if k == 0 {
				line[start] -= 'a' - 'A'
			}
		}
		b.Write(line)
		b.WriteString(".,c" + strconv.Itoa(class) + "\n")
	}
	return b.Bytes()
}

// TestWriteSyntheticCorpus writes the synthetic corpus to the file named by
// $GENDISC_TEXT_CORPUS, for testdata/bench_sklearn.py; skipped otherwise.
func TestWriteSyntheticCorpus(t *testing.T) {
	path := os.Getenv("GENDISC_TEXT_CORPUS")
	if path == "" {
		t.Skip("GENDISC_TEXT_CORPUS not set")
	}
	if err := os.WriteFile(path, synthCSV(synthDocs), 0o644); err != nil {
		t.Fatal(err)
	}
}

func readText(b testing.TB, csv []byte) *data.Dataset {
	d, err := dataio.Read(bytes.NewReader(csv), "synthetic", dataio.Options{Text: []string{"text"}})
	if err != nil {
		b.Fatal(err)
	}
	return d
}

func reportRates(b *testing.B, docs, size int) {
	s := b.Elapsed().Seconds() / float64(b.N)
	b.ReportMetric(float64(docs)/s, "docs/s")
	b.ReportMetric(float64(size)/s/1e6, "MB/s")
}

func textBytes(docs []string) int {
	n := 0
	for _, d := range docs {
		n += len(d)
	}
	return n
}

// BenchmarkFitTransform times the vocabulary and count matrix of a text
// column already in memory.
func BenchmarkFitTransform(b *testing.B) {
	sms := func() []string { return smsDocs(b) }
	synth := func() []string { return readText(b, synthCSV(synthDocs)).Text[0] }
	for _, c := range []struct {
		name string
		docs func() []string
		cfg  VectorizerConfig
	}{
		{"sms_spam", sms, VectorizerConfig{}},
		{"sms_spam/ngram_1_2", sms, VectorizerConfig{NGrams: NGrams{1, 2}}},
		{"sms_spam/stop_words", sms, VectorizerConfig{StopWords: "english"}},
		{"synthetic", synth, VectorizerConfig{}},
	} {
		b.Run(c.name, func(b *testing.B) {
			docs := c.docs()
			b.ResetTimer()
			for b.Loop() {
				if _, _, err := c.cfg.FitTransform(docs); err != nil {
					b.Fatal(err)
				}
			}
			reportRates(b, len(docs), textBytes(docs))
		})
	}
}

// BenchmarkTransform times the count matrix of documents with a fitted
// vocabulary.
func BenchmarkTransform(b *testing.B) {
	docs := readText(b, synthCSV(synthDocs)).Text[0]
	v, err := VectorizerConfig{}.Fit(docs)
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		v.Transform(docs)
	}
	reportRates(b, len(docs), textBytes(docs))
}

// BenchmarkCSVToMultinomial times the path from the raw CSV bytes of the
// synthetic corpus to the statistics of multinomial naive Bayes: reading
// the file, the vocabulary and counts, the per-class word counts and the
// smoothed log-probabilities log((N_cj+1)/(N_c+V)). Compare with
// testdata/bench_sklearn.py (CountVectorizer + MultinomialNB on the same
// file, written by TestWriteSyntheticCorpus).
func BenchmarkCSVToMultinomial(b *testing.B) {
	csv := synthCSV(synthDocs)
	for b.Loop() {
		d := readText(b, csv)
		v, m, err := VectorizerConfig{}.FitTransform(d.Text[0])
		if err != nil {
			b.Fatal(err)
		}
		k := len(d.Schema.Classes())
		counts := m.ClassColumnSums(nil, d.Y, k, nil)
		for c := range k {
			row := counts[c*v.Len() : (c+1)*v.Len()]
			var total float64
			for _, x := range row {
				total += x
			}
			norm := math.Log(total + float64(v.Len()))
			for j, x := range row {
				row[j] = math.Log(x+1) - norm
			}
		}
	}
	reportRates(b, synthDocs, len(csv))
}

// BenchmarkNaiveBayesKernels times the two sparse products of multinomial
// naive Bayes on the synthetic counts: the per-class word counts (fit) and
// the words' joint log-likelihood of every document (predict).
func BenchmarkNaiveBayesKernels(b *testing.B) {
	d := readText(b, synthCSV(synthDocs))
	v, m, err := VectorizerConfig{}.FitTransform(d.Text[0])
	if err != nil {
		b.Fatal(err)
	}
	k := len(d.Schema.Classes())
	b.Run("ClassColumnSums", func(b *testing.B) {
		dst := make([]float64, k*v.Len())
		for b.Loop() {
			clear(dst)
			m.ClassColumnSums(dst, d.Y, k, nil)
		}
		reportRates(b, m.Rows, 12*m.NNZ())
	})
	b.Run("MulTo", func(b *testing.B) {
		logp := make([]float64, v.Len()*k)
		for j := range logp {
			logp[j] = -float64(j%97) / 10
		}
		dst := make([]float64, m.Rows*k)
		for b.Loop() {
			m.MulTo(dst, logp, k)
		}
		reportRates(b, m.Rows, 12*m.NNZ())
	})
}
