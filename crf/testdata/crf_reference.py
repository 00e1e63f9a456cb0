#!/usr/bin/env python3
"""Reference values for package crf's objective, written from the formulas.

For a tiny data set it computes, at fixed weights, CRFsuite's L2-penalised
negative conditional log-likelihood of a first-order linear-chain CRF

    f(w) = sum_i [ log Z(x_i) - score(x_i, y_i) ] + c2 * ||w||^2
    score(x, y) = sum_t sum_{(a, v) in x_t} v * mu(a, y_t)
                  + sum_{t > 1} lambda(y_{t-1}, y_t)

and its gradient

    df/dw_k = sum_i [ E_{p(y | x_i)} F_k(x_i, y) - F_k(x_i, y_i) ] + 2 c2 w_k

by enumerating every label sequence (no forward-backward), with a state
feature mu(a, y) for each attribute-label pair seen in training and a
transition feature lambda(y', y) for each label bigram seen. Plain Python
(math.fsum), no numpy. Run from this directory:

    python3 crf_reference.py > crf_reference.json

The Go test (TestReferenceObjective) reads the JSON and compares by feature
name, to 1e-9 relative.
"""
import itertools
import json
import math

# The data set: (attributes of each item as (name, value), labels).
DATA = [
    ([[("w=the", 1), ("bias", 1)], [("w=dog", 1), ("suf=og", 0.5), ("bias", 1)], [("w=runs", 1), ("bias", 1)]],
     ["D", "N", "V"]),
    ([[("w=a", 1), ("bias", 1)], [("w=cat", 1), ("bias", 1), ("cap", 2)]], ["D", "N"]),
    ([[("w=dogs", 1), ("suf=gs", 1.5), ("bias", 1)], [("w=run", 1), ("bias", 1)], [("w=the", 1), ("bias", 1)],
      [("w=dog", 1), ("bias", 1)]], ["N", "V", "D", "N"]),
    ([[("w=runs", 1), ("bias", 1)]], ["V"]),
]
C2 = 0.7


def main():
    labels = sorted({y for _, ys in DATA for y in ys})
    state = sorted({(a, y) for xs, ys in DATA for x, y in zip(xs, ys) for a, _ in x})
    trans = sorted({(ys[t - 1], ys[t]) for _, ys in DATA for t in range(1, len(ys))})
    # Fixed weights, different for every feature, some negative.
    mu = {k: math.sin(1.3 * i + 0.4) for i, k in enumerate(state)}
    lam = {k: math.cos(0.9 * i + 0.2) for i, k in enumerate(trans)}

    def counts(xs, ys):
        """The feature vector F(x, y) as a dict."""
        c = {}
        for x, y in zip(xs, ys):
            for a, v in x:
                if (a, y) in mu:
                    c[("s",) + (a, y)] = c.get(("s", a, y), 0.0) + v
        for t in range(1, len(ys)):
            if (ys[t - 1], ys[t]) in lam:
                k = ("t", ys[t - 1], ys[t])
                c[k] = c.get(k, 0.0) + 1.0
        return c

    def weight(k):
        return mu[k[1:]] if k[0] == "s" else lam[k[1:]]

    def score(c):
        return math.fsum(v * weight(k) for k, v in c.items())

    f_terms = []
    grad_terms = {}
    for xs, ys in DATA:
        paths = list(itertools.product(labels, repeat=len(xs)))
        cs = [counts(xs, p) for p in paths]
        scores = [score(c) for c in cs]
        m = max(scores)
        log_z = m + math.log(math.fsum(math.exp(s - m) for s in scores))
        observed = counts(xs, ys)
        f_terms += [log_z, -score(observed)]
        for c, s in zip(cs, scores):
            p = math.exp(s - log_z)
            for k, v in c.items():
                grad_terms.setdefault(k, []).append(p * v)
        for k, v in observed.items():
            grad_terms.setdefault(k, []).append(-v)
    keys = [("s",) + k for k in state] + [("t",) + k for k in trans]
    f_terms += [C2 * weight(k) ** 2 for k in keys]
    out = {
        "c2": C2,
        "data": [{"items": [[[a, v] for a, v in x] for x in xs], "labels": ys} for xs, ys in DATA],
        "state": [{"attr": a, "label": y, "weight": mu[(a, y)],
                   "gradient": math.fsum(grad_terms.get(("s", a, y), []) + [2 * C2 * mu[(a, y)]])}
                  for a, y in state],
        "transitions": [{"from": p, "to": q, "weight": lam[(p, q)],
                         "gradient": math.fsum(grad_terms.get(("t", p, q), []) + [2 * C2 * lam[(p, q)]])}
                        for p, q in trans],
        "objective": math.fsum(f_terms),
    }
    json.dump(out, __import__("sys").stdout, indent=1)
    print()


if __name__ == "__main__":
    main()
