#!/usr/bin/python3
"""The scikit-learn side of the gendisc benchmark: one workload per process.

    sklearn_bench.py WORKLOAD --data DIR --reps N --out DIR
    sklearn_bench.py --datasets WORKLOAD...   (the data sets they need)
    sklearn_bench.py --list                   (the workloads, in table order)
    sklearn_bench.py --calibrate --reps N --out DIR

Each workload times its operations N times (report.py takes the medians),
records the process's peak RSS after each operation, saves the answers it
computed as .npy files in --out for report.py to compare with gendisc's,
and writes --out/result.json:

    {"side": "sklearn", "workload": ..., "reps": ...,
     "loadavg": [1-minute load average at the start, at the end],
     "versions": {...},
     "ops": [{"op": "fit", "seconds": [wall time of each run],
              "cpu_seconds": [CPU time of each run, user + system, all threads],
              "bytes": size of the op's input, "peak_rss": bytes}, ...]}

--calibrate times numpy's dgemm (OpenBLAS, all its threads) of two
2000 x 2000 matrices, 2·2000³ flops, in the same layout (op "dgemm",
"flops"): report.py takes it as the machine's peak of dense arithmetic;
and numpy's sum of 400 MB (op "sum", one thread), whose bandwidth
report.py compares with benchgo's streaming read (benchgo calibrate).

The gendisc side (bench/cmd/benchgo) writes the same layout. To add a
workload: a function here, a line in WORKLOADS (data sets, the answers to
compare and their tolerances, the targets), and the same workload in
benchgo's table.
"""
import argparse
import json
import os
import platform
import sys
import resource
import sys
import time

import numpy as np


def peak_rss():
    """The process's peak resident set size in bytes (ru_maxrss is KiB)."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024


class Recorder:
    """Times operations and collects the answers to compare."""

    def __init__(self, reps, out):
        self.reps, self.out, self.ops = reps, out, []

    def time(self, op, nbytes, fn):
        """Runs fn reps times, records the wall and CPU times (all threads of
        the process), returns its last result."""
        seconds, cpu, result = [], [], None
        for _ in range(self.reps):
            result = None  # free the previous result first, as benchgo does
            c, t = time.process_time(), time.perf_counter()
            result = fn()
            seconds.append(time.perf_counter() - t)
            cpu.append(time.process_time() - c)
        self.ops.append({"op": op, "seconds": seconds, "cpu_seconds": cpu,
                         "bytes": nbytes, "peak_rss": peak_rss()})
        return result

    def answer(self, name, a):
        np.save(os.path.join(self.out, name + ".npy"), np.ascontiguousarray(a, dtype=np.float64))


def load_dense(data):
    return np.load(os.path.join(data, "X.npy")), np.load(os.path.join(data, "y.npy"))


def save_gaussian_nb(rec, m):
    rec.answer("class_prior", m.class_prior_)
    rec.answer("theta", m.theta_)
    rec.answer("var", m.var_)


def gnb(data, rec):
    """GaussianNB fit and predict_proba on the in-memory dense arrays."""
    from sklearn.naive_bayes import GaussianNB
    X, y = load_dense(data)
    m = rec.time("fit", X.nbytes, lambda: GaussianNB().fit(X, y))
    save_gaussian_nb(rec, m)
    rec.answer("proba", rec.time("predict", X.nbytes, lambda: m.predict_proba(X)))


def csv_gnb(data, rec):
    """pandas.read_csv alone, then read_csv + GaussianNB().fit: a CSV file
    to a fitted model, what `gendisc fit` does."""
    import pandas as pd
    from sklearn.naive_bayes import GaussianNB
    path = os.path.join(data, "data.csv")
    size = os.path.getsize(path)
    rec.time("read", size, lambda: pd.read_csv(path))

    def read_fit():
        df = pd.read_csv(path)
        return GaussianNB().fit(df.iloc[:, :-1].to_numpy(), df.iloc[:, -1].to_numpy())
    save_gaussian_nb(rec, rec.time("read+fit", size, read_fit))


def parquet_engine():
    """The engine pandas.read_parquet can use, or None (Debian 12 packages
    neither pyarrow nor fastparquet)."""
    for engine in ("pyarrow", "fastparquet"):
        try:
            __import__(engine)
            return engine
        except ImportError:
            pass
    return None


def formats(data, rec):
    """pandas.read_parquet alone and with GaussianNB().fit, when pandas has
    a Parquet engine (data.parquet is written from data.csv once, untimed,
    unless the Go side wrote it); else read_csv + fit, the same rows, so
    that the answers still compare. Then read_csv of data.csv and of
    data.csv.gz, and read_json(lines=True) of data.jsonl (the rows as JSON
    lines, written once by whichever side runs first, untimed), to set
    beside gendisc's readers."""
    import pandas as pd
    from sklearn.naive_bayes import GaussianNB
    csv = os.path.join(data, "data.csv")
    pq = os.path.join(data, "data.parquet")
    engine = parquet_engine()

    def fit(df):
        return GaussianNB().fit(df.iloc[:, :-1].to_numpy(), df.iloc[:, -1].to_numpy())
    if engine:
        if not os.path.exists(pq):
            pd.read_csv(csv).to_parquet(pq + ".tmp", engine=engine, compression="zstd")
            os.replace(pq + ".tmp", pq)
        size = os.path.getsize(pq)
        rec.time("parquet read", size, lambda: pd.read_parquet(pq, engine=engine))
        save_gaussian_nb(rec, rec.time("parquet read+fit", size, lambda: fit(pd.read_parquet(pq, engine=engine))))
    else:
        print("sklearn_bench: formats: pandas has no Parquet engine (pyarrow or fastparquet; "
              "Debian packages neither): no parquet ops on this side, the answers fitted from data.csv",
              file=sys.stderr)
        save_gaussian_nb(rec, rec.time("csv read+fit", os.path.getsize(csv), lambda: fit(pd.read_csv(csv))))
    rec.time("csv read", os.path.getsize(csv), lambda: pd.read_csv(csv))
    rec.time("csv.gz read", os.path.getsize(csv + ".gz"), lambda: pd.read_csv(csv + ".gz"))
    jsonl = os.path.join(data, "data.jsonl")
    if not os.path.exists(jsonl):
        pd.read_csv(csv).to_json(jsonl + ".tmp", orient="records", lines=True)
        os.replace(jsonl + ".tmp", jsonl)
    rec.time("jsonl read", os.path.getsize(jsonl), lambda: pd.read_json(jsonl, lines=True))


