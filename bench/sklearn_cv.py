#!/usr/bin/python3
"""The scikit-learn side of bench/cv: cross-validation on the arrays that
benchcv gen writes.

    sklearn_cv.py --dir DIR --reps R [--loo-splits S] gnb|lda

gnb times GaussianNB().fit(X, y) and cross_validate(GaussianNB(), X, y,
cv=StratifiedKFold(10), scoring=SCORING): with the figures that gendisc's
cross-validation reports per fold (accuracy, log-loss, Brier score, ROC
AUC, F1, precision, recall), so that both sides do the same work.

lda times LinearDiscriminantAnalysis().fit(X, y) and its leave-one-out,
cross_validate(LinearDiscriminantAnalysis(), X, y, cv=LeaveOneOut()),
scored by accuracy. With --loo-splits S (0: all) only the first S of the
n leave-one-out splits run and the time is extrapolated to n (times n/S):
every split is a fit of n - 1 rows, so the time is linear in the splits.

Writes one JSON object to standard output, in benchcv's layout.
"""
import argparse
import json
import os
import resource
import time

import numpy as np
import sklearn
from sklearn.discriminant_analysis import LinearDiscriminantAnalysis
from sklearn.model_selection import LeaveOneOut, StratifiedKFold, cross_validate
from sklearn.naive_bayes import GaussianNB

SCORING = ["accuracy", "neg_log_loss", "neg_brier_score", "roc_auc", "f1", "precision", "recall"]


def cpu():
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime


def timed(ops, name, reps, fn, scale=1.0):
    secs, cpus, out = [], [], None
    for _ in range(reps):
        c, t = cpu(), time.perf_counter()
        out = fn()
        secs.append((time.perf_counter() - t) * scale)
        cpus.append((cpu() - c) * scale)
    ops.append({"op": name, "seconds": secs, "cpu_seconds": cpus})
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--dir", required=True)
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--loo-splits", type=int, default=200)
    ap.add_argument("workload", choices=["gnb", "lda"])
    a = ap.parse_args()
    X = np.load(os.path.join(a.dir, a.workload + "_X.npy"))
    y = np.load(os.path.join(a.dir, a.workload + "_y.npy")).astype(np.int64)
    res = {"side": "sklearn", "workload": a.workload, "loadavg": [os.getloadavg()[0]],
           "versions": {"sklearn": sklearn.__version__, "numpy": np.__version__}, "ops": [], "answer": {}}
    ops = res["ops"]
    if a.workload == "gnb":
        timed(ops, "fit", a.reps, lambda: GaussianNB().fit(X, y))
        r = timed(ops, "cv10", a.reps, lambda: cross_validate(GaussianNB(), X, y, cv=StratifiedKFold(10), scoring=SCORING))
        res["answer"]["accuracy"] = float(np.mean(r["test_accuracy"]))
    else:
        timed(ops, "fit", a.reps, lambda: LinearDiscriminantAnalysis().fit(X, y))
        n = len(y)
        s = n if a.loo_splits <= 0 else min(a.loo_splits, n)
        splits = list(LeaveOneOut().split(X))[:s]
        reps = 1 if s == n else a.reps
        r = timed(ops, "loo", reps, lambda: cross_validate(LinearDiscriminantAnalysis(), X, y, cv=splits, scoring="accuracy"), n / s)
        res["answer"]["accuracy"] = float(np.mean(r["test_score"]))
        res["answer"]["loo_splits_run"] = s
    res["loadavg"].append(os.getloadavg()[0])
    print(json.dumps(res))


if __name__ == "__main__":
    main()
