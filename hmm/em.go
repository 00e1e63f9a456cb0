package hmm

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"github.com/gendisc/gendisc/seq"
)

// EM configures Baum–Welch, Config.FitEM.
type EM struct {
	// Iterations bounds the iterations of each restart; 0 means 50.
	Iterations int
	// Tolerance stops a restart when an iteration raises the objective
	// by less than Tolerance·|objective|; 0 means 1e-7.
	Tolerance float64
	// Restarts is the number of starts; 0 means 1. The first starts from
	// the model of the tagged sentences when there are any; the others
	// (and the first without tagged sentences) from random counts.
	Restarts int
	// Seed seeds the random starts.
	Seed uint64
	// Tags is the tag set of untagged data: needed when no sentence is
	// tagged, added to the tags of the tagged sentences otherwise.
	Tags []string
	// Progress, when set, is called after every iteration.
	Progress func(Iteration)
}

// Iteration is the state of Baum–Welch after an iteration.
type Iteration struct {
	Restart, Iteration int // from 0, from 1
	// LogLikelihood is Σ log p(words) of the untagged sentences plus
	// Σ log p(words, tags) of the tagged ones under the model that the
	// iteration started from.
	LogLikelihood float64
	// Objective is LogLikelihood plus the log-density of the model under
	// the Dirichlet(α + 1) prior of add-α smoothing (up to a constant):
	// the quantity that EM never lowers. It equals LogLikelihood when α
	// and EmissionAlpha are 0.
	Objective float64
}

// ErrEMConfig is the error of a configuration that Baum–Welch cannot
// take (see FitEM).
var ErrEMConfig = errors.New("Baum–Welch needs add-alpha transitions and (order 2) no context-dependent emissions")

// ErrZeroLikelihood is the error of FitEM when the untagged sentences
// have probability 0 under every start: with EmissionAlpha = 0, a word
// that the tagged sentences lack has no state to emit it from the model of
// the tagged sentences.
var ErrZeroLikelihood = errors.New("Baum–Welch: the sentences have probability 0 under the starting model (words the tagged sentences lack need an emission pseudo-count > 0)")

// ErrFraction is the error of a labelled fraction outside [0, 1].
var ErrFraction = errors.New("the labelled fraction must be between 0 and 1")

// SplitLabeled keeps the tags of a fraction of the tagged sentences and
// drops those of the others, for a semi-supervised fit (FitEM with
// tagged and untagged): round(fraction·n) of the n tagged sentences,
// drawn without replacement by a generator seeded with seed (the same
// seed, the same split); sentences given without tags are untagged.
// Both parts keep the sentences' order; the untagged sentences share
// their tokens with the given ones, their Tags nil.
func SplitLabeled(sentences []seq.Sentence, fraction float64, seed uint64) (tagged, untagged []seq.Sentence, err error) {
	if !(fraction >= 0 && fraction <= 1) {
		return nil, nil, fmt.Errorf("%w: %v", ErrFraction, fraction)
	}
	var withTags []int
	for i, s := range sentences {
		if s.Tagged() {
			withTags = append(withTags, i)
		}
	}
	keep := make([]bool, len(sentences))
	rng := rand.New(rand.NewPCG(seed, 0x6c6162656c6c6564))
	for _, j := range rng.Perm(len(withTags))[:int(math.Round(fraction*float64(len(withTags))))] {
		keep[withTags[j]] = true
	}
	for i, s := range sentences {
		if keep[i] {
			tagged = append(tagged, s)
		} else {
			s.Tags = nil
			untagged = append(untagged, s)
		}
	}
	return tagged, untagged, nil
}

