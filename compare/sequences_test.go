package compare

import (
	"context"
	"errors"
	"testing"

	"github.com/gendisc/gendisc/seq"
)

func TestCompareTokenFeatures(t *testing.T) {
	// "Ab-1": lower "ab-1" = 61 62 2d 31; suffixes "1", "-1", "b-1".
	if got, want := tokenFeatures("Ab-1"), "w61622d31 a31 b2d31 c622d31 cap digit hyphen"; got != want {
		t.Errorf("tokenFeatures(Ab-1) = %q, want %q", got, want)
	}
	if got, want := tokenFeatures("é"), "wc3a9 ac3a9"; got != want {
		t.Errorf("tokenFeatures(é) = %q, want %q", got, want)
	}
}

// lookupTagger tags a word with the tag it had in training, else "X".
type lookupTagger map[string]string

func (l lookupTagger) TagAll(ss [][]string) [][]string {
	out := make([][]string, len(ss))
	for i, s := range ss {
		for _, w := range s {
			tag, ok := l[w]
			if !ok {
				tag = "X"
			}
			out[i] = append(out[i], tag)
		}
	}
	return out
}

func TestCompareRunSequences(t *testing.T) {
	// 40 sentences "a b" tagged A B, one of which is "c" tagged C: a
	// lookup tagger trained on m sentences errs only on an unseen "c".
	var all []seq.Sentence
	for i := range 40 {
		all = append(all, seq.Sentence{Line: i + 1, Tokens: []string{"a", "b"}, Tags: []string{"A", "B"}})
	}
	learners := []SequenceLearner{
		{Name: "lookup", Family: Generative, Fit: func(train []seq.Sentence) (SentenceTagger, error) {
			l := lookupTagger{}
			for _, s := range train {
				for i, w := range s.Tokens {
					l[w] = s.Tags[i]
				}
			}
			return l, nil
		}},
		{Name: "failing", Family: Discriminative, Fit: func([]seq.Sentence) (SentenceTagger, error) {
			return nil, errors.New("no")
		}},
	}
	res, err := RunSequences(context.Background(), []SequenceTask{{Name: "ab", Sentences: all}}, learners, Config{Splits: 3, Sizes: []int{5, 10, 40}, MaxTest: 7})
	if err != nil {
		t.Fatal(err)
	}
	task := res.Tasks[0]
	if res.Unit != "sentences" || task.Rows != 40 || len(task.Sizes) != 2 {
		t.Fatalf("unit %q, rows %d, sizes %v; want sentences, 40, [5 10] (40 leaves no test sentence)", res.Unit, task.Rows, task.Sizes)
	}
	for _, p := range task.Curves[0].Points {
		if p.Mean != 0 || p.Fallbacks != 0 {
			t.Errorf("lookup at m %d: error %g, %d fallbacks; want 0, 0", p.M, p.Mean, p.Fallbacks)
		}
	}
	for _, p := range task.Curves[1].Points {
		// The majority tag of "a b" sentences is A (first of the tie):
		// every B is wrong.
		if p.Mean != 0.5 || p.Fallbacks != 3 {
			t.Errorf("failing at m %d: error %g, %d fallbacks; want 0.5, 3", p.M, p.Mean, p.Fallbacks)
		}
	}
}
