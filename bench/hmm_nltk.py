#!/usr/bin/python3
"""The NLTK side of bench/hmm: NLTK's HiddenMarkovModelTagger from the
CoNLL-U files to the tags, as one process.

    /usr/bin/python3 bench/hmm_nltk.py TRAIN.conllu.gz TEST.conllu.gz

Reads the word lines of both files (UPOS tags; multiword-token and
empty-node lines skipped, as hmm/testdata/nltk_reference.py reads them),
trains HiddenMarkovModelTrainer().train_supervised with
LidstoneProbDist(0.1) on every training sentence, tags every test sentence
(tagger.tag, Viterbi) and prints one line, which bench/hmm reads:

    accuracy 0.874776 unknown 0.295977 sentences 2001 tokens 25147

(unknown: the accuracy on the test tokens that training did not have).
"""

import gzip
import sys

from nltk.probability import LidstoneProbDist
from nltk.tag.hmm import HiddenMarkovModelTrainer

GAMMA = 0.1


def conllu(path):
    """The sentences of a CoNLL-U file: (words, UPOS tags)."""
    out, words, tags = [], [], []
    with gzip.open(path, "rt", encoding="utf-8") as f:
        for line in f:
            line = line.rstrip("\n")
            if not line:
                if words:
                    out.append((words, tags))
                    words, tags = [], []
                continue
            if line.startswith("#"):
                continue
            fields = line.split("\t")
            if "-" in fields[0] or "." in fields[0]:
                continue
            words.append(fields[1])
            tags.append(fields[3])
    if words:
        out.append((words, tags))
    return out


def main():
    train, test = conllu(sys.argv[1]), conllu(sys.argv[2])
    tagger = HiddenMarkovModelTrainer().train_supervised(
        [list(zip(w, t)) for w, t in train],
        estimator=lambda fd, bins: LidstoneProbDist(fd, GAMMA, bins),
    )
    known = {w for words, _ in train for w in words}
    right = n = right_new = n_new = 0
    for words, tags in test:
        for w, (_, p), t in zip(words, tagger.tag(words), tags):
            n += 1
            right += p == t
            if w not in known:
                n_new += 1
                right_new += p == t
    print("accuracy %.6f unknown %.6f sentences %d tokens %d" % (right / n, right_new / max(n_new, 1), len(test), n))


if __name__ == "__main__":
    main()