// FitEM fits the model by Baum–Welch (expectation–maximisation): the
// counts of the tagged sentences are kept as they are and the expected
// counts of the untagged ones, under the current model, are added to
// them at every iteration (semi-supervised; unsupervised without tagged
// sentences). With every sentence tagged it returns the counted model.
// Of several restarts it keeps the model of the highest objective.
//
// Baum–Welch raises its objective at every iteration only where the
// update from the expected counts is the maximiser of the expected
// complete-data log-likelihood (plus the log prior), and FitEM takes only
// such configurations:
//   - AddAlpha transitions: the update is the maximum a posteriori
//     estimate under a Dirichlet(α + 1) prior. Interpolated ones are
//     refused (ErrEMConfig): deleted interpolation's λ and its mixture of
//     the unigram, bigram and trigram estimates do not maximise the
//     likelihood of the counts, so an iteration may lower it.
//   - The capitalisation states (unless NoCapitalization) are states of
//     an ordinary HMM: the update is the same. The random starts put
//     each untagged word on states of its own capitalisation only, and
//     with EmissionAlpha = 0 it stays there (a zero emission stays
//     zero); with EmissionAlpha > 0 a word has the pseudo-count's small
//     probability on the states of the other capitalisation too. EM.Tags
//     gives both states of each tag.
//   - Context emissions (order 2 without NoContext) are refused
//     (ErrEMConfig): P(w | b, c) = (c(b, c, w) + κ P(w | c))/(c(b, c) + κ)
//     shrinks towards P(w | c), which is estimated from the same counts,
//     so the update is neither the maximiser of the expected log-likelihood
//     nor a MAP estimate under a fixed prior, and EM's guarantee does not
//     hold.
func (c Config) FitEM(tagged, untagged []seq.Sentence, em EM) (*Model, error) {
	cfg, err := c.withDefaults()
	if err != nil {
		return nil, err
	}
	if cfg.Transitions != AddAlpha || (cfg.Order == 2 && cfg.Context != NoContext) {
		return nil, ErrEMConfig
	}
	for i, s := range untagged {
		if err := checkSentence(s, i, false); err != nil {
			return nil, fmt.Errorf("untagged %w", err)
		}
	}
	acc, err := c.NewAccumulator()
	if err != nil {
		return nil, err
	}
	if err := acc.AddSentences(tagged); err != nil {
		return nil, err
	}
	for _, t := range em.Tags {
		if t == boundary || slices.Contains([]byte(t), 0) {
			return nil, fmt.Errorf("EM tags: %w", ErrEmptyTag)
		}
		acc.trans[trigram{t, boundary, boundary}] += 0 // makes the tag a state
		if !cfg.NoCapitalization {
			acc.trans[trigram{t + capMark, boundary, boundary}] += 0
		}
	}
	sp, fixed := acc.counts()
	for k, n := range acc.trans {
		if n == 0 {
			delete(acc.trans, k)
		}
	}
	if len(sp.states) == 0 {
		return nil, errors.New("hmm: Baum–Welch without tagged sentences needs EM.Tags")
	}
	if len(sp.states) > MaxTags {
		return nil, fmt.Errorf("hmm: %d tags, more than %d", len(sp.states), MaxTags)
	}
	sp.words = slices.Clone(sp.words)
	for _, s := range untagged {
		sp.words = append(sp.words, s.Tokens...)
	}
	slices.Sort(sp.words)
	sp.words = slices.Compact(sp.words)
	fixed = reindexWords(fixed, acc, sp)
	if len(untagged) == 0 {
		return newModel(cfg, sp, fixed)
	}
	em = em.withDefaults()
	rng := rand.New(rand.NewPCG(em.Seed, 0x9e3779b97f4a7c15))
	var best *Model
	bestObjective, bestConverged := math.Inf(-1), false
	for r := range em.Restarts {
		start := fixed
		if r > 0 || len(tagged) == 0 {
			start = randomCounts(rng, cfg, fixed, sp, untagged)
		}
		m, err := newModel(cfg, sp, start)
		if err != nil {
			return nil, err
		}
		objective, converged := math.Inf(-1), false
		for it := 1; it <= em.Iterations; it++ {
			expected, ll := m.expectedCounts(fixed, tagged, untagged)
			obj := ll + m.logPrior()
			if em.Progress != nil {
				em.Progress(Iteration{Restart: r, Iteration: it, LogLikelihood: ll, Objective: obj})
			}
			if it > 1 && obj-objective < em.Tolerance*math.Abs(obj) {
				objective, converged = max(obj, objective), true
				break
			}
			objective = obj
			if m, err = newModel(cfg, sp, expected); err != nil {
				return nil, err
			}
		}
		if best == nil || objective > bestObjective {
			best, bestObjective, bestConverged = m, objective, converged
		}
	}
	if math.IsInf(bestObjective, -1) {
		return nil, ErrZeroLikelihood
	}
	if !bestConverged {
		best.warnings = []string{fmt.Sprintf("Baum–Welch stopped at its limit of %d iterations before converging (the objective still rose by more than %g of itself)", em.Iterations, em.Tolerance)}
	}
	return best, nil
}

func (em EM) withDefaults() EM {
	if em.Iterations <= 0 {
		em.Iterations = 50
	}
	if em.Tolerance <= 0 {
		em.Tolerance = 1e-7
	}
	if em.Restarts <= 0 {
		em.Restarts = 1
	}
	return em
}

// reindexWords returns the counts c of the accumulator acc with the word
// indices of sp, whose vocabulary includes acc's.
func reindexWords(c counts, acc *Accumulator, sp space) counts {
	words, states := seq.Index(sp.words), seq.Index(sp.states)
	out := counts{T: c.T, trans: c.trans, emit: make([]emission, 0, len(acc.emit))}
	for k, n := range acc.emit {
		out.emit = append(out.emit, emission{Word: int32(words[k.word]), Tag: int32(states[k.tag]), N: n})
	}
	sortEmissions(out.emit)
	index := func(t string) int32 {
		if t == boundary {
			return int32(c.T)
		}
		return int32(states[t])
	}
	for k, n := range acc.ctx {
		out.ctx = append(out.ctx, contextCount{Word: int32(words[k.word]), Prev: index(k.prev), Tag: index(k.tag), N: n})
	}
	sortContexts(out.ctx)
	return out
}

