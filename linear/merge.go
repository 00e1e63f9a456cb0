package linear

import (
	"fmt"
	"math"
	"slices"

	"gonum.org/v1/gonum/floats"

	"github.com/gendisc/gendisc"
	"github.com/gendisc/gendisc/data"
	"github.com/gendisc/gendisc/internal/design"
)

// Merge adds the statistics of o, a linear regression accumulator of the
// same configuration (else a *gendisc.MergeError) that saw other rows: o's
// columns are mapped to the accumulator's (levels renumbered by
// data.Schema.Extend, shifts changed, columns only o has added) and the
// two R factors stacked and factorised again. o is unchanged.
func (a *Accumulator) Merge(o gendisc.Accumulator) error {
	b, ok := o.(*Accumulator)
	switch {
	case !ok:
		return &gendisc.MergeError{Package: Kind, Kind: Kind, Other: fmt.Sprintf("%T", o), Reason: "not a linear regression's statistics"}
	case a.err != nil:
		return a.err
	case b.err != nil:
		return b.err
	case a.cfg != b.cfg:
		return &gendisc.MergeError{Package: Kind, Kind: Kind, Other: Kind, Reason: fmt.Sprintf("other settings: %+v, want %+v", b.cfg, a.cfg)}
	case b.schema == nil:
		return nil
	case a.schema == nil:
		*a = *b.clone()
		return nil
	}
	s, remap, err := a.schema.Extend(b.schema)
	if err != nil {
		return fmt.Errorf("linear: %w", err)
	}
	a.schema = s
	// to[k] is the column of a that b's column k maps to, added when a
	// lacks it.
	n0 := len(a.cols)
	to := make([]int, len(b.cols))
	for k, c := range b.cols {
		if c.role == roleLevel && remap.Features[c.feature] != nil {
			c.level = remap.Features[c.feature][c.level]
		}
		to[k] = a.find(c.role, c.feature, c.level)
		if to[k] < 0 {
			to[k] = len(a.cols)
			a.cols = append(a.cols, column{role: c.role, feature: c.feature, level: c.level, shift: c.shift})
		}
	}
	a.r = grow(a.r, n0, len(a.cols))
	// M = R_b T: column to[k] of M is column k of R_b, and a shifted
	// column x − c_a = (x − c_b) + (c_b − c_a)(1 − u) adds the intercept
	// column and subtracts the missing cells' column, times c_b − c_a.
	nb, na := len(b.cols), len(a.cols)
	m := make([]float64, nb*na)
	for k, c := range b.cols {
		addColumn(m, na, to[k], b.r, nb, k, 1)
		if delta := c.shift - a.cols[to[k]].shift; delta != 0 {
			addColumn(m, na, to[k], b.r, nb, 0, delta)
			if c.role == roleValue {
				if u := b.find(roleMissing, c.feature, 0); u >= 0 {
					addColumn(m, na, to[k], b.r, nb, u, -delta)
				}
			}
		}
	}
	a.r = stackQR(na, a.r, m)
	a.rows += b.rows
	return nil
}

// addColumn adds s times column k of src (n × ns) to column t of dst
// (n × nd).
func addColumn(dst []float64, nd, t int, src []float64, ns, k int, s float64) {
	for i := range len(src) / ns {
		dst[i*nd+t] += s * src[i*ns+k]
	}
}

// clone returns a deep copy of a.
func (a *Accumulator) clone() *Accumulator {
	c := *a
	c.cols, c.r = slices.Clone(a.cols), slices.Clone(a.r)
	return &c
}

// Model finishes the fit: the model of the rows added and merged so far
// (a *Model). The accumulator stays usable.
func (a *Accumulator) Model() (gendisc.Model, error) {
	m, err := a.finish()
	if err != nil {
		return nil, fmt.Errorf("linear: %w", err)
	}
	return m, nil
}

