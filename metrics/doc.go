// Package metrics evaluates the predictions of a classifier and of a
// regressor: the figures that `gendisc eval` prints, usable as a library
// without the command line.
//
// Classification takes the true class of each row and the predicted class
// probabilities (row-major, N × K) and returns a Report: the confusion
// matrix, accuracy and error, log-loss in nats and bits, the Brier score,
// per-class precision, recall, F1 and one-vs-rest ROC AUC with their macro
// and support-weighted averages, and for two classes the binary block (TP,
// FP, FN, TN, type I and type II error rates, precision, recall,
// specificity, F1, ROC AUC, scikit-learn's brier_score_loss).
//
// Regression takes the true and predicted values and returns a
// RegressionReport: MSE, RMSE, MAE, R² and the Gaussian log-likelihood of
// the residuals under their maximum-likelihood variance.
//
// Classification and Regression take optional sample weights (nil means
// every row weighs 1); every figure is then the weighted one, as
// scikit-learn's sample_weight gives it. Reports marshal to JSON with snake_case keys (undefined values, NaN
// or ±Inf in Go, become null) and print a human-readable form with Text.
//
// Evaluate runs a gendisc.Classifier on a data.Dataset and evaluates it,
// with errors positioned at the lines of the data's source.
//
// The definitions follow scikit-learn 1.2.1 (sklearn.metrics) and the tests
// check them against its values (testdata/gen_reference.py):
//
//   - predictions are the argmax of the probabilities, ties going to the
//     lowest class index (numpy's argmax);
//   - log-loss clips each probability to [ε, 1−ε], ε = 2⁻⁵² (float64's
//     machine epsilon, log_loss's eps="auto"), and renormalises the row;
//   - a ratio whose denominator is zero (precision of a class never
//     predicted, recall of a class that never occurs, specificity and the
//     type I error rate without negatives) is undefined (NaN), as
//     scikit-learn 1.3's zero_division=np.nan: F1 is then 0 when one of
//     precision and recall is defined (TP = 0) and undefined when neither
//     is, and the macro and weighted averages leave out the classes where
//     a figure is undefined;
//   - the ROC AUC is the exact area under the ROC curve, tied scores
//     joined by a straight segment (the trapezoid rule of roc_auc_score,
//     equal to the Mann–Whitney statistic with average ranks); it is
//     undefined (NaN) when the class, or its complement, has no weight;
//   - for two classes the positive class is the second one (index 1), as
//     pos_label=1 on sorted labels.
//
// Data problems (lengths that differ, a class index out of range, a
// probability that is NaN or outside [0, 1], a row of probabilities that
// does not sum to 1, a negative weight) are returned as errors wrapping the
// sentinels of this package, in a *RowError when one row is at fault.
// Classification and Regression do not panic; Evaluate panics only as
// c.LogProba does, when d does not follow the model's schema.
package metrics
