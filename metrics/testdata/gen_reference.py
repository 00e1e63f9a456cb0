#!/usr/bin/python3
"""Reference values for package metrics, from scikit-learn 1.2.1.

Run from the repository root with Debian's Python (which has scikit-learn):

    /usr/bin/python3 metrics/testdata/gen_reference.py > metrics/testdata/reference.json

The inputs are fixed pseudo-random predictions (numpy seed 1), rounded to a
coarse grid so that scores tie across rows and, in some rows, within a row
(argmax ties go to the lowest index, like numpy's argmax). Undefined values
(the ROC AUC of a class absent from y, a rate whose denominator is 0) are
written as null. scikit-learn 1.2.1 has no zero_division=np.nan (1.3 added
it): the per-class figures come from zero_division=0 with null put where
the denominator is 0, and the averages of precision, recall and F1 over
the classes where they are defined are computed here, as 1.3's
zero_division=np.nan averages them.
"""
import json
import math
import sys

import numpy as np
import scipy.stats
import sklearn
from sklearn import metrics as skm

assert sklearn.__version__ == "1.2.1", sklearn.__version__

rng = np.random.default_rng(1)


def floats(a):
    return [None if (v is None or not math.isfinite(v)) else float(v) for v in np.ravel(a)]


def binary_inputs(n):
    # p1 on a 0.05 grid, including exact 0 and 1 (log-loss clipping).
    p1 = np.round(rng.uniform(0, 1, n) * 20) / 20
    y = (rng.uniform(0, 1, n) < 0.2 + 0.6 * p1).astype(int)
    return y, np.column_stack([1 - p1, p1])


def multi_inputs(n):
    k = 3
    fixed = np.array([[1 / 3, 1 / 3, 1 / 3], [0.4, 0.4, 0.2], [0.2, 0.4, 0.4],
                      [1.0, 0.0, 0.0], [0.0, 0.5, 0.5], [0.5, 0.25, 0.25]])
    p = rng.dirichlet(np.ones(k), n)
    p = np.round(p * 10) / 10  # ties across rows
    p[:, -1] = 1 - p[:, :-1].sum(axis=1)
    bad = p[:, -1] < 0
    p[bad] = fixed[0]
    pick = rng.uniform(0, 1, n) < 0.3
    p[pick] = fixed[rng.integers(0, len(fixed), pick.sum())]
    y = np.array([rng.choice(k, p=0.5 * row + 0.5 / k) for row in p])
    return y, p


def undefined_where(x, denominator):
    """x as floats with NaN where the denominator is 0."""
    x = np.array(x, dtype=float)
    x[np.asarray(denominator) == 0] = np.nan
    return x


def nanaverage(x, weights):
    """The average of x over its defined entries, NaN when there is none."""
    ok = ~np.isnan(x)
    if not ok.any() or np.sum(np.asarray(weights)[ok]) == 0:
        return float("nan")
    return float(np.average(x[ok], weights=np.asarray(weights)[ok]))


