package models

import (
	"encoding/csv"
	"errors"
	"io"
	"math"
	"strconv"

	"github.com/gendisc/gendisc"
	"github.com/gendisc/gendisc/data"
	"github.com/gendisc/gendisc/internal/hugepage"
	"github.com/gendisc/gendisc/internal/kernel"
	"github.com/gendisc/gendisc/internal/mathx"
	"github.com/gendisc/gendisc/internal/parallel"
)

// ErrNoPredictions: the model neither classifies, clusters nor regresses.
var ErrNoPredictions = errors.New("the model does not predict classes, clusters or values")

// Predictions is the table of predictions of a model for the rows of a
// data set, as gendisc predict writes it. For a classifier the columns
// are
//
//	prediction,p_<class 1>,p_<class 2>,...
//
// the most probable class and P(y = k | x) for every class k in the
// model's order; for a mixture model
//
//	cluster,p_0,p_1,...
//
// the component most responsible for the row and the responsibilities
// P(k | x); for a regression the one column prediction, the predicted
// value.
type Predictions struct {
	// Columns is the header: First, then p_<label> for each label (none
	// for a regression).
	Columns []string
	// Labels are the labels of the probability columns: the classes, or
	// the components 0, ..., K−1; nil for a regression.
	Labels []string
	// Best holds, for row i, the index into Labels of its prediction; nil
	// for a regression.
	Best []int
	// Values holds the probabilities, row-major with len(Labels) columns,
	// or for a regression the predicted value of each row.
	Values []float64
}

// Rows returns the number of rows.
func (p *Predictions) Rows() int {
	if p.Labels == nil {
		return len(p.Values)
	}
	return len(p.Best)
}

// Predict returns the predictions of m for the rows of d, which follows
// m's schema. The probabilities are finite, in [0, 1] and sum to 1 for
// any finite row, however far out (the families score such rows again
// with their large cells scaled out, see mathx.SoftmaxScaled). A
// classifier's are bit for bit the exponentials of its LogProba (see
// Posteriors); a gendisc.Clusterer's are its responsibilities; a
// gendisc.Regressor (a model that is neither) has its predicted values.
// It returns ErrNoPredictions for a model of none of these sorts, and
// the error of a model that refuses the rows: one fitted on complete rows
// only (gendisc.MissingChecker) refuses a missing cell as its fit did.
func Predict(m gendisc.Model, d *data.Dataset) (*Predictions, error) {
	if err := CheckMissing(m, d); err != nil {
		return nil, err
	}
	switch m := m.(type) {
	case gendisc.Classifier:
		proba, best := Posteriors(m, d)
		return newPredictions("prediction", m.Classes(), best, proba), nil
	case gendisc.Clusterer:
		labels := make([]string, m.Components())
		for k := range labels {
			labels[k] = strconv.Itoa(k)
		}
		proba := m.Predict(nil, d)
		return newPredictions("cluster", labels, gendisc.ArgmaxRows(nil, proba, len(labels)), proba), nil
	case gendisc.Regressor:
		return &Predictions{Columns: []string{"prediction"}, Values: m.Predict(nil, d)}, nil
	}
	return nil, ErrNoPredictions
}

// Posteriors returns P(y = k | x_i) for every row i of d and class k of c
// (at proba[i·K + k]), bit for bit the exponentials math.Exp of what
// c.LogProba writes, and the most probable class of each row, bit for
// bit gendisc.Predict's (the first largest log-probability). It is the
// one prediction path of gendisc predict and serve: a model that gives
// the classes with its posteriors (gendisc.ProbaClasser) computes both in one
// pass over the rows; another gendisc.BatchProba computes the posteriors
// in one pass (Proba), and the
// classes are the largest of each row, but for the rare rows where two
// classes' posteriors are equal while their log-probabilities may not
// be (exp rounds nearby values to one), whose LogProba is computed again
// to break the tie as gendisc.Predict does; for other classifiers, the
// exponentials of LogProba by kernel.Exp, math.Exp four values at a time.
func Posteriors(c gendisc.Classifier, d *data.Dataset) (proba []float64, best []int) {
	K := len(c.Classes())
	if pc, ok := c.(gendisc.ProbaClasser); ok {
		proba, best = hugepage.Make[float64](d.N*K, d.N*K), hugepage.Make[int](d.N, d.N)
		pc.ProbaClasses(proba, best, d)
		return proba, best
	}
	b, ok := c.(gendisc.BatchProba)
	if !ok {
		proba = c.LogProba(nil, d)
		best = gendisc.ArgmaxRows(nil, proba, K)
		kernel.Exp(proba)
		return proba, best
	}
	proba = b.Proba(nil, d)
	return proba, classes(c, d, proba)
}

