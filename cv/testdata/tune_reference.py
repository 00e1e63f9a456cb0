#!/usr/bin/python3
"""Reference choices for cv.Search from scikit-learn's GridSearchCV.

Run from the repository root with Debian's python3 (python3-sklearn 1.2.1,
python3-pandas):

    /usr/bin/python3 cv/testdata/tune_reference.py ../shared/datasets > cv/testdata/tune_reference.json

The folds are the committed stratified 5-fold assignment of
pima_indians_diabetes (pima_indians_diabetes_folds.csv, see
sklearn_reference.py), passed as a PredefinedSplit, so both tools evaluate
the same folds. The searches and gendisc's equal ones (cv/tune_test.go):

  GaussianNB(var_smoothing=v)            gaussian-nb  var-smoothing=1e-12..1:13
  StandardScaler() + LogisticRegression(C=1/l)
                                         logistic     l2=1e-3..1e3:7

gendisc's l2 λ is scikit-learn's 1/C on standardised features (the pairing
of logistic/testdata and of sklearn_reference.py). Recorded per search and
scorer: the grid's values, mean_test_score of every setting in the grid's
order, and best_index_ (GridSearchCV's choice: the best mean, the first of
equals). The scorers are negated losses where scikit-learn's are.
"""
import json
import os
import sys
import warnings

import numpy as np
import pandas as pd
import sklearn
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import brier_score_loss, log_loss
from sklearn.model_selection import GridSearchCV, PredefinedSplit
from sklearn.naive_bayes import GaussianNB
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from sklearn_reference import ConvergedLogisticRegression, neg_log_loss  # noqa: E402


def neg_brier(est, X, y):
    """gendisc's multiclass Brier score, negated: twice brier_score_loss
    for two classes."""
    return -2 * brier_score_loss(y, est.predict_proba(X)[:, 1])


SCORERS = {"neg_log_loss": neg_log_loss, "neg_brier": neg_brier, "accuracy": "accuracy", "roc_auc": "roc_auc"}


def search(est, grid, X, y, tf):
    out = {}
    for name, scorer in SCORERS.items():
        gs = GridSearchCV(est, grid, scoring=scorer, cv=PredefinedSplit(tf), refit=False)
        gs.fit(X, y)
        out[name] = {"mean": [float(v) for v in gs.cv_results_["mean_test_score"]],
                     "best_index": int(np.argmin(gs.cv_results_["rank_test_score"]))}
    return out


def main(src):
    warnings.simplefilter("ignore")
    df = pd.read_csv(os.path.join(src, "pima_indians_diabetes.csv"))
    target = df.columns[-1]
    X = df.drop(columns=[target]).to_numpy(dtype=float)
    y = df[target].astype(str).to_numpy()
    classes = sorted(set(y))
    y = (y == classes[1]).astype(int)
    tf = pd.read_csv(os.path.join(HERE, "pima_indians_diabetes_folds.csv"))["fold"].to_numpy()

    smoothing = [10.0 ** k for k in range(-12, 1)]
    l2 = [10.0 ** k for k in range(-3, 4)]
    cases = [
        {"name": "GaussianNB", "flag": "var-smoothing", "values": smoothing,
         "scores": search(GaussianNB(), {"var_smoothing": smoothing}, X, y, tf)},
        {"name": "LogisticRegression", "flag": "l2", "values": l2,
         "scores": search(make_pipeline(StandardScaler(),
                                        ConvergedLogisticRegression(tol=1e-15, max_iter=10000)),
                          {"convergedlogisticregression__C": [1 / v for v in l2]}, X, y, tf)},
    ]
    json.dump({"sklearn_version": sklearn.__version__, "numpy_version": np.__version__, "cases": cases},
              sys.stdout, indent=1)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main(sys.argv[1])
