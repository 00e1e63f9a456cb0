package naivebayes

import (
	"errors"
	"math"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/gendisc/gendisc"
	"github.com/gendisc/gendisc/data"
	"github.com/gendisc/gendisc/dataio"
	"github.com/gendisc/gendisc/internal/bundled"
	"github.com/gendisc/gendisc/text"
)

// labels returns the class indices of the rows of d, which are all
// labelled.
func labels(t *testing.T, d *data.Dataset) []int {
	t.Helper()
	y := make([]int, d.N)
	for i, v := range d.Y {
		if v != v {
			t.Fatalf("row %d has no label", i)
		}
		y[i] = int(v)
	}
	return y
}

// fitMatrix fits c to x and stops the test on an error.
func fitMatrix(t *testing.T, c Config, x *text.CSR, y []int, classes []string, w []float64) *MatrixModel {
	t.Helper()
	m, err := c.FitMatrix(x, y, classes, w)
	if err != nil {
		t.Fatalf("FitMatrix: %v", err)
	}
	return m
}

// denseCSR returns the matrix of the rows x, with their zeros left out.
func denseCSR(x [][]float64) *text.CSR {
	m := &text.CSR{Rows: len(x), Cols: len(x[0]), Indptr: []int{0}}
	for _, row := range x {
		for j, v := range row {
			if v != 0 {
				m.Indices = append(m.Indices, int32(j))
				m.Data = append(m.Data, v)
			}
		}
		m.Indptr = append(m.Indptr, len(m.Indices))
	}
	return m
}

// stack returns the rows of a followed by those of b.
func stack(a, b *text.CSR) *text.CSR {
	m := &text.CSR{Rows: a.Rows + b.Rows, Cols: a.Cols, Indptr: slices.Clone(a.Indptr),
		Indices: slices.Concat(a.Indices, b.Indices), Data: slices.Concat(a.Data, b.Data)}
	for _, p := range b.Indptr[1:] {
		m.Indptr = append(m.Indptr, a.NNZ()+p)
	}
	return m
}

// rowsOf returns rows lo to hi−1 of x.
func rowsOf(x *text.CSR, lo, hi int) *text.CSR {
	m := &text.CSR{Rows: hi - lo, Cols: x.Cols, Indptr: make([]int, 0, hi-lo+1),
		Indices: x.Indices[x.Indptr[lo]:x.Indptr[hi]], Data: x.Data[x.Indptr[lo]:x.Indptr[hi]]}
	for _, p := range x.Indptr[lo : hi+1] {
		m.Indptr = append(m.Indptr, p-x.Indptr[lo])
	}
	return m
}

// TestFitMatrixText checks that FitMatrix on the counts of a text column,
// in the columns of Config.Fit's vocabulary, gives the model of
// Config.Fit on the documents: class log-priors, term weights and
// probabilities to 1e-12.
func TestFitMatrixText(t *testing.T) {
	sms := bundled.Load(t, "sms_spam", dataio.Options{Text: []string{"text"}})
	d := sms.Subset(every(0, 3, sms.N))
	if slices.Contains(d.Text[0], "") {
		t.Fatal("an empty document (missing for Config.Fit, a row without terms for FitMatrix)")
	}
	y := labels(t, d)
	for _, cfg := range []Config{
		{Family: Multinomial},
		{Family: Multinomial, Alpha: 0.1, PriorAlpha: 2},
		{Family: Bernoulli},
		{Family: Bernoulli, Alpha: 0.5, ClassPrior: map[string]float64{"ham": 0.3, "spam": 0.7}},
		{Family: Complement},
		{Family: Complement, Norm: true, Alpha: 2},
		{TextModel: TextBernoulli, PriorAlpha: 1},
		{},
	} {
		t.Run(cfg.Family.String()+"/"+cfg.TextModel.String(), func(t *testing.T) {
			want, err := cfg.Fit(d)
			if err != nil {
				t.Fatal(err)
			}
			tp, err := want.textPart("text")
			if err != nil {
				t.Fatal(err)
			}
			x, _ := tp.vocab.Transform(d.Text[0])
			m := fitMatrix(t, cfg, x, y, d.Schema.Classes(), nil)
			if !slices.Equal(m.Classes(), want.Classes()) {
				t.Fatalf("classes %q, want %q", m.Classes(), want.Classes())
			}
			checkNear(t, "log-priors", m.logPrior, want.logPrior, 1e-12)
			checkNear(t, "priors", m.Priors(), want.Priors(), 1e-12)
			checkNear(t, "weights", slices.Concat(m.CountWeights()...), tp.w.b, 1e-12)
			checkNear(t, "probabilities", m.Proba(nil, x), want.Proba(nil, d), 1e-12)
			checkNear(t, "joint", m.JointLogLikelihood(nil, x), want.JointLogLikelihood(nil, d), 1e-12)
		})
	}
}

