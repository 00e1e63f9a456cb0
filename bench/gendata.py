#!/usr/bin/python3
"""Generate the benchmark data sets once, into a cache directory.

    gendata.py --dir DIR --rows N DATASET...

Every data set is written under DIR with a stamp file (DATASET.json) that
records how it was made; a data set whose stamp matches is left alone, so
the data are generated once and reused by every run of the same size.

Data sets (the DATASETS table below; add a generator and a line there):

  dense   X.npy (float64 N x 50, C order) and y.npy (int64 labels 0..9).
          Ten classes with prior proportional to 1..10; feature j of class
          k is drawn as N(mu_kj, sigma_kj^2) with mu_kj ~ N(0, 0.2^2) and
          sigma_kj ~ U(0.8, 1.25): overlapping classes, a real problem for
          Gaussian naive Bayes (accuracy well below 100%).
  csv     data.csv: the dense rows as text, "%.6f", header x0..x49,class,
          the class (0..9) in the last column.
  csvgz   data.csv.gz: data.csv compressed by gzip (level 6, Python's zlib).
  gda     gda_X.npy (float64 N/2 x 100) and gda_y.npy (labels 0..4): five
          classes with prior proportional to 1..5, class k drawn from
          N(mu_k, Sigma_k) with mu_kj ~ N(0, 0.1^2) and Sigma_k = A_k A_k^T / 100
          + 0.5 I (A_k standard normal 100 x 100): correlated features, a
          covariance per class (QDA) and overlapping classes.
  logit   logit_X.npy (float64 N/2 x 100, every column standardised to mean 0
          and variance 1 exactly, population variance), logit_y2.npy (labels
          0..1) and logit_y5.npy (labels 0..4): correlated Gaussian features
          (covariance A A^T / 100 + 0.5 I) and labels drawn from a softmax
          (sigmoid) of linear scores with weights N(0, 0.15^2): not separable.
  gmm     gmm_X.npy (float64 N/5 x 20) drawn from a mixture of 8 full-covariance
          Gaussians (means N(0, 3^2), covariances B B^T / 20 + 0.2 I), and
          the starting point of EM: gmm_weights.npy (uniform), gmm_means.npy
          (8 x 20: the true means plus N(0, 0.5^2)), gmm_covariances.npy
          (8 x 20 x 20: identity).
  text    text.csv: N/5 documents (column text) and their class (column
          class, c0..c3, prior proportional to 1..4). Vocabulary of 50,000
          words w0..w49999 with Zipf-like frequencies 1/(r+10); class k
          multiplies each word's frequency by exp(N(0, 0.5^2)) and
          renormalises; document lengths are Poisson(100).
"""
import argparse
import json
import os
import sys

import numpy as np

SEED = 20261122
# Bump when a generator changes, so cached files are regenerated.
VERSION = 1
CHUNK = 100_000

DENSE_D, DENSE_K = 50, 10


def gen_dense(d, rows):
    rng = np.random.default_rng(SEED)
    prior = np.arange(1, DENSE_K + 1, dtype=float)
    prior /= prior.sum()
    mu = rng.normal(0.0, 0.2, (DENSE_K, DENSE_D))
    sigma = rng.uniform(0.8, 1.25, (DENSE_K, DENSE_D))
    y = rng.choice(DENSE_K, size=rows, p=prior).astype(np.int64)
    X = np.lib.format.open_memmap(os.path.join(d, "X.npy.tmp"), mode="w+",
                                  dtype=np.float64, shape=(rows, DENSE_D))
    for lo in range(0, rows, CHUNK):
        hi = min(lo + CHUNK, rows)
        yc = y[lo:hi]
        X[lo:hi] = mu[yc] + sigma[yc] * rng.standard_normal((hi - lo, DENSE_D))
    X.flush()
    del X
    os.replace(os.path.join(d, "X.npy.tmp"), os.path.join(d, "X.npy"))
    np.save(os.path.join(d, "y.npy"), y)


