"""Reference scores for score_test.go: log p(x) under scikit-learn's
GaussianNB (default var_smoothing 1e-9, priors by maximum likelihood)
fitted on iris, the marginal over the classes of its joint log-likelihood.

Run from the repository root with /usr/bin/python3 (scikit-learn 1.2):

    /usr/bin/python3 internal/cli/testdata/gen_score_reference.py
"""
import json

import pandas as pd
from scipy.special import logsumexp
from sklearn.naive_bayes import GaussianNB

df = pd.read_csv("../shared/datasets/iris.csv")
X, y = df.drop(columns="class").to_numpy(), df["class"].to_numpy()
nb = GaussianNB().fit(X, y)
scores = logsumexp(nb.predict_joint_log_proba(X), axis=1)
with open("internal/cli/testdata/score_reference_iris.json", "w") as f:
    json.dump({"source": "sklearn.naive_bayes.GaussianNB().fit(iris).predict_joint_log_proba, logsumexp over classes",
               "log_p": [float(v) for v in scores]}, f, indent=1)
    f.write("\n")