// TestFitMatrixReference checks FitMatrix against scikit-learn's
// probabilities (testdata/discrete_reference.json.gz, to 1e-9) where the
// reference was fitted on a count matrix: sms_spam's CountVectorizer
// matrix (here text.VectorizerConfig.FitTransform with the case's
// settings) and the counts of breast_cancer_wisconsin for multinomial and
// complement naive Bayes.
func TestFitMatrixReference(t *testing.T) {
	var sms, bcw *data.Dataset
	for _, c := range loadDiscreteReference(t) {
		counts := c.Model == "multinomial-nb" || c.Model == "complement-nb"
		if c.Dataset != "sms_spam" && !(c.Dataset == "breast_cancer_wisconsin" && counts) {
			continue
		}
		t.Run(c.Name, func(t *testing.T) {
			cfg := c.config(t)
			var train, test *text.CSR
			var d *data.Dataset
			if c.Dataset == "sms_spam" {
				if sms == nil {
					sms = bundled.Load(t, "sms_spam", dataio.Options{Text: []string{"text"}})
				}
				d = sms
				vocab, x, err := cfg.Text.FitTransform(d.Subset(c.Rows).Text[0])
				if err != nil {
					t.Fatal(err)
				}
				train = x
				test, _ = vocab.Transform(d.Subset(c.Predicted).Text[0])
			} else {
				if bcw == nil {
					bcw = bundled.Load(t, c.Dataset, dataio.Options{})
				}
				d = bcw
				rows := func(idx []int) *text.CSR {
					s := d.Subset(idx)
					x := make([][]float64, s.N)
					for i := range x {
						x[i] = s.X[i*s.D() : (i+1)*s.D()]
					}
					return denseCSR(x)
				}
				train, test = rows(c.Rows), rows(c.Predicted)
			}
			m := fitMatrix(t, cfg, train, labels(t, d.Subset(c.Rows)), d.Schema.Classes(), nil)
			if !slices.Equal(m.Classes(), c.Classes) {
				t.Fatalf("classes %q, want %q", m.Classes(), c.Classes)
			}
			checkNear(t, "probabilities", m.Proba(nil, test), slices.Concat(c.Proba...), 1e-9)
		})
	}
}

// smallCounts is a matrix of 8 rows and 4 terms in 3 classes (the last
// with no rows), with a stored zero. Every row of class a has term 0 and
// none has term 3; every row of class b has terms 1 and 3.
func smallCounts() (*text.CSR, []int, []string) {
	x := denseCSR([][]float64{
		{2, 0, 1, 0}, {1, 0, 3, 0}, {1, 1, 1, 0}, {4, 0, 0, 0},
		{0, 2, 0, 1}, {0, 3, 1, 1}, {1, 1, 0, 2}, {0, 1, 0, 1},
	})
	x.Indices = slices.Insert(x.Indices, 2, 3) // row 0 stores a 0 in column 3, which class a lacks
	x.Data = slices.Insert(x.Data, 2, 0)
	for i := range x.Indptr[1:] {
		x.Indptr[i+1]++
	}
	return x, []int{0, 0, 0, 0, 1, 1, 1, 1}, []string{"a", "b", "c"}
}

