"""Reference perplexities of word n-gram language models on tinyshakespeare.

An implementation of package ngram's estimators written apart from the Go
code, from the formulas of its doc comments, with Python dictionaries:

- tokens: lower-cased maximal runs of letters and numbers ([^\\W_]+), each
  non-empty line a document, padded with n-1 "<s>" and one "</s>";
- vocabulary: the words seen at least min_count times, "<unk>" and "</s>";
- highest-order counts c(hw); below it the raw suffix sums, or for
  Kneser-Ney the continuation counts N1+(. hw);
- interpolated modified Kneser-Ney (Chen & Goodman 1998) with the discounts
  from the counts of counts of each order, interpolated Witten-Bell, Lidstone
  and MLE, a context never seen taking its shorter context's distribution.

The first 90% of the non-empty lines train, the rest are held out.
Run from this directory:

    python3 reference.py ../../datasets/corpus/tinyshakespeare.txt.gz > reference.json

It writes the perplexity of the held-out lines (of the training lines for
MLE, whose held-out perplexity is infinite) for each setting.
"""
import gzip
import json
import math
import re
import sys
from collections import Counter, defaultdict

WORD = re.compile(r"[^\W_]+")


def tokenize(doc):
    return WORD.findall(doc.lower())


class Model:
    def __init__(self, docs, n, smoothing, alpha=1.0, min_count=1):
        self.n, self.smoothing, self.alpha = n, smoothing, alpha
        toks = [tokenize(d) for d in docs]
        wc = Counter(w for t in toks for w in t)
        self.vocab = {w for w, c in wc.items() if c >= min_count}
        self.V = len(self.vocab) + 2  # the words, <unk> and </s>
        counts = {n: Counter()}
        for t in toks:
            seq = ["<s>"] * (n - 1) + [self.map(w) for w in t] + ["</s>"]
            for i in range(n - 1, len(seq)):
                counts[n][tuple(seq[i - n + 1 : i + 1])] += 1
        for k in range(n - 1, 0, -1):
            counts[k] = Counter()
            for g, c in counts[k + 1].items():
                counts[k][g[1:]] += 1 if smoothing == "kneser-ney" else c
        self.counts = counts
        # per order: context -> [c(h.), N1(h.), N2(h.), N3+(h.)]
        self.ctx = {}
        self.disc = {}
        for k in range(1, n + 1):
            ctx = defaultdict(lambda: [0, 0, 0, 0])
            coc = Counter()
            for g, c in counts[k].items():
                s = ctx[g[:-1]]
                s[0] += c
                s[min(c, 3)] += 1
                coc[c] += 1
            self.ctx[k] = dict(ctx)
            self.disc[k] = discounts(coc[1], coc[2], coc[3], coc[4])

    def map(self, w):
        return w if w in self.vocab else "<unk>"

    def p(self, k, h, w):
        """P_k(w | h), h the k-1 words before w."""
        if self.smoothing == "lidstone":
            tot = self.ctx[self.n].get(h, [0])[0]
            return (self.counts[self.n].get(h + (w,), 0) + self.alpha) / (tot + self.alpha * self.V)
        if k == 0:
            return 1.0 / self.V
        lower = self.p(k - 1, h[1:], w)
        if h not in self.ctx[k]:
            return lower
        tot, n1, n2, n3 = self.ctx[k][h]
        c = self.counts[k].get(h + (w,), 0)
        if self.smoothing == "kneser-ney":
            d = self.disc[k]
            gamma = d[1] * n1 + d[2] * n2 + d[3] * n3
            return (max(c - d[min(c, 3)], 0) + gamma * lower) / tot
        if self.smoothing == "witten-bell":
            u = n1 + n2 + n3
            return (c + u * lower) / (tot + u)
        if self.smoothing == "mle":
            return c / tot
        raise ValueError(self.smoothing)

    def perplexity(self, docs):
        lp, tokens = 0.0, 0
        for d in docs:
            seq = ["<s>"] * (self.n - 1) + [self.map(w) for w in tokenize(d)] + ["</s>"]
            for i in range(self.n - 1, len(seq)):
                lp += math.log(self.p(self.n, tuple(seq[i - self.n + 1 : i]), seq[i]))
                tokens += 1
        return math.exp(-lp / tokens)


def discounts(n1, n2, n3, n4):
    def ratio(a, b):
        return a / b if b else 0.0

    y = ratio(n1, n1 + 2 * n2)
    d = [0.0, 1 - 2 * y * ratio(n2, n1), 2 - 3 * y * ratio(n3, n2), 3 - 4 * y * ratio(n4, n3)]
    return [d[0]] + [min(max(d[r], 0.0), float(r)) for r in (1, 2, 3)]


SETTINGS = [
    # name, order, smoothing, alpha, min_count, on the training lines
    ("kn3", 3, "kneser-ney", 1.0, 1, False),
    ("kn2", 2, "kneser-ney", 1.0, 1, False),
    ("kn4", 4, "kneser-ney", 1.0, 1, False),
    ("kn3_min2", 3, "kneser-ney", 1.0, 2, False),
    ("wb3", 3, "witten-bell", 1.0, 1, False),
    ("laplace3", 3, "lidstone", 1.0, 1, False),
    ("lidstone3_0.01", 3, "lidstone", 0.01, 1, False),
    ("mle3_train", 3, "mle", 1.0, 1, True),
]


def main():
    with gzip.open(sys.argv[1], "rt", encoding="utf-8") as f:
        lines = [l for l in f.read().split("\n") if l != ""]
    cut = len(lines) * 9 // 10
    train, test = lines[:cut], lines[cut:]
    out = {"train_lines": len(train), "test_lines": len(test), "perplexity": {}}
    for name, n, sm, alpha, mc, on_train in SETTINGS:
        m = Model(train, n, sm, alpha, mc)
        out["perplexity"][name] = m.perplexity(train if on_train else test)
        if name == "kn3":
            out["kn3_discounts"] = [m.disc[k][1:] for k in range(1, n + 1)]
    json.dump(out, sys.stdout, indent=1)
    print()


if __name__ == "__main__":
    main()
