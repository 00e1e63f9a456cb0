// Package crf is a first-order linear-chain conditional random field, the
// discriminative partner of the hidden Markov model, in the manner of
// CRFsuite (Okazaki): its input is CRFsuite's, a Sequence of items, each
// item a list of weighted attributes, with a label per item; a feature
// layer (package crf's Templates) makes those items from the tokens of a
// sentence.
//
// # Model
//
// For a sequence x of T items and labels y = y_1 … y_T,
//
//	p(y | x) = exp(Σ_t s_t(y_t) + Σ_{t>1} λ(y_{t−1}, y_t)) / Z(x),
//	s_t(y)   = Σ_{(a, v) ∈ x_t} v · μ(a, y),
//
// with a state weight μ(a, y) for every attribute–label pair seen in
// training (CRFsuite's default; Config.AllStates for every pair), a
// transition weight λ(y′, y) for every label bigram seen in training
// (Config.AllTransitions for every bigram), and no start or end weights
// (as CRFsuite's crf1d).
//
// # Training
//
// L-BFGS minimises CRFsuite's objective,
//
//	f(w) = −Σ_i log p(y_i | x_i) + c2 ‖w‖²,   ∇f = E_model − E_data + 2 c2 w,
//
// c2 applying to the sum over the sequences, not to their mean; with
// Config.C1 > 0 OWL-QN minimises f + c1 ‖w‖₁. The stopping rules are
// libLBFGS's as CRFsuite sets them: after an iteration k, converged when
// ‖∇f‖ / max(1, ‖w‖) ≤ ε (Epsilon); stopped when
// (f_{k−Period} − f_k) / f_k < δ (Delta); a warning at MaxIter or when the
// line search fails. Directions come from the two-loop recursion over the
// last Memory correction pairs, the first step is 1/‖∇f‖ and later ones
// start at 1, the line search is Moré–Thuente's (gonum's, with libLBFGS's
// constants: sufficient decrease 1e-4, curvature 0.9, at most 20 trials)
// and, for OWL-QN, libLBFGS's backtracking on the orthant. The iteration
// is package crf's own rather than gonum's optimize.LBFGS under
// optimize.Minimize, whose convergence tests (an absolute gradient
// threshold, a function-change window) are not CRFsuite's relative
// gradient test and past-δ rule, and whose first step is not 1/‖∇f‖: with
// them the runs would not stop where CRFsuite's do. With these, a fit on
// the English Web Treebank follows CRFsuite's log to every printed digit
// (bench/crf).
//
// # Forward–backward
//
// The sums over label sequences use scaled forward–backward on exp
// potentials, which costs L² multiply-adds per item instead of L²
// exponentials and logarithms in log space: each item's state scores are
// shifted by their maximum before exp and the transitions by theirs (the
// shifts are added back to log Z), so no potential overflows and each
// α_t is normalised to sum 1, its normaliser c_t kept, log Z = Σ log c_t +
// the shifts. Should some c_t still underflow (weights of several hundred
// against each other), that sequence is computed again in log space
// (logSumExp), which is exact at any scale; the two agree to 1e-12 in the
// tests. Viterbi adds log potentials and needs neither.
//
// # Parallel and deterministic
//
// The gradient pass splits the sequences into a fixed number of chunks
// (which depends on the data alone, never on the number of cores), each
// with its own gradient buffer, and adds the buffers in chunk order, so
// the objective, the gradient and the fitted weights are the same bits
// for any Config.Jobs.
package crf