def load(data, *names):
    return [np.load(os.path.join(data, n + ".npy")) for n in names]


def gda(model, data, rec):
    """Fit and predict_proba of LDA or QDA on the in-memory gda arrays."""
    X, y = load(data, "gda_X", "gda_y")
    m = rec.time("fit", X.nbytes, lambda: model().fit(X, y))
    rec.answer("priors", m.priors_)
    rec.answer("means", m.means_)
    rec.answer("proba", rec.time("predict", X.nbytes, lambda: m.predict_proba(X)))


def lda(data, rec):
    """LinearDiscriminantAnalysis() (solver 'svd', unbiased covariance)."""
    from sklearn.discriminant_analysis import LinearDiscriminantAnalysis
    gda(LinearDiscriminantAnalysis, data, rec)


def qda(data, rec):
    """QuadraticDiscriminantAnalysis() (unbiased covariances, no regularisation)."""
    from sklearn.discriminant_analysis import QuadraticDiscriminantAnalysis
    gda(QuadraticDiscriminantAnalysis, data, rec)


def logistic(labels, data, rec):
    """LogisticRegression(C=1, solver 'lbfgs', tol=1e-6) on the standardised
    logit arrays; the answer objective is the minimised
    Σ_i −log P(y_i|x_i) + ½‖W‖² at the fitted coefficients."""
    from scipy.special import logsumexp
    from sklearn.linear_model import LogisticRegression
    X, y = load(data, "logit_X", labels)
    m = rec.time("fit", X.nbytes,
                 lambda: LogisticRegression(C=1.0, tol=1e-6, max_iter=10_000).fit(X, y))
    z = X @ m.coef_.T + m.intercept_
    if z.shape[1] == 1:
        nll = np.logaddexp(0, z[:, 0]) - y * z[:, 0]
    else:
        nll = logsumexp(z, axis=1) - z[np.arange(len(y)), y]
    rec.answer("objective", [nll.sum() + 0.5 * np.sum(m.coef_ ** 2)])
    rec.answer("coef", m.coef_)
    rec.answer("intercept", m.intercept_)
    print(f"sklearn_bench: {labels}: {m.n_iter_[0]} iterations", file=sys.stderr)


def logistic2(data, rec):
    logistic("logit_y2", data, rec)


def logistic5(data, rec):
    logistic("logit_y5", data, rec)


def gmm(data, rec):
    """GaussianMixture(8, 'full') for exactly 100 EM iterations (tol=0) from
    the start in gmm_*.npy. init_params='random_from_data' keeps sklearn 1.2
    from running k-means before it overrides the start with weights_init,
    means_init and precisions_init."""
    from sklearn.mixture import GaussianMixture
    X, w, mu, cov = load(data, "gmm_X", "gmm_weights", "gmm_means", "gmm_covariances")
    prec = np.linalg.inv(cov)

    def fit():
        return GaussianMixture(len(w), covariance_type="full", tol=0.0, max_iter=100,
                               init_params="random_from_data", weights_init=w,
                               means_init=mu, precisions_init=prec, random_state=0).fit(X)
    m = rec.time("fit", X.nbytes, fit)
    assert m.n_iter_ == 100, m.n_iter_
    rec.answer("weights", m.weights_)
    rec.answer("means", m.means_)
    rec.answer("covariances", m.covariances_)