// TestMatrixBernoulli checks Bernoulli scores against the formula
// log π_k + Σ_t log p_kt or log(1 − p_kt) as x_t > 0 or not, over every
// term, with p_kt = (S_kt + α)/(N_k + 2α); with α = 0 terms of p_kt = 0 or
// 1 rule classes out, and a row that none can produce has −Inf log-
// probabilities and probabilities 0.
func TestMatrixBernoulli(t *testing.T) {
	x, y, classes := smallCounts()
	for _, alpha := range []float64{0.5, NoAlpha} {
		m := fitMatrix(t, Config{Family: Bernoulli, Alpha: alpha}, x, y, classes, nil)
		a := max(alpha, 0)
		var s [3][4]float64
		var n [3]float64
		for i := range x.Rows {
			n[y[i]]++
			idx, val := x.Row(i)
			for e, j := range idx {
				if val[e] > 0 {
					s[y[i]][j]++
				}
			}
		}
		jll := m.JointLogLikelihood(nil, x)
		for i := range x.Rows {
			present := make([]bool, 4)
			idx, val := x.Row(i)
			for e, j := range idx {
				present[j] = val[e] > 0
			}
			for k := range 2 {
				want := math.Log(n[k] / 8)
				for j := range 4 {
					p := (s[k][j] + a) / (n[k] + 2*a)
					if present[j] {
						want += math.Log(p)
					} else {
						want += math.Log(1 - p)
					}
				}
				if got := jll[i*3+k]; !near(got, want, 1e-12) {
					t.Errorf("alpha %v: joint of row %d, class %d = %v, want %v", alpha, i, k, got, want)
				}
			}
			if got := jll[i*3+2]; got != math.Inf(-1) {
				t.Errorf("alpha %v: joint of row %d for the class without rows = %v, want -Inf", alpha, i, got)
			}
		}
		if alpha == NoAlpha {
			// The row lacks term 0, which every row of class a has, and
			// terms 1 and 3, which every row of class b has.
			impossible := denseCSR([][]float64{{0, 0, 1, 0}})
			lp, p := m.LogProba(nil, impossible), m.Proba(nil, impossible)
			for k := range 3 {
				if lp[k] != math.Inf(-1) || p[k] != 0 {
					t.Errorf("impossible row: log-probability %v, probability %v", lp[k], p[k])
				}
			}
		}
	}
}

// TestMatrixProbabilities checks that the probabilities of each family sum
// to 1, are the exponentials of LogProba (to 1e-14) and the normalised
// joint, and
// that a stored zero changes nothing.
func TestMatrixProbabilities(t *testing.T) {
	x, y, classes := smallCounts()
	plain := denseCSR([][]float64{{2, 0, 1, 0}})
	for _, cfg := range []Config{{Family: Multinomial}, {Family: Bernoulli}, {Family: Complement, Norm: true}, {Family: Multinomial, Alpha: NoAlpha}} {
		m := fitMatrix(t, cfg, x, y, classes, []float64{1, 2, 0.5, 1, 1, 3, 1, 1})
		p, lp, jll := m.Proba(nil, x), m.LogProba(nil, x), m.JointLogLikelihood(nil, x)
		for i := range x.Rows {
			row := p[i*3 : (i+1)*3]
			if s := row[0] + row[1] + row[2]; math.Abs(s-1) > 1e-12 {
				t.Errorf("%v: row %d: probabilities %v sum to %v", cfg.Family, i, row, s)
			}
			norm := slices.Clone(jll[i*3 : (i+1)*3])
			lse := math.Log(math.Exp(norm[0]) + math.Exp(norm[1]) + math.Exp(norm[2]))
			for k := range 3 {
				if !near(lp[i*3+k], norm[k]-lse, 1e-12) || !near(p[i*3+k], math.Exp(lp[i*3+k]), 1e-14) {
					t.Errorf("%v: row %d class %d: log-probability %v, probability %v, joint %v", cfg.Family, i, k, lp[i*3+k], p[i*3+k], norm[k])
				}
			}
		}
		if got, want := m.JointLogLikelihood(nil, rowsOf(x, 0, 1)), m.JointLogLikelihood(nil, plain); !slices.Equal(got, want) {
			t.Errorf("%v: row with a stored zero %v, without %v", cfg.Family, got, want)
		}
	}
}

// TestMatrixUpdate checks that Update of FitMatrix(A) with B is
// FitMatrix of A and B stacked, to the last bit, and leaves the first
// model unchanged.
func TestMatrixUpdate(t *testing.T) {
	x, y := countMatrix(3000, 2000)
	a, b := rowsOf(x, 0, 1000), rowsOf(x, 1000, 3000)
	for _, cfg := range []Config{{Family: Multinomial}, {Family: Bernoulli, PriorAlpha: 1}, {Family: Complement}} {
		want := fitMatrix(t, cfg, stack(a, b), y, benchClasses, nil)
		m := fitMatrix(t, cfg, a, y[:1000], benchClasses, nil)
		before := m.Proba(nil, x)
		u, err := m.Update(b, y[1000:], nil)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(slices.Concat(u.CountWeights()...), slices.Concat(want.CountWeights()...)) ||
			!slices.Equal(u.Priors(), want.Priors()) || !slices.Equal(u.ClassWeights(), want.ClassWeights()) {
			t.Errorf("%v: Update differs from the fit on both", cfg.Family)
		}
		if !slices.Equal(u.Proba(nil, x), want.Proba(nil, x)) {
			t.Errorf("%v: Update's probabilities differ from the fit on both", cfg.Family)
		}
		if !slices.Equal(m.Proba(nil, x), before) {
			t.Errorf("%v: Update changed the model it started from", cfg.Family)
		}
	}
}

