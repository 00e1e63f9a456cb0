package gda

import (
	"errors"
	"fmt"
	"math"

	"github.com/gendisc/gendisc/data"
	"github.com/gendisc/gendisc/stats"
)

// Errors wrapped by the data errors of Fit and Update.
var (
	// ErrNotClassification: the data set has no categorical target
	// (data.ErrNotClassification).
	ErrNotClassification = data.ErrNotClassification
	// ErrOneClass: fewer than two classes have rows.
	ErrOneClass = errors.New("fewer than two classes have rows: discriminant analysis needs at least two")
	// ErrEmptyClass: a class of the schema has no training rows.
	ErrEmptyClass = errors.New("class without training rows")
	// ErrFeatureKind: a feature is not numeric.
	ErrFeatureKind = errors.New("unsuitable feature kind")
	// ErrNoFeatures: the data set has no feature column.
	ErrNoFeatures = errors.New("no feature columns")
	// ErrNotObserved: a feature has no observed value in the labelled rows.
	ErrNotObserved = errors.New("no observed value in the labelled rows")
	// ErrTooFewRows: too few rows to estimate a covariance matrix.
	ErrTooFewRows = errors.New("too few rows for a covariance matrix")
	// ErrSingular: a covariance matrix is singular or not positive
	// definite, or a feature has zero variance.
	ErrSingular = errors.New("singular covariance matrix")
	// ErrSchema: the data of an update or a merge does not match the
	// model's schema (data.ErrSchema, wrapped by a *data.SchemaError).
	ErrSchema = data.ErrSchema
	// ErrTooLarge: values too large for float64: a variance or a class
	// mean beyond maxMean, whose squares overflow, or for a model file,
	// a quantity derived from its statistics that overflows.
	ErrTooLarge = errors.New("values too large for float64")
)

// maxMean bounds the magnitude of a class mean: twice it, squared, is
// below the largest float64, so that the between-class scatter
// (μ_k − μ)(μ_k − μ)ᵀ stays finite.
const maxMean = 1e153

// checkRows checks what discriminant analysis needs of training rows:
// those of every classifier (data.Dataset.CheckClassRows) and numeric
// features. The cells are checked for infinities by stats.Classes.Add, in
// its pass over them (infiniteError).
func checkRows(d *data.Dataset) error {
	if err := d.CheckClassRows("gda"); err != nil {
		return err
	}
	s := d.Schema
	if len(s.Features) == 0 {
		return &data.ParseError{File: d.Source.Name, Err: ErrNoFeatures}
	}
	for j, f := range s.Features {
		if f.Kind != data.Numeric {
			return &data.ParseError{File: d.Source.Name, ColumnName: f.Name, Err: fmt.Errorf(
				"%w: the column is %v, discriminant analysis takes numeric features only", ErrFeatureKind, s.Features[j].Kind)}
		}
	}
	return nil
}

// infiniteError is the error of the infinite cell i of d.X (row-major).
func infiniteError(d *data.Dataset, i int) error {
	D := d.D()
	return &data.ParseError{File: d.Source.Name, Line: d.Line(i / D), ColumnName: d.Schema.Features[i%D].Name, Err: data.ErrInfinite}
}

// checkStats checks that the statistics can give a model: every class has
// rows, and the classes have enough rows for their covariance matrices.
func checkStats(kind string, cfg Config, schema *data.Schema, s *stats.Classes, source string) error {
	classes := schema.Classes()
	n, rows := 0, 0
	for k, c := range s.Class {
		if c.W > 0 {
			n++
			rows += c.N
		} else {
			return &data.ParseError{File: source, Err: fmt.Errorf("%w: %q", ErrEmptyClass, classes[k])}
		}
	}
	if n < 2 {
		return &data.ParseError{File: source, Err: ErrOneClass}
	}
	if err := checkMagnitudes(schema, s, source); err != nil {
		return err
	}
	p := s.D
	shrunk := cfg.Shrinkage > 0 || cfg.ShrinkageAuto
	if kind == KindLDA {
		if need := p + n; rows < need && !shrunk {
			return &data.ParseError{File: source, Err: &TooFewRowsError{Kind: kind, Features: p, Classes: n, Need: need, Have: rows}}
		}
		return nil
	}
	for k, c := range s.Class {
		need := 2
		if !shrunk {
			need = p + 1
		}
		if c.N < need {
			return &data.ParseError{File: source, Err: &TooFewRowsError{Kind: kind, Class: classes[k], Features: p, Need: need, Have: c.N}}
		}
	}
	return nil
}

