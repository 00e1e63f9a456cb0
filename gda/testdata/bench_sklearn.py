#!/usr/bin/python3
"""Time scikit-learn on the shape of the Go benchmarks of package gda.

    env -u OPENBLAS_CORETYPE -u OPENBLAS_L2_SIZE /usr/bin/python3 gda/testdata/bench_sklearn.py

500,000 rows, 100 features, 5 classes, generated as gda_bench_test.go does
(each class its own mean, banded covariance x_j = z_j + z_{j-1}/2 + mu_kj;
the draws differ, the timings do not depend on them). Times
LinearDiscriminantAnalysis() (default solver 'svd') and
QuadraticDiscriminantAnalysis() fit and predict_proba, best of two, wall
and CPU (process time, all threads). Compare with

    go test -run '^$' -bench . -benchtime 3x ./gda
    GOEXPERIMENT=simd go test -run '^$' -bench . -benchtime 3x ./gda
"""
import time

import numpy as np
from sklearn.discriminant_analysis import LinearDiscriminantAnalysis as LDA
from sklearn.discriminant_analysis import QuadraticDiscriminantAnalysis as QDA


def best(f):
    out = (float("inf"), float("inf"))
    for _ in range(2):
        w, c = time.perf_counter(), time.process_time()
        f()
        out = min(out, (time.perf_counter() - w, time.process_time() - c))
    return out


def main():
    rng = np.random.default_rng(1)
    n, p, k = 500_000, 100, 5
    y = rng.integers(0, k, n)
    mu = rng.normal(size=(k, p))
    z = rng.normal(size=(n, p))
    X = z + mu[y]
    X[:, 1:] += z[:, :-1] / 2
    lda, qda = LDA().fit(X, y), QDA().fit(X, y)
    for name, f in [
        ("lda fit (svd)", lambda: LDA().fit(X, y)),
        ("qda fit", lambda: QDA().fit(X, y)),
        ("lda predict_proba", lambda: lda.predict_proba(X)),
        ("qda predict_proba", lambda: qda.predict_proba(X)),
    ]:
        w, c = best(f)
        print("%-18s wall %6.2f s  cpu %6.2f s" % (name, w, c), flush=True)


if __name__ == "__main__":
    main()
