// Command benchgo is the gendisc side of the benchmark harness: it runs one
// workload of bench/run in its own process and records what bench/report.py
// compares with scikit-learn.
//
//	benchgo -data DIR -reps N -out DIR WORKLOAD
//
// DIR holds the data written by bench/gendata.py. Every timed operation
// runs N times after a garbage collection outside the timing; the process's
// peak RSS (VmHWM of /proc/self/status) is read after each operation. The
// answers (fitted parameters, probabilities) go to -out as .npy files, and
// -out/result.json records
//
//	{"side": "gendisc", "workload": ..., "reps": ...,
//	 "loadavg": [1-minute load average at the start, at the end],
//	 "versions": {...},
//	 "ops": [{"op": "fit", "seconds": [wall time of each run],
//	          "cpu_seconds": [CPU time of each run, user + system, all threads],
//	          "bytes": size of the op's input, "peak_rss": bytes}, ...]}
//
// the same layout as bench/sklearn_bench.py. A workload is a function in the
// workloads table below, named as on the scikit-learn side; calibrate is
// the harness's streaming read (calibrate.go), -data unused.
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"log"
	"maps"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"slices"
	"strings"
	"time"

	"github.com/gendisc/gendisc/bench/internal/measure"
	"github.com/gendisc/gendisc/bench/internal/npy"
)

// workloads maps a workload name to the function that runs it on the data
// in dir.
var workloads = map[string]func(dir string, r *recorder) error{
	"gnb":       gnb,
	"csv-gnb":   csvGNB,
	"formats":   formats,
	"lda":       lda,
	"qda":       qda,
	"logistic2": logistic2,
	"logistic5": logistic5,
	"gmm":       gmm,
	"mnb-text":  mnbText,
	"calibrate": calibrate,
}

func main() {
	log.SetFlags(0)
	log.SetPrefix("benchgo: ")
	dir := flag.String("data", "", "data directory written by bench/gendata.py")
	reps := flag.Int("reps", 5, "repetitions of every timed operation")
	out := flag.String("out", "", "directory for result.json and the answers")
	flag.Parse()
	run, ok := workloads[flag.Arg(0)]
	if flag.NArg() != 1 || !ok || *dir == "" || *out == "" || *reps < 1 {
		names := slices.Sorted(maps.Keys(workloads))
		fmt.Fprintf(os.Stderr, "usage: benchgo -data DIR -reps N -out DIR WORKLOAD\nworkloads: %s\n", strings.Join(names, ", "))
		os.Exit(2)
	}
	if err := os.MkdirAll(*out, 0o755); err != nil {
		log.Fatal(err)
	}
	r := &recorder{reps: *reps, out: *out}
	load := measure.LoadAverage()
	if err := run(*dir, r); err != nil {
		log.Fatal(err)
	}
	res := map[string]any{"side": "gendisc", "workload": flag.Arg(0), "reps": *reps,
		"loadavg": []float64{load, measure.LoadAverage()}, "versions": versions(), "ops": r.ops}
	b, err := json.MarshalIndent(res, "", " ")
	if err != nil {
		log.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(*out, "result.json"), b, 0o644); err != nil {
		log.Fatal(err)
	}
}

// op is the record of one timed operation.
type op struct {
	Op      string    `json:"op"`
	Seconds []float64 `json:"seconds"`
	CPU     []float64 `json:"cpu_seconds"`
	Bytes   int64     `json:"bytes"`
	PeakRSS int64     `json:"peak_rss"`
}

// recorder times operations and saves the answers to compare.
type recorder struct {
	reps int
	out  string
	ops  []op
}

// timed runs fn r.reps times, records the wall and CPU times under the name op with
// nbytes as the size of its input, and returns the last result.
func timed[T any](r *recorder, name string, nbytes int64, fn func() (T, error)) (T, error) {
	var res T
	secs, cpu := make([]float64, r.reps), make([]float64, r.reps)
	for i := range secs {
		var zero T
		res = zero // let the previous result be collected
		runtime.GC()
		c, t := measure.CPUTime(), time.Now()
		var err error
		if res, err = fn(); err != nil {
			return res, err
		}
		secs[i] = time.Since(t).Seconds()
		cpu[i] = measure.CPUTime() - c
	}
	rss, err := measure.PeakRSS()
	if err != nil {
		return res, err
	}
	r.ops = append(r.ops, op{Op: name, Seconds: secs, CPU: cpu, Bytes: nbytes, PeakRSS: rss})
	return res, nil
}

// answer saves x, of the given shape, as out/name.npy.
func (r *recorder) answer(name string, x []float64, shape ...int) error {
	return npy.Write(filepath.Join(r.out, name+".npy"), x, shape...)
}

func versions() map[string]any {
	v := map[string]any{"go": runtime.Version(), "gomaxprocs": runtime.GOMAXPROCS(0)}
	if bi, ok := debug.ReadBuildInfo(); ok {
		for _, s := range bi.Settings {
			switch s.Key {
			case "vcs.revision", "vcs.modified", "GOAMD64", "-tags":
				v[s.Key] = s.Value
			}
		}
	}
	return v
}