// colNorm2 returns ‖R u‖² for the vector u given by its non-zero entries
// u_k = coef[i] at k = cols[i].
func (a *Accumulator) colNorm2(cols []int, coef []float64) float64 {
	ns := len(a.cols)
	s := 0.0
	for i := range ns {
		v := 0.0
		for e, k := range cols {
			v += a.r[i*ns+k] * coef[e]
		}
		s += v * v
	}
	return s
}

// terms returns the design columns of the model: from R, for each
// numeric feature its weighted mean and standard deviation over the
// observed cells (W_o = ‖R(e_1 − e_u)‖², the observed weight, u the
// missing cells' indicator; Σ v (x − c) = R₀₀R₀ₓ; Σ v (x − m)² over the
// observed cells = ‖R(e_x − (m − c)(e_1 − e_u))‖²), and for each level of
// a categorical feature its weight ‖R e_l‖² over the feature's observed
// weight, as design.Fit computes them in one pass over all the rows.
func (a *Accumulator) terms(lay *layout) ([]design.Term, error) {
	var terms []design.Term
	for j, c := range a.schema.Features {
		u := lay.missing[j]
		switch c.Kind {
		case data.Numeric:
			k := lay.value[j]
			shift := a.cols[k].shift
			obs, coef := []int{0}, []float64{1}
			if u >= 0 {
				obs, coef = append(obs, u), append(coef, -1)
			}
			wo := a.colNorm2(obs, coef)
			if !(wo > 0) {
				return nil, fmt.Errorf("column %q has no observed value", c.Name)
			}
			mu := a.r[0] * a.r[k] / wo
			term := design.Term{Feature: j, Level: -1, Center: shift + mu, Scale: 1}
			if a.cfg.NoStandardize {
				term.Center, term.Fill = 0, shift+mu
			} else if ss := a.colNorm2(append([]int{k}, obs...), append([]float64{1}, floats.ScaleTo(make([]float64, len(coef)), -mu, coef)...)); ss > 0 {
				term.Scale = math.Sqrt(ss / wo)
			}
			terms = append(terms, term)
		case data.Categorical:
			wl := make([]float64, len(c.Levels))
			for l, k := range lay.levels[j] {
				wl[l] = a.colNorm2([]int{k}, []float64{1})
			}
			wo := floats.Sum(wl)
			if !(wo > 0) {
				return nil, fmt.Errorf("column %q has no observed value", c.Name)
			}
			for l := 1; l < len(c.Levels); l++ {
				terms = append(terms, design.Term{Feature: j, Level: l, Scale: 1, Fill: wl[l] / wo})
			}
		}
	}
	return terms, nil
}

