// Command benchcv is the gendisc side of bench/cv, the cross-validation
// benchmark against scikit-learn (issue 28, item 6).
//
//	benchcv gen -dir DIR [-rows N]
//	benchcv csv -dir DIR -out FILE
//	benchcv -dir DIR [-reps R] [-cpuprofile FILE] [-loo-splits S] gnb|lda
//	benchcv gen-tune -dir DIR [-rows N]
//	benchcv -dir DIR [-reps R] [-cpuprofile FILE] tune
//
// gen writes the data both sides read: gnb_X.npy (float64 N × 50, default
// N = 1,000,000) and gnb_y.npy (labels 0 and 1), lda_X.npy (10,000 × 50)
// and lda_y.npy, from one seeded PCG: two classes of equal prior, feature
// j of class c drawn from N(0.5·c, 1).
//
// csv writes DIR's naive Bayes data set as a CSV file, the columns x0 to
// x49 (the shortest decimals that read back to the same float64) and
// class (0 or 1), for the comparison of whole processes, gendisc fit
// against gendisc cv on the same file.
//
// gnb times one fit of Gaussian naive Bayes and its stratified 10-fold
// cross-validation (cv.Runner with the fold accumulators, every metric of
// gendisc eval per fold); lda one fit of LDA and its leave-one-out by
// downdating (cv.LeaveOneOutLDA). Every operation runs R times (default
// 5) after a garbage collection outside the timing. It writes one JSON
// object to standard output:
//
//	{"side": "gendisc", "workload": ..., "loadavg": [at the start, at the end],
//	 "gomaxprocs": ..., "ops": [{"op": ..., "seconds": [wall time of each run],
//	 "cpu_seconds": [CPU time of each run, every thread]}, ...],
//	 "answer": {"accuracy": mean accuracy over the folds (or the rows, for leave-one-out),
//	            "accuracy_first_splits": leave-one-out accuracy of the first S rows}}
package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"log"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"runtime/pprof"
	"strconv"
	"time"

	"github.com/gendisc/gendisc"
	"github.com/gendisc/gendisc/bench/internal/measure"
	"github.com/gendisc/gendisc/bench/internal/npy"
	"github.com/gendisc/gendisc/cv"
	"github.com/gendisc/gendisc/data"
	"github.com/gendisc/gendisc/gda"
	"github.com/gendisc/gendisc/naivebayes"
)

// looSplits is the -loo-splits flag.
var looSplits int

// features is the number of columns of both data sets; ldaRows the rows
// of the leave-one-out one.
const (
	features = 50
	ldaRows  = 10_000
)

type op struct {
	Op      string    `json:"op"`
	Seconds []float64 `json:"seconds"`
	CPU     []float64 `json:"cpu_seconds"`
}

type result struct {
	Side       string             `json:"side"`
	Workload   string             `json:"workload"`
	LoadAvg    []float64          `json:"loadavg"`
	GOMAXPROCS int                `json:"gomaxprocs"`
	Ops        []op               `json:"ops"`
	Answer     map[string]float64 `json:"answer"`
}

func main() {
	log.SetFlags(0)
	log.SetPrefix("benchcv: ")
	if len(os.Args) > 1 && os.Args[1] == "gen-tune" {
		if err := genTune(os.Args[2:]); err != nil {
			log.Fatal(err)
		}
		return
	}
	if len(os.Args) > 1 && os.Args[1] == "gen" {
		fs := flag.NewFlagSet("gen", flag.ExitOnError)
		dir := fs.String("dir", "", "directory to write the data to")
		rows := fs.Int("rows", 1_000_000, "rows of the naive Bayes data set")
		fs.Parse(os.Args[2:])
		if *dir == "" || *rows < 20 {
			log.Fatal("gen needs -dir and -rows of at least 20")
		}
		if err := generate(*dir, *rows); err != nil {
			log.Fatal(err)
		}
		return
	}
	if len(os.Args) > 1 && os.Args[1] == "csv" {
		fs := flag.NewFlagSet("csv", flag.ExitOnError)
		dir := fs.String("dir", "", "directory of the data written by benchcv gen")
		out := fs.String("out", "", "CSV file to write")
		fs.Parse(os.Args[2:])
		if *dir == "" || *out == "" {
			log.Fatal("csv needs -dir and -out")
		}
		if err := writeCSV(*dir, *out); err != nil {
			log.Fatal(err)
		}
		return
	}
	dir := flag.String("dir", "", "directory of the data written by benchcv gen")
	reps := flag.Int("reps", 5, "runs of every timed operation")
	profile := flag.String("cpuprofile", "", "write a CPU profile of the whole run to this file")
	flag.IntVar(&looSplits, "loo-splits", 0, "lda: also report the leave-one-out accuracy of the first S rows (the splits scikit-learn's side runs)")
	flag.Parse()
	if *dir == "" || *reps < 1 || flag.NArg() != 1 {
		log.Fatal("usage: benchcv -dir DIR [-reps R] gnb|lda|tune")
	}
	res := &result{Side: "gendisc", Workload: flag.Arg(0), LoadAvg: []float64{measure.LoadAverage()},
		GOMAXPROCS: runtime.GOMAXPROCS(0), Answer: map[string]float64{}}
	if *profile != "" {
		f, err := os.Create(*profile)
		if err != nil {
			log.Fatal(err)
		}
		if err := pprof.StartCPUProfile(f); err != nil {
			log.Fatal(err)
		}
		defer pprof.StopCPUProfile()
	}
	if err := run(*dir, *reps, res); err != nil {
		log.Fatal(err)
	}
	res.LoadAvg = append(res.LoadAvg, measure.LoadAverage())
	if err := json.NewEncoder(os.Stdout).Encode(res); err != nil {
		log.Fatal(err)
	}
}

