// Package compare runs the generative-versus-discriminative experiment of
// Ng and Jordan ("On discriminative vs. generative classifiers", NIPS 2001)
// and writes its report: learning curves of mean test error against the
// training-set size m, averaged over random stratified splits.
//
// # The experiment
//
// For each data set (a Task) and each training-set size m of a grid
// (DefaultSizes: 15 sizes spaced geometrically from the smallest m that
// gives every class two training rows to 70% of the rows, at most 5000),
// Run draws Config.Splits random splits. A split takes a stratified sample
// of m training rows (Allocate: proportional allocation with at least one
// row per class); the test set is the other rows, capped at Config.MaxTest
// rows (5000) by a stratified sample of them. Every Learner of a split is fitted on
// the same training rows and scored on the same test rows. The random draws
// of a split come from a PCG generator seeded from (Config.Seed, the task's
// index, m, the split's index), so the figures do not depend on the
// scheduling of the work or on Config.Jobs: the same seed gives the same
// bytes in every output.
//
// A fit that fails (a zero-variance feature or a singular covariance on a
// tiny training set) does not stop the run: the split scores the fallback
// prediction instead, the most frequent class of the training rows (the
// lowest class index among ties), and Point.Fallbacks counts such splits.
// A fit that succeeds with warnings (a model with a Warnings() []string
// method that returns lines, such as logistic regression stopped by its
// iteration limit) scores as fitted, and Point.Warnings counts such
// splits.
//
// # The figures
//
// The test error of a split is the fraction of its test rows whose class
// of largest predicted probability is not their class (row weights, if
// any, reach the learners but not this count). Per task, learner and m:
// the mean test error over the splits and its standard error,
//
//	ē = (1/S) Σ_s e_s,   se = sqrt( Σ_s (e_s − ē)² / (S − 1) ) / sqrt(S)
//
// (se = 0 when S = 1). For each pair of a generative and a discriminative
// learner, the sizes at which either of them fell back in some split are
// left out, and among the others: the crossover m* is the smallest grid
// size from which the discriminative learner's mean error stays strictly
// below the generative one's through the largest size; there is none in
// range when the discriminative learner is not better at the largest size.
// The gap is the generative minus the discriminative mean error at the
// largest size.
//
// Whether m* is more than noise is a paired test: the two learners share
// each split's training and test rows, so at each size the per-split
// differences d_s = e_s(generative) − e_s(discriminative) are paired, and
// the one-sided paired t-test (PairedTTest) gives a p-value for "the mean
// difference is positive",
//
//	t = d̄ / (s_d / √S),   p = P(T_{S−1} ≥ t).
//
// The crossover is clear from a size C (Crossover.ClearFrom) when p < Alpha
// (0.05) at every size from C on through the largest: an
// intersection-union test of "the discriminative learner is better at each
// of these sizes", of level Alpha without a correction for the number of
// sizes. C is the smallest such size; it is m* itself when the test is
// significant from the crossing on, and larger when the test, weak where
// the curves are close by definition, becomes significant a few sizes
// later: a crossover that is clear a little later is still a crossover.
// Crossover.P is the largest of the p-values from m* on. The tables show
// m* and, when it differs, "clear from m = C"; they say "no clear
// crossover" only when there is no such C.
//
// # Using it
//
// A program builds one Learner per model, with a Fit function that
// closes over the model's configuration, and one Task per data set (Binary
// derives the two-class tasks of optdigits), calls Run with a Config (its
// Progress callback can draw a progress bar), prints WriteSummary and
// writes the report with WriteReport. Run, WriteCSV, WriteSummary,
// WriteSVG and WriteReport are deterministic, but for the PDF plots
// (WritePlot, ReportInfo.Formats), which carry the time they were written.
//
// # Planning an experiment
//
// When it is not known beforehand which models apply to which data sets,
// as in "gendisc compare", which this package reproduces, a program
// describes each model as a Model (a name, the text of its settings and a
// function that fits it) and calls Plan. Plan fits every model on at most
// DefaultProbeRows rows of every task, spread evenly over it: a model
// applies to a task when that fit succeeds, and the fit's error says why
// not (a numeric target, text or categorical columns a model does not
// take, too few classes). It gives the Experiment: the tasks some model
// applies to, one Learner per model that applies to some task
// (generative when the fitted model is a gendisc.Generative), which
// learner applies to which task, and notes on what was left out;
// PlanOptions make a task or a model left out an error instead.
// DefaultTaskNames and TwoClassTasks name the tasks of the command's
// default run.
//
// Experiment.Run runs the experiment and splits the result into reports by
// the set of learners that apply to each task: the report with the most
// learners is the main one; the others, named after their learners, go into
// its subdirectories. Outcome.WriteSummary prints the summary tables and
// the notes, and Outcome.WriteReports writes the report directories.
//
// # Tuned learners
//
// A Tuning fits a registry kind with its regularisation (TuneGrids: λ of
// logistic regression, α and var-smoothing of naive Bayes, the shrinkage
// of LDA and QDA) chosen on every training set it is given by an inner
// stratified cross-validation of those rows alone (cv.Search), so a split's
// test rows never take part. Its models are *TunedModel, and a Learner (or
// Model) naming the tuned flags in Tuned gets the values chosen per size in
// Point.Tuned, the summary's second table, index.html and curves.csv. Run
// the same tasks, sizes, splits and seed with fixed settings too, and
// Outcome.SetUntuned (Result.SetUntuned) puts that run's m* beside the
// tuned one's and its curves in the plots (thin, lighter), to show how
// tuning moves the curves and the crossover.
//
// # Sequence data
//
// RunSequences draws the same curves for models of tagged sentences
// (SequenceTask, SequenceLearner): m counts training sentences
// (DefaultSequenceSizes: Geometric from MinSequenceSize, 50, to 90% of
// the sentences), a split draws them at random, without stratification,
// from the same seeded generator as for tables; the test set is the
// held-out sentences in the split's random order up to Config.MaxTest
// tokens (5000; one sentence at least), and the error is the token error
// rate, 1 − token accuracy. A task with test sentences of its own
// (SequenceTask.Test, a treebank's development part) trains on up to all
// of its sentences and tests split s on part s of a random partition of
// them into Config.Splits parts: disjoint test sets, so that at m = all,
// where the splits' training sets are the same, the paired test compares
// the two fitted models over independent samples of test sentences. A learner is a tagger (Fit returns a
// SentenceTagger, such as an HMM or a CRF) or, by TokenLearner, a
// classifier of single tokens fitted on TokenTable (one text column of
// the token's own features: the lower-cased word, its suffixes of 1–3
// letters, capitalised, has a digit, has a hyphen), the per-token
// baseline that shows what the sequence structure adds. The Result is
// that of Run, with Unit "sentences", so m*, the paired test and the
// reports are those of tables.
//
// # The report
//
// WriteReport writes a directory holding curves.csv (every figure), one
// SVG plot per task (mean error against m on a logarithmic axis with a ±1
// standard-error band; generative learners solid, discriminative dashed by
// default; hollow dots where a learner fell back, a triangle at each m*,
// filled when clear; the legend beside the axes; Liberation Sans, with
// Arial, Helvetica or the browser's sans-serif in its place), and, with
// ReportInfo.Formats, the same plots as PDF or PNG files; summary.txt (the
// table of WriteSummary) and index.html, which shows the crossovers (one
// row per task and pair, with the p-value of the paired test), the errors,
// the plots, the command line, the version and the settings, and opens
// offline: it loads nothing but the plot files beside it. The directory is written under a temporary name and renamed into
// place, so a failed run leaves no half-written report.
package compare
