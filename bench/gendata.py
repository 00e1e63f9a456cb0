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


# name -> (data sets it is made from, generator, files it writes)
DATASETS = {
    "dense": ([], gen_dense, ["X.npy", "y.npy"]),
    "csv": (["dense"], gen_csv, ["data.csv"]),
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