TOKENS = r"(?u)[^\W_]+"


def mnb_text(data, rec):
    """MultinomialNB: (a) fit and predict_proba from the CSR matrix of term
    counts (CountVectorizer outside the timing); (b) text CSV to a fitted
    model: read_csv, CountVectorizer(token_pattern=TOKENS), MultinomialNB."""
    import pandas as pd
    from sklearn.feature_extraction.text import CountVectorizer
    from sklearn.naive_bayes import MultinomialNB
    path = os.path.join(data, "text.csv")
    size = os.path.getsize(path)
    df = pd.read_csv(path)
    Xc = CountVectorizer(token_pattern=TOKENS).fit_transform(df["text"])
    y = df["class"].to_numpy()
    # the file's size as the input of every op, on both sides
    m = rec.time("fit", size, lambda: MultinomialNB().fit(Xc, y))
    rec.answer("class_log_prior", m.class_log_prior_)
    rec.answer("proba", rec.time("predict", size, lambda: m.predict_proba(Xc)))

    def read_fit():
        d = pd.read_csv(path)
        X = CountVectorizer(token_pattern=TOKENS).fit_transform(d["text"])
        return MultinomialNB().fit(X, d["class"].to_numpy())
    rec.time("csv fit", size, read_fit)


# Gaussian NB answers: the class prior, means and variances.
GNB_FIT = {"class_prior": 1e-12, "theta": 1e-9, "var": 1e-9}

# name -> run(data dir, recorder), the gendata.py data sets it needs, the
# answers both sides save with their tolerance (max |a-b| / max(1, |b|)),
# the targets: (op, "speedup" sklearn/gendisc at least, "mbps" gendisc
# MB/s at least, or "rss_per_byte" gendisc peak RSS / op input at most),
# and the work of an op for its limit estimate (report.py): "passes" over
# its input (default 1) and "flops" per byte of input (default 0; a
# multiply-add counts 2), so that the limit is
#     max(passes · bytes / bandwidth, flops · bytes / peak)
# with the bandwidth and peak of the run's calibration. For N rows of D
# features (8·D bytes a row) and K classes:
#   Gaussian NB fit: x and x² summed per class, 3 flops a value: 3/8;
#   Gaussian NB predict: an FMA per value and class, 2·K/8 (the
#     exponentials not counted);
#   LDA, QDA fit: the scatter, D(D+1) flops a row (a rank-k update of
#     the centred rows): (D+1)/8;
#   LDA predict: K scores a row, 2·K·D flops: 2·K/8;
#   QDA predict: a triangular solve per class, K·D² flops a row: K·D/8;
#   Gaussian mixture, full, per EM iteration: the E-step's K triangular
#     solves and the M-step's K weighted scatters, K·(2D+1)·D flops a
#     row, and a pass over the rows: 100 iterations, K = 8, D = 20.
# The other ops (parsing, sparse counts, an iterative solver whose
# iterations differ between the sides) have one pass as a loose bound.
WORKLOADS = {
    "gnb": {
        "run": gnb, "datasets": ["dense"],
        "checks": dict(GNB_FIT, proba=1e-6),
        "targets": [("fit", "speedup", 10), ("predict", "speedup", 10),
                    ("fit", "rss_per_byte", 1.5)],
        "work": {"fit": {"flops": 3 / 8}, "predict": {"flops": 2 * 10 / 8}},
    },
    "csv-gnb": {
        "run": csv_gnb, "datasets": ["csv"],
        "checks": GNB_FIT,
        "targets": [("read+fit", "speedup", 4), ("read", "mbps", 150)],
    },
    # The Parquet targets are gendisc's against its own figures: "faster"
    # (op's time × value at most that of the op named), "within" (op's
    # time at most value × the sum of the ops named).
    "formats": {
        "run": formats, "datasets": ["csvgz"],
        "checks": GNB_FIT,
        "targets": [("parquet read", "faster", (1.5, "csv read")),
                    ("csv.gz read", "within", (1.3, "csv read", "gunzip"))],
    },
    "lda": {
        "run": lda, "datasets": ["gda"],
        "checks": {"priors": 1e-12, "means": 1e-9, "proba": 1e-6},
        "targets": [("fit", "speedup", 5)],
        "work": {"fit": {"flops": (100 + 1) / 8}, "predict": {"flops": 2 * 5 / 8}},
    },
    "qda": {
        "run": qda, "datasets": ["gda"],
        "checks": {"priors": 1e-12, "means": 1e-9, "proba": 1e-6},
        "targets": [("fit", "speedup", 3), ("predict", "speedup", 3)],
        "work": {"fit": {"flops": (100 + 1) / 8}, "predict": {"flops": 5 * 100 / 8}},
    },
    # objective: one-sided, gendisc's minimised objective at most
    # sklearn's × (1 + 1e-8); the coefficients only as loosely as lbfgs's
    # tolerance allows.
    "logistic2": {
        "run": logistic2, "datasets": ["logit"],
        "checks": {"objective": 1e-8, "coef": 1e-4, "intercept": 1e-4},
        "one_sided": ["objective"],
        "targets": [("fit", "speedup", 2)],
    },
    "logistic5": {
        "run": logistic5, "datasets": ["logit"],
        "checks": {"objective": 1e-8, "coef": 1e-4, "intercept": 1e-4},
        "one_sided": ["objective"],
        "targets": [("fit", "speedup", 2)],
    },
    "gmm": {
        "run": gmm, "datasets": ["gmm"],
        "checks": {"weights": 1e-8, "means": 1e-8, "covariances": 1e-8},
        "targets": [("fit", "speedup", 3)],
        "work": {"fit": {"passes": 100, "flops": 100 * 8 * (2 * 20 + 1) * 20 / (8 * 20)}},
    },
    "mnb-text": {
        "run": mnb_text, "datasets": ["text"],
        "checks": {"class_log_prior": 1e-12, "proba": 1e-9},
        "targets": [("fit", "speedup", 1), ("predict", "speedup", 1), ("csv fit", "speedup", 3)],
    },
}


