package crf

import (
	"errors"
	"fmt"
	"math"
)

// Config are the settings of a fit; DefaultConfig gives CRFsuite's
// defaults for the L-BFGS trainer.
type Config struct {
	// Perceptron trains by the averaged perceptron instead of L-BFGS:
	// Epochs passes of Viterbi and additive updates, much faster and a
	// little less accurate, without C1, C2 or the stopping rules.
	Perceptron bool
	// Epochs is the number of passes of the perceptron (100, as
	// CRFsuite's); it stops earlier after an epoch without a mistake.
	Epochs int
	// Seed seeds the order of the sequences in each epoch of the
	// perceptron.
	Seed uint64
	// C1 is the L1 coefficient: with C1 > 0, OWL-QN minimises
	// f + C1 ‖w‖₁, which zeroes many weights (a sparse model).
	C1 float64
	// C2 is the L2 coefficient: the penalty C2 ‖w‖² on the sum over the
	// sequences (CRFsuite's c2; default 1).
	C2 float64
	// Epsilon: converged when ‖∇f‖ / max(1, ‖w‖) ≤ Epsilon (1e-5).
	Epsilon float64
	// Period and Delta: stop when (f_{k−Period} − f_k) / f_k < Delta
	// (10 and 1e-5); Period 0 turns the test off.
	Period int
	Delta  float64
	// MaxIter is the iteration limit (1000; 0 for none, CRFsuite's
	// default): a fit that reaches it warns.
	MaxIter int
	// Memory is the number of correction pairs of L-BFGS (6).
	Memory int
	// MaxLinesearch is the number of trial steps of a line search (20).
	MaxLinesearch int
	// AllStates makes a state feature of every attribute–label pair, not
	// only those seen in training; AllTransitions a transition feature of
	// every label bigram.
	AllStates, AllTransitions bool
	// MinFreq drops the attributes that occur in fewer than MinFreq
	// items of the training data (0 or 1 keeps all).
	MinFreq int
	// Jobs is the number of goroutines of the gradient pass (0: every
	// core). The fitted model does not depend on it.
	Jobs int
	// Progress, when set, is called after every iteration.
	Progress func(Iteration)
	// Start, when set, is the model whose weights L-BFGS starts from
	// (a warm start, see startWeights), in place of w = 0; the
	// perceptron ignores it.
	Start *Model
}

// Iteration is the state of a fit after one iteration, as CRFsuite logs it.
type Iteration struct {
	Iter            int
	Objective       float64 // f(w), with the penalties
	WeightNorm      float64 // ‖w‖
	GradNorm        float64 // ‖∇f‖ (of the pseudo-gradient under OWL-QN)
	LinesearchCalls int     // evaluations of f in the line search
}

// DefaultConfig returns CRFsuite's defaults: c2 = 1, ε = 1e-5, period 10,
// δ = 1e-5, 6 correction pairs, 20 line search trials, 100 epochs of the
// perceptron; and an iteration limit of 1000 where CRFsuite has none.
func DefaultConfig() Config {
	return Config{C2: 1, Epsilon: 1e-5, Period: 10, Delta: 1e-5, MaxIter: 1000, Memory: 6, MaxLinesearch: 20, Epochs: 100}
}

func (c Config) check() error {
	switch {
	case !(c.C1 >= 0) || math.IsInf(c.C1, 0):
		return fmt.Errorf("c1 = %v: want a finite number ≥ 0", c.C1)
	case !(c.C2 >= 0) || math.IsInf(c.C2, 0):
		return fmt.Errorf("c2 = %v: want a finite number ≥ 0", c.C2)
	case !(c.Epsilon >= 0):
		return fmt.Errorf("epsilon = %v: want a number ≥ 0", c.Epsilon)
	case c.Period < 0:
		return fmt.Errorf("period = %d: want an integer ≥ 0", c.Period)
	case !(c.Delta >= 0):
		return fmt.Errorf("delta = %v: want a number ≥ 0", c.Delta)
	case c.MaxIter < 0:
		return fmt.Errorf("max-iter = %d: want an integer ≥ 0", c.MaxIter)
	case c.Perceptron && c.Epochs < 1:
		return fmt.Errorf("epochs = %d: want an integer ≥ 1", c.Epochs)
	case c.MinFreq < 0:
		return fmt.Errorf("min-freq = %d: want an integer ≥ 0", c.MinFreq)
	case c.Memory < 1:
		return fmt.Errorf("memory = %d: want an integer ≥ 1", c.Memory)
	case c.MaxLinesearch < 1:
		return fmt.Errorf("max-linesearch = %d: want an integer ≥ 1", c.MaxLinesearch)
	}
	return nil
}

// Fit trains a CRF on the labelled sequences seqs by L-BFGS (OWL-QN when
// cfg.C1 > 0) from w = 0 (or cfg.Start's weights), or by the averaged
// perceptron. A fit that stops at cfg.MaxIter or by a failed line search
// returns its last iterate, with a warning (Warnings).
func Fit(seqs []Sequence, cfg Config) (*Model, error) {
	if err := cfg.check(); err != nil {
		return nil, err
	}
	if err := checkTraining(seqs); err != nil {
		return nil, err
	}
	fs := buildFeatures(seqs, cfg.AllStates, cfg.AllTransitions, cfg.MinFreq)
	if cfg.Perceptron {
		w, epochs := fitPerceptron(fs, fs.encode(seqs), cfg.Epochs, cfg.Seed)
		m := newModel(fs, w)
		m.iters = epochs
		return m, nil
	}
	p := newProblem(fs, fs.encode(seqs), cfg.C2, cfg.Jobs)
	w := cfg.startWeights(fs)
	set := lbfgsSettings{c1: cfg.C1, memory: cfg.Memory, epsilon: cfg.Epsilon, period: cfg.Period, delta: cfg.Delta,
		maxIter: cfg.MaxIter, maxLinesearch: cfg.MaxLinesearch}
	if cfg.Progress != nil {
		set.progress = func(iter int, f, wnorm, gnorm float64, trials int) {
			cfg.Progress(Iteration{Iter: iter, Objective: f, WeightNorm: wnorm, GradNorm: gnorm, LinesearchCalls: trials})
		}
	}
	opt := minimise(p.eval, w, set)
	if !isFinite(opt.f) {
		return nil, errors.New("the objective is not finite: attribute values too large")
	}
	m := newModel(fs, w)
	m.iters = opt.iters
	if msg := opt.describe(cfg.MaxIter); msg != "" {
		m.warnings = append(m.warnings, msg)
	}
	return m, nil
}

// FitTokens trains a CRF on tagged sentences, tokens[i] with tags[i], the
// items made by tp; the model keeps tp, so that TagTokens tags sentences
// of tokens, and the words of tokens (Known).
func FitTokens(tokens, tags [][]string, tp *Templates, cfg Config) (*Model, error) {
	if len(tokens) != len(tags) {
		return nil, fmt.Errorf("%d sentences with %d tag sequences", len(tokens), len(tags))
	}
	seqs := make([]Sequence, len(tokens))
	for i := range tokens {
		seqs[i] = Sequence{Items: tp.Items(tokens[i]), Labels: tags[i]}
	}
	m, err := Fit(seqs, cfg)
	if err != nil {
		return nil, err
	}
	m.templates = tp
	m.setVocabulary(tokens)
	return m, nil
}
