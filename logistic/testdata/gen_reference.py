#!/usr/bin/python3
"""Reference values for package logistic from scikit-learn.

Run from this directory with Debian's python3 (scikit-learn 1.2.1):

    /usr/bin/python3 gen_reference.py > reference.json

For every case: the features are standardised with StandardScaler (mean
and population standard deviation, weighted by the sample weights when
there are some, as the Go encoder does) and LogisticRegression is fitted
with C = 1/lambda, lbfgs, a tiny tolerance and a large iteration limit;
multinomial for more than two classes. scikit-learn's lbfgs also stops when
the objective changes by less than 64 eps relative, which on the
ill-conditioned cases is short of the optimum by more than 1e-5, so the fit
is repeated with warm_start (each fit starting from the last) until the
coefficients change by less than 1e-12. Recorded: the class names (sorted),
the coefficients and intercepts on the standardised scale (raw for the
cases with standardisation off), the objective
F = sum_i v_i log P(y_i|x_i) - lambda/2 |w|^2, and the probabilities of the
first rows.
"""
import gzip
import json
import sys
import warnings

import numpy as np
import pandas as pd
import sklearn
from scipy.special import log_softmax
from sklearn.exceptions import ConvergenceWarning
from sklearn.feature_extraction.text import CountVectorizer
from sklearn.linear_model import LogisticRegression

DATA = "../../datasets/data/{}.csv.gz"

# name, lambda, class_weight, sample weights (None or "cycle3": 1 + i mod 3),
# standardise (False: the raw features, Config.NoStandardize)
CASES = [
    ("breast_cancer_wdbc", 1.0, None, None, True),
    ("pima_indians_diabetes", 1.0, None, None, True),
    ("pima_indians_diabetes", 0.01, "balanced", None, True),
    ("sonar", 1.0, None, None, False),
    ("ionosphere", 1.0, None, None, True),
    ("sonar", 1.0, None, None, True),
    ("sonar", 0.1, None, "cycle3", True),
    ("iris", 1.0, None, None, True),
    ("iris", 0.1, "balanced", None, True),
    ("iris", 1.0, None, None, False),
    ("wine", 1.0, None, None, True),
    ("wine", 0.5, None, "cycle3", True),
]
NPROBA = 10


def sample_weights(kind, n):
    if kind is None:
        return None
    return 1.0 + (np.arange(n) % 3)


def log_proba(scores):
    """Log-probabilities from decision scores, computed stably."""
    if scores.ndim == 1:
        return np.column_stack([-np.logaddexp(0, scores), -np.logaddexp(0, -scores)])
    return log_softmax(scores, axis=1)


def standardise(X, w):
    ww = np.ones(len(X)) if w is None else w
    mean = np.average(X, axis=0, weights=ww)
    var = np.average((X - mean) ** 2, axis=0, weights=ww)
    scale = np.sqrt(var)
    scale[scale == 0] = 1.0
    return (X - mean) / scale


def fit_to_optimum(m, Z, y, sw):
    prev = None
    for _ in range(2000):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", category=ConvergenceWarning)
            m.fit(Z, y, sample_weight=sw)
        c = np.concatenate([m.coef_.ravel(), m.intercept_])
        if prev is not None and np.abs(c - prev).max() < 1e-12:
            return
        prev = c
    raise RuntimeError("no convergence")


def text_case(name, lam):
    """Bag of words: CountVectorizer with package text's tokens (runs of
    letters and numbers, token_pattern=r"(?u)[^\W_]+", single characters
    kept), raw counts (not scaled), LogisticRegression(C=1/lambda) by newton-cg with a tight
    tolerance (its optimum agrees with lbfgs's; lbfgs restarts creep towards
    it too slowly on 8,713 dimensions). Records the objective, the
    intercept, the weights of the first 100 words and of the 30 largest,
    and the probabilities of the first rows."""
    with gzip.open(DATA.format(name), "rt") as f:
        df = pd.read_csv(f, keep_default_na=False)
    cv = CountVectorizer(token_pattern=r"(?u)[^\W_]+")
    X = cv.fit_transform(df.iloc[:, 0])
    labels = df.iloc[:, -1].astype(str).to_numpy()
    classes = sorted(set(labels))
    y = np.array([classes.index(s) for s in labels])
    m = LogisticRegression(C=1.0 / lam, tol=1e-9, max_iter=10_000, solver="newton-cg")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # line-search warnings at the rounding limit
        m.fit(X, y)
    words = cv.get_feature_names_out()
    coef = m.coef_.ravel()
    pick = sorted(set(range(100)) | set(np.argsort(-np.abs(coef))[:30].tolist()))
    lp = log_proba(m.decision_function(X))
    F = float(np.sum(lp[np.arange(len(y)), y]) - lam / 2 * np.sum(coef ** 2))
    return {
        "dataset": name,
        "lambda": lam,
        "classes": classes,
        "vocabulary_size": len(words),
        "words": {str(words[j]): float(coef[j]) for j in pick},
        "intercept": float(m.intercept_[0]),
        "objective": F,
        "proba": m.predict_proba(X[:NPROBA]).tolist(),
    }


def main():
    out = {"sklearn": sklearn.__version__, "cases": []}
    for name, lam, cw, sw_kind, std in CASES:
        with gzip.open(DATA.format(name), "rt") as f:
            df = pd.read_csv(f)
        X = df.iloc[:, :-1].to_numpy(dtype=float)
        labels = df.iloc[:, -1].astype(str).to_numpy()
        classes = sorted(set(labels))
        y = np.array([classes.index(s) for s in labels])
        sw = sample_weights(sw_kind, len(y))
        Z = standardise(X, sw) if std else X
        multi = "multinomial" if len(classes) > 2 else "auto"
        m = LogisticRegression(C=1.0 / lam, tol=1e-12, max_iter=1_000_000, solver="lbfgs",
                               multi_class=multi, class_weight=cw, warm_start=True)
        fit_to_optimum(m, Z, y, sw)
        # Row weights as the model sees them: sample weight x class weight.
        v = np.ones(len(y)) if sw is None else sw.copy()
        if cw == "balanced":
            counts = np.bincount(y)
            v *= (len(y) / (len(classes) * counts))[y]
        lp = log_proba(m.decision_function(Z))
        F = float(np.sum(v * lp[np.arange(len(y)), y]) - lam / 2 * np.sum(m.coef_ ** 2))
        out["cases"].append({
            "dataset": name,
            "lambda": lam,
            "class_weight": cw or "",
            "sample_weight": sw_kind or "",
            "standardize": std,
            "classes": classes,
            "coef": m.coef_.tolist(),
            "intercept": m.intercept_.tolist(),
            "objective": F,
            "proba": m.predict_proba(Z[:NPROBA]).tolist(),
        })
    out["text_cases"] = [text_case("sms_spam", 1.0)]
    json.dump(out, sys.stdout, indent=1)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
