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
// Imputed cells of integral columns are rounded. Text cells are left as
// they are. The copies share d's schema; the draws come from rng, copy by
// copy. Impute returns an error for a negative draws or a model that
// cannot draw.
func Impute(d *data.Dataset, m gendisc.Imputer, draws int, rng *rand.Rand) ([]*data.Dataset, error) {
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
		outs[r] = withX(in, ri.ImputeRand(nil, in, rng))
	}
	return outs, nil
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
