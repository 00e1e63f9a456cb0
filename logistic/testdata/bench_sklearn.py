#!/usr/bin/python3
"""Time scikit-learn on the data of the Go benchmarks of package logistic.

    go test ./logistic -run ExportBenchData -logistic.export DIR
    /usr/bin/python3 bench_sklearn.py DIR > bench_sklearn.json

For K = 2 and 5: StandardScaler, then LogisticRegression(C=1, lbfgs,
tol=1e-6, multinomial for K = 5) as the issue's figures were measured;
writes as JSON the fit time, wall and CPU (scaling included), the iterations and the
final objective J = -sum log P(y|x) + 1/2 |w|^2 (C = 1/lambda = 1), the
figure the Go fit must reach within 1e-8 relative (the Go benchmarks
report their relative difference to it).
"""
import json
import os
import sys
import time

import numpy as np
from scipy.special import log_softmax
from sklearn.linear_model import LogisticRegression
from sklearn.preprocessing import StandardScaler


def main(d):
    out = {}
    for K in (2, 5):
        X = np.fromfile(os.path.join(d, f"X_{K}.bin"), dtype="<f8").reshape(-1, 100)
        y = np.fromfile(os.path.join(d, f"y_{K}.bin"), dtype="<f8").astype(int)
        t0, c0 = time.perf_counter(), time.process_time()
        Z = StandardScaler().fit_transform(X)
        m = LogisticRegression(C=1.0, tol=1e-6, max_iter=10_000, solver="lbfgs",
                               multi_class="multinomial" if K > 2 else "auto")
        m.fit(Z, y)
        t, c = time.perf_counter() - t0, time.process_time() - c0
        s = m.decision_function(Z)
        if K == 2:
            lp = np.column_stack([-np.logaddexp(0, s), -np.logaddexp(0, -s)])
        else:
            lp = log_softmax(s, axis=1)
        J = -lp[np.arange(len(y)), y].sum() + 0.5 * (m.coef_ ** 2).sum()
        out[str(K)] = {"rows": len(y), "seconds": round(t, 3), "cpu_seconds": round(c, 3), "iterations": int(m.n_iter_[0]), "objective": J}
    json.dump(out, sys.stdout, indent=1)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main(sys.argv[1])
