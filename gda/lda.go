package gda

import (
	"fmt"
	"iter"
	"math"
	"slices"
	"sort"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/mat"

	"github.com/gendisc/gendisc/data"
	"github.com/gendisc/gendisc/internal/mathx"
	"github.com/gendisc/gendisc/internal/parallel"
)

// LDA is a fitted linear discriminant analysis: class priors π_k, class
// means μ_k and one covariance matrix Σ shared by the classes,
//
//	log p(x, y = k) = log π_k − ½ log|2πΣ| − ½ (x − μ_k)ᵀ Σ⁻¹ (x − μ_k)
//
// so the log-odds between classes are linear in x (Linear, LogisticForm). A
// missing feature (NaN) at prediction is marginalised: the Gaussian over
// the observed coordinates. LDA keeps the sufficient statistics of its
// training data, so it can be updated (Update), merged (Accumulator) and
// saved (MarshalJSON).
// It is immutable and safe for concurrent use.
type LDA struct {
	m *model
	// scalings holds the discriminant directions v_1, …, v_c as the
	// columns of a p×c matrix, c = min(K − 1, p), by decreasing
	// eigenvalue; ratio the eigenvalues' shares.
	scalings []float64
	ratio    []float64
}

// Fit fits LDA to the rows of d: the weighted class means, the pooled
// within-class covariance (Config) and the class priors. Rows whose label
// is missing are skipped; rows with missing cells enter through EM (see
// the package documentation). Every feature must be numeric.
//
// Data problems are errors (*data.ParseError wrapping one of this
// package's Err values or a data error): no categorical target, fewer than
// two classes, a class without rows, too few rows, a singular covariance
// matrix (the message names a feature of zero variance, if any, and
// suggests shrinkage), a bad label or weight, an infinite value. Invalid
// settings are errors too.
func (c LDAConfig) Fit(d *data.Dataset) (*LDA, error) {
	return newLDA(fitData(KindLDA, Config(c), d))
}

// FitStream fits the model to a sequence of chunks of rows, such as the
// blocks of a file too large for memory, as Fit would fit their union:
// the chunks are added to an Accumulator (gendisc.AddChunks), so only one
// chunk is in memory at a time besides the rows with missing cells, which
// are kept for EM at the end. Every chunk's schema must extend the
// schema of the chunks before it (data.Schema.Extend): the same features,
// classes in any order, new ones appended. An error from the sequence is
// returned as is.
func (c LDAConfig) FitStream(chunks iter.Seq2[*data.Dataset, error]) (*LDA, error) {
	return newLDA(fitChunks(KindLDA, Config(c), chunks))
}

func newLDA(m *model, err error) (*LDA, error) {
	if err != nil {
		return nil, err
	}
	l := &LDA{m: m}
	if err := l.discriminants(); err != nil {
		return nil, err
	}
	return l, nil
}

// Update returns a new model fitted on the training data of m and the rows
// of d together, by merging sufficient statistics (Accumulator, Add,
// Model); m is unchanged. d's schema must extend m's (data.Schema.Extend):
// m's features; classes in any order, new ones appended. Update(A) after
// Fit(B) equals Fit of A ∪ B up to rounding, with or without missing
// cells: EM runs again over the rows with missing cells of both, which
// the model keeps. (A model read from a file written before those rows
// were kept has the statistics of its incomplete rows fixed as EM left
// them.)
func (m *LDA) Update(d *data.Dataset) (*LDA, error) {
	return newLDA(m.m.update(KindLDA, d))
}

// Kind returns "lda".
func (m *LDA) Kind() string { return KindLDA }

// Schema returns the schema of the training data.
func (m *LDA) Schema() *data.Schema { return m.m.schema }

// Classes returns the class names, in the order of the probability columns.
func (m *LDA) Classes() []string { return m.m.schema.Classes() }

// Config returns the hyperparameters, defaults applied.
func (m *LDA) Config() LDAConfig { return LDAConfig(m.m.cfg) }

// LogProba writes log P(y = k | x_i) to dst[i·K + k] (gendisc.Classifier),
// computed from the linear form of the log-odds (p·K operations per
// complete row; the joint needs a triangular solve, p²/2). A row so far
// out that its scores overflow (1.8e308) is scored again with its large
// cells scaled out: the class whose score grows fastest in its direction,
// xᵀΣ⁻¹μ_k, wins; the log-probabilities are finite for it. It panics if
// d's features differ from the model's schema by name, kind or order, or
// dst has the wrong length.
func (m *LDA) LogProba(dst []float64, d *data.Dataset) []float64 {
	return m.m.joint(dst, nil, nil, d, logProbaOut)
}

