package compare

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
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

// TestCompareRunSequencesTestSet: with test sentences of its own, a task
// trains on up to all of its sentences, and split s tests on part s of
// the test sentences: the parts are disjoint and make up the test set, so
// at m = all, where every split trains on the same sentences, the splits'
// errors differ by their test parts alone, and their mean over the splits
// is the error on the whole test set when the parts have equal tokens.
func TestCompareRunSequencesTestSet(t *testing.T) {
	var train, test []seq.Sentence
	for i := range 10 {
		train = append(train, seq.Sentence{Line: i + 1, Tokens: []string{"a", "b"}, Tags: []string{"A", "B"}})
	}
	// 8 test sentences of 2 tokens, 2 of them with an unseen "c" (one
	// error each): 2 wrong of 16 tokens.
	for i := range 8 {
		s := seq.Sentence{Line: i + 1, Tokens: []string{"a", "b"}, Tags: []string{"A", "B"}}
		if i < 2 {
			s.Tokens[1] = "c"
		}
		test = append(test, s)
	}
	lookup := SequenceLearner{Name: "lookup", Family: Generative, Fit: func(train []seq.Sentence) (SentenceTagger, error) {
		l := lookupTagger{}
		for _, s := range train {
			for i, w := range s.Tokens {
				l[w] = s.Tags[i]
			}
		}
		return l, nil
	}}
	task := SequenceTask{Name: "ab", Sentences: train, Test: test, TestName: "ab-test"}
	res, err := RunSequences(context.Background(), []SequenceTask{task}, []SequenceLearner{lookup}, Config{Splits: 4, Sizes: []int{5, 10, 11}})
	if err != nil {
		t.Fatal(err)
	}
	tr := res.Tasks[0]
	if !slices.Equal(tr.Sizes, []int{5, 10}) || tr.TestName != "ab-test" || tr.TestRows != 8 {
		t.Fatalf("sizes %v, test %q of %d; want [5 10] (all 10 sentences; 11 is more), ab-test of 8", tr.Sizes, tr.TestName, tr.TestRows)
	}
	// 4 parts of 2 sentences (4 tokens each): the two sentences with "c"
	// fall in one part (error 2/4) or two (1/4 each); the mean is 2/16.
	for _, p := range tr.Curves[0].Points {
		if math.Abs(p.Mean-0.125) > 1e-15 || p.StdErr == 0 {
			t.Errorf("m %d: error %g ± %g; want a mean of 2/16 over the 4 disjoint parts, with a spread", p.M, p.Mean, p.StdErr)
		}
	}
	if _, err := RunSequences(context.Background(), []SequenceTask{task}, []SequenceLearner{lookup}, Config{Splits: 9}); err == nil || !strings.Contains(err.Error(), "8 tagged test sentences for 9 splits") {
		t.Errorf("9 splits of 8 test sentences: error %v", err)
	}
	task.Test[3].Tags = nil
	if _, err := RunSequences(context.Background(), []SequenceTask{task}, []SequenceLearner{lookup}, Config{Splits: 2}); err == nil || !strings.Contains(err.Error(), "ab-test: line 4: a sentence without tags") {
		t.Errorf("an untagged test sentence: error %v", err)
	}
}

// TestCompareTestParts: the parts are disjoint and make up the test
// sentences; they hold about equal numbers of tokens (each within the
// longest sentence, 30 tokens, of its share), and none is empty even when
// a sentence is longer than a share.
func TestCompareTestParts(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	var test []seq.Sentence
	for i := range 101 {
		test = append(test, seq.Sentence{Line: i + 1, Tokens: make([]string, 1+rng.IntN(30))})
	}
	check := func(k int, balanced bool) {
		total := 0
		for _, s := range test {
			total += len(s.Tokens)
		}
		parts := testParts(rand.New(rand.NewPCG(3, 4)), test, k)
		seen := map[int]bool{}
		for p, part := range parts {
			if len(part) == 0 {
				t.Errorf("k %d: part %d is empty", k, p)
			}
			tokens := 0
			for _, s := range part {
				if seen[s.Line] {
					t.Errorf("k %d: sentence %d in two parts", k, s.Line)
				}
				seen[s.Line] = true
				tokens += len(s.Tokens)
			}
			if share := float64(total) / float64(k); balanced && math.Abs(float64(tokens)-share) > 30 {
				t.Errorf("k %d: part %d has %d tokens, share %g", k, p, tokens, share)
			}
		}
		if len(seen) != len(test) {
			t.Errorf("k %d: the parts hold %d of %d sentences", k, len(seen), len(test))
		}
	}
	for _, k := range []int{1, 2, 5, 10} {
		check(k, true)
	}
	check(101, false)
	test[7].Tokens = make([]string, 1000) // longer than a tenth of the tokens
	check(10, false)
}

// TestCompareTokenErrorRate: a tagger's answer that is missing or of
// another length than its sentence counts the sentence's tokens wrong
// (it panicked), as a refused (nil) one does.
func TestCompareTokenErrorRate(t *testing.T) {
	test := []seq.Sentence{{Tokens: []string{"a", "b"}, Tags: []string{"A", "B"}}, {Tokens: []string{"c"}, Tags: []string{"C"}}}
	for _, tc := range []struct {
		predicted [][]string
		want      float64
	}{
		{[][]string{{"A", "B"}, {"C"}}, 0},
		{[][]string{{"A", "X"}, nil}, 2.0 / 3},
		{[][]string{{}, {"C"}}, 2.0 / 3},
		{[][]string{{"A", "B", "C"}, {"C"}}, 2.0 / 3},
		{[][]string{{"A", "B"}}, 1.0 / 3},
		{[][]string{}, 1},
	} {
		if got := tokenErrorRate(test, tc.predicted, ""); got != tc.want {
			t.Errorf("predicted %q: error %g, want %g", tc.predicted, got, tc.want)
		}
	}
	if got := tokenErrorRate(test, nil, "A"); got != 2.0/3 {
		t.Errorf("the fallback A: error %g, want 2/3", got)
	}
}
