#!/usr/bin/python3
"""Reference learning curves for package compare, computed with scikit-learn.

Run from the repository root with Debian's Python (scikit-learn 1.2.1):

    /usr/bin/python3 compare/testdata/gen_reference.py [--datasets DIR] [--splits N]

It repeats the experiment of compare.Run with scikit-learn's models and
writes compare/testdata/reference_curves.csv:
dataset,model,m,splits,mean_error,std_error.

The scheme is the Go package's, re-implemented here:
- sizes: compare.DefaultSizes (15 geometric sizes from
  max(2K, ceil(2n/n_min)) to min(floor(0.7 n), 5000), rounded, repeats
  removed);
- splits: a stratified sample of m training rows with compare.Allocate's
  rule (proportional allocation, at least one row per class, largest
  remainders), the test set being every other row (no data set here
  reaches the 5000-row test cap). The random draws are numpy's, not Go's:
  the curves agree in distribution, not split by split.
- models:
  * "nb": GaussianNB(var_smoothing=1e-9) on numeric features; for a data set
    of categorical features (house_votes84) a categorical naive Bayes with
    Laplace smoothing (alpha = 1) over all the levels of the column in the
    whole file, computed by hand, because CategoricalNB cannot leave missing
    cells out: a feature's counts for class k are taken over the rows of k
    where it is observed,
        log p(x_j = v | y = k) = log (N_kjv + 1) - log (N_kj + V_j),
    and at prediction time a missing cell leaves the sum of log-probabilities
    (it is marginalised), which is what gendisc's categorical naive Bayes
    does. Class priors: maximum likelihood.
  * "logistic": LogisticRegression(C = 1/lambda, lambda = 1, lbfgs, tight
    tolerance) on numeric features standardised by StandardScaler (fitted on
    the training rows; a constant column keeps scale 1) and categorical
    features one-hot encoded over the levels of the whole file, not
    standardised; a missing cell takes the training mean of each of its
    indicator columns (gendisc's logistic.Config{Impute: true}).
- optdigits gives the two binary tasks of Ng and Jordan, 0 vs 1 and 2 vs 3.
"""

import argparse
import math
import os
import sys

import numpy as np
import pandas as pd
from sklearn.linear_model import LogisticRegression
from sklearn.naive_bayes import GaussianNB

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))

TASKS = [
    ("pima_indians_diabetes", "pima_indians_diabetes", None),
    ("ionosphere", "ionosphere", None),
    ("sonar", "sonar", None),
    ("breast_cancer_wdbc", "breast_cancer_wdbc", None),
    ("house_votes84", "house_votes84", None),
    ("optdigits_0_vs_1", "optdigits", ("0", "1")),
    ("optdigits_2_vs_3", "optdigits", ("2", "3")),
]

POINTS = 15
MAX_FRACTION = 0.7
MAX_SIZE = 5000


def geometric(lo, hi, points):
    if lo < 1 or lo > hi:
        return []
    if lo == hi or points < 2:
        return [lo]
    r = math.log(hi / lo)
    out = []
    for i in range(points):
        # Go's math.Round rounds halves away from zero; so does this.
        m = int(math.floor(lo * math.exp(r * i / (points - 1)) + 0.5))
        m = min(max(m, lo), hi)
        if not out or m > out[-1]:
            out.append(m)
    return out


