package hmm

import (
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/gendisc/gendisc/internal/bundled"
	"github.com/gendisc/gendisc/seq"
	"github.com/gendisc/gendisc/seqio"
)

// emConfig is an add-α configuration that Baum–Welch takes.
func emConfig(order int) Config {
	return Config{Order: order, Transitions: AddAlpha, Alpha: 0.1, EmissionAlpha: 0.01, NoCapitalization: true, Context: NoContext}
}

// untag returns the sentences without their tags.
func untag(ss []seq.Sentence) []seq.Sentence {
	out := make([]seq.Sentence, len(ss))
	for i, s := range ss {
		out[i] = seq.Sentence{Tokens: s.Tokens}
	}
	return out
}

// TestEMMonotone checks that Baum–Welch never lowers its objective, for
// both orders, with and without the capitalisation states,
// semi-supervised (EWT sentences, a quarter tagged) and unsupervised with
// restarts: the log-likelihood itself without a prior (α = 0), the
// log-likelihood plus the log prior with add-α.
func TestEMMonotone(t *testing.T) {
	ss := bundled.Treebank(t, "ud_english_ewt_dev", seqio.Options{}).Sentences[:120]
	for _, order := range []int{1, 2} {
		for _, alpha := range []float64{0, 0.1} {
			cfg := emConfig(order)
			cfg.Alpha, cfg.EmissionAlpha = alpha, alpha/10
			cfg.NoCapitalization = alpha == 0 // the capitalisation states with add-α
			for _, tc := range []struct {
				name             string
				tagged, untagged []seq.Sentence
				em               EM
			}{
				{"semi-supervised", ss[:30], untag(ss[30:]), EM{Iterations: 5}},
				{"unsupervised", nil, untag(ss[:50]), EM{Iterations: 5, Restarts: 2, Seed: 3, Tags: []string{"A", "B", "C", "D"}}},
			} {
				prev := map[int]float64{}
				tc.em.Progress = func(it Iteration) {
					if p, ok := prev[it.Restart]; ok && it.Objective < p-1e-9*math.Abs(p) {
						t.Errorf("order %d, α %v, %s, restart %d: objective fell from %v to %v at iteration %d", order, alpha, tc.name, it.Restart, p, it.Objective, it.Iteration)
					}
					if alpha == 0 && it.Objective != it.LogLikelihood {
						t.Errorf("objective %v ≠ log-likelihood %v without a prior", it.Objective, it.LogLikelihood)
					}
					prev[it.Restart] = it.Objective
				}
				m, err := cfg.FitEM(tc.tagged, tc.untagged, tc.em)
				if alpha == 0 && tc.tagged != nil {
					// The untagged sentences have words that the tagged
					// ones lack, of probability 0 without a pseudo-count.
					if !errors.Is(err, ErrZeroLikelihood) {
						t.Errorf("order %d, %s without pseudo-counts: %v, want ErrZeroLikelihood", order, tc.name, err)
					}
					continue
				}
				if err != nil {
					t.Fatal(err)
				}
				if len(prev) != max(tc.em.Restarts, 1) {
					t.Errorf("order %d, %s: %d restarts reported", order, tc.name, len(prev))
				}
				if len(m.Tag(tc.untagged[0].Tokens)) != len(tc.untagged[0].Tokens) {
					t.Error("the fitted model does not tag")
				}
			}
		}
	}
}

// TestEMAllTagged checks that Baum–Welch with every sentence tagged
// returns the counted model.
func TestEMAllTagged(t *testing.T) {
	for _, order := range []int{1, 2} {
		m, err := emConfig(order).FitEM(toy, nil, EM{})
		if err != nil {
			t.Fatal(err)
		}
		counted, err := emConfig(order).Fit(toy)
		if err != nil {
			t.Fatal(err)
		}
		sameModel(t, "all tagged", m, counted)
	}
	if _, err := (Config{}).FitEM(toy, untag(toy), EM{}); !errors.Is(err, ErrEMConfig) {
		t.Errorf("Baum–Welch with interpolated transitions: %v", err)
	}
	cfg := emConfig(2)
	cfg.Context = 0 // the default κ
	if _, err := cfg.FitEM(toy, untag(toy), EM{}); !errors.Is(err, ErrEMConfig) {
		t.Errorf("Baum–Welch with context emissions: %v", err)
	}
}

// TestEMCapitalisation checks Baum–Welch with the capitalisation states:
// unsupervised, without emission pseudo-counts, every word ends on states
// of its own capitalisation only, both states of every tag exist, and the
// model tags capitalised words with capitalised states.
func TestEMCapitalisation(t *testing.T) {
	ss := untag(bundled.Treebank(t, "ud_english_ewt_dev", seqio.Options{}).Sentences[:60])
	cfg := emConfig(1)
	cfg.NoCapitalization, cfg.EmissionAlpha = false, 0
	m, err := cfg.FitEM(nil, ss, EM{Iterations: 4, Seed: 5, Tags: []string{"A", "B", "C"}})
	if err != nil {
		t.Fatal(err)
	}
	if m.T != 6 {
		t.Fatalf("%d states %q, want 6: A, B, C and their capitalised states", m.T, m.sp.states)
	}
	for w, word := range m.sp.words {
		for s, name := range m.sp.states {
			_, capState := splitState(name)
			if p := m.probs().logEmit(int32(w), s); capState != capitalised(word) && !math.IsInf(p, -1) {
				t.Fatalf("%q on state %q: log P = %v, want −Inf", word, name, p)
			}
		}
	}
	for _, s := range ss[:10] {
		for i, st := range m.viterbi(m.workspace(), nil, s.Tokens) {
			if _, capState := splitState(m.sp.states[st]); capState != capitalised(s.Tokens[i]) {
				t.Errorf("%q tagged with the state %q", s.Tokens[i], m.sp.states[st])
			}
		}
	}
}

