// Command benchcrf is the Go side of bench/crf/run: it reads the UPOS tags
// of two CoNLL-U files (read minimally here: the word form and UPOS of
// each token line, multiword-token and empty-node lines skipped), makes
// the items of every sentence with package crf's templates, and either
// writes them in CRFsuite's data format (dump) for the CRFsuite side, or
// trains a CRF on the first file and tags the second (train), printing
// CRFsuite-like per-iteration lines on standard error and one JSON object
// on standard output: the features, iterations, seconds of the training
// (wall and CPU) and per iteration, the tagging seconds (wall and CPU, the
// sentences split among the cores) and tokens per second, and the token
// accuracy.
//
//	benchcrf [-templates SPEC] [-c2 1] [-max-iter N] [-jobs N] [-cpuprofile FILE] train TRAIN.conllu.gz DEV.conllu.gz
//	benchcrf [-templates SPEC] dump TRAIN.conllu.gz DEV.conllu.gz OUTDIR
package main

import (
	"bufio"
	"compress/gzip"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"log"
	"os"
	"path/filepath"
	"runtime"
	"runtime/pprof"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/gendisc/gendisc/crf"
	"github.com/gendisc/gendisc/seq"
	"github.com/gendisc/gendisc/seqio"
)

type sentence struct{ words, tags []string }

func main() {
	log.SetFlags(0)
	log.SetPrefix("benchcrf: ")
	spec := flag.String("templates", crf.DefaultTemplates, "the feature templates")
	c2 := flag.Float64("c2", 1, "the L2 coefficient")
	maxIter := flag.Int("max-iter", 0, "the iteration limit (0: none, as CRFsuite)")
	jobs := flag.Int("jobs", 0, "goroutines of the gradient pass (0: every core)")
	profile := flag.String("cpuprofile", "", "write a CPU profile of the run to this file")
	flag.Parse()
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
	tp, err := crf.ParseTemplates(*spec)
	if err != nil {
		log.Fatal(err)
	}
	switch {
	case flag.NArg() == 3 && flag.Arg(0) == "train":
		train(tp, *c2, *maxIter, *jobs, read(flag.Arg(1)), read(flag.Arg(2)))
	case flag.NArg() == 4 && flag.Arg(0) == "dump":
		for i, name := range []string{"train.crfsuite", "dev.crfsuite"} {
			dump(filepath.Join(flag.Arg(3), name), tp, read(flag.Arg(i+1)))
		}
	default:
		log.Fatal("usage: benchcrf [flags] train TRAIN DEV | dump TRAIN DEV OUTDIR")
	}
}