GEMM_N = 2000


SUM_VALUES = 50_000_000


def calibrate(rec):
    """numpy's dgemm of two GEMM_N x GEMM_N matrices, once untimed to warm
    OpenBLAS's threads and buffers; and numpy's sum of SUM_VALUES float64
    (400 MB, one thread: numpy does not split a sum), the streaming read
    behind issue 18's bandwidth figure, beside benchgo's on all cores."""
    rng = np.random.default_rng(0)
    a, b = rng.standard_normal((GEMM_N, GEMM_N)), rng.standard_normal((GEMM_N, GEMM_N))
    a @ b
    rec.time("dgemm", 2 * a.nbytes, lambda: a @ b)
    rec.ops[-1]["flops"] = 2 * GEMM_N ** 3
    x = np.ones(SUM_VALUES)
    rec.time("sum", x.nbytes, x.sum)


def versions():
    import pandas
    import sklearn
    v = {"python": platform.python_version(), "sklearn": sklearn.__version__,
         "numpy": np.__version__, "pandas": pandas.__version__}
    try:
        import threadpoolctl
        v["blas"] = [{k: i.get(k) for k in ("internal_api", "version", "architecture", "num_threads")}
                     for i in threadpoolctl.threadpool_info()]
    except ImportError:
        pass
    return v


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--datasets", action="store_true",
                    help="print the data sets the workloads need and exit")
    ap.add_argument("--list", action="store_true", help="print the workloads and exit")
    ap.add_argument("--calibrate", action="store_true", help="time numpy's dgemm for the peak flops")
    ap.add_argument("--data")
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--out")
    ap.add_argument("workloads", nargs="*", metavar="WORKLOAD")
    a = ap.parse_args()
    unknown = [w for w in a.workloads if w not in WORKLOADS]
    if unknown:
        ap.error(f"unknown workload {unknown[0]!r} (choose from {', '.join(WORKLOADS)})")
    if a.list:
        print(" ".join(WORKLOADS))
        return
    if a.datasets:
        need = {d for w in a.workloads for d in WORKLOADS[w]["datasets"]}
        print(" ".join(sorted(need)))
        return
    if a.calibrate:
        if a.workloads or not a.out or a.reps < 1:
            ap.error("--calibrate takes --out and --reps >= 1, no workload")
        name = "calibrate"
    elif len(a.workloads) != 1 or not a.data or not a.out or a.reps < 1:
        ap.error("run one workload with --data, --out and --reps >= 1")
    else:
        name = a.workloads[0]
    os.makedirs(a.out, exist_ok=True)
    rec = Recorder(a.reps, a.out)
    load = os.getloadavg()[0]
    if a.calibrate:
        calibrate(rec)
    else:
        WORKLOADS[name]["run"](a.data, rec)
    with open(os.path.join(a.out, "result.json"), "w") as f:
        json.dump({"side": "sklearn", "workload": name, "reps": a.reps,
                   "loadavg": [load, os.getloadavg()[0]],
                   "versions": versions(), "ops": rec.ops}, f, indent=1)


if __name__ == "__main__":
    sys.exit(main())
