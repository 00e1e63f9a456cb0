#!/usr/bin/python3
"""Reference values for package cv from scikit-learn's cross_validate.

Run from the repository root with Debian's python3 (python3-sklearn 1.2.1,
python3-pandas):

    /usr/bin/python3 cv/testdata/sklearn_reference.py ../shared/datasets > cv/testdata/sklearn_reference.json

The folds are the committed assignments (written by gendisc's
Stratified and KFold with seed 1, see TestReferenceFolds), passed to
cross_validate as a PredefinedSplit, so both tools evaluate the same folds:

  pima_indians_diabetes_folds.csv   stratified 5-fold of pima_indians_diabetes's
                                 classes (B, M; M is the positive class)
  wine_folds.csv                 plain 5-fold of wine, for the regression of
                                 alcohol on the other measurements (the
                                 class column left out)

The estimators and gendisc's equal configurations (cv/reference_test.go):

  GaussianNB()                                  naivebayes.GaussianConfig{}
  LinearDiscriminantAnalysis(solver="svd")      gda.LDAConfig{Estimator: Unbiased}
  QuadraticDiscriminantAnalysis()               gda.QDAConfig{Estimator: Unbiased}
  StandardScaler() + LogisticRegression(C=1)    logistic.Config{L2: 1}
  LinearRegression()                            linear.Config{}

LogisticRegression's solvers stop short of the optimum by more than the
1e-9 the Go test asks of the scores (lbfgs on a relative change of the
objective of 64 eps, newton-cg when its line search fails near it), so
ConvergedLogisticRegression refits with warm_start, each fit starting from
the last, until the coefficients change by less than 1e-13, as
logistic/testdata/gen_reference.py does. Recorded per case: every scorer's
score on each fold, in fold order (the neg_ scorers are negated figures, as
scikit-learn defines them). neg_log_loss is log_loss of the whole
probability matrix rather than the built-in scorer's (see neg_log_loss).
"""
import json
import warnings
import os
import sys

import numpy as np
import pandas as pd
import sklearn
from sklearn.discriminant_analysis import LinearDiscriminantAnalysis
from sklearn.discriminant_analysis import QuadraticDiscriminantAnalysis
from sklearn.linear_model import LinearRegression, LogisticRegression
from sklearn.metrics import log_loss
from sklearn.model_selection import PredefinedSplit, cross_validate
from sklearn.naive_bayes import GaussianNB
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

HERE = os.path.dirname(os.path.abspath(__file__))

def neg_log_loss(est, X, y):
    """scikit-learn's neg_log_loss of the whole probability matrix.

    The built-in scorer of that name passes log_loss only the positive
    class's column for two classes, which log_loss turns back into two as
    1 - p: for a row of the negative class given p close to 1 that
    subtraction keeps few digits of its probability (4.6e-6 off in a
    fold's mean here), where gendisc computes every class's probability.
    """
    return -log_loss(y, est.predict_proba(X), labels=est.classes_)


CLASS_SCORERS = {s: s for s in ["accuracy", "neg_brier_score", "roc_auc", "f1", "precision", "recall"]}
CLASS_SCORERS["neg_log_loss"] = neg_log_loss
REGRESSION_SCORERS = {s: s for s in ["neg_root_mean_squared_error", "neg_mean_squared_error", "neg_mean_absolute_error", "r2"]}


class ConvergedLogisticRegression(LogisticRegression):
    """LogisticRegression refitted from its last coefficients until they
    stop changing."""

    def fit(self, X, y, sample_weight=None):
        self.set_params(warm_start=True)
        super().fit(X, y, sample_weight)
        for _ in range(1000):
            before = np.concatenate([self.coef_.ravel(), self.intercept_])
            super().fit(X, y, sample_weight)
            after = np.concatenate([self.coef_.ravel(), self.intercept_])
            if np.max(np.abs(after - before)) < 1e-13:
                break
        return self


def folds(name):
    return pd.read_csv(os.path.join(HERE, name))["fold"].to_numpy()


def scores(est, X, y, test_fold, scorers):
    res = cross_validate(est, X, y, cv=PredefinedSplit(test_fold), scoring=scorers)
    return {s: [float(v) for v in res["test_" + s]] for s in scorers}


def main(src):
    warnings.simplefilter("ignore")  # the warm-started refits' convergence warnings
    cases = []
    df = pd.read_csv(os.path.join(src, "pima_indians_diabetes.csv"))
    target = df.columns[-1]
    X = df.drop(columns=[target]).to_numpy(dtype=float)
    y = df[target].astype(str).to_numpy()
    # The positive class of the binary scorers is the second in sorted
    # order, as gendisc's: encode it as 1.
    classes = sorted(set(y))
    y = (y == classes[1]).astype(int)
    tf = folds("pima_indians_diabetes_folds.csv")
    for name, est in [
        ("GaussianNB", GaussianNB()),
        ("LDA", LinearDiscriminantAnalysis(solver="svd")),
        ("QDA", QuadraticDiscriminantAnalysis()),
        ("LogisticRegression", make_pipeline(StandardScaler(),
                                             ConvergedLogisticRegression(C=1.0, tol=1e-15, max_iter=10000))),
    ]:
        cases.append({"name": name, "scores": scores(est, X, y, tf, CLASS_SCORERS)})

    wine = pd.read_csv(os.path.join(src, "wine.csv"))
    Xr = wine.drop(columns=["alcohol", "class"]).to_numpy(dtype=float)
    yr = wine["alcohol"].to_numpy(dtype=float)
    cases.append({"name": "LinearRegression",
                  "scores": scores(LinearRegression(), Xr, yr, folds("wine_folds.csv"), REGRESSION_SCORERS)})
    json.dump({"sklearn_version": sklearn.__version__, "numpy_version": np.__version__, "cases": cases},
              sys.stdout, indent=1)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main(sys.argv[1])