// classes returns the most probable class of each row of d under c from
// its posteriors proba, bit for bit exp(c.LogProba): the column of the
// largest of each row, but for the rows where another column holds the
// same value (or the first is NaN), whose LogProba is computed again to
// break the tie as gendisc.Predict does (gendisc.ArgmaxRows).
func classes(c gendisc.Classifier, d *data.Dataset, proba []float64) []int {
	K := len(c.Classes())
	best := make([]int, len(proba)/K)
	// The rows on both cores, a tied row's class k marked as −1 − k.
	parallel.For(len(best), 1<<14, func(_, lo, hi int) {
		for i := lo; i < hi; i++ {
			row := proba[i*K : (i+1)*K]
			k, top := 0, row[0]
			tie := top != top // a NaN first: ArgmaxRows skips it
			for j, v := range row[1:] {
				switch {
				case v > top:
					k, top, tie = j+1, v, false
				case v == top:
					tie = true
				}
			}
			if best[i] = k; tie {
				best[i] = -1 - k
			}
		}
	})
	var tied []int
	for i, k := range best {
		if k < 0 {
			tied = append(tied, i)
		}
	}
	if len(tied) > 0 {
		lp := c.LogProba(nil, d.Subset(tied))
		for j, k := range gendisc.ArgmaxRows(nil, lp, K) {
			best[tied[j]] = k
		}
	}
	return best
}

// PredictDensity returns Predict's predictions for the rows of d and the
// log densities log p(x_i) of Density's function (nil for a model
// without a density), bit for bit as the two give them, as serve answers
// a request for both: a gendisc.JointProba's joint log-likelihoods are
// computed once (ProbaJoint), the posteriors and the density, their
// log-sum-exp, derived from them; other models are asked twice.
func PredictDensity(m gendisc.Model, d *data.Dataset) (*Predictions, []float64, error) {
	if j, ok := m.(gendisc.JointProba); ok {
		if _, own := m.(gendisc.Density); !own {
			if err := CheckMissing(m, d); err != nil {
				return nil, nil, err
			}
			labels := j.Classes()
			proba, joint := make([]float64, d.N*len(labels)), make([]float64, d.N*len(labels))
			j.ProbaJoint(proba, joint, d)
			p := newPredictions("prediction", labels, classes(j, d, proba), proba)
			return p, logSumExpRows(joint, len(labels)), nil
		}
	}
	p, err := Predict(m, d)
	if err != nil {
		return nil, nil, err
	}
	if density, ok := Density(m); ok {
		return p, density(d), nil
	}
	return p, nil, nil
}

// CheckMissing applies to the rows d the rule of m on missing cells: nil
// for a model that takes them (marginalises or imputes them), the model's
// error for one fitted on complete rows only (gendisc.MissingChecker).
func CheckMissing(m gendisc.Model, d *data.Dataset) error {
	if c, ok := m.(gendisc.MissingChecker); ok {
		return c.CheckMissing(d)
	}
	return nil
}

func newPredictions(first string, labels []string, best []int, proba []float64) *Predictions {
	cols := make([]string, len(labels)+1)
	cols[0] = first
	for k, c := range labels {
		cols[k+1] = "p_" + c
	}
	return &Predictions{Columns: cols, Labels: labels, Best: best, Values: proba}
}

