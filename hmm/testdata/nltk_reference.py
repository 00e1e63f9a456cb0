#!/usr/bin/python3
"""Reference values of NLTK's HiddenMarkovModelTagger for hmm's tests.

Trains NLTK's supervised HMM with LidstoneProbDist(gamma) on the first
TRAIN sentences of the English Web Treebank's training part (UPOS tags)
and writes, for the first TEST sentences of its development part, the
Viterbi tags (tagger.tag) and log2 p(words) (tagger.log_probability with
(word, None) pairs: plain strings are misread) to nltk_reference.json.

Run from the repository's root, with python3-nltk installed:

    /usr/bin/python3 hmm/testdata/nltk_reference.py ../shared/datasets > hmm/testdata/nltk_reference.json
"""

import gzip
import json
import os
import sys

import nltk
from nltk.probability import LidstoneProbDist
from nltk.tag.hmm import HiddenMarkovModelTrainer

GAMMA = 0.1
TRAIN = 300
TEST = 60


def conllu(path, limit):
    """The first limit sentences of a CoNLL-U file: (words, UPOS tags)."""
    out, words, tags = [], [], []
    with gzip.open(path, "rt", encoding="utf-8") as f:
        for line in f:
            line = line.rstrip("\n")
            if not line:
                if words:
                    out.append((words, tags))
                    words, tags = [], []
                    if len(out) == limit:
                        break
                continue
            if line.startswith("#"):
                continue
            fields = line.split("\t")
            if "-" in fields[0] or "." in fields[0]:
                continue
            words.append(fields[1])
            tags.append(fields[3])
    return out


def main():
    src = sys.argv[1]
    train = conllu(os.path.join(src, "en_ewt-ud-train.conllu.gz"), TRAIN)
    test = conllu(os.path.join(src, "en_ewt-ud-dev.conllu.gz"), TEST)
    trainer = HiddenMarkovModelTrainer()
    tagger = trainer.train_supervised(
        [list(zip(w, t)) for w, t in train],
        estimator=lambda fd, bins: LidstoneProbDist(fd, GAMMA, bins),
    )
    rows = []
    for words, _ in test:
        rows.append({
            "tokens": words,
            "tags": [t for _, t in tagger.tag(words)],
            "log2p": tagger.log_probability([(w, None) for w in words]),
        })
    json.dump({"nltk": nltk.__version__, "gamma": GAMMA, "train": TRAIN, "test": rows}, sys.stdout, indent=1)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
