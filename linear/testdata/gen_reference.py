#!/usr/bin/python3
"""Reference values for package linear from scikit-learn.

Run from this directory with Debian's python3 (scikit-learn 1.2.1):

    /usr/bin/python3 gen_reference.py > reference.json

Each case regresses one column of a bundled data set on the other numeric
columns (the class column dropped). OLS: LinearRegression on the raw
features (coefficients in original units). Ridge: Ridge(alpha=lambda) on
StandardScaler output, or on the raw features for the cases marked so (weighted mean and population standard deviation
when there are sample weights), coefficients on the standardised scale.
Sample weights "cycle3" are 1 + (i mod 3). Also recorded: sigma^2 (MLE,
weighted mean squared residual), the Gaussian log-likelihood at it, R^2
and the predictions of the first rows.
"""
import gzip
import json
import sys

import numpy as np
import pandas as pd
import sklearn
from sklearn.linear_model import LinearRegression, Ridge

DATA = "../../datasets/data/{}.csv.gz"

# dataset, target column, lambda (0: LinearRegression), sample weights,
# standardise before Ridge (False: Ridge on the raw features,
# Config.NoStandardize)
CASES = [
    ("wine", "alcohol", 0.0, None, True),
    ("wine", "proline", 0.0, "cycle3", True),
    ("wine", "alcohol", 1.0, None, True),
    ("wine", "alcohol", 1.0, None, False),
    ("wine", "color_intensity", 10.0, "cycle3", True),
    ("breast_cancer_wdbc", "radius_mean", 0.0, None, True),
    ("pima_indians_diabetes", "mass", 2.5, None, True),
]
NPRED = 10


def main():
    out = {"sklearn": sklearn.__version__, "cases": []}
    for name, target, lam, sw_kind, std in CASES:
        with gzip.open(DATA.format(name), "rt") as f:
            df = pd.read_csv(f)
        df = df.drop(columns=["class"])
        y = df[target].to_numpy(dtype=float)
        X = df.drop(columns=[target]).to_numpy(dtype=float)
        sw = None if sw_kind is None else 1.0 + (np.arange(len(y)) % 3)
        ww = np.ones(len(y)) if sw is None else sw
        if lam == 0 or not std:
            m = (LinearRegression() if lam == 0 else Ridge(alpha=lam, solver="cholesky")).fit(X, y, sample_weight=sw)
            pred = m.predict(X)
            scale = "original"
        else:
            mean = np.average(X, axis=0, weights=ww)
            sd = np.sqrt(np.average((X - mean) ** 2, axis=0, weights=ww))
            sd[sd == 0] = 1
            Z = (X - mean) / sd
            m = Ridge(alpha=lam, solver="cholesky").fit(Z, y, sample_weight=sw)
            pred = m.predict(Z)
            scale = "standardised"
        W = ww.sum()
        rss = float(np.sum(ww * (y - pred) ** 2))
        ybar = np.average(y, weights=ww)
        sigma2 = rss / W
        out["cases"].append({
            "dataset": name,
            "target": target,
            "lambda": lam,
            "sample_weight": sw_kind or "",
            "standardize": std,
            "scale": scale,
            "coef": m.coef_.tolist(),
            "intercept": float(m.intercept_),
            "sigma2": sigma2,
            "log_likelihood": -W / 2 * (np.log(2 * np.pi * sigma2) + 1),
            "r2": 1 - rss / float(np.sum(ww * (y - ybar) ** 2)),
            "pred": pred[:NPRED].tolist(),
        })
    json.dump(out, sys.stdout, indent=1)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
