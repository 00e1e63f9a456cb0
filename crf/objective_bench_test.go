package crf

import (
	"math"
	"math/rand/v2"
	"strconv"
	"syscall"
	"testing"
)

// BenchmarkEval times one evaluation of f and ∇f on synthetic data of
// the size of a tenth of EWT (1,250 sentences of 16 tokens, 17 labels, 30
// attributes a token drawn from a Zipfian vocabulary):
//
//	go test -run '^$' -bench Eval -benchtime 20x ./crf
func BenchmarkEval(b *testing.B) {
	p, w := benchProblem()
	g := make([]float64, len(w))
	b.ResetTimer()
	c0 := cpuTime()
	for range b.N {
		p.eval(w, g)
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*1250*16), "ns/token")
	b.ReportMetric((cpuTime()-c0)*1e9/float64(b.N*1250*16), "cpu-ns/token")
}

// BenchmarkTag times Viterbi tagging of the sentences of BenchmarkEval,
// from their attributes' names:
//
//	go test -run '^$' -bench Tag ./crf
func BenchmarkTag(b *testing.B) {
	p, w := benchProblem()
	m := newModel(p.fs, w)
	seqs := benchSeqs()
	b.ResetTimer()
	c0 := cpuTime()
	for range b.N {
		for _, s := range seqs {
			m.Tag(s.Items)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*1250*16), "ns/token")
	b.ReportMetric((cpuTime()-c0)*1e9/float64(b.N*1250*16), "cpu-ns/token")
}

// cpuTime returns the CPU seconds of the process, user and system: the
// benchmarks report it per token beside the wall time, which the load of a
// shared machine inflates.
func cpuTime() float64 {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return math.NaN()
	}
	return float64(ru.Utime.Nano()+ru.Stime.Nano()) / 1e9
}

func benchSeqs() []Sequence {
	rng := rand.New(rand.NewPCG(1, 1))
	zipf := rand.NewZipf(rng, 1.2, 1, 50000)
	seqs := make([]Sequence, 1250)
	for i := range seqs {
		s := Sequence{}
		for range 16 {
			item := Item{{Name: "bias", Value: 1}}
			for k := range 29 {
				item = append(item, Attribute{Name: strconv.Itoa(k) + "=" + strconv.FormatUint(zipf.Uint64(), 10), Value: 1})
			}
			s.Items = append(s.Items, item)
			s.Labels = append(s.Labels, strconv.Itoa(rng.IntN(17)))
		}
		seqs[i] = s
	}
	return seqs
}

func benchProblem() (*problem, []float64) {
	rng := rand.New(rand.NewPCG(2, 2))
	seqs := benchSeqs()
	fs := buildFeatures(seqs, false, false, 0)
	p := newProblem(fs, fs.encode(seqs), 1, 0)
	w := make([]float64, fs.nFeatures)
	for i := range w {
		w[i] = 0.1 * rng.NormFloat64()
	}
	return p, w
}
