#!/usr/bin/python3
"""Compare the two sides of a benchmark run and print the table.

    report.py --out DIR --rows N --rounds R --results FILE [--command CMD] WORKLOAD...

Reads DIR/ROUND/SIDE/WORKLOAD/result.json for ROUND 1..R and SIDE sklearn
and gendisc (and openblas, gendisc built with -tags openblas, where the run
has it), pools the timings of every round, checks that the answers of
round 1 (.npy files) agree within the tolerances of sklearn_bench.WORKLOADS,
prints a Markdown table (medians of wall time, ratio sklearn/gendisc,
the limit estimate and the fraction of it gendisc reaches, targets,
throughput, median CPU time and its ratio, peak RSS, agreement), then the
work table (each op's bytes and flops, the time they take at the measured
bandwidth and peak, the limit), and writes FILE as JSON. Exits 1 when an
answer disagrees or is missing.

The calibration is DIR/ROUND/calibrate/SIDE/result.json: the faster of
benchgo's streaming read on all cores (gendisc, op "stream") and numpy's
one-thread sum (sklearn, op "sum") gives the bandwidth, bytes over the
median time of every round; numpy's dgemm (sklearn, op "dgemm") the peak,
flops over its median time. An op's limit is the larger of its passes ×
bytes over the bandwidth and its flops over the peak (a roofline: the two
overlap at best), with the work of sklearn_bench.WORKLOADS; "of limit" is
limit / gendisc's median time.
"""
import argparse
import datetime
import json
import os
import statistics
import sys

import numpy as np

from sklearn_bench import GEMM_N, WORKLOADS

SIDES = ("sklearn", "gendisc")
OPENBLAS = "openblas"  # gendisc built with -tags openblas, when the run has it


def load(out, rounds, side, name):
    """The results of side for workload name over every round, merged: the
    runs of an op pooled, its peak RSS the largest, the load averages
    listed."""
    merged, ops = None, {}
    for r in range(1, rounds + 1):
        with open(os.path.join(out, str(r), side, name, "result.json")) as f:
            res = json.load(f)
        if merged is None:
            merged = dict(res, ops=[], loadavg=[])
        merged["loadavg"].append(res["loadavg"])
        for o in res["ops"]:
            if o["op"] not in ops:
                ops[o["op"]] = dict(o, seconds=[], cpu_seconds=[], peak_rss=0)
                merged["ops"].append(ops[o["op"]])
            m = ops[o["op"]]
            m["seconds"] += o["seconds"]
            m["cpu_seconds"] += o["cpu_seconds"]
            m["peak_rss"] = max(m["peak_rss"], o["peak_rss"])
    for m in merged["ops"]:
        m["median"] = statistics.median(m["seconds"])
        m["cpu_median"] = statistics.median(m["cpu_seconds"])
    return merged


def calibration(out, rounds):
    """The bandwidth (bytes/s) and peak (flop/s) of the run: the medians
    of the calibration's streaming reads and dgemm over every round. The
    bandwidth is the faster of benchgo's read on all cores (stream) and
    numpy's one-thread sum (sum, when the calibration has it); both are
    kept (stream_bandwidth, sum_bandwidth)."""
    runs = {"stream": [], "sum": [], "dgemm": []}
    size = {}
    for r in range(1, rounds + 1):
        for side in SIDES:
            with open(os.path.join(out, str(r), "calibrate", side, "result.json")) as f:
                for o in json.load(f)["ops"]:
                    if o["op"] in runs:
                        runs[o["op"]] += o["seconds"]
                        size[o["op"]] = o["flops"] if o["op"] == "dgemm" else o["bytes"]
    cal = {"stream_bandwidth": size["stream"] / statistics.median(runs["stream"]),
           "peak": size["dgemm"] / statistics.median(runs["dgemm"])}
    cal["bandwidth"] = cal["stream_bandwidth"]
    if runs["sum"]:
        cal["sum_bandwidth"] = size["sum"] / statistics.median(runs["sum"])
        cal["bandwidth"] = max(cal["bandwidth"], cal["sum_bandwidth"])
    return cal


def limit(name, op, nbytes, cal):
    """The op's work (bytes, flops) and its limit estimate in seconds."""
    w = WORKLOADS[name].get("work", {}).get(op, {})
    moved, flops = w.get("passes", 1) * nbytes, w.get("flops", 0) * nbytes
    return {"bytes": moved, "flops": flops, "at_bandwidth": moved / cal["bandwidth"],
            "at_peak": flops / cal["peak"], "seconds": max(moved / cal["bandwidth"], flops / cal["peak"])}