def default_sizes(counts):
    counts = [c for c in counts if c > 0]
    n, k, smallest = sum(counts), len(counts), min(counts)
    lo = max(2 * k, -(-2 * n // smallest))
    hi = min(int(MAX_FRACTION * n), MAX_SIZE)
    return geometric(lo, hi, POINTS)


def allocate(m, counts):
    n = sum(counts)
    q = [m * c / n if c else 0.0 for c in counts]
    alloc = [min(max(1, int(q[k])), c) if c else 0 for k, c in enumerate(counts)]
    total = sum(alloc)

    def pick(score, ok):
        best = -1
        for k in range(len(counts)):
            if ok(k) and (best < 0 or score(k) > score(best)):
                best = k
        return best

    while total < m:
        alloc[pick(lambda k: q[k] - alloc[k], lambda k: alloc[k] < counts[k])] += 1
        total += 1
    while total > m:
        alloc[pick(lambda k: alloc[k] - q[k], lambda k: alloc[k] > 1)] -= 1
        total -= 1
    return alloc


def read(path, pair):
    df = pd.read_csv(path, dtype=str, keep_default_na=False)
    missing = {"", "NA", "N/A", "NaN", "nan", "?", "null", "NULL"}
    y = df.pop("class")
    if pair:
        keep = y.isin(pair).to_numpy()
        df, y = df[keep].reset_index(drop=True), y[keep].reset_index(drop=True)
        classes = list(pair)
    else:
        classes = sorted(y.unique())
    cols = []  # (kind, values): numeric float array with NaN, or level codes with -1
    for name in df.columns:
        raw = df[name].str.strip()
        miss = raw.isin(missing).to_numpy()
        try:
            vals = np.where(miss, np.nan, pd.to_numeric(raw.where(~miss, "0"))).astype(float)
            cols.append(("num", vals))
        except ValueError:
            levels = sorted(set(raw[~miss]))
            codes = np.array([-1 if mi else levels.index(v) for v, mi in zip(raw, miss)])
            cols.append(("cat", codes, len(levels)))
    yi = np.array([classes.index(v) for v in y])
    return cols, yi, len(classes)


class CategoricalNBMarginal:
    """Categorical naive Bayes, alpha = 1, missing cells (-1) left out."""

    def fit(self, codes, levels, y, K):
        self.prior = np.log(np.bincount(y, minlength=K) / len(y))
        self.logp = []
        for j, V in enumerate(levels):
            c = np.zeros((K, V))
            obs = codes[:, j] >= 0
            np.add.at(c, (y[obs], codes[obs, j]), 1)
            self.logp.append(np.log(c + 1) - np.log(c.sum(axis=1, keepdims=True) + V))
        return self

    def predict(self, codes):
        jl = np.tile(self.prior, (codes.shape[0], 1))
        for j, lp in enumerate(self.logp):
            obs = codes[:, j] >= 0
            jl[obs] += lp[:, codes[obs, j]].T
        return np.argmax(jl, axis=1)


def design(cols, train, rows):
    """The logistic design of rows, fitted on train: standardised numeric
    columns, one-hot indicators with missing cells at the training mean."""
    out = []
    for c in cols:
        if c[0] == "num":
            v = c[1]
            mu, sd = v[train].mean(), v[train].std()
            out.append(((v[rows] - mu) / (sd if sd > 0 else 1.0))[:, None])
        else:
            codes, V = c[1], c[2]
            ind = np.zeros((len(codes), V))
            obs = codes >= 0
            ind[np.nonzero(obs)[0], codes[obs]] = 1
            tr_obs = train[obs[train]]
            fill = ind[tr_obs].mean(axis=0) if len(tr_obs) else np.zeros(V)
            ind[~obs] = fill
            out.append(ind[rows])
    return np.hstack(out)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--datasets", default=os.path.join(os.path.dirname(ROOT), "shared", "datasets"))
    ap.add_argument("--splits", type=int, default=100)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--out", default=os.path.join(HERE, "reference_curves.csv"))
    args = ap.parse_args()
    rng = np.random.default_rng(args.seed)
    lines = ["dataset,model,m,splits,mean_error,std_error"]
    for name, file, pair in TASKS:
        cols, y, K = read(os.path.join(args.datasets, file + ".csv"), pair)
        numeric = all(c[0] == "num" for c in cols)
        if numeric:
            X = np.column_stack([c[1] for c in cols])
        else:
            codes = np.column_stack([c[1] for c in cols])
            levels = [c[2] for c in cols]
        by_class = [np.nonzero(y == k)[0] for k in range(K)]
        counts = [len(r) for r in by_class]
        sizes = default_sizes(counts)
        errs = {"nb": np.zeros((len(sizes), args.splits)), "logistic": np.zeros((len(sizes), args.splits))}
        for i, m in enumerate(sizes):
            alloc = allocate(m, counts)
            for s in range(args.splits):
                tr, te = [], []
                for rows, a in zip(by_class, alloc):
                    p = rng.permutation(rows)
                    tr.append(p[:a])
                    te.append(p[a:])
                tr, te = np.sort(np.concatenate(tr)), np.sort(np.concatenate(te))
                if numeric:
                    nb = GaussianNB(var_smoothing=1e-9).fit(X[tr], y[tr])
                    pred = nb.predict(X[te])
                else:
                    nb = CategoricalNBMarginal().fit(codes[tr], levels, y[tr], K)
                    pred = nb.predict(codes[te])
                errs["nb"][i, s] = np.mean(pred != y[te])
                lr = LogisticRegression(C=1.0, solver="lbfgs", tol=1e-8, max_iter=10000)
                lr.fit(design(cols, tr, tr), y[tr])
                errs["logistic"][i, s] = np.mean(lr.predict(design(cols, tr, te)) != y[te])
            print(name, m, errs["nb"][i].mean(), errs["logistic"][i].mean(), file=sys.stderr, flush=True)
        for model in ("nb", "logistic"):
            for i, m in enumerate(sizes):
                e = errs[model][i]
                se = e.std(ddof=1) / math.sqrt(len(e)) if len(e) > 1 else 0.0
                lines.append(f"{name},{model},{m},{len(e)},{e.mean():.17g},{se:.17g}")
    with open(args.out, "w") as f:
        f.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