// WriteCSV writes the predictions as CSV: the header Columns, then one
// line per row, numbers in strconv's shortest round-trip form (the
// fewest digits that read back to the same float64). A regression's
// prediction beyond float64's range (±Inf) is written clamped (Clamp).
func (p *Predictions) WriteCSV(w io.Writer) error {
	cw := csv.NewWriter(w)
	if err := cw.Write(p.Columns); err != nil {
		return err
	}
	rec := make([]string, len(p.Columns))
	for i := range p.Rows() {
		p.record(rec, i)
		if err := cw.Write(rec); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}

// record fills rec with the fields of row i, formatted as WriteCSV writes
// them.
func (p *Predictions) record(rec []string, i int) {
	if p.Labels == nil {
		rec[0] = strconv.FormatFloat(Clamp(p.Values[i]), 'g', -1, 64)
		return
	}
	K := len(p.Labels)
	rec[0] = p.Labels[p.Best[i]]
	for k, v := range p.Values[i*K : (i+1)*K] {
		rec[k+1] = strconv.FormatFloat(v, 'g', -1, 64)
	}
}

// Density returns the function that gives the log density log p(x_i) of
// every row of a data set under m, and whether m has one: a mixture's own
// (gendisc.Density), or a
// generative classifier's marginal over the classes k, by log-sum-exp,
//
//	log p(x_i) = log Σ_k exp(log p(x_i, y=k))
//
// A row whose density is below float64's range (a row far out: about
// −1e600 at x = 1e300) gets −Inf, never NaN; gendisc score writes it as
// Clamp(−Inf), −1.7976931348623157e+308, with a warning.
func Density(m gendisc.Model) (func(d *data.Dataset) []float64, bool) {
	switch m := m.(type) {
	case gendisc.Density:
		return func(d *data.Dataset) []float64 { return m.ScoreSamples(nil, d) }, true
	case gendisc.Generative:
		return func(d *data.Dataset) []float64 { return marginal(m, d) }, true
	}
	return nil, false
}

// marginal returns the log density of every row of d under a generative
// classifier, summed over the classes.
func marginal(m gendisc.Generative, d *data.Dataset) []float64 {
	return logSumExpRows(m.JointLogLikelihood(nil, d), len(m.Classes()))
}

// logSumExpRows returns log Σ_k exp(joint[i·K + k]) of every row i of
// the K-column matrix joint (mathx.LogSumExp).
func logSumExpRows(joint []float64, K int) []float64 {
	out := make([]float64, len(joint)/K)
	for i := range out {
		out[i] = mathx.LogSumExp(joint[i*K : (i+1)*K])
	}
	return out
}

// Clamp returns v with ±Inf replaced by ±math.MaxFloat64, the finite
// float64 nearest to it; NaN is returned as it is. A value that float64
// cannot hold, such as the log-density of a row far out (about −1e600
// at x = 1e300, which the library returns as −Inf) or a regression's
// prediction beyond ±1.8e308, is written by gendisc (score, eval,
// predict) as its Clamp, with a warning that says how many values were;
// so no output carries −Inf or +Inf, and a column of scores stays one
// of numbers, the clamped ones sorting as the least likely rows.
func Clamp(v float64) float64 {
	return max(-math.MaxFloat64, min(v, math.MaxFloat64))
}

// ClampAll clamps every value of x in place (Clamp) and returns how many
// were infinite.
func ClampAll(x []float64) int {
	n := 0
	for i, v := range x {
		if math.IsInf(v, 0) {
			x[i] = Clamp(v)
			n++
		}
	}
	return n
}

// ScoreColumns is the header of WriteScores.
var ScoreColumns = []string{"log_p_nats", "log_p_bits"}

// WriteScores writes the log densities as CSV, as gendisc score does: the
// header ScoreColumns, then per row log p(x) in nats and in bits
// (nats / ln 2), in strconv's shortest round-trip form, each clamped to
// float64's range (Clamp: a density below it, −Inf, is written as
// −1.7976931348623157e+308).
func WriteScores(w io.Writer, scores []float64) error {
	cw := csv.NewWriter(w)
	cw.Write(ScoreColumns)
	for _, v := range scores {
		cw.Write([]string{strconv.FormatFloat(Clamp(v), 'g', -1, 64), strconv.FormatFloat(Clamp(v/math.Ln2), 'g', -1, 64)})
	}
	cw.Flush()
	return cw.Error()
}
