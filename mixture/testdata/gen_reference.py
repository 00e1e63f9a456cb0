#!/usr/bin/python3
"""Reference values of scikit-learn's GaussianMixture for package mixture.

    /usr/bin/python3 gen_reference.py  (writes reference.json here)

Data: the bundled iris and wine data sets (../../datasets/data/*.csv.gz),
features standardised with the population standard deviation, as the Go
test does (helpers_test.go: standardized).

em: for every covariance type but identity, EM from given starting
parameters (weights_init, means_init, precisions_init = the inverses of the
starting covariances written here) with tol=0, for max_iter 1 and 10. sklearn
applies the starting parameters, then per iteration an E-step and an
M-step, so max_iter=t gives the parameters after t EM iterations, and
lower_bound_ is the mean log-likelihood of the parameters entering the
last iteration. score(X)*n is the log-likelihood of the final parameters,
on which bic and aic are computed.

heldout: GaussianMixture with RESTARTS restarts (init_params k-means++,
tol TOL so that every run reaches its local maximum) on the rows
i % 4 != 0 for SEEDS random states: the mean log-likelihood of the
training rows and of the held-out rows i % 4 == 0.
"""
import gzip
import json
import os
import warnings

import numpy as np
import sklearn
from sklearn.exceptions import ConvergenceWarning
from sklearn.mixture import GaussianMixture

HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.path.join(HERE, "..", "..", "datasets", "data")

HELDOUT = [("iris", "full", 3), ("iris", "diag", 3), ("wine", "full", 2), ("wine", "diag", 3),
           ("wine", "spherical", 3), ("wine", "tied", 3), ("breast_cancer_wdbc", "diag", 3),
           ("pima_indians_diabetes", "full", 3)]
RESTARTS, TOL, MAX_ITER, SEEDS = 10, 1e-6, 1000, 20


def load(name):
    with gzip.open(os.path.join(DATA, name + ".csv.gz"), "rt") as f:
        lines = f.read().strip().split("\n")
    rows = [l.split(",")[:-1] for l in lines[1:]]
    X = np.array([[float(v) for v in r] for r in rows])
    return (X - X.mean(axis=0)) / X.std(axis=0)


def start(X, cov, K, seeds):
    """Starting parameters: means at given rows, the pooled covariance
    scaled by a factor per component, weights 0.2, 0.3, 0.5."""
    d = X.shape[1]
    w = np.array([0.2, 0.3, 0.5])
    mu = X[seeds].copy()
    pooled = np.cov(X, rowvar=False, bias=True)
    f = np.array([1.0, 0.5, 2.0])
    if cov == "full":
        c = np.array([f[k] * pooled for k in range(K)])
        prec = np.array([np.linalg.inv(ck) for ck in c])
    elif cov == "tied":
        c = pooled
        prec = np.linalg.inv(c)
    elif cov == "diag":
        c = np.array([f[k] * np.diag(pooled) for k in range(K)])
        prec = 1 / c
    else:
        c = f.copy()
        prec = 1 / c
    return w, mu, c, prec


def em_cases():
    out = []
    for name, seeds in [("iris", [0, 60, 120]), ("wine", [0, 70, 140])]:
        X = load(name)
        for cov in ["full", "diag", "spherical", "tied"]:
            w, mu, c, prec = start(X, cov, 3, seeds)
            case = {"dataset": name, "covariance": cov, "components": 3,
                    "start": {"weights": w.tolist(), "means": mu.ravel().tolist(),
                              "covariances": np.ravel(c).tolist()}, "runs": []}
            for it in [1, 10]:
                g = GaussianMixture(n_components=3, covariance_type=cov, tol=0, max_iter=it,
                                    reg_covar=1e-6, weights_init=w, means_init=mu,
                                    precisions_init=prec, random_state=0)
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore", ConvergenceWarning)
                    g.fit(X)
                n = X.shape[0]
                case["runs"].append({
                    "iterations": it, "n_iter": int(g.n_iter_),
                    "weights": g.weights_.tolist(), "means": g.means_.ravel().tolist(),
                    "covariances": np.ravel(g.covariances_).tolist(),
                    "lower_bound": float(g.lower_bound_),
                    "log_likelihood": float(g.score(X) * n),
                    "bic": float(g.bic(X)), "aic": float(g.aic(X)),
                })
            out.append(case)
    return out


def heldout_cases():
    out = []
    for name, cov, K in HELDOUT:
        X = load(name)
        test = np.arange(X.shape[0]) % 4 == 0
        case = {"dataset": name, "covariance": cov, "components": K, "restarts": RESTARTS,
                "tol": TOL, "max_iter": MAX_ITER, "seeds": SEEDS, "train": [], "test": []}
        for seed in range(SEEDS):
            g = GaussianMixture(n_components=K, covariance_type=cov, n_init=RESTARTS,
                                init_params="k-means++", tol=TOL, max_iter=MAX_ITER,
                                random_state=seed)
            g.fit(X[~test])
            case["train"].append(float(g.score(X[~test])))
            case["test"].append(float(g.score(X[test])))
        out.append(case)
    return out


def main():
    ref = {"generator": "gen_reference.py", "sklearn": sklearn.__version__,
           "numpy": np.__version__, "em": em_cases(), "heldout": heldout_cases()}
    with open(os.path.join(HERE, "reference.json"), "w") as f:
        json.dump(ref, f, indent=1)
        f.write("\n")


if __name__ == "__main__":
    main()
