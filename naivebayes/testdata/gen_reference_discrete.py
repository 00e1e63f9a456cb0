#!/usr/bin/python3
"""Reference values for the Bernoulli, multinomial, complement and
categorical naive Bayes tests, from scikit-learn.

Run with Debian's python3 (scikit-learn 1.2.1) from this directory:

    /usr/bin/python3 gen_reference_discrete.py

It reads bundled data sets (the repository's gzip copies in
../../datasets/data) with the csv module, treating "", "NA", "NaN", "?" and
"null" as missing as package data does, keeps the rows without missing
cells (scikit-learn cannot take them), and fits BernoulliNB, MultinomialNB,
ComplementNB and CategoricalNB (and GaussianNB, for the numeric part of
mixed naive Bayes) with several alphas and priors. Categorical columns are
coded by the index of their value among the column's values sorted as
package data sorts them (numerically when every value is a number), with
min_categories set to their number, so that the levels are those of the Go
schema of the whole file. Text (sms_spam) goes through CountVectorizer with
package text's token pattern. It writes discrete_reference.json.gz: per
case the settings, the rows used (indices among the file's data rows) and
predict_proba of the rows listed in "predicted".
"""
import csv
import gzip
import io
import json
import os

import numpy as np
import sklearn
from sklearn.feature_extraction.text import CountVectorizer
from sklearn.naive_bayes import BernoulliNB, CategoricalNB, ComplementNB, GaussianNB, MultinomialNB

HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.path.join(HERE, "..", "..", "datasets", "data")
MISSING = {"", "NA", "NaN", "?", "null"}
PATTERN = r"(?u)[^\W_]+"


def read(name):
    with gzip.open(os.path.join(DATA, name + ".csv.gz"), "rt", encoding="utf-8", newline="") as f:
        rows = list(csv.reader(f))
    return rows[0], rows[1:]


def levels(values):
    vals = sorted({v for v in values if v not in MISSING})
    try:
        return sorted(vals, key=float)
    except ValueError:
        return vals


def complete(rows):
    return [i for i, r in enumerate(rows) if not any(v in MISSING for v in r)]


def tabular(name):
    header, rows = read(name)
    keep = complete(rows)
    feats = list(zip(*rows))[:-1]
    y = np.array([rows[i][-1] for i in keep])
    return header, rows, keep, feats, y


def codes(feats, keep):
    cols, ncat = [], []
    for col in feats:
        lv = levels(col)
        cols.append([lv.index(col[i]) for i in keep])
        ncat.append(len(lv))
    return np.array(cols, dtype=np.int64).T, ncat


def numbers(feats, keep):
    return np.array([[float(col[i]) for i in keep] for col in feats]).T


def prior_kw(classes, prior):
    if prior == "uniform":
        return {"fit_prior": False}
    if isinstance(prior, dict):
        return {"class_prior": [prior[c] for c in classes]}
    return {}


def emit(out, name, dataset, model, est, X, y, rows, predicted, settings):
    est.fit(X, y)
    P = est.predict_proba(X[predicted])
    out.append({
        "name": name, "dataset": dataset, "model": model, "settings": settings,
        "classes": est.classes_.tolist(), "rows": rows,
        "predicted": [rows[i] for i in predicted], "proba": P.tolist(),
    })


