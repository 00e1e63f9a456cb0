"""Times scikit-learn on the synthetic text corpus of text_bench_test.go.

    GENDISC_TEXT_CORPUS=/tmp/corpus.csv go test -run TestWriteSyntheticCorpus ./text
    /usr/bin/python3 text/testdata/bench_sklearn.py /tmp/corpus.csv

prints the seconds of each step from the raw CSV to a fitted MultinomialNB
(pandas read_csv, CountVectorizer.fit_transform with package text's token
pattern, MultinomialNB.fit) and of CountVectorizer.transform, the best of
three runs each, to compare with BenchmarkCSVToMultinomial,
BenchmarkFitTransform/synthetic and BenchmarkTransform.
"""
import sys
import time

import pandas as pd
from sklearn.feature_extraction.text import CountVectorizer
from sklearn.naive_bayes import MultinomialNB

PATTERN = r"(?u)[^\W_]+"


def best(f, runs=3):
    times = []
    for _ in range(runs):
        t = time.perf_counter()
        out = f()
        times.append(time.perf_counter() - t)
    return min(times), out


def main():
    path = sys.argv[1]
    with open(path, "rb") as fh:
        size = len(fh.read())
    t_read, df = best(lambda: pd.read_csv(path, keep_default_na=False))
    docs, y = df["text"].tolist(), df["class"].to_numpy()
    cv = CountVectorizer(token_pattern=PATTERN)
    t_fit, X = best(lambda: cv.fit_transform(docs))
    t_nb, _ = best(lambda: MultinomialNB().fit(X, y))
    t_tr, _ = best(lambda: cv.transform(docs))
    total = t_read + t_fit + t_nb
    n = len(docs)
    print(f"documents {n}, {size / 1e6:.1f} MB, vocabulary {len(cv.vocabulary_)}, entries {X.nnz}")
    print(f"read_csv                    {t_read:8.3f} s")
    print(f"CountVectorizer.fit_transform {t_fit:6.3f} s  {n / t_fit:10.0f} docs/s")
    print(f"MultinomialNB.fit           {t_nb:8.3f} s")
    print(f"CSV to fitted model         {total:8.3f} s  {n / total:10.0f} docs/s  {size / total / 1e6:.2f} MB/s")
    print(f"CountVectorizer.transform   {t_tr:8.3f} s  {n / t_tr:10.0f} docs/s")


if __name__ == "__main__":
    main()