// Proba writes P(y = k | x_i) to dst[i·K + k], bit for bit the
// exponential of what LogProba writes (gendisc.BatchProba), with its
// conventions: each chunk of rows is normalised as by LogProba and
// exponentiated while it is in cache (kernel.Exp), at a fraction of
// the cost of a math.Exp per value.
func (m *LDA) Proba(dst []float64, d *data.Dataset) []float64 {
	return m.m.joint(dst, nil, nil, d, probaOut)
}

// ProbaClasses writes P(y = k | x_i) to proba[i·K + k] as Proba does
// and the most probable class of row i to best[i], bit for bit
// gendisc.Predict's (gendisc.ArgmaxRows of LogProba), taken from each
// chunk's log-posteriors while it is in cache: the predictions of
// models.Predict in one pass. proba has length d.N·K and best d.N; it
// panics otherwise, or as Proba does.
func (m *LDA) ProbaClasses(proba []float64, best []int, d *data.Dataset) {
	m.m.joint(proba, nil, best, d, probaOut)
}

// JointLogLikelihood writes log p(x_i, y = k) to dst[i·K + k]
// (gendisc.Generative), missing features marginalised; −Inf where it is
// below float64's range (a row far out: about −1e600 at 1e300).
func (m *LDA) JointLogLikelihood(dst []float64, d *data.Dataset) []float64 {
	return m.m.joint(dst, nil, nil, d, jointOut)
}

// Priors returns the class priors π_k.
func (m *LDA) Priors() []float64 { return slices.Clone(m.m.prior) }

// Means returns the class means μ_k.
func (m *LDA) Means() [][]float64 { return m.m.meansCopy() }

// ClassWeights returns W_k, the total weight of the training rows of each
// class (the row counts without weights).
func (m *LDA) ClassWeights() []float64 { return m.m.classWeights() }

// LogDet returns log|Σ|.
func (m *LDA) LogDet() float64 { return m.m.logDets()[0] }

// Covariance returns the shared covariance matrix Σ, p×p row-major.
func (m *LDA) Covariance() []float64 { return slices.Clone(m.m.comps[0].cov) }

// EMIterations returns the number of EM iterations of the fit (or
// update), 0 when no row had a missing cell.
func (m *LDA) EMIterations() int { return m.m.iters }

// Shrinkages returns the shrinkage intensity r_k applied to the
// covariance of each class before they are pooled into Σ (Config):
// Config.Shrinkage for every class, or with Config.ShrinkageAuto the
// Ledoit–Wolf intensity of each class's standardised rows.
func (m *LDA) Shrinkages() []float64 { return m.m.shrinkages() }

// Linear returns the linear (softmax) form of the model, W (K×p,
// row-major) and b (K) with
//
//	P(y = k | x) = exp(w_kᵀx + b_k) / Σ_l exp(w_lᵀx + b_l)
//	w_k = Σ⁻¹ μ_k,   b_k = −½ μ_kᵀ Σ⁻¹ μ_k + log π_k
//
// (the quadratic term −½ xᵀΣ⁻¹x and log|2πΣ| are common to all classes
// and cancel), computed by Cholesky solves.
func (m *LDA) Linear() (w, b []float64) {
	K, p := len(m.m.prior), m.m.stats.D
	mu := make([]float64, p*K) // column k holds μ_k
	for k, mk := range m.m.means {
		for j, v := range mk {
			mu[j*K+k] = v
		}
	}
	m.m.comps[0].f.solveSym(mu, K)
	w, b = make([]float64, K*p), make([]float64, K)
	for k, mk := range m.m.means {
		q := 0.0
		for j := range p {
			w[k*p+j] = mu[j*K+k]
			q += mk[j] * mu[j*K+k]
		}
		b[k] = -q/2 + m.m.logPrior[k]
	}
	return w, b
}

// LogisticForm returns the logistic form of a two-class model, w and w0
// with
//
//	P(y = class 1 | x) = σ(wᵀx + w0),  σ(t) = 1/(1 + e^(−t))
//	w = Σ⁻¹(μ_1 − μ_0),  w0 = −½ (μ_1ᵀΣ⁻¹μ_1 − μ_0ᵀΣ⁻¹μ_0) + log(π_1/π_0)
//
// (the difference of the rows of Linear): the hypothesis of logistic
// regression. ok is false unless the model has two classes.
func (m *LDA) LogisticForm() (w []float64, w0 float64, ok bool) {
	if len(m.m.prior) != 2 {
		return nil, 0, false
	}
	W, b := m.Linear()
	p := m.m.stats.D
	w = make([]float64, p)
	for j := range p {
		w[j] = W[p+j] - W[j]
	}
	return w, b[1] - b[0], true
}

