package mixture

import (
	"cmp"
	"math"
	"math/rand/v2"
	"slices"
	"sort"

	"github.com/gendisc/gendisc/internal/parallel"
)

// start returns the starting parameters of one EM run.
func (f *fitter) start(rng *rand.Rand) *model {
	k, d, n := f.set.Components, f.lay.d, f.lay.n
	resp := make([]float64, n*k)
	shift := newModel(f.set.Covariance, k, d)
	switch f.set.Init {
	case KMeansPlusPlus:
		centers := kmeansPlusPlus(f.xfill, f.canonical(), d, k, rng)
		for c, i := range centers {
			copy(shift.mean(c), f.xfill[i*d:(i+1)*d])
		}
		parallel.For(n, minParallelRows, func(_, lo, hi int) {
			for i := lo; i < hi; i++ {
				best, bestD := 0, math.Inf(1)
				for c := range k {
					if dist := sqDist(f.xfill[i*d:(i+1)*d], shift.mean(c)); dist < bestD {
						best, bestD = c, dist
					}
				}
				resp[i*k+best] = 1
			}
		})
	case Random:
		for _, i := range f.canonical() {
			for c := range k {
				resp[i*k+c] = rng.Float64()
			}
		}
		for i := range n {
			r := resp[i*k : (i+1)*k]
			s := 0.0
			for _, v := range r {
				s += v
			}
			for c := range r {
				r[c] /= s
			}
		}
		mu := columnMeans(f.xfill, f.lay.w, n, d)
		for c := range k {
			copy(shift.mean(c), mu)
		}
	}
	return f.fromResponsibilities(shift, resp)
}

// fromResponsibilities returns the M-step of the responsibilities resp
// (N×K) on the mean-filled rows, with the statistics centred at the means
// of shift.
func (f *fitter) fromResponsibilities(shift *model, resp []float64) *model {
	k, d, n := shift.k, shift.d, f.lay.n
	all := f.eng.all
	st, _ := f.eng.chunked(n, func(s *scratch, lo, hi int) {
		for a := lo; a < hi; a += blockRows {
			b := min(a+blockRows, hi)
			nb := b - a
			for i := a; i < b; i++ {
				for j, v := range f.xfill[i*d : (i+1)*d] {
					s.xt[j*blockRows+i-a] = v
				}
			}
			for c := range k {
				r := s.r[:nb]
				sr := 0.0
				for i := range r {
					r[i] = resp[(a+i)*k+c] * f.lay.weight(a+i)
					sr += r[i]
				}
				if sr == 0 {
					continue
				}
				ct := s.centred(c, d)
				center(ct, s.xt, shift.mean(c), all, nb)
				s.acc.add(c, ct, r)
			}
		}
	})
	return st.mstep(shift, f.set.reg, f.set.Regularization)
}

// kmeansPlusPlus returns k row indices of the N×D matrix x chosen by
// k-means++ seeding (Arthur and Vassilvitskii 2007) with scikit-learn's
// greedy variant: the first seed is uniform; each next one is the best of
// 2 + ⌊log k⌋ candidates drawn with probability proportional to D(x)²,
// the squared distance to the nearest seed, the best being the one that
// most reduces Σ_i D(x_i)². The rows are visited in the given order (a
// canonical one, so that the draws do not depend on the order of the
// rows in the data).
func kmeansPlusPlus(x []float64, order []int, d, k int, rng *rand.Rand) []int {
	n := len(order)
	row := func(p int) []float64 { i := order[p]; return x[i*d : (i+1)*d] }
	first := rng.IntN(n)
	centers := []int{order[first]}
	closest := make([]float64, n)
	cand := make([]float64, n)
	best := make([]float64, n)
	cum := make([]float64, n)
	for p := range n {
		closest[p] = sqDist(row(p), row(first))
	}
	trials := 2 + int(math.Log(float64(k)))
	for len(centers) < k {
		pot := 0.0
		for p, v := range closest {
			pot += v
			cum[p] = pot
		}
		bestPot, bestP := math.Inf(1), -1
		for range trials {
			id := min(sort.SearchFloat64s(cum, rng.Float64()*pot), n-1)
			c := row(id)
			s := 0.0
			for p := range n {
				cand[p] = min(closest[p], sqDist(row(p), c))
				s += cand[p]
			}
			if s < bestPot || bestP < 0 { // the first when every sum overflows
				bestPot, bestP = s, id
				copy(best, cand)
			}
		}
		centers = append(centers, order[bestP])
		copy(closest, best)
	}
	return centers
}

// canonicalOrder returns the row indices of the N×D matrix x sorted by
// their values, then weights: an order that does not depend on the order
// of the rows, so that a fit of permuted rows draws the same starting
// points.
func canonicalOrder(x, w []float64, n, d int) []int {
	order := make([]int, n)
	for i := range order {
		order[i] = i
	}
	slices.SortFunc(order, func(a, b int) int {
		if c := slices.Compare(x[a*d:(a+1)*d], x[b*d:(b+1)*d]); c != 0 || w == nil {
			return c
		}
		return cmp.Compare(w[a], w[b])
	})
	return order
}

// sqDist returns ‖a − b‖².
func sqDist(a, b []float64) float64 {
	b = b[:len(a)]
	s := 0.0
	for j, v := range a {
		t := v - b[j]
		s += t * t
	}
	return s
}

// columnMeans returns the weighted mean of every column of the N×D matrix
// x, skipping missing cells; a column with no observed cell has mean 0.
func columnMeans(x, w []float64, n, d int) []float64 {
	sum, tot := make([]float64, d), make([]float64, d)
	for i := range n {
		wi := 1.0
		if w != nil {
			wi = w[i]
		}
		for j, v := range x[i*d : (i+1)*d] {
			if !math.IsNaN(v) {
				sum[j] += wi * v
				tot[j] += wi
			}
		}
	}
	for j := range sum {
		if tot[j] > 0 {
			sum[j] /= tot[j]
		}
	}
	return sum
}
