// Package cv cross-validates gendisc models: it assigns the rows of a data
// set to folds (stratified, plain, grouped or leave-one-out, see Folds),
// fits a model on every fold's training part and evaluates it on the fold
// with the metrics of package metrics (Runner), and reports the figures of
// every fold with their mean and standard error (Result): the sample
// standard deviation of the fold figures (divisor k − 1) over √k, for the
// k folds (of all repeats) where a figure is defined.
//
// Kinds whose models are sums of sufficient statistics cross-validate in
// one pass over the rows (Runner.NewAccumulator): each row is added to the
// accumulator of its fold (by the accumulator itself, without copying the
// rows, for a gendisc.FoldAdder), and fold i's model is built from the
// merge of the other folds' accumulators, with O(k) merges for k folds. A
// classifier's folds are evaluated in one pass over the rows, each row
// predicted by its fold's model, without copying a fold whole. Linear
// regression, Gaussian naive Bayes, LDA and QDA also have exact
// leave-one-out by downdating (LeaveOneOutLinear, LeaveOneOutGaussianNB,
// LeaveOneOutLDA, LeaveOneOutQDA), in time linear in the rows, and
// LeaveOneOutDowndate gives their Result as Runner.Run would with
// LeaveOneOut folds, from a kind's configuration (registry.Settings).
//
// A Search tunes a kind's flags (registry.Kind.Flags): a grid of listed
// values and ranges (ParseParam: l2=0.01,0.1,1, l2=1e-4..1e2:13 spaced on
// a log scale, shrinkage=0..1:11 on a linear one) or random draws from
// them; every setting is cross-validated on the same folds, and the best
// by a Metric chosen, or the most regularised within one standard error
// of the best. A kind whose fits warm-start (registry.WarmStartConfig:
// logistic regression) is searched along regularisation paths, fold by
// fold from the largest penalty to the smallest, each fit started from
// the fold's fit of the previous penalty; the settings of a one-pass kind
// that only change how a model is made of its statistics
// (registry.SharedStatisticsConfig) share one pass over the rows.
//
// The kinds of sentences (registry.Sequences) are cross-validated on
// their sentences, a sentence being a row (SentenceFolds,
// SequenceRunner, Search.RunSequences; see sequences.go): each fold's
// model is evaluated with the figures of gendisc eval for a tagger
// (EvaluateSequences), an HMM in one pass, a CRF refitted per fold from
// the weights of its fit to all the sentences.
//
// Fold assignments travel as CSV files (ReadFolds, WriteFolds): a header
// "fold" and one 0-based fold number per data row, in the rows' order, so
// that another tool can reproduce the split.
package cv
