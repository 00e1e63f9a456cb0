package hmm

import (
	"testing"

	"github.com/gendisc/gendisc/internal/bundled"
	"github.com/gendisc/gendisc/seq"
	"github.com/gendisc/gendisc/seqio"
)

// accuracy returns the share of the tokens of sentences that m tags as
// they are tagged, and that share among the tokens m did not see.
func accuracy(m *Model, sentences []seq.Sentence) (all, unknown float64) {
	var right, n, rightNew, nNew int
	for _, s := range sentences {
		for i, t := range m.Tag(s.Tokens) {
			_, known := m.probs().words[s.Tokens[i]]
			n++
			if !known {
				nNew++
			}
			if t == s.Tags[i] {
				right++
				if !known {
					rightNew++
				}
			}
		}
	}
	return float64(right) / float64(n), float64(rightNew) / float64(nNew)
}

// TestAccuracyEWT checks the accuracy of the UPOS tags of the English Web
// Treebank's development part, trained on its training part: at least
// 93% for order 2 with the suffix model (TnT), and reports that of the
// first-order add-α model (NLTK's).
func TestAccuracyEWT(t *testing.T) {
	if testing.Short() {
		t.Skip("fits the English Web Treebank")
	}
	train := bundled.Treebank(t, "ud_english_ewt", seqio.Options{}).Sentences
	dev := bundled.Treebank(t, "ud_english_ewt_dev", seqio.Options{}).Sentences
	for _, tc := range []struct {
		name string
		cfg  Config
		min  float64
	}{
		{"order 2, interpolated, suffixes", Config{}, 0.93},
		{"order 2, no context emissions", Config{Context: NoContext}, 0},
		{"order 1, add-alpha 0.1 (NLTK)", nltkConfig(0.1), 0},
		{"order 1, interpolated, suffixes", Config{Order: 1}, 0},
	} {
		m, err := tc.cfg.Fit(train)
		if err != nil {
			t.Fatal(err)
		}
		all, unknown := accuracy(m, dev)
		t.Logf("%s: token accuracy %.4f, unknown words %.4f (λ %.4f)", tc.name, all, unknown, m.Lambdas())
		if all < tc.min {
			t.Errorf("%s: token accuracy %.4f < %.2f", tc.name, all, tc.min)
		}
	}
}
