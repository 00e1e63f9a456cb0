package ngram

import (
	"bufio"
	"math"
	"testing"

	"github.com/gendisc/gendisc/data"
	"github.com/gendisc/gendisc/datasets"
)

// docs returns a data set of one text column holding docs, with a target
// of the classes named by labels when labels is not nil.
func docs(texts []string, labels []string) *data.Dataset {
	s := &data.Schema{Features: []data.Column{{Name: "text", Kind: data.Text}}}
	d := &data.Dataset{Schema: s, N: len(texts), X: make([]float64, len(texts)), Text: [][]string{texts}}
	for i := range d.X {
		d.X[i] = math.NaN()
	}
	if labels != nil {
		s.Target = &data.Column{Name: "class", Kind: data.Categorical}
		idx := map[string]int{}
		for _, l := range labels {
			if _, ok := idx[l]; !ok {
				idx[l] = len(s.Target.Levels)
				s.Target.Levels = append(s.Target.Levels, l)
			}
			d.Y = append(d.Y, float64(idx[l]))
		}
	}
	return d
}

// shakespeare returns the non-empty lines of tinyshakespeare, the first
// 90% for training and the rest held out, as testdata/reference.py splits
// them.
func shakespeare(t testing.TB) (train, test []string) {
	r, err := datasets.OpenCorpus("tinyshakespeare")
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	var lines []string
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		if sc.Text() != "" {
			lines = append(lines, sc.Text())
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	cut := len(lines) * 9 / 10
	return lines[:cut], lines[cut:]
}

func fit(t testing.TB, c Config, d *data.Dataset) *Model {
	t.Helper()
	m, err := c.Fit(d)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// perplexity returns exp(−Σ log P / tokens) of texts under class k of m.
func perplexity(m *Model, k int, texts []string) float64 {
	lp, n := 0.0, 0
	for _, doc := range texts {
		l, t := m.LogProb(doc, k)
		lp, n = lp+l, n+t
	}
	return math.Exp(-lp / float64(n))
}

func relErr(got, want float64) float64 { return math.Abs(got-want) / math.Abs(want) }
