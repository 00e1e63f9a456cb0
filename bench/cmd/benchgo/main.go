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
	"bufio"
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
	"strconv"
	"strings"
	"syscall"
	"time"
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
	load := loadAverage()
	if err := run(*dir, r); err != nil {
		log.Fatal(err)
	}
	res := map[string]any{"side": "gendisc", "workload": flag.Arg(0), "reps": *reps,
		"loadavg": []float64{load, loadAverage()}, "versions": versions(), "ops": r.ops}
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
		c, t := cpuTime(), time.Now()
		var err error
		if res, err = fn(); err != nil {
			return res, err
		}
		secs[i] = time.Since(t).Seconds()
		cpu[i] = cpuTime() - c
	}
	rss, err := peakRSS()
	if err != nil {
		return res, err
	}
	r.ops = append(r.ops, op{Op: name, Seconds: secs, CPU: cpu, Bytes: nbytes, PeakRSS: rss})
	return res, nil
}

// cpuTime returns the user and system CPU seconds used so far by every
// thread of the process.
func cpuTime() float64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		panic("benchgo: getrusage: " + err.Error())
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()).Seconds()
}

// answer saves x, of the given shape, as out/name.npy.
func (r *recorder) answer(name string, x []float64, shape ...int) error {
	return writeNpy(filepath.Join(r.out, name+".npy"), x, shape...)
}

// peakRSS returns the process's peak resident set size in bytes: VmHWM in
// /proc/self/status (Linux).
func peakRSS() (int64, error) {
	f, err := os.Open("/proc/self/status")
	if err != nil {
		return 0, err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), "VmHWM:"); ok {
			kb, err := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")), 10, 64)
			return kb * 1024, err
		}
	}
	if err := sc.Err(); err != nil {
		return 0, err
	}
	return 0, fmt.Errorf("no VmHWM in /proc/self/status")
}

// loadAverage returns the 1-minute load average of the machine (the first
// field of /proc/loadavg), -1 when it cannot be read: the benchmark
// records it to show how busy the machine was.
func loadAverage() float64 {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return -1
	}
	f, _, _ := strings.Cut(string(b), " ")
	v, err := strconv.ParseFloat(f, 64)
	if err != nil {
		return -1
	}
	return v
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
