package synth

import (
	"fmt"
	"math/rand/v2"

	"github.com/gendisc/gendisc"
	"github.com/gendisc/gendisc/data"
	"github.com/gendisc/gendisc/internal/randx"
)

// Impute returns copies of d with every missing feature cell filled by m,
// and a missing label too when m is a classifier:
//
//   - draws = 0: one copy, each missing cell replaced by its conditional
//     expectation given the observed cells of its row (m.Impute: given the
//     label when the row has one, mixed over the label's posterior
//     P(y | x_o) otherwise), and a missing label by its most probable
//     value argmax_y P(y | x_o);
//   - draws = K > 0: K copies (multiple imputation), in each of which a
//     missing label is drawn from P(y | x_o) and the missing cells from
//     their conditional distribution given x_o and that label
//     (m.ImputeRand); m must be a gendisc.RandImputer.
//
// With draws > 0 and clip not nil, the drawn cells are truncated to clip's
// box by rejection: a row with a drawn cell outside is drawn again, its
// label too when it had none (see Clip); observed cells are left as they
// are, inside the box or not.
//
// Imputed cells of integral columns are rounded. Text cells are left as
// they are. The copies share d's schema; the draws come from rng, copy by
// copy. Impute returns an error for a negative draws or a model that
// cannot draw.
func Impute(d *data.Dataset, m gendisc.Imputer, draws int, clip *Clip, rng *rand.Rand) ([]*data.Dataset, error) {
	if draws < 0 {
		return nil, fmt.Errorf("synth: %d draws", draws)
	}
	c, _ := m.(gendisc.Classifier)
	var post []float64 // log P(y | x_o) of the rows without a label
	if c != nil && d.Y != nil {
		post = c.LogProba(nil, d)
	}
	if draws == 0 {
		out := withX(d, m.Impute(nil, d))
		if post != nil {
			out.Y = fillLabels(d.Y, post, len(c.Classes()), nil)
		}
		return []*data.Dataset{out}, nil
	}
	ri, ok := m.(gendisc.RandImputer)
	if !ok {
		return nil, fmt.Errorf("synth: a %s model cannot draw missing values", m.Kind())
	}
	outs := make([]*data.Dataset, draws)
	for r := range outs {
		in := d
		if post != nil {
			labelled := *d
			labelled.Y = fillLabels(d.Y, post, len(c.Classes()), rng)
			in = &labelled
		}
		x := ri.ImputeRand(nil, in, rng)
		if clip != nil {
			clip.imputed(d, in, x, post, ri, rng)
		}
		outs[r] = withX(in, x)
	}
	return outs, nil
}

// imputed redraws by rejection the rows of x, the features of d with
// their missing cells drawn by ri given the labels of in, that have a
// drawn cell outside the box: each such row again, with its label drawn
// again from the log-posteriors post when d has none (post nil: no labels
// to draw), at most Tries times in all, and then its drawn cells outside
// the box clamped. The accepted labels are written to in.Y.
func (c *Clip) imputed(d, in *data.Dataset, x, post []float64, ri gendisc.RandImputer, rng *rand.Rand) {
	D := d.D()
	var bad []int
	for i := range d.N {
		if c.drawn(d.Row(i)) {
			c.Rows++
			c.Draws++
			if !c.insideDrawn(x[i*D:(i+1)*D], d.Row(i)) {
				bad = append(bad, i)
			}
		}
	}
	tries := c.Tries
	if tries <= 0 {
		tries = DefaultTries
	}
	for try := 1; try < tries && len(bad) > 0; try++ {
		sub := in.Subset(bad)
		if post != nil {
			K := len(post) / d.N
			y, p := make([]float64, len(bad)), make([]float64, 0, len(bad)*K)
			for k, i := range bad {
				y[k] = d.Y[i]
				p = append(p, post[i*K:(i+1)*K]...)
			}
			sub.Y = fillLabels(y, p, K, rng)
		}
		xs := ri.ImputeRand(nil, sub, rng)
		c.Draws += len(bad)
		left := bad[:0]
		for k, i := range bad {
			copy(x[i*D:(i+1)*D], xs[k*D:(k+1)*D])
			if post != nil {
				in.Y[i] = sub.Y[k]
			}
			if !c.insideDrawn(x[i*D:(i+1)*D], d.Row(i)) {
				left = append(left, i)
			}
		}
		bad = left
	}
	for _, i := range bad {
		row, orig := x[i*D:(i+1)*D], d.Row(i)
		for j, v := range orig {
			if v != v {
				row[j] = max(c.Lo[j], min(row[j], c.Hi[j]))
			}
		}
		c.Clamped++
	}
}

// withX returns a copy of d with features x, the imputed cells of its
// integral columns rounded.
func withX(d *data.Dataset, x []float64) *data.Dataset {
	out := *d
	out.X = x
	for i := range d.N {
		round(d.Schema, out.Row(i), d.Row(i))
	}
	return &out
}

// fillLabels returns a copy of y with every missing label replaced, from
// the log-posteriors post (row-major, K per row), by the most probable
// class (the first on ties) when rng is nil, else by a draw.
func fillLabels(y, post []float64, K int, rng *rand.Rand) []float64 {
	out := make([]float64, len(y))
	w := make([]float64, K)
	for i, v := range y {
		if v == v {
			out[i] = v
			continue
		}
		p := post[i*K : (i+1)*K]
		if rng != nil {
			out[i] = float64(randx.LogIndex(p, w, rng))
			continue
		}
		best := 0
		for k, lp := range p {
			if lp > p[best] {
				best = k
			}
		}
		out[i] = float64(best)
	}
	return out
}