// TestSplitLabeled checks the split of --labeled: the number kept, the
// order, the tags kept and dropped, the seed's reproducibility.
func TestSplitLabeled(t *testing.T) {
	ss := bundled.Treebank(t, "ud_english_ewt_dev", seqio.Options{}).Sentences[:101]
	tagged, untagged, err := SplitLabeled(ss, 0.25, 1)
	if err != nil {
		t.Fatal(err)
	}
	if len(tagged) != 25 || len(untagged) != 76 {
		t.Fatalf("%d tagged, %d untagged: want 25 (round(0.25·101)) and 76", len(tagged), len(untagged))
	}
	var lines []int
	for _, s := range tagged {
		if s.Tags == nil {
			t.Error("a tagged sentence lost its tags")
		}
		lines = append(lines, s.Line)
	}
	for _, s := range untagged {
		if s.Tags != nil || len(s.Tokens) == 0 {
			t.Error("an untagged sentence has tags, or no tokens")
		}
	}
	if !slices.IsSorted(lines) {
		t.Error("the tagged sentences are out of order")
	}
	again, _, _ := SplitLabeled(ss, 0.25, 1)
	other, _, _ := SplitLabeled(ss, 0.25, 2)
	if !slices.EqualFunc(tagged, again, func(a, b seq.Sentence) bool { return a.Line == b.Line }) {
		t.Error("the same seed gives another split")
	}
	if slices.EqualFunc(tagged, other, func(a, b seq.Sentence) bool { return a.Line == b.Line }) {
		t.Error("seeds 1 and 2 give the same split")
	}
	if ss[0].Tags == nil {
		t.Error("the split dropped the tags of the sentences given")
	}
	for _, f := range []float64{0, 1} {
		tagged, untagged, _ := SplitLabeled(ss, f, 1)
		if len(tagged) != int(f)*len(ss) || len(tagged)+len(untagged) != len(ss) {
			t.Errorf("fraction %v: %d tagged, %d untagged", f, len(tagged), len(untagged))
		}
	}
	// A sentence given without tags stays untagged and does not count.
	mixed := append(untag(ss[:1]), ss[1:5]...)
	tagged, untagged, _ = SplitLabeled(mixed, 0.5, 1)
	if len(tagged) != 2 || len(untagged) != 3 || slices.ContainsFunc(tagged, func(s seq.Sentence) bool { return s.Tags == nil }) {
		t.Errorf("half of 4 tagged and 1 untagged: %d tagged, %d untagged", len(tagged), len(untagged))
	}
	for _, f := range []float64{-0.1, 1.5, math.NaN()} {
		if _, _, err := SplitLabeled(ss, f, 1); !errors.Is(err, ErrFraction) {
			t.Errorf("fraction %v: %v", f, err)
		}
	}
}

// TestEMRecovers checks that Baum–Welch recovers the emissions of a known
// two-state HMM from sentences sampled from it, up to the order of the
// states, better with more sentences.
func TestEMRecovers(t *testing.T) {
	// The true model: states X and Y that alternate with probability 0.8,
	// X saying a or b (0.7, 0.3), Y saying c or b (0.6, 0.4).
	truth := map[string]map[string]float64{"X": {"a": 0.7, "b": 0.3}, "Y": {"c": 0.6, "b": 0.4}}
	sample := func(n int, rng *rand.Rand) []seq.Sentence {
		out := make([]seq.Sentence, n)
		for i := range out {
			state := []string{"X", "Y"}[rng.IntN(2)]
			for range 3 + rng.IntN(8) {
				u, word := rng.Float64(), "b"
				if p := truth[state]; state == "X" && u < p["a"] {
					word = "a"
				} else if state == "Y" && u < p["c"] {
					word = "c"
				}
				out[i].Tokens = append(out[i].Tokens, word)
				if rng.Float64() < 0.8 {
					state = map[string]string{"X": "Y", "Y": "X"}[state]
				}
			}
		}
		return out
	}
	rng := rand.New(rand.NewPCG(7, 7))
	var errs []float64
	for _, n := range []int{30, 1500} {
		cfg := Config{Order: 1, Transitions: AddAlpha, NoCapitalization: true, NoEnd: true}
		m, err := cfg.FitEM(nil, sample(n, rng), EM{Tags: []string{"S0", "S1"}, Restarts: 3, Seed: 1, Iterations: 100})
		if err != nil {
			t.Fatal(err)
		}
		p := func(word string, state int) float64 {
			return math.Exp(m.probs().logEmit(m.probs().words[word], state))
		}
		worst := math.Inf(1)
		for _, order := range [][2]string{{"X", "Y"}, {"Y", "X"}} {
			e := 0.0
			for s, name := range order {
				for _, w := range []string{"a", "b", "c"} {
					e = max(e, math.Abs(p(w, s)-truth[name][w]))
				}
			}
			worst = min(worst, e)
		}
		errs = append(errs, worst)
	}
	t.Logf("largest error of an emission probability: %.4f (30 sentences), %.4f (1500)", errs[0], errs[1])
	if !(errs[1] < 0.05 && errs[1] < errs[0]) {
		t.Errorf("errors %v: not recovered", errs)
	}
}
