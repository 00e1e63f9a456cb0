//go:build unix

package models_test

import (
	"fmt"
	"math/rand/v2"
	"strconv"
	"syscall"
	"testing"
	"time"

	"github.com/gendisc/gendisc"
	"github.com/gendisc/gendisc/data"
	"github.com/gendisc/gendisc/gda"
	"github.com/gendisc/gendisc/models"
	"github.com/gendisc/gendisc/naivebayes"
)

// gaussianClasses returns n rows of D features from K overlapping
// Gaussian classes (class k's feature j is N(0.3·((j+k) mod 3), 1)), the
// classes drawn uniformly, with a fixed seed.
func gaussianClasses(n, D, K int, seed uint64) *data.Dataset {
	rng := rand.New(rand.NewPCG(seed, 1))
	features := make([]string, D)
	for j := range features {
		features[j] = "x" + strconv.Itoa(j)
	}
	classes := make([]string, K)
	for k := range classes {
		classes[k] = "c" + strconv.Itoa(k)
	}
	x, y := make([]float64, n*D), make([]int, n)
	for i := range y {
		k := rng.IntN(K)
		y[i] = k
		for j := range D {
			x[i*D+j] = 0.3*float64((j+k)%3) + rng.NormFloat64()
		}
	}
	return data.FromMatrix(features, x, classes, y)
}

// BenchmarkPredict times models.Predict, the table that gendisc predict
// and serve answer, of Gaussian naive Bayes, LDA and QDA on 1,000,000
// rows of 20 features and 5 classes, and on 1,000 rows (a request to
// serve), fitted on 20,000 other rows, in
// wall time and in CPU time (cpu-ms/op, user and system of every thread:
// the figure that a loaded machine moves least):
//
//	go test -bench BenchmarkPredict -count 5 -run '^$' ./models
func BenchmarkPredict(b *testing.B) {
	const n, D, K = 1_000_000, 20, 5
	train, test := gaussianClasses(20_000, D, K, 1), gaussianClasses(n, D, K, 2)
	small := gaussianClasses(1000, D, K, 3) // a request to serve
	fits := []struct {
		name string
		fit  func(*data.Dataset) (gendisc.Model, error)
	}{
		{"gaussian-nb", func(d *data.Dataset) (gendisc.Model, error) { return naivebayes.GaussianConfig{}.Fit(d) }},
		{"lda", func(d *data.Dataset) (gendisc.Model, error) { return gda.LDAConfig{}.Fit(d) }},
		{"qda", func(d *data.Dataset) (gendisc.Model, error) { return gda.QDAConfig{}.Fit(d) }},
	}
	for _, f := range fits {
		m, err := f.fit(train)
		if err != nil {
			b.Fatal(err)
		}
		for _, d := range []*data.Dataset{small, test} {
			b.Run(fmt.Sprintf("%s/%dx%dx%d", f.name, d.N, D, K), func(b *testing.B) {
				b.SetBytes(int64(d.N * D * 8))
				start := cpuTime()
				for b.Loop() {
					if _, err := models.Predict(m, d); err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric(float64(cpuTime()-start)/float64(time.Millisecond)/float64(b.N), "cpu-ms/op")
			})
		}
	}
}

// cpuTime returns the CPU time of the process so far, user and system.
func cpuTime() time.Duration {
	var u syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &u); err != nil {
		panic(err)
	}
	return time.Duration(u.Utime.Nano() + u.Stime.Nano())
}
