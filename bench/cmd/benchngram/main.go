// Command benchngram is the Go side of bench/ngram/run: it builds a
// trigram Kneser–Ney model (package ngram) of the lines of a text file and
// scores the lines of another, timing both, and prints one JSON object:
// the seconds of each step (wall and CPU), the page faults of the build, the peak resident memory (VmHWM), the distinct
// n-grams of every order, the bytes the model's tables hold per distinct
// n-gram, and the held-out perplexity.
//
//	benchngram [-order 3] [-cpuprofile FILE] TRAIN.txt TEST.txt
package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"log"
	"math"
	"os"
	"runtime"
	"runtime/pprof"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/gendisc/gendisc/data"
	"github.com/gendisc/gendisc/ngram"
)

func main() {
	log.SetFlags(0)
	log.SetPrefix("benchngram: ")
	order := flag.Int("order", 3, "the n-gram order")
	profile := flag.String("cpuprofile", "", "write a CPU profile of the build to this file")
	flag.Parse()
	if flag.NArg() != 2 {
		log.Fatal("usage: benchngram [-order N] TRAIN.txt TEST.txt")
	}
	train, test := lines(flag.Arg(0)), lines(flag.Arg(1))
	runtime.GC()
	if *profile != "" {
		f, err := os.Create(*profile)
		if err != nil {
			log.Fatal(err)
		}
		if err := pprof.StartCPUProfile(f); err != nil {
			log.Fatal(err)
		}
	}
	f0 := faults()
	c0, t0 := cpuTime(), time.Now()
	m, err := ngram.Config{Order: *order}.Fit(dataset(train))
	if err != nil {
		log.Fatal(err)
	}
	pprof.StopCPUProfile()
	build, buildCPU, buildFaults := time.Since(t0).Seconds(), cpuTime()-c0, faults()-f0
	c0, t0 = cpuTime(), time.Now()
	lp, tokens := 0.0, 0
	for _, doc := range test {
		l, n := m.LogProb(doc, 0)
		lp, tokens = lp+l, tokens+n
	}
	score, scoreCPU := time.Since(t0).Seconds(), cpuTime()-c0
	distinct := 0
	var perOrder []int
	for _, o := range m.Stats(0) {
		distinct += o.NGrams
		perOrder = append(perOrder, o.NGrams)
	}
	out := map[string]any{
		"side": "gendisc", "order": *order, "train_lines": len(train), "test_lines": len(test),
		"build_s": build, "score_s": score, "build_cpu_s": buildCPU, "build_page_faults": buildFaults, "score_cpu_s": scoreCPU, "score_tokens": tokens, "perplexity": math.Exp(-lp / float64(tokens)),
		"ngrams": perOrder, "bytes_per_ngram": float64(m.Bytes()) / float64(distinct), "peak_rss_mb": peakRSS(),
	}
	json.NewEncoder(os.Stdout).Encode(out)
}

// lines returns the non-empty lines of the file at path.
func lines(path string) []string {
	f, err := os.Open(path)
	if err != nil {
		log.Fatal(err)
	}
	defer f.Close()
	var out []string
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 0, 1<<16), 1<<26)
	for sc.Scan() {
		if sc.Text() != "" {
			out = append(out, sc.Text())
		}
	}
	if err := sc.Err(); err != nil {
		log.Fatal(err)
	}
	return out
}

func dataset(docs []string) *data.Dataset {
	s := &data.Schema{Features: []data.Column{{Name: "text", Kind: data.Text}}}
	x := make([]float64, len(docs))
	for i := range x {
		x[i] = math.NaN()
	}
	return &data.Dataset{Schema: s, N: len(docs), X: x, Text: [][]string{docs}}
}

// cpuTime returns the process's user and system CPU seconds so far.
func cpuTime() float64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return math.NaN()
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()).Seconds()
}

// faults returns the process's page faults so far (minor and major).
func faults() int64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return -1
	}
	return ru.Minflt + ru.Majflt
}

// peakRSS returns the process's peak resident memory in MB (VmHWM).
func peakRSS() float64 {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return math.NaN()
	}
	for _, l := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(l, "VmHWM:"); ok {
			kb, err := strconv.ParseFloat(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 64)
			if err == nil {
				return kb / 1024
			}
		}
	}
	return math.NaN()
}
