#!/usr/bin/env python3
"""Reference values for ngram's ARPA tests, from an implementation of the
ARPA format written from its definition (SRILM's ngram-format(5)), which
shares no code with gendisc.

  python3 arpa_reference.py read DIR > arpa_reference.json
      scores every DIR/NAME.tok (one sentence a line, tokens separated by
      spaces) with DIR/NAME.arpa, as ARPA readers do: one <s> in front,
      </s> at the end, every token after <s> predicted, a word that is
      not a unigram read as <unk>; log10 P(w | h) is the listed value of
      hw, else bo(h) + log10 P(w | h without its first word), bo(h) 0
      for a context not listed. Writes, per NAME, the SHA-256 of the
      ARPA file and the log10 probability of each sentence. The files
      come from `go test ./ngram -run TestARPAReaders -arpa-out DIR`.

  python3 arpa_reference.py write > arpa/other.json
      fits its own trigram model (interpolated absolute discounting,
      D = 0.75, over an add-one unigram) on arpa/corpus.txt, writes it
      as arpa/other.arpa, and writes the log10 probability its model
      gives each held-out sentence of arpa/heldout.txt, computed from
      the model's formulas, not from the file.
"""
import hashlib
import json
import math
import os
import sys
from collections import Counter, defaultdict


def read_arpa(path):
    grams, order, sec = {}, 0, None
    for line in open(path, encoding="utf-8"):
        s = line.strip()
        if not s:
            continue
        if s == "\\data\\":
            sec = 0
        elif s == "\\end\\":
            break
        elif s.startswith("\\") and s.endswith("-grams:"):
            sec = int(s[1:-len("-grams:")])
            order = max(order, sec)
        elif sec:
            f = s.split()
            bo = float(f[1 + sec]) if len(f) > 1 + sec else 0.0
            grams[tuple(f[1:1 + sec])] = (float(f[0]), bo)
    return grams, order


def log10p(grams, order, h, w):
    h = h[max(0, len(h) - (order - 1)):]
    bo = 0.0
    while (h + (w,)) not in grams:
        bo += grams.get(h, (0.0, 0.0))[1]
        h = h[1:]
    return bo + grams[h + (w,)][0]


def score(grams, order, tokens):
    seq = ["<s>"] + [t if (t,) in grams else "<unk>" for t in tokens] + ["</s>"]
    return sum(log10p(grams, order, tuple(seq[:i]), seq[i]) for i in range(1, len(seq)))


def read(d):
    out = {}
    for name in sorted(f[:-5] for f in os.listdir(d) if f.endswith(".arpa")):
        path = os.path.join(d, name + ".arpa")
        grams, order = read_arpa(path)
        sents = [l.split() for l in open(os.path.join(d, name + ".tok"), encoding="utf-8")]
        out[name] = {
            "sha256": hashlib.sha256(open(path, "rb").read()).hexdigest(),
            "log10": [score(grams, order, s) for s in sents],
        }
    json.dump(out, sys.stdout, indent=1)
    print()


D = 0.75


def write():
    here = os.path.dirname(os.path.abspath(__file__))
    corpus = [l.split() for l in open(os.path.join(here, "arpa", "corpus.txt"), encoding="utf-8")]
    heldout = [l.split() for l in open(os.path.join(here, "arpa", "heldout.txt"), encoding="utf-8")]
    vocab = sorted({w for s in corpus for w in s} | {"</s>", "<unk>"})
    c = [Counter(), Counter(), Counter()]  # counts of 1-, 2- and 3-grams
    for s in corpus:
        seq = ["<s>"] + s + ["</s>"]
        for n in (1, 2, 3):
            for i in range(1, len(seq)):
                if i - n + 1 >= 0:
                    c[n - 1][tuple(seq[i - n + 1:i + 1])] += 1
    total = sum(v for k, v in c[0].items() if k != ("<s>",))
    V = len(vocab)
    ctx = [defaultdict(lambda: [0, 0]), defaultdict(lambda: [0, 0])]  # h -> [c(h.), N1+(h.)]
    for n in (2, 3):
        for g, v in c[n - 1].items():
            e = ctx[n - 2][g[:-1]]
            e[0] += v
            e[1] += 1

    def p(h, w):
        if not h:
            return (c[0][(w,)] + 1) / (total + V)
        e = ctx[len(h) - 1].get(h)
        lower = p(h[1:], w)
        if e is None:
            return lower
        return max(c[len(h)][h + (w,)] - D, 0) / e[0] + D * e[1] / e[0] * lower

    def bo(h):
        e = ctx[len(h) - 1].get(h)
        return D * e[1] / e[0]

    path = os.path.join(here, "arpa", "other.arpa")
    with open(path, "w", encoding="utf-8") as f:
        grams = [[(w,) for w in vocab] + [("<s>",)], sorted(c[1]), sorted(c[2])]
        f.write("\\data\\\n")
        for n, gs in enumerate(grams, 1):
            f.write("ngram %d=%d\n" % (n, len(gs)))
        for n, gs in enumerate(grams, 1):
            f.write("\n\\%d-grams:\n" % n)
            for g in sorted(gs):
                lp = -99.0 if g == ("<s>",) else math.log10(p(g[:-1], g[-1]))
                line = "%.17g\t%s" % (lp, " ".join(g))
                if n < 3 and g in ctx[n - 1]:
                    line += "\t%.17g" % math.log10(bo(g))
                f.write(line + "\n")
        f.write("\n\\end\\\n")
    out = []
    for s in heldout:
        seq = ["<s>"] + [w if (w,) in c[0] else "<unk>" for w in s] + ["</s>"]
        lp = sum(math.log10(p(tuple(seq[max(0, i - 2):i]), seq[i])) for i in range(1, len(seq)))
        out.append({"tokens": s, "log10": lp})
    json.dump(out, sys.stdout, indent=1)
    print()


if __name__ == "__main__":
    {"read": lambda: read(sys.argv[2]), "write": write}[sys.argv[1]]()
