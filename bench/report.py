#!/usr/bin/python3
"""Compare the two sides of a benchmark run and print the table.

    report.py --out DIR --rows N --results FILE [--command CMD] WORKLOAD...

Reads DIR/sklearn/WORKLOAD and DIR/gendisc/WORKLOAD (result.json and the
answers as .npy), checks that the answers agree within the tolerances of
sklearn_bench.WORKLOADS, prints a Markdown table (medians, ratio
sklearn/gendisc, targets, peak RSS, agreement) and writes FILE as JSON.
Exits 1 when an answer disagrees or is missing.
"""
import argparse
import datetime
import json
import os
import sys

import numpy as np

from sklearn_bench import WORKLOADS

SIDES = ("sklearn", "gendisc")


def load(out, side, name):
    with open(os.path.join(out, side, name, "result.json")) as f:
        return json.load(f)


def agreement(out, name):
    """Per answer: max |a-b| / max(1, |b|) (a gendisc, b sklearn) and its tolerance."""
    res = {}
    for answer, tol in WORKLOADS[name]["checks"].items():
        try:
            a, b = (np.load(os.path.join(out, side, name, answer + ".npy")) for side in ("gendisc", "sklearn"))
        except OSError as e:
            res[answer] = {"tol": tol, "ok": False, "error": str(e)}
            continue
        if a.shape != b.shape:
            res[answer] = {"tol": tol, "ok": False, "error": f"shape {a.shape} vs {b.shape}"}
            continue
        diff = float(np.max(np.abs(a - b) / np.maximum(1.0, np.abs(b)))) if a.size else 0.0
        res[answer] = {"diff": diff, "tol": tol, "ok": bool(diff <= tol)}
    return res


def target(kind, value, skl, gd):
    """Returns (label, measured, met) for one target of an op."""
    if kind == "speedup":
        got = skl["median"] / gd["median"]
        return f"≥{value:g}x", f"{got:.1f}x", got >= value
    if kind == "mbps":
        got = gd["bytes"] / gd["median"] / 1e6
        return f"≥{value:g} MB/s", f"{got:.0f} MB/s", got >= value
    if kind == "rss_per_byte":
        got = gd["peak_rss"] / gd["bytes"]
        return f"RSS ≤{value:g}x input", f"{got:.2f}x", got <= value
    raise ValueError(f"report: unknown target kind {kind!r}")


def seconds(s):
    return f"{s * 1e3:.1f} ms" if s < 1 else f"{s:.2f} s"


def mb(b):
    return f"{b / 1e6:.0f} MB"


def cpu_model():
    with open("/proc/cpuinfo") as f:
        for line in f:
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    return "unknown"


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", required=True)
    ap.add_argument("--rows", type=int, required=True)
    ap.add_argument("--results", required=True)
    ap.add_argument("--command", default="")
    ap.add_argument("workloads", nargs="+", choices=sorted(WORKLOADS))
    a = ap.parse_args()

    rows, records, failed = [], [], False
    versions, loads, reps = {}, [], {}
    for name in a.workloads:
        side = {s: load(a.out, s, name) for s in SIDES}
        for s in SIDES:
            versions[s] = side[s]["versions"]
            reps[side[s]["reps"]] = True
            loads.append(f"{name} {s} " + "→".join(f"{v:.1f}" for v in side[s]["loadavg"]))
        agree = agreement(a.out, name)
        ok = all(c["ok"] for c in agree.values())
        failed |= not ok
        worst = max(agree.items(), key=lambda kv: kv[1].get("diff", np.inf) / kv[1]["tol"])
        agree_text = ("ok" if ok else "FAIL") + f" ({worst[0]} {worst[1].get('diff', float('nan')):.1e})"
        gd_ops = {o["op"]: o for o in side["gendisc"]["ops"]}
        ops = []
        for skl in side["sklearn"]["ops"]:
            gd = gd_ops[skl["op"]]
            targets = [target(kind, value, skl, gd)
                       for op, kind, value in WORKLOADS[name]["targets"] if op == skl["op"]]
            ratio = skl["median"] / gd["median"]
            ops.append({"op": skl["op"], "sklearn": skl, "gendisc": gd, "ratio": ratio,
                        "targets": [{"target": t, "measured": m, "met": met} for t, m, met in targets]})
            rows.append([name, skl["op"], seconds(skl["median"]), seconds(gd["median"]), f"{ratio:.1f}x",
                         "; ".join(f"{t} {'✓' if met else '✗'} {m}" for t, m, met in targets),
                         f"{skl['bytes'] / skl['median'] / 1e6:.0f} / {gd['bytes'] / gd['median'] / 1e6:.0f}",
                         f"{mb(skl['peak_rss'])} / {mb(gd['peak_rss'])}", agree_text])
        records.append({"workload": name, "ops": ops, "agreement": agree,
                        "loadavg": {s: side[s]["loadavg"] for s in SIDES}})

    head = ["workload", "op", "sklearn", "gendisc", "ratio", "target (gendisc)", "MB/s skl / gd",
            "peak RSS skl / gd", "agreement (worst)"]
    width = [max(len(r[i]) for r in rows + [head]) for i in range(len(head))]
    line = lambda r: "| " + " | ".join(c.ljust(w) for c, w in zip(r, width)) + " |"
    print(line(head))
    print("|" + "|".join("-" * (w + 2) for w in width) + "|")
    for r in rows:
        print(line(r))
    print(f"\n{a.rows} rows, median of {'/'.join(map(str, reps))} runs; {os.cpu_count()} CPUs, "
          f"1-minute load average at the start→end of each process: " + ", ".join(loads))

    result = {
        "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
        "command": a.command, "rows": a.rows,
        "machine": {"cpus": os.cpu_count(), "cpu": cpu_model()},
        "versions": versions, "workloads": records,
    }
    with open(a.results, "w") as f:
        json.dump(result, f, indent=1)
    if failed:
        for rec in records:
            for answer, c in rec["agreement"].items():
                if not c["ok"]:
                    print(f"report: {rec['workload']}: {answer} disagrees: {c.get('error') or c['diff']} "
                          f"> {c['tol']}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
