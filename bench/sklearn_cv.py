#!/usr/bin/python3
"""The scikit-learn side of bench/cv: cross-validation on the arrays that
benchcv gen writes.

    sklearn_cv.py --dir DIR --reps R [--loo-splits S] gnb|lda|tune

gnb times GaussianNB().fit(X, y) and cross_validate(GaussianNB(), X, y,
cv=StratifiedKFold(10), scoring=SCORING): with the figures that gendisc's
cross-validation reports per fold (accuracy, log-loss, Brier score, ROC
AUC, F1, precision, recall), so that both sides do the same work.

lda times LinearDiscriminantAnalysis().fit(X, y) and its leave-one-out,
cross_validate(LinearDiscriminantAnalysis(), X, y, cv=LeaveOneOut()),
scored by accuracy. With --loo-splits S (0: all) only the first S of the
n leave-one-out splits run and the time is extrapolated to n (times n/S):
every split is a fit of n - 1 rows, so the time is linear in the splits.

tune times LogisticRegressionCV(Cs=13, cv=5).fit(X, y) on the arrays
that benchcv gen-tune writes: 13 values of C = 1e-4 ... 1e4 (log-spaced),
stratified 5-fold (unshuffled), scored by the accuracy, each fold's path
warm-started from the largest penalty, and the refit of the best C on
all the rows; the answer is the chosen C, its mean accuracy over the
folds, and the refit model's accuracy on the test set (tune_test_*.npy).

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
from sklearn.linear_model import LogisticRegressionCV
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
    ap.add_argument("workload", choices=["gnb", "lda", "tune"])
    a = ap.parse_args()
    X = np.load(os.path.join(a.dir, a.workload + "_X.npy"))
    y = np.load(os.path.join(a.dir, a.workload + "_y.npy")).astype(np.int64)
    res = {"side": "sklearn", "workload": a.workload, "loadavg": [os.getloadavg()[0]],
           "versions": {"sklearn": sklearn.__version__, "numpy": np.__version__}, "ops": [], "answer": {}}
    ops = res["ops"]
    if a.workload == "tune":
        m = timed(ops, "tune", a.reps, lambda: LogisticRegressionCV(Cs=13, cv=5).fit(X, y))
        Xt = np.load(os.path.join(a.dir, "tune_test_X.npy"))
        yt = np.load(os.path.join(a.dir, "tune_test_y.npy")).astype(np.int64)
        best = int(np.argmax(m.scores_[1].mean(axis=0)))
        res["answer"].update(C=float(m.C_[0]), l2=1 / float(m.C_[0]), cv_accuracy=float(m.scores_[1].mean(axis=0)[best]),
                             test_accuracy=float(m.score(Xt, yt)))
    elif a.workload == "gnb":
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
