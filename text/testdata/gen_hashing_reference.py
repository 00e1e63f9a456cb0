"""Reference values for the hashing option of package text, from
scikit-learn's HashingVectorizer.

Run with Debian's Python (scikit-learn 1.2.1, numpy 1.24.2):

    /usr/bin/python3 text/testdata/gen_hashing_reference.py

It reads sms_spam.csv from the repository's datasets/data/sms_spam.csv.gz
with the csv module (the text column), and runs HashingVectorizer
with the token pattern of package text's tokenizer, (?u)[^\\W_]+, norm=None
(counts, not l2-normalised rows) and several numbers of columns, signs,
n-gram ranges and stop lists. It writes hashing_reference.json.gz: per
setting the entries of the first 200 rows (row, column, value; duplicates
summed, zeros left out), the nonzero column sums over all documents and the number
of nonzero entries per row; and murmurhash3_32 of a few strings.
"""
import csv
import gzip
import json
import os

import numpy as np
import sklearn
from sklearn.feature_extraction.text import HashingVectorizer
from sklearn.utils import murmurhash3_32

from gen_reference import PATTERN

HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.path.join(HERE, "..", "..", "datasets", "data", "sms_spam.csv.gz")
HEAD = 200

SETTINGS = {
    "n_1024_unsigned": {"n_features": 1024, "alternate_sign": False},
    "n_1024_signed": {"n_features": 1024, "alternate_sign": True},
    "n_1000_signed_ngram_1_2": {"n_features": 1000, "alternate_sign": True, "ngram_range": (1, 2)},
    "n_262144_unsigned_stop_english": {"n_features": 262144, "alternate_sign": False, "stop_words": "english"},
    "n_7_signed": {"n_features": 7, "alternate_sign": True},
}

STRINGS = ["", "a", "ab", "abc", "abcd", "abcde", "hello world", "café", "日本語", "free entry"]


def read_docs():
    with gzip.open(DATA, "rt", encoding="utf-8", newline="") as f:
        rows = list(csv.reader(f))
    col = rows[0].index("text")
    return [r[col] for r in rows[1:]]


def main():
    docs = read_docs()
    out = {
        "sklearn": sklearn.__version__,
        "documents": len(docs),
        "murmur3": {s: int(murmurhash3_32(s.encode("utf-8"), positive=False)) for s in STRINGS},
        "settings": {},
    }
    for name, params in SETTINGS.items():
        hv = HashingVectorizer(token_pattern=PATTERN, norm=None, **params)
        X = hv.transform(docs).tocsr()
        X.sum_duplicates()
        X.eliminate_zeros()
        X.sort_indices()
        coo = X[:HEAD].tocoo()
        sums = np.asarray(X.sum(axis=0)).ravel()
        p = dict(params)
        if "ngram_range" in p:
            p["ngram_range"] = list(p["ngram_range"])
        out["settings"][name] = {
            "params": p,
            "row_nnz": np.diff(X.indptr).tolist(),
            "column_sum_cols": np.flatnonzero(sums).tolist(),
            "column_sum_values": sums[sums != 0].tolist(),
            "head_rows": coo.row.tolist(),
            "head_cols": coo.col.tolist(),
            "head_values": coo.data.tolist(),
        }
    with gzip.open(os.path.join(HERE, "hashing_reference.json.gz"), "wt", encoding="utf-8") as f:
        json.dump(out, f, ensure_ascii=False)


if __name__ == "__main__":
    main()
