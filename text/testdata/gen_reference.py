"""Reference values for package text from scikit-learn's CountVectorizer.

Run with Debian's Python (scikit-learn 1.2.1, numpy 1.24.2):

    /usr/bin/python3 text/testdata/gen_reference.py

It reads sms_spam.csv (the copy in ../shared/datasets, the same file the
datasets package embeds) with the csv module, fits CountVectorizer with the
token pattern equivalent to package text's tokenizer, (?u)[^\\W_]+ (runs of
letters and numbers, underscore excluded, length >= 1), under several
settings, and writes reference.json.gz: per setting the vocabulary in column
order, the number of stored entries per row, the column sums, the entries of
the first 200 rows and a checksum over all entries. It also records numpy's
argsort (kind quicksort, the one CountVectorizer's max_features uses) of
arrays with many ties, scikit-learn's English stop list, and Python's
notion of a word character: the ranges of code points the token pattern
matches and the lower case of those that str.lower changes.
"""
import csv
import gzip
import json
import os
import re
import unicodedata

import numpy as np
import sklearn
from sklearn.feature_extraction.text import ENGLISH_STOP_WORDS, CountVectorizer

HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.path.join(HERE, "..", "..", "..", "shared", "datasets", "sms_spam.csv")
PATTERN = r"(?u)[^\W_]+"
HEAD = 200
MOD = 1000000007

SETTINGS = {
    "default": {},
    "ngram_1_2": {"ngram_range": (1, 2)},
    "ngram_2_3": {"ngram_range": (2, 3)},
    "min_df_2": {"min_df": 2},
    "min_df_0.01": {"min_df": 0.01},
    "max_df_0.05": {"max_df": 0.05},
    "max_features_1000": {"max_features": 1000},
    "max_features_300_ngram_1_2": {"max_features": 300, "ngram_range": (1, 2)},
    "stop_words_english": {"stop_words": "english"},
    "stop_words_ngram_1_2_min_df_3": {"stop_words": "english", "ngram_range": (1, 2), "min_df": 3},
}


def read_docs():
    with open(DATA, encoding="utf-8", newline="") as f:
        rows = list(csv.reader(f))
    header = rows[0]
    col = header.index("text")
    return [r[col] for r in rows[1:]]


def describe(cv, X):
    X = X.tocsr()
    X.sort_indices()
    vocab = [t for t, _ in sorted(cv.vocabulary_.items(), key=lambda kv: kv[1])]
    coo = X[:HEAD].tocoo()
    checksum = 0
    Xc = X.tocoo()
    for r, c, v in zip(Xc.row.tolist(), Xc.col.tolist(), Xc.data.tolist()):
        checksum = (checksum + v * ((r * 1000003 + c) % MOD)) % MOD
    return {
        "vocabulary": vocab,
        "row_nnz": np.diff(X.indptr).tolist(),
        "column_sums": np.asarray(X.sum(axis=0)).ravel().tolist(),
        "head_rows": coo.row.tolist(),
        "head_cols": coo.col.tolist(),
        "head_counts": coo.data.tolist(),
        "checksum": checksum,
    }


def argsort_cases():
    rng = np.random.default_rng(3)
    cases = []
    for n, hi in [(1, 2), (5, 2), (16, 3), (17, 3), (18, 1), (40, 4), (100, 5), (1000, 7), (5000, 30), (20000, 3)]:
        v = rng.integers(0, hi, size=n).astype(np.int64)
        cases.append({"values": v.tolist(), "argsort": np.argsort(v, kind="quicksort").tolist()})
    return cases


def word_characters():
    """Ranges [lo, hi] of the code points the token pattern matches, and
    [code point, lower case] for those whose lower case differs."""
    one = re.compile(PATTERN)
    ranges, lower = [], []
    for cp in range(0x110000):
        if 0xD800 <= cp <= 0xDFFF or not one.fullmatch(chr(cp)):
            continue
        if ranges and ranges[-1][1] == cp - 1:
            ranges[-1][1] = cp
        else:
            ranges.append([cp, cp])
        low = chr(cp).lower()
        if low != chr(cp):
            lower.append([cp, low])
    return {"unicode": unicodedata.unidata_version, "ranges": ranges, "lower": lower}


def main():
    docs = read_docs()
    out = {
        "sklearn": sklearn.__version__,
        "numpy": np.__version__,
        "token_pattern": PATTERN,
        "documents": len(docs),
        "stop_words_english": sorted(ENGLISH_STOP_WORDS),
        "argsort": argsort_cases(),
        "word_characters": word_characters(),
        "settings": {},
    }
    for name, kw in SETTINGS.items():
        cv = CountVectorizer(token_pattern=PATTERN, **kw)
        X = cv.fit_transform(docs)
        d = describe(cv, X)
        d["params"] = {k: list(v) if isinstance(v, tuple) else v for k, v in kw.items()}
        out["settings"][name] = d
    with gzip.open(os.path.join(HERE, "reference.json.gz"), "wt", encoding="utf-8") as f:
        json.dump(out, f, ensure_ascii=False, separators=(",", ":"))


if __name__ == "__main__":
    main()