def agreement(out, name):
    """Per answer: max |a-b| / max(1, |b|) (a gendisc, b sklearn) and its
    tolerance; for the answers a workload lists as one_sided, (a − b) / |b|."""
    res = {}
    for answer, tol in WORKLOADS[name]["checks"].items():
        try:
            a, b = (np.load(os.path.join(out, "1", side, name, answer + ".npy")) for side in ("gendisc", "sklearn"))
        except OSError as e:
            res[answer] = {"tol": tol, "ok": False, "error": str(e)}
            continue
        if a.shape != b.shape:
            res[answer] = {"tol": tol, "ok": False, "error": f"shape {a.shape} vs {b.shape}"}
            continue
        if answer in WORKLOADS[name].get("one_sided", ()):
            # how far gendisc's value is above sklearn's, relative (an
            # objective minimised: below is better)
            diff = float(np.max((a - b) / np.abs(b)))
        else:
            diff = float(np.max(np.abs(a - b) / np.maximum(1.0, np.abs(b)))) if a.size else 0.0
        res[answer] = {"diff": diff, "tol": tol, "ok": bool(diff <= tol)}
    return res


def target(kind, value, skl, gd, gd_ops):
    """Returns (label, measured, met) for one target of an op; gd_ops are
    gendisc's ops by name, for the targets against its own figures."""
    if kind == "faster":
        factor, other = value
        got = gd_ops[other]["median"] / gd["median"]
        return f"≥{factor:g}x faster than {other}", f"{got:.1f}x", got >= factor
    if kind == "within":
        factor, *others = value
        got = gd["median"] / sum(gd_ops[o]["median"] for o in others)
        return f"≤{factor:g}x ({' + '.join(others)})", f"{got:.2f}x", got <= factor
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


def cpu_model():
    with open("/proc/cpuinfo") as f:
        for line in f:
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    return "unknown"


def table_row(name, op, skl, gd, ob, lim, targets, agree_text):
    """A row of the table; skl or gd is None for an op that only the other
    side times (shown as -), ob that of the openblas build (None: no such
    column or op)."""
    def both(f):
        return f"{f(skl) if skl else '-'} / {f(gd) if gd else '-'}"
    pair = skl and gd
    return [name, op, seconds(skl["median"]) if skl else "-", seconds(gd["median"]) if gd else "-",
            *([seconds(ob["median"]) if ob else "-"] if ob is not False else []),
            f"{skl['median'] / gd['median']:.1f}x" if pair else "-",
            f"{seconds(lim['seconds'])} ({lim['seconds'] / gd['median']:.0%})" if gd else "-",
            "; ".join(f"{t} {'✓' if met else '✗'} {m}" for t, m, met in targets),
            both(lambda s: f"{s['bytes'] / s['median'] / 1e6:.0f}"),
            both(lambda s: f"{s['cpu_median']:.3f}") + (f" ({skl['cpu_median'] / gd['cpu_median']:.1f}x)" if pair else ""),
            both(lambda s: f"{s['peak_rss'] / 1e6:.0f} MB"), agree_text]


