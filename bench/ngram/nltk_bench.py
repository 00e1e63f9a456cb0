"""The NLTK side of bench/ngram/run, and the synthetic corpus.

    nltk_bench.py gen BYTES OUT.txt       # a synthetic corpus of about BYTES bytes
    nltk_bench.py run ORDER TRAIN TEST [MAX_SCORE_TOKENS]

`run` builds nltk.lm.KneserNeyInterpolated(ORDER) on the lines of TRAIN,
tokenized as package ngram tokenizes (lower-cased runs of letters and
numbers; the tokenizing is not timed), padded by nltk's
padded_everygram_pipeline, scores at most MAX_SCORE_TOKENS tokens of the
lines of TEST (nltk's KN scoring is slow: the seconds per token are
reported, and the ratio is taken per token), and prints one JSON object.
Note that nltk.lm pads both sides with ORDER-1 symbols and counts every
order from the padded text, so its model is not package ngram's estimator
(its perplexity differs); the benchmark compares speed and memory on the
same tokens. The accuracy reference is ngram/testdata/reference.py.
"""
import json
import math
import random
import re
import resource
import sys
import time

WORD = re.compile(r"[^\W_]+")


def tokenize(doc):
    return WORD.findall(doc.lower())


def lines(path):
    with open(path, encoding="utf-8") as f:
        return [l for l in f.read().split("\n") if l != ""]


def gen(nbytes, out):
    """Sentences of 5 to 25 words from a Zipfian vocabulary of 50,000 words,
    each word drawn given the previous one from a per-word shuffle of the
    ranks (so that the text has bigram structure)."""
    rng = random.Random(1)
    V = 50000
    words = ["w%x" % i for i in range(V)]
    weights = [1.0 / (r + 1) for r in range(V)]
    cum, s = [], 0.0
    for w in weights:
        s += w
        cum.append(s)
    import bisect

    def draw():
        return bisect.bisect(cum, rng.random() * s)

    shift = [rng.randrange(V) for _ in range(V)]
    written = 0
    with open(out, "w") as f:
        while written < nbytes:
            n = rng.randint(5, 25)
            prev = draw()
            sent = [words[prev]]
            for _ in range(n - 1):
                prev = (draw() + shift[prev]) % V if rng.random() < 0.5 else draw()
                sent.append(words[prev])
            line = " ".join(sent) + "\n"
            f.write(line)
            written += len(line)


def run(order, train, test, max_tokens):
    from nltk.lm import KneserNeyInterpolated
    from nltk.lm.preprocessing import padded_everygram_pipeline

    train_toks = [tokenize(l) for l in lines(train)]
    test_toks = [tokenize(l) for l in lines(test)]
    t0, c0 = time.perf_counter(), time.process_time()
    grams, vocab = padded_everygram_pipeline(order, train_toks)
    lm = KneserNeyInterpolated(order)
    lm.fit(grams, vocab)
    build, build_cpu = time.perf_counter() - t0, time.process_time() - c0
    t0, c0 = time.perf_counter(), time.process_time()
    lp, n = 0.0, 0
    for toks in test_toks:
        seq = ["<s>"] * (order - 1) + [lm.vocab.lookup(w) for w in toks] + ["</s>"]
        for i in range(order - 1, len(seq)):
            p = lm.score(seq[i], seq[i - order + 1 : i])
            lp += math.log(p) if p > 0 else -math.inf
            n += 1
        if n >= max_tokens:
            break
    score, score_cpu = time.perf_counter() - t0, time.process_time() - c0
    ngrams = [len(lm.counts.unigrams)] + [
        sum(len(lm.counts[k][c]) for c in lm.counts[k].conditions()) for k in range(2, order + 1)]
    print(json.dumps({
        "side": "nltk", "order": order, "train_lines": len(train_toks), "build_s": build, "build_cpu_s": build_cpu, "score_cpu_s": score_cpu,
        "score_s": score, "score_tokens": n, "perplexity": math.exp(-lp / n) if n else None,
        "ngrams": ngrams, "peak_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
    }))


if __name__ == "__main__":
    if sys.argv[1] == "gen":
        gen(int(sys.argv[2]), sys.argv[3])
    else:
        run(int(sys.argv[2]), sys.argv[3], sys.argv[4], int(sys.argv[5]) if len(sys.argv) > 5 else 1000)
