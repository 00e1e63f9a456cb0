package naivebayes

import (
	"fmt"
	"math"
	"slices"

	"github.com/gendisc/gendisc/data"
)

// categoricalPart covers categorical features: given the class, feature j
// takes its L_j levels with probabilities θ_kjv, the MAP estimate under a
// symmetric Dirichlet(α + 1) prior,
//
//	θ_kjv = (N_kjv + α) / (N_kj + α·L_j),   N_kj = Σ_v N_kjv,
//
// where N_kjv is the weight of the rows of class k whose feature j has
// level v (rows where it is missing do not count). At prediction a
// missing cell, or a level index the model does not have, leaves the sum.
type categoricalPart struct {
	cols []int
	// n[f][k][v] is N_kjv of the f-th categorical feature, j = cols[f].
	n [][][]float64
	// logTheta[f][v·K + k] is log θ_kjv.
	logTheta [][]float64
	k        int
}

func newCategoricalPart(cols []int) *categoricalPart {
	return &categoricalPart{cols: cols, n: make([][][]float64, len(cols))}
}

func (p *categoricalPart) clone() part {
	c := &categoricalPart{cols: p.cols, n: make([][][]float64, len(p.n))}
	for f, byClass := range p.n {
		for _, v := range byClass {
			c.n[f] = append(c.n[f], slices.Clone(v))
		}
	}
	return c
}

// grow makes room for k classes and the levels of schema s.
func (p *categoricalPart) grow(s *data.Schema, k int) {
	for f, j := range p.cols {
		for len(p.n[f]) < k {
			p.n[f] = append(p.n[f], nil)
		}
		L := len(s.Features[j].Levels)
		for c, v := range p.n[f] {
			if len(v) < L {
				p.n[f][c] = append(v, make([]float64, L-len(v))...)
			}
		}
	}
}

func (p *categoricalPart) checkAdd(d *data.Dataset) error {
	D := d.D()
	for i, y := range d.Y {
		if y != y {
			continue
		}
		for _, j := range p.cols {
			x := d.X[i*D+j]
			if L := len(d.Schema.Features[j].Levels); x == x && (!(x >= 0 && x < float64(L)) || x != math.Trunc(x)) {
				return cellError(d, i, j, fmt.Errorf("level index %v outside the column's %d levels", x, L))
			}
		}
	}
	return nil
}

func (p *categoricalPart) add(d *data.Dataset, k int) error {
	p.grow(d.Schema, k)
	D := d.D()
	for i, y := range d.Y {
		if y != y {
			continue
		}
		w := rowWeight(d.Weight, i)
		for f, j := range p.cols {
			if x := d.X[i*D+j]; x == x {
				p.n[f][int(y)][int(x)] += w
			}
		}
	}
	return nil
}

// merge adds o's counts, its classes and levels renumbered by r.
func (p *categoricalPart) merge(o part, r *data.Remap, s *data.Schema) error {
	q := o.(*categoricalPart)
	p.grow(s, len(s.Classes()))
	for f, j := range p.cols {
		m := r.Features[j]
		for c, counts := range q.n[f] {
			dst := p.n[f][remapped(r.Target, c)]
			for v, x := range counts {
				dst[remapped(m, v)] += x
			}
		}
	}
	return nil
}

func (p *categoricalPart) fit(pr *params, s *data.Schema, _ string) error {
	k := len(s.Classes())
	p.grow(s, k)
	p.k = k
	p.logTheta = make([][]float64, len(p.cols))
	for f := range p.cols {
		L := len(p.n[f][0])
		lt := make([]float64, L*k)
		for c, counts := range p.n[f] {
			total := sum(counts) + pr.alpha*float64(L)
			for v, n := range counts {
				lt[v*k+c] = logRatio(n+pr.alpha, total)
			}
		}
		p.logTheta[f] = lt
	}
	return nil
}

func (p *categoricalPart) addLogLikelihood(dst []float64, d *data.Dataset, lo, hi int) {
	K, D := p.k, d.D()
	for i := lo; i < hi; i++ {
		out := dst[(i-lo)*K : (i-lo+1)*K]
		for f, j := range p.cols {
			x := d.X[i*D+j]
			lt := p.logTheta[f]
			if !(x >= 0 && x < float64(len(lt)/K)) {
				continue // missing, or a level the model does not have
			}
			v := int(x)
			for c, l := range lt[v*K : (v+1)*K] {
				out[c] += l
			}
		}
	}
}

// probabilities returns θ_kjv as [k][v] for the f-th categorical feature.
func (p *categoricalPart) probabilities(f int) [][]float64 {
	lt := p.logTheta[f]
	L := len(lt) / p.k
	out := make([][]float64, p.k)
	for c := range out {
		out[c] = make([]float64, L)
		for v := range L {
			out[c][v] = math.Exp(lt[v*p.k+c])
		}
	}
	return out
}