// randomCounts returns fixed plus random counts of the untagged
// sentences: each token's unit spread over the states (of its
// capitalisation, unless cfg.NoCapitalization) at random, and every
// trigram of states a random count below the number of sentences over
// the number of states.
func randomCounts(rng *rand.Rand, cfg Config, fixed counts, sp space, untagged []seq.Sentence) counts {
	T := fixed.T
	dense := denseEmissions(fixed, len(sp.words))
	words := seq.Index(sp.words)
	capState := make([]bool, T)
	for t, name := range sp.states {
		_, capState[t] = splitState(name)
	}
	w := make([]float64, T)
	for _, s := range untagged {
		for _, tok := range s.Tokens {
			sum := 0.0
			capTok := capitalised(tok)
			for t := range w {
				w[t] = 0
				if cfg.NoCapitalization || capState[t] == capTok {
					w[t] = rng.Float64()
				}
				sum += w[t]
			}
			if sum == 0 { // no state of its capitalisation: any state
				for t := range w {
					w[t] = rng.Float64()
					sum += w[t]
				}
			}
			for t := range w {
				dense[words[tok]*T+t] += w[t] / sum
			}
		}
	}
	c := counts{T: T, trans: slices.Clone(fixed.trans), emit: sparseEmissions(dense, T), ctx: fixed.ctx}
	scale := float64(len(untagged)) / float64(T)
	for a := range T + 1 {
		for b := range T + 1 {
			if b == T && a != T {
				continue
			}
			for t := range T + 1 {
				if b == T && t == T {
					continue
				}
				c.trans[c.tri(a, b, t)] += rng.Float64() * scale
			}
		}
	}
	return c
}

// denseEmissions returns the emission counts of c as V × T.
func denseEmissions(c counts, V int) []float64 {
	dense := make([]float64, V*c.T)
	for _, e := range c.emit {
		dense[int(e.Word)*c.T+int(e.Tag)] += e.N
	}
	return dense
}

// sparseEmissions returns the positive counts of dense (V × T).
func sparseEmissions(dense []float64, T int) []emission {
	var out []emission
	for i, n := range dense {
		if n > 0 {
			out = append(out, emission{Word: int32(i / T), Tag: int32(i % T), N: n})
		}
	}
	return out
}

// expectedCounts returns fixed plus the expected counts of the untagged
// sentences under m (forward–backward), and the log-likelihood of the
// data: Σ log p(words) of the untagged, Σ log p(words, tags) of the
// tagged sentences.
func (m *Model) expectedCounts(fixed counts, tagged, untagged []seq.Sentence) (counts, float64) {
	pr := m.probs()
	T := m.T
	ll := 0.0
	for _, s := range tagged {
		states := make([]int, len(s.Tags))
		for i, tag := range s.Tags {
			states[i], _ = slices.BinarySearch(m.sp.states, m.cfg.stateName(tag, s.Tokens[i]))
		}
		ll += m.jointLogProb(s.Tokens, states)
	}
	out := counts{T: T, trans: slices.Clone(fixed.trans), ctx: fixed.ctx}
	dense := denseEmissions(fixed, len(m.sp.words))
	for _, s := range untagged {
		l := m.forward(s.Tokens, true)
		ll += l.logP
		if math.IsInf(l.logP, -1) {
			continue
		}
		l.backward()
		K := l.K
		for i := range l.n {
			w := int(pr.words[s.Tokens[i]])
			lo, hi := m.keys(i)
			for k := lo; k < hi; k++ {
				g := l.alpha[i*K+k] * l.beta[i*K+k]
				if g == 0 {
					continue
				}
				dense[w*T+k%T] += g
				if i == 0 {
					out.trans[out.tri(T, T, k%T)] += g
				}
				if i == l.n-1 {
					out.trans[out.tri(k/T, k%T, T)] += g
				}
			}
			if i == 0 {
				continue
			}
			eps := l.eps[i*T : (i+1)*T]
			plo, phi := m.keys(i - 1)
			for k := plo; k < phi; k++ {
				a := l.alpha[(i-1)*K+k]
				if a == 0 {
					continue
				}
				from := m.transFrom(k)
				for t, et := range eps {
					x := a * pr.trans[from+t] * et * l.beta[i*K+m.next(k, t)] / l.scale[i]
					out.trans[out.tri(k/T, k%T, t)] += x
				}
			}
		}
	}
	out.emit = sparseEmissions(dense, T)
	return out, ll
}

// logPrior returns the log-density, up to a constant, of m's
// probabilities under the Dirichlet(α + 1) priors of add-α smoothing:
// α Σ log P(t | context) over the contexts and the tags that can follow
// them, plus α_e Σ log P(w | t).
func (m *Model) logPrior() float64 {
	pr := m.probs()
	T, lp := m.T, 0.0
	if alpha := m.cfg.Alpha; alpha > 0 {
		for a := range T + 1 {
			for b := range T + 1 {
				if (b == T && a != T) || (m.cfg.Order == 1 && a != T) {
					continue
				}
				for t := range T + 1 {
					if m.target(b, t) {
						lp += alpha * pr.logTrans[m.c.tri(a, b, t)]
					}
				}
			}
		}
	}
	if alpha := m.cfg.EmissionAlpha; alpha > 0 {
		row := make([]float64, T)
		for w := range m.sp.words {
			pr.emitRow(row, int32(w))
			for _, x := range row {
				lp += alpha * x
			}
		}
	}
	return lp
}