// TestMatrixCores checks that the fit does not depend on the number of
// cores (fractional weights, so that the order of the additions shows)
// and that 8 goroutines predicting at once get the answers of one.
func TestMatrixCores(t *testing.T) {
	x, y := countMatrix(4000, 2000) // 8 blocks: more than 8·K·V entries
	w := make([]float64, x.Rows)
	for i := range w {
		w[i] = 1 / float64(i%7+1)
	}
	cfg := Config{Family: Multinomial}
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	one := fitMatrix(t, cfg, x, y, benchClasses, w)
	runtime.GOMAXPROCS(4)
	m := fitMatrix(t, cfg, x, y, benchClasses, w)
	if !slices.Equal(slices.Concat(one.CountWeights()...), slices.Concat(m.CountWeights()...)) {
		t.Error("the weights depend on the number of cores")
	}
	want := m.Proba(nil, x)
	var wg sync.WaitGroup
	got := make([][]float64, 8)
	for g := range got {
		wg.Go(func() { got[g] = m.Proba(nil, x) })
	}
	wg.Wait()
	for g, p := range got {
		if !slices.Equal(p, want) {
			t.Errorf("goroutine %d: probabilities differ", g)
		}
	}
}

// TestFitMatrixErrors checks that bad input is an error that names the
// row and column, and that the first bad entry in row order is named when
// the rows are split into blocks.
func TestFitMatrixErrors(t *testing.T) {
	x, y, classes := smallCounts()
	with := func(i int, v float64) *text.CSR { // x with stored entry i set to v
		c := *x
		c.Data = slices.Clone(x.Data)
		c.Data[i] = v
		return &c
	}
	badColumn := *x
	badColumn.Indices = slices.Clone(x.Indices)
	badColumn.Indices[5] = 4
	wide := *x
	wide.Cols = 5
	// Two bad entries far apart: the rows fall into several blocks.
	long := denseCSR(slices.Repeat([][]float64{{1, 2}}, 200))
	long.Data[300], long.Data[41] = -2, -3
	for _, c := range []struct {
		name    string
		cfg     Config
		x       *text.CSR
		y       []int
		classes []string
		w       []float64
		want    string
		is      error
	}{
		{"negative", Config{Family: Multinomial}, with(4, -1), y, classes, nil, "row 1, column 2: negative count -1", ErrNegativeCount},
		{"negative bernoulli", Config{Family: Bernoulli}, with(4, -1), y, classes, nil, "row 1, column 2: negative count -1", ErrNegativeCount},
		{"nan", Config{Family: Multinomial}, with(0, math.NaN()), y, classes, nil, "row 0, column 0: not a number: count NaN", data.ErrNotNumber},
		{"inf", Config{Family: Complement}, with(8, math.Inf(1)), y, classes, nil, "row 3, column 0: infinite or out-of-range number: count +Inf", data.ErrInfinite},
		{"first in row order", Config{Family: Multinomial}, long, make([]int, 200), []string{"a", "b"}, nil, "row 20, column 1: negative count -3", ErrNegativeCount},
		{"column", Config{Family: Multinomial}, &badColumn, y, classes, nil, "row 2, column 4: column outside the matrix's 4 columns", nil},
		{"label", Config{Family: Multinomial}, x, []int{0, 0, 3, 0, 1, 1, 1, 1}, classes, nil, "row 2: class index 3 out of range [0, 3)", nil},
		{"negative label", Config{Family: Multinomial}, x, []int{0, 0, 0, 0, 1, 1, 1, -1}, classes, nil, "row 7: class index -1 out of range [0, 3)", nil},
		{"labels", Config{Family: Multinomial}, x, y[1:], classes, nil, "naivebayes: 7 labels for 8 rows", nil},
		{"weights", Config{Family: Multinomial}, x, y, classes, []float64{1}, "naivebayes: 1 weights for 8 rows", nil},
		{"weight", Config{Family: Multinomial}, x, y, classes, []float64{1, 1, 1, -1, 1, 1, 1, 1}, "row 3: weight must be a finite number >= 0: -1", nil},
		{"one class", Config{Family: Multinomial}, x, make([]int, 8), classes, nil, "naivebayes: fewer than two classes have rows", ErrOneClass},
		{"weightless class", Config{Family: Multinomial}, x, y, classes, []float64{1, 1, 1, 1, 0, 0, 0, 0}, "naivebayes: fewer than two classes have rows", ErrOneClass},
		{"duplicate class", Config{Family: Multinomial}, x, y, []string{"a", "b", "a"}, nil, `naivebayes: class "a" given twice`, nil},
		{"categorical", Config{Family: Categorical}, x, y, classes, nil, "naivebayes: categorical-nb does not take a term-count matrix", nil},
		{"alpha", Config{Family: Complement, Alpha: NoAlpha}, x, y, classes, nil, "naivebayes: complement naive Bayes needs alpha > 0", nil},
		{"prior", Config{Family: Multinomial, ClassPrior: map[string]float64{"a": 1}}, x, y, classes, nil, `naivebayes: the fixed class prior lacks class "b"`, nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := c.cfg.FitMatrix(c.x, c.y, c.classes, c.w)
			if err == nil || !strings.HasPrefix(err.Error(), c.want) {
				t.Fatalf("error %v, want %q", err, c.want)
			}
			if c.is != nil && !errors.Is(err, c.is) {
				t.Errorf("error %v does not wrap %v", err, c.is)
			}
		})
	}
	m := fitMatrix(t, Config{Family: Multinomial}, x, y, classes, nil)
	if _, err := m.Update(&wide, y, nil); err == nil || err.Error() != "naivebayes: the matrix has 5 columns, the model 4" {
		t.Errorf("Update with 5 columns: %v", err)
	}
	if _, err := m.Update(with(4, -1), y, nil); err == nil || err.Error() != "row 1, column 2: negative count -1" {
		t.Errorf("Update with a negative count: %v", err)
	}
	var me *MatrixError
	if _, err := m.Update(with(4, -1), y, nil); !errors.As(err, &me) || me.Row != 1 || me.Column != 2 {
		t.Errorf("Update's error %v is not a MatrixError at row 1, column 2", err)
	}
	for name, f := range map[string]func(){
		"columns": func() { m.Proba(nil, &wide) },
		"dst":     func() { m.LogProba(make([]float64, 5), x) },
	} {
		t.Run("panic "+name, func(t *testing.T) {
			defer func() {
				if r, _ := recover().(string); !strings.HasPrefix(r, "naivebayes: ") {
					t.Errorf("panic %q, want one starting with naivebayes: ", r)
				}
			}()
			f()
		})
	}
}