def gen_csv(d, rows):
    X = np.load(os.path.join(d, "X.npy"), mmap_mode="r")
    y = np.load(os.path.join(d, "y.npy"))
    header = ",".join([f"x{j}" for j in range(X.shape[1])] + ["class"])
    fmt = ",".join(["%.6f"] * X.shape[1] + ["%d"])
    tmp = os.path.join(d, "data.csv.tmp")
    with open(tmp, "w") as f:
        f.write(header + "\n")
        for lo in range(0, rows, CHUNK):
            hi = min(lo + CHUNK, rows)
            block = np.column_stack([X[lo:hi], y[lo:hi].astype(float)])
            np.savetxt(f, block, fmt=fmt, delimiter=",")
    os.replace(tmp, os.path.join(d, "data.csv"))


def gen_csvgz(d, rows):
    import gzip
    import shutil
    tmp = os.path.join(d, "data.csv.gz.tmp")
    with open(os.path.join(d, "data.csv"), "rb") as src, gzip.open(tmp, "wb", compresslevel=6) as dst:
        shutil.copyfileobj(src, dst, 1 << 20)
    os.replace(tmp, os.path.join(d, "data.csv.gz"))


GDA_D, GDA_K = 100, 5


def fraction(rows, div):
    """The rows of the data sets sized N/div (at least 1,000)."""
    return max(1000, rows // div)


def correlated(rng, d):
    """A d x d covariance with correlated features: A A^T / d + 0.5 I."""
    a = rng.standard_normal((d, d))
    return a @ a.T / d + 0.5 * np.eye(d)


def save_npy(d, name, a):
    np.save(os.path.join(d, name + ".tmp.npy"), a)
    os.replace(os.path.join(d, name + ".tmp.npy"), os.path.join(d, name + ".npy"))


def gen_gda(d, rows):
    rng = np.random.default_rng(SEED + 1)
    n = fraction(rows, 2)
    prior = np.arange(1, GDA_K + 1, dtype=float)
    prior /= prior.sum()
    mu = rng.normal(0.0, 0.1, (GDA_K, GDA_D))
    chol = [np.linalg.cholesky(correlated(rng, GDA_D)) for _ in range(GDA_K)]
    y = rng.choice(GDA_K, size=n, p=prior).astype(np.int64)
    X = np.empty((n, GDA_D))
    for k in range(GDA_K):
        idx = np.flatnonzero(y == k)
        X[idx] = mu[k] + rng.standard_normal((idx.size, GDA_D)) @ chol[k].T
    save_npy(d, "gda_X", X)
    save_npy(d, "gda_y", y)


def gen_logit(d, rows):
    rng = np.random.default_rng(SEED + 2)
    n = fraction(rows, 2)
    X = rng.standard_normal((n, GDA_D)) @ np.linalg.cholesky(correlated(rng, GDA_D)).T
    X -= X.mean(axis=0)
    X /= X.std(axis=0)
    for k, name in ((2, "logit_y2"), (5, "logit_y5")):
        w = rng.normal(0.0, 0.15, (GDA_D, k))
        s = X @ w
        p = np.exp(s - s.max(axis=1, keepdims=True))
        p /= p.sum(axis=1, keepdims=True)
        u = rng.random(n)[:, None]
        y = np.minimum((u > np.cumsum(p, axis=1)).sum(axis=1), k - 1).astype(np.int64)
        save_npy(d, name, y)
    save_npy(d, "logit_X", X)


GMM_K, GMM_D = 8, 20


def gen_gmm(d, rows):
    rng = np.random.default_rng(SEED + 3)
    n = fraction(rows, 5)
    means = rng.normal(0.0, 3.0, (GMM_K, GMM_D))
    chol = []
    for _ in range(GMM_K):
        b = rng.standard_normal((GMM_D, GMM_D))
        chol.append(np.linalg.cholesky(b @ b.T / GMM_D + 0.2 * np.eye(GMM_D)))
    z = rng.integers(0, GMM_K, n)
    X = np.empty((n, GMM_D))
    for k in range(GMM_K):
        idx = np.flatnonzero(z == k)
        X[idx] = means[k] + rng.standard_normal((idx.size, GMM_D)) @ chol[k].T
    save_npy(d, "gmm_weights", np.full(GMM_K, 1.0 / GMM_K))
    save_npy(d, "gmm_means", means + rng.normal(0.0, 0.5, means.shape))
    save_npy(d, "gmm_covariances", np.tile(np.eye(GMM_D), (GMM_K, 1, 1)))
    save_npy(d, "gmm_X", X)


TEXT_V, TEXT_K, TEXT_LEN = 50_000, 4, 100


def gen_text(d, rows):
    rng = np.random.default_rng(SEED + 4)
    n = fraction(rows, 5)
    base = 1.0 / (np.arange(TEXT_V) + 10.0)
    cum = []
    for _ in range(TEXT_K):
        p = base * np.exp(rng.normal(0.0, 0.5, TEXT_V))
        cum.append(np.cumsum(p / p.sum()))
    prior = np.arange(1, TEXT_K + 1, dtype=float)
    prior /= prior.sum()
    y = rng.choice(TEXT_K, size=n, p=prior)
    lengths = np.maximum(1, rng.poisson(TEXT_LEN, n))
    words = np.array([f"w{i}" for i in range(TEXT_V)], dtype=object)
    tmp = os.path.join(d, "text.csv.tmp")
    with open(tmp, "w") as f:
        f.write("text,class\n")
        for lo in range(0, n, CHUNK // 10):
            hi = min(lo + CHUNK // 10, n)
            ends = np.cumsum(lengths[lo:hi])
            tokens = np.empty(ends[-1], dtype=np.int64)
            start = 0
            for i in range(lo, hi):
                end = ends[i - lo]
                tokens[start:end] = np.searchsorted(cum[y[i]], rng.random(end - start))
                start = end
            tokens = np.minimum(tokens, TEXT_V - 1)
            docs = np.split(words[tokens], ends[:-1])
            f.write("".join(f"{' '.join(doc)},c{c}\n" for doc, c in zip(docs, y[lo:hi])))
    os.replace(tmp, os.path.join(d, "text.csv"))


# name -> (data sets it is made from, generator, files it writes)
DATASETS = {
    "dense": ([], gen_dense, ["X.npy", "y.npy"]),
    "csv": (["dense"], gen_csv, ["data.csv"]),
    "csvgz": (["csv"], gen_csvgz, ["data.csv.gz"]),
    "gda": ([], gen_gda, ["gda_X.npy", "gda_y.npy"]),
    "logit": ([], gen_logit, ["logit_X.npy", "logit_y2.npy", "logit_y5.npy"]),
    "gmm": ([], gen_gmm, ["gmm_X.npy", "gmm_weights.npy", "gmm_means.npy", "gmm_covariances.npy"]),
    "text": ([], gen_text, ["text.csv"]),
}


def ensure(d, rows, name, made):
    """Generates data set name (and what it is made from) unless its files
    and stamp are there; made maps each data set seen to whether this run
    generated it. A data set made from a regenerated one is regenerated."""
    if name in made:
        return
    deps, gen, files = DATASETS[name]
    for dep in deps:
        ensure(d, rows, dep, made)
    stamp_path = os.path.join(d, name + ".json")
    stamp = {"dataset": name, "rows": rows, "seed": SEED, "version": VERSION}
    try:
        with open(stamp_path) as f:
            fresh = json.load(f) == stamp
    except (OSError, ValueError):
        fresh = False
    fresh = fresh and not any(made[dep] for dep in deps)
    if fresh and all(os.path.exists(os.path.join(d, p)) for p in files):
        made[name] = False
        return
    print(f"gendata: generating {name} ({rows} rows) in {d}", file=sys.stderr)
    gen(d, rows)
    with open(stamp_path, "w") as f:
        json.dump(stamp, f)
    made[name] = True


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--dir", required=True)
    ap.add_argument("--rows", type=int, required=True)
    ap.add_argument("datasets", nargs="+", choices=sorted(DATASETS))
    a = ap.parse_args()
    os.makedirs(a.dir, exist_ok=True)
    made = {}
    for name in a.datasets:
        ensure(a.dir, a.rows, name, made)


if __name__ == "__main__":
    main()