func train(tp *crf.Templates, c2 float64, maxIter, jobs int, trainSents, devSents []sentence) {
	seqs := sequences(tp, trainSents)
	cfg := crf.DefaultConfig()
	cfg.C2, cfg.MaxIter, cfg.Jobs = c2, maxIter, jobs
	last, lastCPU := time.Now(), cpuTime()
	cfg.Progress = func(it crf.Iteration) {
		now, cpu := time.Now(), cpuTime()
		fmt.Fprintf(os.Stderr, "iteration %d: log-likelihood %.6f, feature norm %.6f, error norm %.6f, line search trials %d, seconds %.3f, CPU seconds %.3f\n",
			it.Iter, -it.Objective, it.WeightNorm, it.GradNorm, it.LinesearchCalls, now.Sub(last).Seconds(), cpu-lastCPU)
		last, lastCPU = now, cpu
	}
	runtime.GC()
	t0, c0 := time.Now(), cpuTime()
	m, err := crf.Fit(seqs, cfg)
	if err != nil {
		log.Fatal(err)
	}
	trainSec, trainCPU := time.Since(t0).Seconds(), cpuTime()-c0
	devSeqs := sequences(tp, devSents)
	// Tagging: the dev sentences split among the cores (Model.Tag is safe
	// for concurrent use), after a collection of the training's garbage.
	runtime.GC()
	t0, c0 = time.Now(), cpuTime()
	tagged := make([][]string, len(devSeqs))
	var wg sync.WaitGroup
	workers := runtime.GOMAXPROCS(0)
	for k := range workers {
		wg.Go(func() {
			for i := k * len(devSeqs) / workers; i < (k+1)*len(devSeqs)/workers; i++ {
				tagged[i] = m.Tag(devSeqs[i].Items)
			}
		})
	}
	wg.Wait()
	tagSec, tagCPU := time.Since(t0).Seconds(), cpuTime()-c0
	correct, tokens := 0, 0
	for i, tags := range tagged {
		for t, tag := range tags {
			if tag == devSents[i].tags[t] {
				correct++
			}
			tokens++
		}
	}
	out := map[string]any{
		"features": m.NumFeatures(), "iterations": m.Iterations(), "train_seconds": trainSec, "train_cpu_seconds": trainCPU, "tag_cpu_seconds": tagCPU,
		"seconds_per_iteration": trainSec / float64(max(1, m.Iterations())), "tag_seconds": tagSec,
		"tokens_per_second": float64(tokens) / tagSec, "dev_tokens": tokens, "accuracy": float64(correct) / float64(tokens),
		"warnings": m.Warnings(), "cores": runtime.GOMAXPROCS(0),
	}
	json.NewEncoder(os.Stdout).Encode(out)
}

// cpuTime returns the CPU seconds of the process, user and system, which
// the load of a shared machine inflates less than the wall time.
func cpuTime() float64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		log.Fatal(err)
	}
	return float64(ru.Utime.Nano()+ru.Stime.Nano()) / 1e9
}

func sequences(tp *crf.Templates, sents []sentence) []crf.Sequence {
	seqs := make([]crf.Sequence, len(sents))
	for i, s := range sents {
		seqs[i] = crf.Sequence{Items: tp.Items(s.words), Labels: s.tags}
	}
	return seqs
}

// dump writes the sentences' items and tags in CRFsuite's data format.
func dump(path string, tp *crf.Templates, sents []sentence) {
	f, err := os.Create(path)
	if err != nil {
		log.Fatal(err)
	}
	seqs := make([]seq.Sentence, len(sents))
	for i, s := range sents {
		seqs[i] = seq.Sentence{Tags: s.tags, Attributes: tp.Attributes(s.words)}
	}
	if err := seqio.WriteCRFsuite(f, seqs); err != nil {
		log.Fatal(err)
	}
	if err := f.Close(); err != nil {
		log.Fatal(err)
	}
}

// read returns the sentences of a CoNLL-U file, gzipped or not.
func read(path string) []sentence {
	f, err := os.Open(path)
	if err != nil {
		log.Fatal(err)
	}
	defer f.Close()
	var r io.Reader = f
	if strings.HasSuffix(path, ".gz") {
		if r, err = gzip.NewReader(f); err != nil {
			log.Fatal(err)
		}
	}
	var sents []sentence
	var cur sentence
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for line := 1; sc.Scan(); line++ {
		text := sc.Text()
		switch {
		case text == "":
			if len(cur.words) > 0 {
				sents = append(sents, cur)
			}
			cur = sentence{}
		case strings.HasPrefix(text, "#"):
		default:
			fields := strings.Split(text, "\t")
			if len(fields) != 10 {
				log.Fatalf("%s:%d: %d fields, want 10", path, line, len(fields))
			}
			if strings.ContainsAny(fields[0], "-.") {
				continue // a multiword token or an empty node
			}
			cur.words = append(cur.words, fields[1])
			cur.tags = append(cur.tags, fields[3])
		}
	}
	if err := sc.Err(); err != nil {
		log.Fatal(err)
	}
	if len(cur.words) > 0 {
		sents = append(sents, cur)
	}
	return sents
}
