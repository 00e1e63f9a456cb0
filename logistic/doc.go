// Package logistic fits logistic regression, the discriminative
// counterpart of naive Bayes: it models P(y | x) directly,
//
//	binary (K = 2):  P(y = 1 | x) = σ(wᵀz + b),  σ(t) = 1/(1 + e⁻ᵗ)
//	softmax (K > 2): P(y = c | x) = exp(w_cᵀz + b_c) / Σ_l exp(w_lᵀz + b_l)
//
// where z is the design row of x (package internal/design): numeric
// features standardised with the training mean and population standard
// deviation, categorical features one-hot, text features as sparse term
// counts (package text, under Config.Text: scikit-learn's CountVectorizer
// with token_pattern=r"(?u)[^\W_]+", not standardised). The weights
// maximise the penalised conditional log-likelihood (MCAP: a zero-mean
// Gaussian prior on the weights with variance 1/λ; λ = 0 is MCLE),
//
//	F(θ) = Σ_i v_i log P(y_i | x_i; θ) − (λ/2) Σ_c ‖w_c‖²,
//
// with row weights v_i (sample weight × class weight) and unpenalised
// intercepts. λ applies to the standardised coefficients, so the optimum
// is scikit-learn's LogisticRegression with C = 1/λ on StandardScaler
// output (multi_class="multinomial" for K > 2: the symmetric softmax with
// one weight vector per class; its weights and intercepts sum to zero over
// the classes). Coefficients are also given in the original units.
//
// Four solvers reach the same optimum: gd (batch gradient ascent with a
// fixed step), sgd (shuffled epochs, variance-reduced, decaying step),
// newton (IRLS with a line search) and lbfgs. Sums over rows run on all
// cores in row blocks without allocating per row or per iteration, with
// AVX2/FMA kernels on amd64 processors that have them. On 100,000 rows or
// more, lbfgs first fits a random sixteenth of the rows and starts from
// that fit's minimiser and curvature. With
// text columns gd, sgd and lbfgs work on the sparse counts; newton writes
// them out densely and takes at most 2000 parameters.
//
// A driver outside the process (on a distributed engine, say) can run the
// same fit over shards of the rows: a SetupAccumulator gathers, from each
// shard, the statistics the design matrix and the problem are set up from
// (Problem), then each evaluation is a Pass over the shards at the
// current θ (the loss, its gradient and, for Newton steps, its Hessian),
// and the driver's optimiser moves θ: Config.Solve, Fit's own Newton or
// L-BFGS with Fit's stopping rules, given a function that returns the
// merged Pass at θ. Both merge across shards and encode themselves to
// travel between processes; a Pass adds the penalty once, in Objective,
// and gives the model of its θ.
//
// Without a penalty the maximum does not exist when the classes are
// (quasi-)separable: the weights grow without bound. The fit detects this
// (every row classified right with a vanishing log-loss, or weights growing
// while the likelihood stays flat), stops with finite weights and says so
// in Diagnostics.
package logistic