def table(head, rows):
    """Prints a Markdown table."""
    width = [max(len(r[i]) for r in rows + [head]) for i in range(len(head))]
    line = lambda r: "| " + " | ".join(c.ljust(w) for c, w in zip(r, width)) + " |"
    print(line(head))
    print("|" + "|".join("-" * (w + 2) for w in width) + "|")
    for r in rows:
        print(line(r))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", required=True)
    ap.add_argument("--rows", type=int, required=True)
    ap.add_argument("--rounds", type=int, default=1)
    ap.add_argument("--results", required=True)
    ap.add_argument("--command", default="")
    ap.add_argument("workloads", nargs="+", choices=sorted(WORKLOADS))
    a = ap.parse_args()

    cal = calibration(a.out, a.rounds)
    # the openblas build was measured when the run has its results
    sides = SIDES + ((OPENBLAS,) if os.path.isdir(os.path.join(a.out, "1", OPENBLAS)) else ())
    rows, work, records, versions, loads, runs = [], [], [], {}, [], set()
    for name in a.workloads:
        side = {s: load(a.out, a.rounds, s, name) for s in sides}
        for s in sides:
            versions[s] = side[s]["versions"]
            loads += [f"{name} {s} {start:.1f}→{end:.1f}" for start, end in side[s]["loadavg"]]
        agree = agreement(a.out, name)
        ok = all(c["ok"] for c in agree.values())
        worst = max(agree.items(), key=lambda kv: kv[1].get("diff", np.inf) / kv[1]["tol"])
        agree_text = ("ok" if ok else "FAIL") + f" ({worst[0]} {worst[1].get('diff', float('nan')):.1e})"
        gd_ops = {o["op"]: o for o in side["gendisc"]["ops"]}
        skl_ops = {o["op"]: o for o in side["sklearn"]["ops"]}
        ob_ops = {o["op"]: o for o in side[OPENBLAS]["ops"]} if OPENBLAS in side else None
        # The ops of both sides, sklearn's order first; an op that one
        # side does not time (a Parquet read without a pandas engine) has
        # no ratio.
        names = list(skl_ops) + [op for op in gd_ops if op not in skl_ops]
        ops = []
        for op in names:
            skl, gd = skl_ops.get(op), gd_ops.get(op)
            runs.add(len((skl or gd)["seconds"]))
            targets = [target(kind, value, skl, gd, gd_ops)
                       for o, kind, value in WORKLOADS[name]["targets"]
                       if o == op and gd and (skl or kind != "speedup")]
            pair = skl and gd
            ob = ob_ops.get(op) if ob_ops is not None else False
            lim = limit(name, op, (gd or skl)["bytes"], cal)
            ops.append({"op": op, "sklearn": skl, "gendisc": gd, OPENBLAS: ob or None,
                        "ratio": skl["median"] / gd["median"] if pair else None,
                        "cpu_ratio": skl["cpu_median"] / gd["cpu_median"] if pair else None,
                        "limit": lim, "of_limit": lim["seconds"] / gd["median"] if gd else None,
                        "targets": [{"target": t, "measured": m, "met": met} for t, m, met in targets]})
            rows.append(table_row(name, op, skl, gd, ob, lim, targets, agree_text))
            work.append([name, op, f"{lim['bytes'] / 1e6:.0f}", f"{lim['flops'] / 1e9:.2f}",
                         seconds(lim["at_bandwidth"]), seconds(lim["at_peak"]), seconds(lim["seconds"]),
                         seconds(gd["median"]) if gd else "-",
                         *([seconds(ob["median"]) if ob else "-"] if ob is not False else []),
                         f"{lim['seconds'] / gd['median']:.0%}" if gd else "-",
                         f"{skl['median'] / gd['median']:.1f}x" if pair else "-"])
        records.append({"workload": name, "ops": ops, "agreement": agree, "ok": ok,
                        "loadavg": {s: side[s]["loadavg"] for s in SIDES}})

    ob_head = ["gendisc openblas"] if OPENBLAS in sides else []
    head = ["workload", "op", "sklearn", "gendisc", *ob_head, "ratio", "limit (of it)", "target (gendisc)",
            "MB/s skl / gd", "CPU s skl / gd (ratio)", "peak RSS skl / gd", "agreement (worst)"]
    table(head, rows)
    reads = f"benchgo's on all cores {cal['stream_bandwidth'] / 1e9:.1f} GB/s"
    if "sum_bandwidth" in cal:
        reads += f", numpy's one-thread sum {cal['sum_bandwidth'] / 1e9:.1f} GB/s"
    print(f"\nlimits: {cal['bandwidth'] / 1e9:.1f} GB/s (the faster streaming read of 400 MB: {reads}), "
          f"{cal['peak'] / 1e9:.0f} GFLOP/s "
          f"(numpy dgemm {GEMM_N}³), medians of this run's calibration; limit = max(bytes / bandwidth, "
          "flops / peak)\n")
    table(["workload", "op", "MB", "GFLOP", "at bandwidth", "at peak", "limit", "gendisc", *ob_head,
           "of limit", "sklearn ratio"], work)
    print(f"\n{a.rows} rows; medians of {'/'.join(map(str, sorted(runs)))} runs in {a.rounds} round(s); "
          f"{os.cpu_count()} CPUs; 1-minute load average at the start→end of each process: " + ", ".join(loads))
    gd = versions["gendisc"]
    print(f"gendisc side: {gd['go']}, GOMAXPROCS {gd['gomaxprocs']}, commit {gd.get('vcs.revision', 'unknown')[:12]}"
          + (" with uncommitted changes" if gd.get("vcs.modified") == "true" else "")
          + ("; gendisc openblas: the same built with -tags openblas (OpenBLAS's BLAS for gonum)"
             if OPENBLAS in sides else ""))
    for lib in versions["sklearn"].get("blas", []):
        if lib["internal_api"] == "openblas":
            print(f"scikit-learn side: OpenBLAS {lib['version']}, kernel {lib['architecture']}, "
                  f"{lib['num_threads']} threads" + (" (the generic fallback: see --sklearn-coretype)"
                                                     if lib["architecture"] == "Prescott" else ""))

    with open(a.results, "w") as f:
        json.dump({
            "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
            "command": a.command, "rows": a.rows, "rounds": a.rounds,
            "machine": {"cpus": os.cpu_count(), "cpu": cpu_model()}, "calibration": cal,
            "versions": versions, "workloads": records,
        }, f, indent=1)
    failed = False
    for rec in records:
        for answer, c in rec["agreement"].items():
            if not c["ok"]:
                failed = True
                print(f"report: {rec['workload']}: {answer} disagrees: {c.get('error') or c['diff']} "
                      f"> {c['tol']}", file=sys.stderr)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