// run runs the workload res.Workload.
func run(dir string, reps int, res *result) error {
	var err error
	switch res.Workload {
	case "gnb":
		err = gnb(dir, reps, res)
	case "lda":
		err = lda(dir, reps, res)
	case "tune":
		err = tune(dir, reps, res)
	default:
		err = fmt.Errorf("unknown workload %q (gnb, lda, tune)", res.Workload)
	}
	return err
}

// generate writes the two data sets to dir.
func generate(dir string, rows int) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	rng := rand.New(rand.NewPCG(20261128, 28))
	for _, s := range []struct {
		name string
		rows int
	}{{"gnb", rows}, {"lda", ldaRows}} {
		x, y := make([]float64, s.rows*features), make([]float64, s.rows)
		for i := range y {
			c := float64(rng.IntN(2))
			y[i] = c
			for j := range features {
				x[i*features+j] = rng.NormFloat64() + 0.5*c
			}
		}
		if err := npy.Write(filepath.Join(dir, s.name+"_X.npy"), x, s.rows, features); err != nil {
			return err
		}
		if err := npy.Write(filepath.Join(dir, s.name+"_y.npy"), y, s.rows); err != nil {
			return err
		}
	}
	return nil
}

// writeCSV writes the naive Bayes data set of dir to the CSV file out.
func writeCSV(dir, out string) error {
	d, err := load(dir, "gnb")
	if err != nil {
		return err
	}
	f, err := os.Create(out)
	if err != nil {
		return err
	}
	w := bufio.NewWriterSize(f, 1<<20)
	for j := range d.D() {
		fmt.Fprintf(w, "x%d,", j)
	}
	w.WriteString("class\n")
	var line []byte
	for i := range d.N {
		line = line[:0]
		for _, v := range d.Row(i) {
			line = strconv.AppendFloat(line, v, 'g', -1, 64)
			line = append(line, ',')
		}
		line = strconv.AppendInt(line, int64(d.Y[i]), 10)
		line = append(line, '\n')
		w.Write(line)
	}
	if err := w.Flush(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// load returns the arrays name_X.npy and name_y.npy of dir as a data set
// over them, with features x0, x1, … and the classes "0" and "1".
func load(dir, name string) (*data.Dataset, error) {
	x, xs, err := npy.Read(filepath.Join(dir, name+"_X.npy"))
	if err != nil {
		return nil, err
	}
	y, ys, err := npy.Read(filepath.Join(dir, name+"_y.npy"))
	if err != nil {
		return nil, err
	}
	if len(xs) != 2 || len(ys) != 1 || xs[0] != ys[0] {
		return nil, fmt.Errorf("%s: %s_X.npy shape %v and %s_y.npy shape %v do not match", dir, name, xs, name, ys)
	}
	names := make([]string, xs[1])
	for j := range names {
		names[j] = "x" + strconv.Itoa(j)
	}
	labels := make([]int, len(y))
	for i, v := range y {
		labels[i] = int(v)
	}
	return data.FromMatrix(names, x, []string{"0", "1"}, labels), nil
}

// timed runs fn reps times, each after a garbage collection, and records
// its wall and CPU times as the operation name.
func timed(res *result, name string, reps int, fn func() error) error {
	o := op{Op: name}
	for range reps {
		runtime.GC()
		c, t := measure.CPUTime(), time.Now()
		if err := fn(); err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
		o.Seconds = append(o.Seconds, time.Since(t).Seconds())
		o.CPU = append(o.CPU, measure.CPUTime()-c)
	}
	res.Ops = append(res.Ops, o)
	return nil
}

// gnb times a fit of Gaussian naive Bayes and its stratified 10-fold
// cross-validation.
func gnb(dir string, reps int, res *result) error {
	d, err := load(dir, "gnb")
	if err != nil {
		return err
	}
	cfg := naivebayes.GaussianConfig{}
	if err := timed(res, "fit", reps, func() error { _, err := cfg.Fit(d); return err }); err != nil {
		return err
	}
	r := &cv.Runner{
		Fit:            func(d *data.Dataset) (gendisc.Model, error) { return cfg.Fit(d) },
		NewAccumulator: func() (gendisc.Accumulator, error) { return cfg.NewAccumulator() },
	}
	var cvResult *cv.Result
	err = timed(res, "cv10", reps, func() error {
		folds, err := cv.Stratified(d.Y, 10, 1)
		if err != nil {
			return err
		}
		cvResult, err = r.Run(d, folds)
		return err
	})
	if err != nil {
		return err
	}
	res.Answer["accuracy"], _, _ = cvResult.Metric("accuracy")
	return nil
}

// lda times a fit of LDA and its leave-one-out.
func lda(dir string, reps int, res *result) error {
	d, err := load(dir, "lda")
	if err != nil {
		return err
	}
	cfg := gda.LDAConfig{}
	if err := timed(res, "fit", reps, func() error { _, err := cfg.Fit(d); return err }); err != nil {
		return err
	}
	var proba []float64
	err = timed(res, "loo", reps, func() error {
		proba, err = cv.LeaveOneOutLDA(cfg, d)
		return err
	})
	if err != nil {
		return err
	}
	correct := 0
	for i, y := range d.Y {
		if (proba[2*i+1] > proba[2*i]) == (y == 1) {
			correct++
		}
		if i+1 == looSplits {
			res.Answer["accuracy_first_splits"] = float64(correct) / float64(looSplits)
		}
	}
	res.Answer["accuracy"] = float64(correct) / float64(d.N)
	return nil
}
