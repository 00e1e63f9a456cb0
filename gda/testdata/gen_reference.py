#!/usr/bin/python3
"""Reference values for package gda from scikit-learn 1.2.1.

Run from the repository root with Debian's python3 (which has sklearn):

    /usr/bin/python3 gda/testdata/gen_reference.py ../shared/datasets > gda/testdata/reference.json

For each bundled data set and configuration it records the predict_proba of
every training row (and, for the shrunk LDA, the probabilities of its fitted
parameters computed with a well-conditioned solve, see exact()), and the fitted means, covariance(s), linear form and
discriminant coordinates where they apply. How gendisc's settings map to
scikit-learn:

  lda, estimator mle           LinearDiscriminantAnalysis(solver='lsqr')
  lda, estimator unbiased      LinearDiscriminantAnalysis(solver='svd')
  lda, shrinkage r or auto     LinearDiscriminantAnalysis(solver='lsqr', shrinkage=r or 'auto')
  lda transform                LinearDiscriminantAnalysis(solver='eigen').transform
  qda, estimator unbiased      QuadraticDiscriminantAnalysis(reg_param=0)

scikit-learn's lsqr/eigen solvers weight the class covariances by the
priors; gendisc weights them by the class weights, so fixed priors are only
compared with the svd solver and QDA. Columns that are constant (within a
class, for QDA) make the covariance singular: they are dropped here, and the
Go tests check the error separately.
"""
import json
import os
import sys

import numpy as np
import pandas as pd
from scipy.special import softmax
from sklearn.discriminant_analysis import LinearDiscriminantAnalysis as LDA
from sklearn.discriminant_analysis import QuadraticDiscriminantAnalysis as QDA

DATASETS = {
    # name: (columns dropped for LDA, columns dropped for QDA)
    "iris": ([], []),
    "wine": ([], []),
    "breast_cancer_wdbc": ([], []),
    "ionosphere": (["V2"], ["V1", "V2"]),
    "sonar": ([], []),
}


def flat(a):
    return [float(v) for v in np.asarray(a, dtype=float).ravel()]


def uniform(classes):
    return {c: 1.0 / len(classes) for c in classes}


def skewed(classes):
    w = np.arange(1, len(classes) + 1, dtype=float)
    return {c: float(v) for c, v in zip(classes, w / w.sum())}


def main(src):
    out = {}
    for name, (drop_lda, drop_qda) in DATASETS.items():
        df = pd.read_csv(os.path.join(src, name + ".csv"))
        target = df.columns[-1]
        classes = sorted(df[target].astype(str).unique())
        y = df[target].astype(str).to_numpy()
        cases = []

        def case(kind, drop, config, est, extra=None):
            X = df.drop(columns=[target] + drop).to_numpy(dtype=float)
            est.fit(X, y)
            assert list(est.classes_) == classes
            c = {"kind": kind, "drop": drop, "config": config, "proba": flat(est.predict_proba(X))}
            if extra:
                c.update(extra(est, X))
            cases.append(c)

        def exact(est, X):
            # The probabilities of scikit-learn's fitted LDA parameters,
            # solved on the standardised scale. Its own predict_proba
            # solves with the unscaled covariance (lstsq), whose condition
            # number reaches 1e11 on breast_cancer_wdbc, and is off by up
            # to about 4e-8 there; proba_err records by how much.
            S = est.covariance_
            s = np.sqrt(np.diag(S))
            W = (np.linalg.solve(S / np.outer(s, s), (est.means_ / s).T) / s[:, None]).T
            b = -0.5 * np.sum(est.means_ * W, axis=1) + np.log(est.priors_)
            P = softmax(X @ W.T + b, axis=1)
            return {"covariance": flat(S), "proba_exact": flat(P),
                    "proba_err": float(np.abs(P - est.predict_proba(X)).max())}

        def lda_params(est, X):
            r = {"means": flat(est.means_), "covariance": flat(est.covariance_)}
            if len(classes) == 2:
                r["logistic_w"] = flat(est.coef_[0])
                r["logistic_w0"] = float(est.intercept_[0])
            return r

        case("lda", drop_lda, {"estimator": "mle"}, LDA(solver="lsqr", store_covariance=True), lda_params)
        case("lda", drop_lda, {"estimator": "unbiased"}, LDA(solver="svd"))
        case("lda", drop_lda, {"estimator": "unbiased", "class_prior": skewed(classes)},
             LDA(solver="svd", priors=list(skewed(classes).values())))
        case("lda", drop_lda, {"shrinkage": 0.3}, LDA(solver="lsqr", shrinkage=0.3, store_covariance=True),
             exact)
        case("lda", drop_lda, {"shrinkage_auto": True}, LDA(solver="lsqr", shrinkage="auto", store_covariance=True),
             exact)
        case("lda", drop_lda, {"estimator": "mle"}, LDA(solver="eigen"),
             lambda e, X: {"transform": flat(e.transform(X)), "components": int(e.transform(X).shape[1]),
                           "explained": flat(e.explained_variance_ratio_)})
        case("qda", drop_qda, {"estimator": "unbiased"}, QDA(reg_param=0, store_covariance=True),
             lambda e, X: {"means": flat(e.means_), "covariances": [flat(c) for c in e.covariance_]})
        case("qda", drop_qda, {"estimator": "unbiased", "class_prior": uniform(classes)},
             QDA(reg_param=0, priors=list(uniform(classes).values())))
        out[name] = {"classes": classes, "cases": cases}
    json.dump(out, sys.stdout, separators=(",", ":"))
    sys.stdout.write("\n")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "../shared/datasets")
