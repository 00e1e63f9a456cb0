// Package hmm is the hidden Markov model tagger, the generative side of
// sequence labelling (Sutton & McCallum 2012, Figure 1.2: naive Bayes →
// HMM as logistic regression → linear-chain CRF): a tag sequence is a
// Markov chain of order 1 or 2, each tag emits its word,
//
//	p(t_1 … t_n, w_1 … w_n) = Π_i P(t_i | t_{i−2}, t_{i−1}) P(w_i | t_i) · P(end | t_{n−1}, t_n)
//
// The zero Config is TnT (Brants 2000): order 2, transitions by deleted
// interpolation, maximum-likelihood emissions of the known words, TnT's
// suffix model for the others, states that carry the capitalisation of
// their word, emissions of known words that depend on the previous state
// too (Config.Context, as HunPos), and a beam in the Viterbi search. A first-order add-α
// configuration reproduces NLTK's HiddenMarkovModelTagger with
// LidstoneProbDist(γ) to 1e-9 (see the reference test).
//
// A model is fitted by counting tagged sentences (Config.Fit, or an
// Accumulator whose shards merge bit for bit: AddSentences, Merge,
// MarshalBinary), or by Baum–Welch on untagged ones beside tagged ones
// (Config.FitEM; SplitLabeled drops the tags of all but a seeded
// fraction of the sentences). A model tags (Tag: Viterbi in log space), scores (LogProb:
// log p(words) by the forward algorithm, scaled so that sentences of any
// length neither underflow nor overflow), gives posterior marginals per
// token (Marginals: forward–backward) and generates tagged sentences
// (Sample). Its model file (kind "hmm") holds the configuration, the
// vocabulary and the counts; the probabilities are derived on loading,
// every field checked.
//
// The sentences come from package seqio (CoNLL-U, CoNLL-2000/2003
// columns, JSON lines); package metrics/seqeval evaluates the tags.
//
// Measured (go test -run TestAccuracyEWT -v ./hmm): UPOS tags of the
// English Web Treebank's dev part, trained on its training part: 93.35%
// token accuracy with the zero Config (76.4% on new words), 92.93%
// without the context emissions; 87.48% for
// NLTK's first-order add-α (0.1) configuration; 92.45% for order 1 with
// the suffix model.
package hmm