def class_case(name, classes, y, p, w):
    K = len(classes)
    labels = list(range(K))
    pred = np.argmax(p, axis=1)
    onehot = np.eye(K)[y]
    conf = skm.confusion_matrix(y, pred, labels=labels, sample_weight=w)
    predicted, truly = conf.sum(axis=0), conf.sum(axis=1)
    prec, rec, f1, sup = skm.precision_recall_fscore_support(
        y, pred, labels=labels, sample_weight=w, zero_division=0)
    prec, rec = undefined_where(prec, predicted), undefined_where(rec, truly)
    f1 = undefined_where(f1, predicted + truly)
    support = np.bincount(y, weights=w, minlength=K)
    avg = {}
    for a, aw in (("macro", np.ones(K)), ("weighted", support)):
        avg[a] = {"precision": nanaverage(prec, aw), "recall": nanaverage(rec, aw), "f1": nanaverage(f1, aw)}
    auc = []
    for k in range(K):
        try:
            auc.append(skm.roc_auc_score(y == k, p[:, k], sample_weight=w))
        except ValueError:
            auc.append(None)
    for a in ("macro", "weighted"):
        if None in auc:
            avg[a]["roc_auc"] = None
        elif K == 2:
            # sklearn's multi_class="ovr" needs K > 2; the average of the
            # per-class (one-vs-rest) scores defines it for K = 2.
            avg[a]["roc_auc"] = float(np.average(auc, weights=None if a == "macro" else sup))
        else:
            avg[a]["roc_auc"] = skm.roc_auc_score(
                y, p, multi_class="ovr", average=a, labels=labels, sample_weight=w)
    out = {
        "name": name,
        "classes": classes,
        "y": [int(v) for v in y],
        "proba": floats(p),
        "weight": None if w is None else floats(w),
        "accuracy": skm.accuracy_score(y, pred, sample_weight=w),
        "log_loss": skm.log_loss(y, p, sample_weight=w, labels=labels),
        "brier": float(np.average(((p - onehot) ** 2).sum(axis=1), weights=w)),
        "confusion": skm.confusion_matrix(y, pred, labels=labels, sample_weight=w).astype(float).tolist(),
        "precision": floats(prec), "recall": floats(rec), "f1": floats(f1),
        "support": floats(np.bincount(y, weights=w, minlength=K)),
        "roc_auc": floats(auc),
        "macro": {k: (None if v is None or not math.isfinite(v) else float(v)) for k, v in avg["macro"].items()},
        "weighted": {k: (None if v is None or not math.isfinite(v) else float(v)) for k, v in avg["weighted"].items()},
    }
    # sklearn's precision_recall_fscore_support gives no support when
    # weighted; check ours against the plain weighted count as well.
    assert np.allclose(sup, out["support"])
    if K == 2:
        tn, fp, fn, tp = skm.confusion_matrix(y, pred, labels=labels, sample_weight=w).ravel()
        kw = dict(sample_weight=w, zero_division=0)
        auc1 = None
        if 0 < y.sum() < len(y):
            auc1 = skm.roc_auc_score(y, p[:, 1], sample_weight=w)
        def maybe(v, denominator):
            return float(v) if denominator > 0 else None
        out["binary"] = {
            "tp": float(tp), "fp": float(fp), "fn": float(fn), "tn": float(tn),
            "precision": maybe(skm.precision_score(y, pred, **kw), tp + fp),
            "recall": maybe(skm.recall_score(y, pred, **kw), tp + fn),
            "specificity": maybe(skm.recall_score(y, pred, pos_label=0, **kw), tn + fp),
            "f1": maybe(skm.f1_score(y, pred, **kw), tp + fp + fn),
            "type_i_error_rate": maybe(fp / (fp + tn) if fp + tn > 0 else 0, fp + tn),
            "type_ii_error_rate": maybe(fn / (fn + tp) if fn + tp > 0 else 0, fn + tp),
            "roc_auc": auc1,
            "brier_score_loss": skm.brier_score_loss(y, p[:, 1], sample_weight=w),
        }
    return out


def regression_case(name, y, pred, w):
    r = y - pred
    sigma2 = np.average(r ** 2, weights=w)
    ww = np.ones_like(y) if w is None else w
    ll = float(np.sum(ww * scipy.stats.norm.logpdf(y, pred, math.sqrt(sigma2))))
    return {
        "name": name,
        "y": floats(y), "pred": floats(pred),
        "weight": None if w is None else floats(w),
        "mse": skm.mean_squared_error(y, pred, sample_weight=w),
        "rmse": skm.mean_squared_error(y, pred, sample_weight=w, squared=False),
        "mae": skm.mean_absolute_error(y, pred, sample_weight=w),
        "r2": skm.r2_score(y, pred, sample_weight=w),
        "sigma2": float(sigma2),
        "log_likelihood": ll,
        "mean_log_likelihood": ll / float(np.sum(ww)),
    }


def weights(n):
    w = rng.uniform(0, 3, n)
    w[rng.uniform(0, 1, n) < 0.1] = 0  # zero weights are allowed
    return w


cases = []
y, p = binary_inputs(200)
cases.append(class_case("binary", ["no", "yes"], y, p, None))
cases.append(class_case("binary_weighted", ["no", "yes"], y, p, weights(200)))
y, p = binary_inputs(40)
p = np.column_stack([np.maximum(p[:, 0], 0.55), 1 - np.maximum(p[:, 0], 0.55)])
cases.append(class_case("binary_never_positive", ["neg", "pos"], y, p, None))
y, p = multi_inputs(300)
cases.append(class_case("multi", ["a", "b", "c"], y, p, None))
cases.append(class_case("multi_weighted", ["a", "b", "c"], y, p, weights(300)))
y, p = multi_inputs(60)
p = np.column_stack([p, np.zeros(60)])  # class "d" neither true nor predicted: AUC undefined
cases.append(class_case("multi_absent_class", ["a", "b", "c", "d"], y, p, None))

reg = []
n = 150
x = rng.normal(0, 1, n)
yr = 2 * x + rng.normal(0, 0.5, n) + 10
pr = 2.1 * x + 9.9
reg.append(regression_case("regression", yr, pr, None))
reg.append(regression_case("regression_weighted", yr, pr, weights(n)))
reg.append(regression_case("regression_constant_y", np.full(20, 3.0), rng.normal(3, 1, 20), None))

# Drawn last, so that the cases above keep their inputs.
y, p = binary_inputs(30)
y[:] = 1  # no negative row: specificity and the type I error rate undefined
cases.append(class_case("binary_no_negatives", ["neg", "pos"], y, p, None))

json.dump({"sklearn": sklearn.__version__, "classification": cases, "regression": reg},
          sys.stdout, indent=1)
sys.stdout.write("\n")