// finish solves the least-squares problem from R. With T the map from
// the accumulated columns to the design's, [z_1 … z_P 1 y] = X̃T (a
// standardised column (x − m)/s = ((x − c) + (m − c)u − (m − c))/s, a
// level's indicator with missing cells filled l + f_l u), the weighted
// design matrix has the factor RT: θ solves
//
//	min_θ ‖ [RT; √λ I 0] [θ; −1] ‖²
//
// by the QR factorisation of that (ns + P) × (P + 2) matrix, and the
// residual sum of squares is ‖RT [θ; −1]‖², the total one R₁₁², the
// target's row of R after the intercept's.
func (a *Accumulator) finish() (*Model, error) {
	if a.err != nil {
		return nil, a.err
	}
	if a.schema == nil {
		return nil, fmt.Errorf("no rows to fit")
	}
	lay := a.layout()
	terms, err := a.terms(lay)
	if err != nil {
		return nil, err
	}
	enc, err := design.New(a.schema, terms, nil)
	if err != nil {
		return nil, err
	}
	P := len(terms)
	q := P + 1
	ridge := 0
	if a.cfg.L2 > 0 {
		ridge = P
	}
	if a.rows+ridge < q {
		return nil, fmt.Errorf("%d rows for %d coefficients: too few to fit", a.rows, q)
	}
	ns, nc := len(a.cols), q+1
	t := make([]float64, ns*nc)
	for c, term := range terms {
		j := term.Feature
		u := lay.missing[j]
		if term.Level >= 0 {
			t[lay.levels[j][term.Level]*nc+c] = 1
			if u >= 0 {
				t[u*nc+c] = term.Fill
			}
			continue
		}
		k := lay.value[j]
		shift, mean := a.cols[k].shift, term.Center+term.Fill // one of them is the mean, the other 0
		t[k*nc+c] = 1 / term.Scale
		t[0*nc+c] = (shift - term.Center) / term.Scale
		if u >= 0 {
			t[u*nc+c] = (mean - shift) / term.Scale
		}
	}
	t[0*nc+P], t[1*nc+q] = 1, 1
	rt := make([]float64, ns*nc)
	for i := range ns {
		for k := i; k < ns; k++ {
			if r := a.r[i*ns+k]; r != 0 {
				floats.AddScaled(rt[i*nc:(i+1)*nc], r, t[k*nc:(k+1)*nc])
			}
		}
	}
	f := newFactorizer(ns+ridge, nc)
	copy(f.a, rt)
	for j := range ridge {
		f.a[(ns+j)*nc+j] = math.Sqrt(a.cfg.L2)
	}
	f.factor(ns + ridge)
	theta, err := backSolve(f.a, nc, q)
	if err != nil {
		return nil, err
	}
	resid := make([]float64, ns)
	for i := range ns {
		row := rt[i*nc : (i+1)*nc]
		resid[i] = floats.Dot(row[:q], theta) - row[q]
	}
	theta[P] += a.cols[1].shift // the target's column is y − c_y
	for _, v := range theta {
		// As UnmarshalLinear refuses, so that every model saved reads back.
		if !design.CoefficientDomain.Holds(v) {
			return nil, fmt.Errorf("values too large for the model: the coefficient %v is not a finite number within ±%g; rescale the target or the features", v, design.Bound)
		}
	}
	rss, tss := floats.Dot(resid, resid), a.r[ns+1]*a.r[ns+1]
	w := a.r[0] * a.r[0]
	m := &Model{schema: a.schema, enc: enc, theta: theta, lambda: a.cfg.L2, stats: a.clone()}
	m.sigma2 = rss / w
	m.logLik = -w / 2 * (math.Log(2*math.Pi*m.sigma2) + 1)
	m.r2 = 1 - rss/tss
	return m, nil
}

// backSolve returns θ solving R[:q, :q] θ = R[:q, q] for the upper
// triangular R (row stride nc), refusing a numerically singular R:
// a diagonal entry under 1e-12 times the largest.
func backSolve(r []float64, nc, q int) ([]float64, error) {
	big := 0.0
	for j := range q {
		big = max(big, math.Abs(r[j*nc+j]))
	}
	for j := range q {
		if !(math.Abs(r[j*nc+j]) > 1e-12*big) {
			return nil, ErrRankDeficient
		}
	}
	theta := make([]float64, q)
	for j := q - 1; j >= 0; j-- {
		row := r[j*nc : (j+1)*nc]
		theta[j] = (row[q] - floats.Dot(row[j+1:q], theta[j+1:])) / row[j]
	}
	return theta, nil
}

// SameStatistics reports whether the accumulators of o gather the
// statistics of c's: when both impute missing cells or neither does,
// since the ridge penalty and the standardisation apply when the model
// is solved from the factor R (ModelFrom).
func (c Config) SameStatistics(o Config) bool { return c.Impute == o.Impute }

// ModelFrom returns the model of c solved from the statistics of a, an
// accumulator of a configuration with the same statistics
// (SameStatistics): the model of c fitted to a's rows. a is not changed.
func (c Config) ModelFrom(a *Accumulator) (*Model, error) {
	if err := c.validate(); err != nil {
		return nil, err
	}
	if !c.SameStatistics(a.cfg) {
		return nil, &gendisc.MergeError{Package: Kind, Kind: Kind, Other: Kind, Reason: fmt.Sprintf("statistics of other settings: %+v, want %+v", a.cfg, c)}
	}
	b := *a
	b.cfg = c
	m, err := b.finish()
	if err != nil {
		return nil, fmt.Errorf("linear: %w", err)
	}
	return m, nil
}
