package naivebayes

import (
	"math"

	"github.com/gendisc/gendisc/data"
	"github.com/gendisc/gendisc/internal/mathx"
	"github.com/gendisc/gendisc/stats"
)

// gaussianPart covers the numeric columns of a Mixed model with Gaussian
// naive Bayes: the statistics, fitting and log-likelihood of Gaussian (per
// class and feature variances, GaussianConfig's variance smoothing over
// these columns), on the columns cols of the model's data.
type gaussianPart struct {
	cols  []int
	st    *stats.Moments
	g     *Gaussian // fitted on the gathered columns
	inner family    // g's Gaussian family
	sub   *data.Schema
}

func newGaussianPart(cols []int, k int) *gaussianPart {
	return &gaussianPart{cols: cols, st: stats.NewMoments(k, len(cols))}
}

func (p *gaussianPart) clone() part {
	return &gaussianPart{cols: p.cols, st: p.st.Clone()}
}

// gather copies the cells of columns cols of rows [lo, hi) of d into buf
// (grown as needed), row-major.
func (p *gaussianPart) gather(buf []float64, d *data.Dataset, lo, hi int) []float64 {
	D := d.D()
	buf = buf[:0]
	for i := lo; i < hi; i++ {
		for _, j := range p.cols {
			buf = append(buf, d.X[i*D+j])
		}
	}
	return buf
}

func (p *gaussianPart) checkAdd(d *data.Dataset) error {
	D := d.D()
	for i, y := range d.Y {
		if y != y {
			continue
		}
		for _, j := range p.cols {
			if math.IsInf(d.X[i*D+j], 0) {
				return &data.ParseError{File: d.Source.Name, Line: d.Line(i), ColumnName: d.Schema.Features[j].Name, Err: data.ErrInfinite}
			}
		}
	}
	return nil
}

func (p *gaussianPart) add(d *data.Dataset, k int) error {
	p.st.Grow(k)
	p.st.Add(p.gather(make([]float64, 0, d.N*len(p.cols)), d, 0, d.N), d.Y, d.Weight)
	for t, j := range p.cols {
		if a := p.st.Feature(t); math.IsInf(a.M, 0) || math.IsNaN(a.M) || math.IsInf(a.S, 0) || math.IsNaN(a.S) {
			return infiniteCell(d, j)
		}
	}
	return nil
}

// merge adds o's moments by Chan's formula, its classes renumbered by r.
func (p *gaussianPart) merge(o part, r *data.Remap, s *data.Schema) error {
	p.st.Grow(len(s.Classes()))
	p.st.MergeRemap(o.(*gaussianPart).st, r.Target)
	return nil
}

func (p *gaussianPart) fit(pr *params, s *data.Schema, source string) error {
	p.sub = &data.Schema{Target: s.Target}
	for _, j := range p.cols {
		p.sub.Features = append(p.sub.Features, s.Features[j])
	}
	g, err := newGaussian(p.sub, p.st, gaussianParams{varSmoothing: max(pr.cfg.VarSmoothing, 0), variance: pr.cfg.Variance}, source)
	if err != nil {
		return err
	}
	p.g, p.inner = g, g.families[0]
	return nil
}

// addLogLikelihood gathers the part's columns of the rows and adds the
// Gaussian terms of their observed cells.
func (p *gaussianPart) addLogLikelihood(dst []float64, d *data.Dataset, lo, hi int) {
	x := p.gather(make([]float64, 0, (hi-lo)*len(p.cols)), d, lo, hi)
	p.inner.addLogLikelihood(dst, &data.Dataset{Schema: p.sub, N: hi - lo, X: x}, 0, hi-lo)
}

// addScaled gathers the part's columns of row i and adds their Gaussian
// terms as scaled numbers (gaussianFamily.addScaled).
func (p *gaussianPart) addScaled(s []mathx.Scaled, d *data.Dataset, i int, scale mathx.Scale) {
	x := p.gather(make([]float64, 0, len(p.cols)), d, i, i+1)
	p.inner.(*gaussianFamily).addScaled(s, &data.Dataset{Schema: p.sub, N: 1, X: x}, 0, scale)
}
