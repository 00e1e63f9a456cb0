// Package naivebayes fits naive Bayes classifiers: generative models in
// which the features are independent given the class,
//
//	p(x, y = k) = π_k Π_j p(x_j | y = k)
//
// so that each feature's distribution per class is estimated on its own,
// and classify by Bayes' rule,
//
//	P(y = k | x) = p(x, y = k) / Σ_l p(x, y = l),
//
// computed in log space with a stable log-sum-exp.
//
// Every variant shares the class prior (maximum likelihood by default,
// smoothed with a pseudo-count, or fixed), the treatment of missing values
// (NaN cells are left out of the statistics when fitting and marginalised
// out when predicting), and the normalisation; each variant contributes
// only its per-class log-likelihood terms. Gaussian naive Bayes
// (GaussianConfig, Gaussian) keeps per class and feature the weighted
// count, mean and centred sum of squares of its training data, which merge
// exactly (Chan et al.'s pairwise formula), so a model can be fitted on all
// cores, fitted on a stream of chunks in constant memory (FitStream),
// updated with more data (Update), merged with the model of other rows
// and saved with its statistics (MarshalJSON, UnmarshalGaussian). With class-shared variances and two
// classes its log-odds are linear in x (LogisticForm): the generative
// partner of logistic regression.
//
// The other variants fit from Config, whose Family selects Bernoulli
// (binary features), multinomial (counts, bags of words), complement
// (Rennie et al. 2003), categorical (Dirichlet-smoothed value
// probabilities) or mixed naive Bayes (the default: numeric columns
// Gaussian, categorical ones categorical, text columns multinomial or
// Bernoulli), into a Model. Their statistics are weighted counts, which add
// exactly: Update and FitStream give bit for bit the model of one fit on
// all the rows, classes, category levels and words of later data appended.
//
// Both kinds of configuration make accumulators (GaussianConfig and
// Config.NewAccumulator; Gaussian and Model.Accumulator hold a model's
// statistics), the partial fits of gendisc.Accumulator: they add rows
// whose classes, category levels and words may be new and come in any
// order (data.Schema.Extend), merge the accumulators of other rows
// (renumbering their classes, levels and terms), travel between processes
// (MarshalBinary, bit-exact, with the settings; another kind or other
// settings are a *gendisc.MergeError) and finish into the model of all the rows:
// bit for bit where the statistics are whole counts, up to rounding for
// Gaussian moments. Fit, FitStream and Update are built on them.
// Text columns are turned into terms by package text (its vocabulary, with
// every term's counts, is kept in the model) and scored by sparse
// products, so memory follows the number of tokens. Counts already in a
// term-count matrix (text.CSR, one row per document) fit directly with
// Config.FitMatrix into a MatrixModel, the model of one text column, which
// scores matrices. Probabilities match
// scikit-learn's BernoulliNB, MultinomialNB, ComplementNB and
// CategoricalNB (testdata/gen_reference_discrete.py).
//
// Configurations (GaussianConfig, Config) are plain values whose zero value means
// the defaults; Fit returns a new fitted model, which is immutable and safe
// for concurrent use. Problems with the data are returned as errors, most
// as *data.ParseError values that name the source and column; calling a
// fitted model with data of the wrong shape is a programming error and
// panics with a message that starts with "naivebayes:".
package naivebayes
