#!/usr/bin/env python3
"""Prints bench/crf/run's comparison of package crf and CRFsuite.

    report.py DIR

DIR holds crfsuite.log (CRFsuite's training log, then one JSON line),
gendisc.log (benchcrf's per-iteration lines), gendisc.json and load.txt.
Exits 1 when a check of issue 30 fails: iterations within 20%, dev
accuracy within 0.2 points of CRFsuite's and at least 94%, tagging
throughput at least CRFsuite's, wall seconds per iteration at most
CRFsuite's. The table has CPU seconds per iteration beside them: on a
loaded machine the wall times measure the share each process got.
"""
import json
import re
import statistics
import sys


def main(d):
    crf_log = open(f"{d}/crfsuite.log").read().splitlines()
    cs = json.loads(crf_log[-1])
    cs_iter_sec = [float(m.group(1)) for l in crf_log
                   if (m := re.match(r"Seconds required for this iteration: ([0-9.]+)", l))]
    cs_features = next(int(m.group(1)) for l in crf_log if (m := re.match(r"Number of features: (\d+)", l)))
    go = json.loads(open(f"{d}/gendisc.json").read())
    go_lines = [re.search(r"seconds ([0-9.]+), CPU seconds ([0-9.]+)", l) for l in open(f"{d}/gendisc.log")]
    go_cpu = [float(m.group(2)) for m in go_lines if m]
    # CRFsuite's per-iteration seconds are clock(), its CPU time: equal to
    # the wall time on an idle machine only. The wall time per iteration of
    # both is the training's wall time over the iterations (CRFsuite's
    # includes its feature generation, about a second).
    cs_wall_iter = cs["train_seconds"] / len(cs_iter_sec)
    go_wall_iter = go["train_seconds"] / go["iterations"]
    rows = [
        ("features", cs_features, go["features"]),
        ("iterations", len(cs_iter_sec), go["iterations"]),
        ("training seconds (wall)", cs["train_seconds"], go["train_seconds"]),
        ("wall s/iteration (training / iterations)", cs_wall_iter, go_wall_iter),
        ("CPU s/iteration, median", statistics.median(cs_iter_sec), statistics.median(go_cpu[1:])),
        ("tagging seconds (wall)", cs["tag_seconds"], go["tag_seconds"]),
        ("tagging tokens/s", cs["tokens_per_second"], go["tokens_per_second"]),
        ("dev accuracy", cs["accuracy"], go["accuracy"]),
    ]
    print(f"{'':40} {'CRFsuite':>12} {'gendisc':>12}")
    for name, a, b in rows:
        print(f"{name:40} {a:12.4f} {b:12.4f}" if isinstance(a, float) else f"{name:40} {a:12} {b:12}")
    print(open(f"{d}/load.txt").read().strip())
    checks = [
        ("iterations within 20%", abs(go["iterations"] - len(cs_iter_sec)) <= 0.2 * len(cs_iter_sec)),
        ("accuracy within 0.2 points", abs(go["accuracy"] - cs["accuracy"]) <= 0.002),
        ("accuracy at least 94%", go["accuracy"] >= 0.94),
        ("tagging throughput at least CRFsuite's", go["tokens_per_second"] >= cs["tokens_per_second"]),
        ("wall seconds per iteration at most CRFsuite's", go_wall_iter <= cs_wall_iter),
    ]
    for name, ok in checks:
        print(f"{'ok  ' if ok else 'FAIL'} {name}")
    return 0 if all(ok for _, ok in checks) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
