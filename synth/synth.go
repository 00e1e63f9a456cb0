package synth

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/gendisc/gendisc"
	"github.com/gendisc/gendisc/data"
)

// Row is one drawn row.
type Row struct {
	// X holds the features as a data.Dataset row does: level indices for
	// categorical features, NaN for text features.
	X []float64
	// Text holds the document of every text feature (the entries of
	// other features are ""); nil when the model has no text features.
	Text []string
	// Y is the class (or, for a mixture without classes, the component)
	// the row was drawn from.
	Y int
}

// ErrClass is returned by Sample for a class the model cannot draw from.
var ErrClass = errors.New("synth: no such class to draw from")

// Sample draws n rows from m and passes each to write in turn: from the
// joint p(x, y) when class < 0, from p(x | y = class) otherwise, which
// needs a gendisc.ClassSampler whose prior for the class is positive.
// The row passed to write is reused by the next draw: write must copy
// what it keeps, so that n is limited by time, not memory. With clip not
// nil, the numeric features of every row are truncated to clip's box by
// rejection (see Clip; a draw from the joint is rejected with its class).
// Sample stops at the first error of write and returns it; it returns an
// error wrapping ErrClass for a class the model cannot draw from.
func Sample(m gendisc.Sampler, n, class int, clip *Clip, rng *rand.Rand, write func(Row) error) error {
	schema := m.Schema()
	var cs gendisc.ClassSampler
	if class >= 0 {
		var ok bool
		if cs, ok = m.(gendisc.ClassSampler); !ok {
			return fmt.Errorf("%w: a %s model has no classes", ErrClass, m.Kind())
		}
		if class >= len(cs.Classes()) || Priors(cs)[class] == 0 {
			return fmt.Errorf("%w: class %d of %d, or of prior 0", ErrClass, class, len(cs.Classes()))
		}
	}
	ts, _ := m.(gendisc.TextSampler)
	row := Row{X: make([]float64, len(schema.Features))}
	if ts != nil {
		row.Text = make([]string, len(schema.Features))
	}
	draw := func() {
		if cs != nil {
			cs.SampleClass(row.X, class, rng)
			row.Y = class
		} else {
			_, row.Y = m.Sample(row.X, rng)
		}
	}
	for range n {
		if clip != nil {
			clip.draw(row.X, draw)
		} else {
			draw()
		}
		if ts != nil {
			ts.SampleText(row.Text, row.Y, rng)
		}
		round(schema, row.X, nil)
		if err := write(row); err != nil {
			return err
		}
	}
	return nil
}

// Priors returns the class priors π_k of m, read off its joint
// log-likelihood of a row whose features are all missing (marginalised):
//
//	p(y = k) = exp log p(x_∅, y = k).
func Priors(m gendisc.Generative) []float64 {
	s := m.Schema()
	x := make([]float64, len(s.Features))
	for j := range x {
		x[j] = math.NaN()
	}
	p := m.JointLogLikelihood(nil, &data.Dataset{Schema: s, N: 1, X: x})
	for k, v := range p {
		p[k] = math.Exp(v)
	}
	return p
}

// round rounds to integers the cells of x in integral numeric columns,
// all of them when missing is nil, else those where missing is NaN.
func round(s *data.Schema, x, missing []float64) {
	for j, c := range s.Features {
		if c.Kind == data.Numeric && c.Integral && (missing == nil || missing[j] != missing[j]) {
			x[j] = math.Round(x[j])
		}
	}
}

// Balance returns d with synthetic rows appended, drawn from m, until
// every class of positive prior under m has at least ratio × the number of
// rows of the largest class of d (rounded up): for ratio 1, as many rows
// as the largest class. The rows of d come first, unchanged; the new rows
// follow class by class, with weight 1 when d has weights; with clip not
// nil, their numeric features are truncated to clip's box by rejection
// (see Clip). m must have been fitted on data of d's schema. Balance
// returns an error when d has no categorical labels or ratio is not
// positive and finite.
func Balance(d *data.Dataset, m gendisc.ClassSampler, ratio float64, clip *Clip, rng *rand.Rand) (*data.Dataset, error) {
	if !(ratio > 0) || math.IsInf(ratio, 0) {
		return nil, fmt.Errorf("synth: balance ratio %g: want a positive number", ratio)
	}
	if d.Y == nil || d.Schema.Target == nil || d.Schema.Target.Kind != data.Categorical {
		return nil, fmt.Errorf("synth: %s has no class labels to balance", d.Source)
	}
	prior := Priors(m)
	count := make([]int, len(prior))
	largest := 0
	for _, y := range d.Y {
		if y == y {
			count[int(y)]++
			largest = max(largest, count[int(y)])
		}
	}
	want := int(math.Ceil(ratio*float64(largest) - 1e-9))
	extra := 0
	for k, c := range count {
		if prior[k] > 0 && c < want {
			extra += want - c
		}
	}
	out := grow(d, extra)
	i := d.N
	for k, c := range count {
		if prior[k] == 0 || c >= want {
			continue
		}
		err := Sample(m, want-c, k, clip, rng, func(r Row) error {
			copy(out.Row(i), r.X)
			for j, doc := range r.Text {
				if out.Text != nil && out.Text[j] != nil {
					out.Text[j][i] = doc
				}
			}
			out.Y[i] = float64(k)
			i++
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	return out, nil
}

// grow returns a copy of d with room for extra rows after its own: their
// features zero, their text "", their weight 1 and their line 0.
func grow(d *data.Dataset, extra int) *data.Dataset {
	n := d.N + extra
	out := &data.Dataset{Schema: d.Schema, N: n, X: make([]float64, n*d.D()), Y: make([]float64, n),
		Source: data.Provenance{Name: d.Source.Name, Unseen: d.Source.Unseen}}
	copy(out.X, d.X)
	copy(out.Y, d.Y)
	if d.Weight != nil {
		out.Weight = make([]float64, n)
		copy(out.Weight, d.Weight)
		for i := d.N; i < n; i++ {
			out.Weight[i] = 1
		}
	}
	if d.Source.Lines != nil {
		out.Source.Lines = make([]int, n)
		copy(out.Source.Lines, d.Source.Lines)
	}
	if d.Text != nil {
		out.Text = make([][]string, len(d.Text))
		for j, col := range d.Text {
			if col != nil {
				out.Text[j] = make([]string, n)
				copy(out.Text[j], col)
			}
		}
	}
	return out
}