// checkMagnitudes returns an ErrTooLarge error naming the column when a
// class mean lies beyond ±maxMean or a class's variance S_jj/W_k
// overflows: data of magnitude about 1e154 or more, whose squares float64
// cannot hold. The error says so, rather than that the variance is zero,
// as the Cholesky factorisation would.
func checkMagnitudes(schema *data.Schema, s *stats.Classes, source string) error {
	p := s.D
	for k, c := range s.Class {
		for j := range p {
			why := ""
			switch v := c.S[j*p+j] / c.W; {
			case math.Abs(c.Mean[j]) > maxMean:
				why = fmt.Sprintf("the mean of class %q is %g, beyond ±%g", schema.Classes()[k], c.Mean[j], maxMean)
			case math.IsInf(v, 0) || math.IsNaN(v):
				why = fmt.Sprintf("the variance within class %q overflows", schema.Classes()[k])
			default:
				continue
			}
			return &data.ParseError{File: source, ColumnName: schema.Features[j].Name,
				Err: fmt.Errorf("%w: %s; rescale the column (divide it by a power of ten)", ErrTooLarge, why)}
		}
		if !finite(c.S) || !finite(c.M3) || !finite(c.M4) {
			return &data.ParseError{File: source, Err: fmt.Errorf("%w: the moments of class %q overflow", ErrTooLarge, schema.Classes()[k])}
		}
	}
	return nil
}

// covariances returns the covariance matrices of the model (one for LDA,
// one per class for QDA) from the statistics, as Config documents.
func covariances(kind string, cfg Config, s *stats.Classes) [][]float64 {
	p, K := s.D, s.K()
	shrunk := make([][]float64, K)
	for k, c := range s.Class {
		cov := c.Covariance(nil)
		shrink(cov, p, cfg, c)
		shrunk[k] = cov
	}
	if kind == KindQDA {
		if cfg.Estimator == Unbiased {
			for k, c := range s.Class {
				scale(shrunk[k], c.W/(c.W-1))
			}
		}
		return shrunk
	}
	w := 0.0
	for _, c := range s.Class {
		w += c.W
	}
	pooled := make([]float64, p*p)
	for k, c := range s.Class {
		for i, v := range shrunk[k] {
			pooled[i] += v * (c.W / w)
		}
	}
	if cfg.Estimator == Unbiased {
		scale(pooled, w/(w-float64(K)))
	}
	return [][]float64{pooled}
}

// intensity returns the shrinkage intensity of cfg for the class with
// statistics c: Config.Shrinkage, or with ShrinkageAuto the Ledoit–Wolf
// intensity of the class's standardised rows.
func intensity(cfg Config, c *stats.Scatter) float64 {
	if cfg.ShrinkageAuto {
		return c.LedoitWolf()
	}
	return cfg.Shrinkage
}

// shrink applies the shrinkage of cfg to the covariance cov of the class
// with statistics c, in place.
func shrink(cov []float64, p int, cfg Config, c *stats.Scatter) {
	r := intensity(cfg, c)
	if r == 0 {
		return
	}
	target := make([]float64, p) // the diagonal of the target
	if cfg.ShrinkageAuto {
		// μ_R = tr(R)/p on the standardised scale, σ_j = 1 for a
		// constant feature as in stats.Scatter.LedoitWolf.
		mu := 0.0
		for j := range p {
			if v := cov[j*p+j]; math.Sqrt(v) >= 10*0x1p-52 {
				mu++
			}
		}
		mu /= float64(p)
		for j := range p {
			target[j] = mu * cov[j*p+j]
			if math.Sqrt(cov[j*p+j]) < 10*0x1p-52 {
				target[j] = mu
			}
		}
	} else {
		tr := 0.0
		for j := range p {
			tr += cov[j*p+j]
		}
		for j := range p {
			target[j] = tr / float64(p)
		}
	}
	for i := range cov {
		cov[i] *= 1 - r
	}
	for j := range p {
		cov[j*p+j] += r * target[j]
	}
}

func scale(x []float64, a float64) {
	for i := range x {
		x[i] *= a
	}
}
