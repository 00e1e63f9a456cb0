#!/usr/bin/python3
"""Reference values for the Gaussian naive Bayes tests, from scikit-learn.

Run with Debian's python3 (scikit-learn 1.2.1) from this directory:

    /usr/bin/python3 gen_reference.py

It fits sklearn.naive_bayes.GaussianNB on bundled data sets (read from the
repository's gzip copies in ../../datasets/data), with the default and other
var_smoothing values and with fixed priors, and writes gaussian_reference.json:
per case the fitted theta_, var_, class_prior_ and epsilon_, and for every
training row predict_proba, predict_log_proba and predict_joint_log_proba.
Classes are sklearn's sorted labels, the order of the Go schema's levels.
"""
import gzip
import json
import os

import numpy as np
import pandas as pd
import sklearn
from sklearn.naive_bayes import GaussianNB

HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.path.join(HERE, "..", "..", "datasets", "data")

CASES = [
    # (dataset, var_smoothing, priors by class name or None)
    ("iris", 1e-9, None),
    ("wine", 1e-9, None),
    ("breast_cancer_wdbc", 1e-9, None),
    ("pima_indians_diabetes", 1e-9, None),
    ("ionosphere", 1e-9, None),  # V2 is constant: its variance is epsilon
    ("sonar", 1e-9, None),
    ("iris", 1e-3, None),
    ("wine", 0.05, None),
    ("ionosphere", 1e-2, None),
    ("iris", 1e-9, {"Iris-setosa": 0.2, "Iris-versicolor": 0.3, "Iris-virginica": 0.5}),
    ("pima_indians_diabetes", 1e-9, {"neg": 0.5, "pos": 0.5}),
]


def load(name):
    with gzip.open(os.path.join(DATA, name + ".csv.gz"), "rt", encoding="utf-8") as f:
        df = pd.read_csv(f, dtype={"class": str})
    x = df.drop(columns=["class"]).to_numpy(dtype=np.float64)
    return x, df["class"].to_numpy()


def case(name, var_smoothing, priors):
    x, y = load(name)
    classes = sorted(set(y))
    p = None if priors is None else [priors[c] for c in classes]
    m = GaussianNB(var_smoothing=var_smoothing, priors=p).fit(x, y)
    assert list(m.classes_) == classes
    return {
        "dataset": name,
        "var_smoothing": var_smoothing,
        "priors": priors,
        "classes": classes,
        "epsilon": float(m.epsilon_),
        "theta": m.theta_.tolist(),
        "var": m.var_.tolist(),
        "class_prior": m.class_prior_.tolist(),
        "proba": m.predict_proba(x).tolist(),
        "log_proba": m.predict_log_proba(x).tolist(),
        "joint_log_likelihood": m.predict_joint_log_proba(x).tolist(),
    }


def main():
    out = {
        "generator": "gen_reference.py, scikit-learn " + sklearn.__version__,
        "cases": [case(*c) for c in CASES],
    }
    with open(os.path.join(HERE, "gaussian_reference.json"), "w") as f:
        json.dump(out, f, separators=(",", ":"))
        f.write("\n")


if __name__ == "__main__":
    main()