// TestMatrixMerge checks that the models of 3 disjoint blocks of rows,
// each fitted with its classes in an order of its own, merge into the
// model of all the rows, to the last bit, and that another kind or
// another number of columns is refused.
func TestMatrixMerge(t *testing.T) {
	x, y := countMatrix(3000, 2000)
	orders := [][]int{{0, 1, 2, 3}, {2, 0, 3, 1}, {3, 2, 1, 0}} // the classes of each block
	for _, cfg := range []Config{{Family: Multinomial}, {Family: Bernoulli, PriorAlpha: 1}, {Family: Complement}} {
		want := fitMatrix(t, cfg, x, y, benchClasses, nil)
		var merged *MatrixModel
		for b, order := range orders {
			lo, hi := b*1000, (b+1)*1000
			classes := make([]string, len(order))
			at := make([]int, len(order)) // the block's index of each class
			for k, c := range order {
				classes[k], at[c] = benchClasses[c], k
			}
			yb := make([]int, hi-lo)
			for i := range yb {
				yb[i] = at[y[lo+i]]
			}
			m := fitMatrix(t, cfg, rowsOf(x, lo, hi), yb, classes, nil)
			if merged == nil {
				merged = m
				continue
			}
			var err error
			if merged, err = merged.Merge(m); err != nil {
				t.Fatal(err)
			}
		}
		got, ref := merged.JointLogLikelihood(nil, x), want.JointLogLikelihood(nil, x)
		K := len(benchClasses)
		for i := range x.Rows {
			for k, c := range benchClasses {
				if g, w := got[i*K+slices.Index(merged.Classes(), c)], ref[i*K+k]; g != w {
					t.Fatalf("%v: row %d class %s: merged %v, fit on all rows %v", cfg.Family, i, c, g, w)
				}
			}
		}
	}
	m := fitMatrix(t, Config{Family: Multinomial}, x, y, benchClasses, nil)
	var me *gendisc.MergeError
	if _, err := m.Merge(fitMatrix(t, Config{Family: Bernoulli}, x, y, benchClasses, nil)); !errors.As(err, &me) {
		t.Errorf("merging bernoulli-nb into multinomial-nb: %v, want a *gendisc.MergeError", err)
	}
	narrow := *x
	narrow.Cols++
	if _, err := m.Merge(fitMatrix(t, Config{Family: Multinomial}, &narrow, y, benchClasses, nil)); !errors.As(err, &me) {
		t.Errorf("merging a model of other columns: %v, want a *gendisc.MergeError", err)
	}
}