// discriminants computes the discriminant directions as scikit-learn's
// LinearDiscriminantAnalysis with solver='eigen': the generalised
// eigenvectors of the between-class covariance
//
//	S_b = Σ_k (W_k/W) (μ_k − μ)(μ_k − μ)ᵀ,   μ = Σ_k (W_k/W) μ_k
//
// relative to the model's covariance Σ: S_b v = λ Σ v, vᵀΣv = 1. With
// Σ = UᵀU they are v = U⁻¹q for the eigenvectors q of U⁻ᵀ S_b U⁻¹. The
// sign of each v is chosen to make its entry of largest magnitude positive.
// It returns an ErrTooLarge error when U⁻ᵀ S_b U⁻¹ or the directions
// overflow, which the statistics of a model file can make happen.
func (m *LDA) discriminants() error {
	s, p, K := m.m.stats, m.m.stats.D, len(m.m.prior)
	mu := s.Total()
	sb := make([]float64, p*p)
	for _, c := range s.Class {
		f := c.W / mu.W
		for j := range p {
			dj := (c.Mean[j] - mu.Mean[j]) * f
			for l := range p {
				sb[j*p+l] += dj * (c.Mean[l] - mu.Mean[l])
			}
		}
	}
	f := m.m.comps[0].f
	f.solveLeft(sb, p)
	blas64.Trsm(blas.Right, blas.NoTrans, 1, f.u, blas64.General{Rows: p, Cols: p, Stride: p, Data: sb})
	var eig mat.EigenSym
	if !finite(sb) || !eig.Factorize(mat.NewSymDense(p, sb), true) {
		return tooLarge("", "the between-class scatter relative to the covariance overflows")
	}
	vals := eig.Values(nil)
	var q mat.Dense
	eig.VectorsTo(&q)
	order := make([]int, p)
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return vals[order[a]] > vals[order[b]] })
	c := min(K-1, p)
	v := make([]float64, p*c)
	total := 0.0
	for _, x := range vals {
		total += x
	}
	m.ratio = make([]float64, c)
	for a := range c {
		m.ratio[a] = vals[order[a]] / total
		for j := range p {
			v[j*c+a] = q.At(j, order[a])
		}
	}
	blas64.Trsm(blas.Left, blas.NoTrans, 1, f.u, blas64.General{Rows: p, Cols: c, Stride: c, Data: v})
	for a := range c { // the sign: the largest entry of each v_a positive
		big := 0
		for j := range p {
			if math.Abs(v[j*c+a]) > math.Abs(v[big*c+a]) {
				big = j
			}
		}
		if v[big*c+a] < 0 {
			for j := range p {
				v[j*c+a] = -v[j*c+a]
			}
		}
	}
	if !finite(v) || !finite(m.ratio) {
		return tooLarge("", "the discriminant directions overflow")
	}
	m.scalings = v
	return nil
}

// Components returns the largest number of discriminant coordinates,
// min(K − 1, p).
func (m *LDA) Components() int { return len(m.ratio) }

// Scalings returns the discriminant directions: the p×c matrix (row-major)
// whose column a is v_a, c = Components().
func (m *LDA) Scalings() []float64 { return slices.Clone(m.scalings) }

// ExplainedVarianceRatio returns each discriminant direction's share of
// the between-class variance, λ_a / Σ_b λ_b, by decreasing λ.
func (m *LDA) ExplainedVarianceRatio() []float64 { return slices.Clone(m.ratio) }

// Transform writes the first n discriminant coordinates of every row of d,
// t_ia = v_aᵀ x_i (scikit-learn's transform with solver='eigen', which does
// not centre), to dst[i·n + a] and returns dst; a nil dst is allocated.
// A missing cell is replaced by its conditional expectation given the
// observed cells of its row under the model (Impute, without the labels),
//
//	E[x_m | x_o] = Σ_k P(y = k | x_o) (μ_km + Σ_mo Σ_oo⁻¹ (x_o − μ_ko))
//
// It panics unless 1 ≤ n ≤ Components(), if d has the wrong number of
// features or dst the wrong length.
func (m *LDA) Transform(dst []float64, d *data.Dataset, n int) []float64 {
	c, p := len(m.ratio), m.m.stats.D
	if n < 1 || n > c {
		panic(fmt.Sprintf("gda: Transform to %d components, the model has %d", n, c))
	}
	dst = m.m.rowsDst(dst, d, n, "components")
	v := blas64.General{Rows: p, Cols: n, Stride: c, Data: m.scalings}
	x := d.X
	if mathx.HasNaN(x) {
		x = m.m.impute(nil, &data.Dataset{Schema: d.Schema, N: d.N, X: x})
	}
	parallel.For(d.N, 2*chunkRows, func(_, lo, hi int) {
		blas64.Gemm(blas.NoTrans, blas.NoTrans, 1, blas64.General{Rows: hi - lo, Cols: p, Stride: p, Data: x[lo*p : hi*p]}, v,
			0, blas64.General{Rows: hi - lo, Cols: n, Stride: n, Data: dst[lo*n : hi*n]})
	})
	return dst
}