def main():
    out = []
    # house_votes84: y/n votes, categorical (2 levels) and Bernoulli (y = 1).
    header, rows, keep, feats, y = tabular("house_votes84")
    classes = sorted(set(y))
    Xc, ncat = codes(feats, keep)
    allrows = list(range(len(keep)))
    for alpha, prior in [(1.0, None), (0.5, "uniform"), (2.0, {"democrat": 0.3, "republican": 0.7})]:
        s = {"alpha": alpha, "prior": prior}
        emit(out, f"house_votes84 bernoulli a={alpha} {prior}", "house_votes84", "bernoulli-nb",
             BernoulliNB(alpha=alpha, binarize=0.0, **prior_kw(classes, prior)), Xc.astype(float), y, keep, allrows, s)
        emit(out, f"house_votes84 categorical a={alpha} {prior}", "house_votes84", "categorical-nb",
             CategoricalNB(alpha=alpha, min_categories=ncat, **prior_kw(classes, prior)), Xc, y, keep, allrows, s)
    # mushroom: categorical.
    header, rows, keep, feats, y = tabular("mushroom")
    Xc, ncat = codes(feats, keep)
    for alpha in [1.0, 0.1]:
        emit(out, f"mushroom categorical a={alpha}", "mushroom", "categorical-nb",
             CategoricalNB(alpha=alpha, min_categories=ncat), Xc, y, keep, list(range(0, len(keep), 3)), {"alpha": alpha})
    # breast_cancer_wisconsin: scores 1-10 as categories, counts, binary
    # above 3, and Gaussian.
    header, rows, keep, feats, y = tabular("breast_cancer_wisconsin")
    classes = sorted(set(y))
    Xc, ncat = codes(feats, keep)
    Xn = numbers(feats, keep)
    allrows = list(range(len(keep)))
    for alpha in [1.0, 0.3]:
        s = {"alpha": alpha}
        emit(out, f"bcw categorical a={alpha}", "breast_cancer_wisconsin", "categorical-nb",
             CategoricalNB(alpha=alpha, min_categories=ncat), Xc, y, keep, allrows, s)
        emit(out, f"bcw multinomial a={alpha}", "breast_cancer_wisconsin", "multinomial-nb",
             MultinomialNB(alpha=alpha), Xn, y, keep, allrows, s)
        for norm in [False, True]:
            emit(out, f"bcw complement a={alpha} norm={norm}", "breast_cancer_wisconsin", "complement-nb",
                 ComplementNB(alpha=alpha, norm=norm), Xn, y, keep, allrows, dict(s, norm=norm))
        emit(out, f"bcw bernoulli a={alpha} binarize=3", "breast_cancer_wisconsin", "bernoulli-nb",
             BernoulliNB(alpha=alpha, binarize=3.0), Xn, y, keep, allrows, dict(s, binarize=3.0))
    emit(out, "bcw multinomial uniform prior", "breast_cancer_wisconsin", "multinomial-nb",
         MultinomialNB(alpha=1.0, fit_prior=False), Xn, y, keep, allrows, {"alpha": 1.0, "prior": "uniform"})
    emit(out, "bcw gaussian", "breast_cancer_wisconsin", "gaussian", GaussianNB(), Xn, y, keep, allrows, {})
    # sms_spam: text.
    header, rows = read("sms_spam")
    docs = [r[0] for r in rows]
    y = np.array([r[1] for r in rows])
    keep = list(range(len(rows)))
    every = list(range(0, len(rows), 5))
    for kw, model, est, s in [
        ({}, "multinomial-nb", MultinomialNB(alpha=1.0), {"alpha": 1.0}),
        ({}, "multinomial-nb", MultinomialNB(alpha=0.1), {"alpha": 0.1}),
        ({"ngram_range": (1, 2), "min_df": 2}, "multinomial-nb", MultinomialNB(alpha=1.0), {"alpha": 1.0, "ngrams": "1-2", "min_df": 2}),
        ({}, "bernoulli-nb", BernoulliNB(alpha=1.0), {"alpha": 1.0}),
        ({"stop_words": "english", "max_features": 2000}, "bernoulli-nb", BernoulliNB(alpha=0.5),
         {"alpha": 0.5, "stop_words": "english", "max_features": 2000}),
        ({}, "complement-nb", ComplementNB(alpha=1.0), {"alpha": 1.0}),
        ({}, "complement-nb", ComplementNB(alpha=1.0, norm=True), {"alpha": 1.0, "norm": True}),
    ]:
        cv = CountVectorizer(token_pattern=PATTERN, **kw)
        X = cv.fit_transform(docs)
        if model == "bernoulli-nb":
            X = (X > 0).astype(np.float64)
        emit(out, f"sms_spam {model} {s}", "sms_spam", model, est, X, y, keep, every, s)
    with gzip.open(os.path.join(HERE, "discrete_reference.json.gz"), "wt", encoding="utf-8") as f:
        json.dump({"sklearn": sklearn.__version__, "cases": out}, f, separators=(",", ":"))


if __name__ == "__main__":
    main()
