package main

import (
	"github.com/gendisc/gendisc/internal/parallel"
)

// streamValues is the size of the calibration's streaming read: 400 MB,
// the size of the gda arrays at 1,000,000 rows, far beyond the caches.
const streamValues = 50_000_000

// calibrate times a streaming read on all cores: the sum of 400 MB of
// float64 (written once, outside the timing), each core summing its half
// with four accumulators. report.py divides the bytes by the median time
// for the machine's bandwidth, the limit of the workloads that stream
// their input; its other half, the peak of dense arithmetic, is the
// scikit-learn side's OpenBLAS dgemm (sklearn_bench.py --calibrate).
func calibrate(_ string, r *recorder) error {
	x := make([]float64, streamValues)
	parallel.For(len(x), 1<<20, func(_, lo, hi int) {
		for i := lo; i < hi; i++ {
			x[i] = 1
		}
	})
	sums := make([]float64, parallel.Workers())
	total, err := timed(r, "stream", int64(8*len(x)), func() (float64, error) {
		parallel.For(len(x), 1<<20, func(w, lo, hi int) {
			var s0, s1, s2, s3 float64
			v := x[lo:hi]
			for len(v) >= 4 {
				s0 += v[0]
				s1 += v[1]
				s2 += v[2]
				s3 += v[3]
				v = v[4:]
			}
			for _, a := range v {
				s0 += a
			}
			sums[w] = s0 + s1 + s2 + s3
		})
		t := 0.0
		for _, s := range sums {
			t += s
		}
		return t, nil
	})
	if err != nil {
		return err
	}
	return r.answer("sum", []float64{total}, 1)
}
