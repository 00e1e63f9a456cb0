package logistic

import (
	"math"
	"math/rand/v2"
	"slices"

	"gonum.org/v1/gonum/floats"

	"github.com/gendisc/gendisc/internal/kernel"
	"github.com/gendisc/gendisc/internal/mathx"
	"github.com/gendisc/gendisc/internal/parallel"
	"github.com/gendisc/gendisc/text"
)

// minBlock is the smallest row block worth a goroutine.
const minBlock = 2048

// problem is the fitting problem in minimisation form over the
// standardised design matrix Z (N × P): with z̃_i = (z_i, 1) and
// θ_c = (w_c, b_c) for c = 1..k,
//
//	J(θ) = −Σ_i v_i log P(y_i | z_i; θ) + (λ/2) Σ_c ‖w_c‖²
//
// where v_i is the row weight (sample weight × class weight). Binary
// problems have k = 1 and P(y = 1 | z) = σ(θᵀz̃); multinomial problems have
// k = K and P(y = c | z) = exp(θ_cᵀz̃) / Σ_l exp(θ_lᵀz̃), the symmetric
// parametrisation (the same as scikit-learn's, so the penalty picks the
// same optimum). The objective the package reports is F = −J.
//
// θ is stored vector by vector: θ[c*q : c*q+P] = w_c, θ[c*q+P] = b_c,
// q = P+1.
//
// The sums over rows run on all cores: each block of rows accumulates
// into its own scratch space, and the blocks are added afterwards. No
// memory is allocated per row or per evaluation (beyond parallel.For's
// goroutines).
type problem struct {
	z      []float64 // N × pd dense design rows, or raw rows (see shift), row major
	n, p   int       // rows; weights per vector (pd dense, then the sparse ones)
	pd     int
	sp     *text.CSR // sparse columns (term counts), nil when none
	k      int       // weight vectors: 1 (binary) or K
	y      []int32   // class of each row
	v      []float64 // row weights
	wsum   float64   // Σ v_i
	lambda float64

	// Scratch, per block of rows.
	blocks []*blockScratch
	hpart  [][]float64 // Hessian accumulator (dim², lower triangle), newton only

	// shift and scale, when set, mean that z holds raw feature rows x and
	// the design rows are z = (x − shift)/scale: the kernels then run on
	// θ_raw = Aᵀθ and their sums come back through A (see toRaw), so that
	// the standardised matrix is never materialised.
	shift, scale []float64
	rawTheta     []float64

	// negExp, for two classes, is e^{−|t_i|} of the score t_i of every
	// row at expTheta, the θ of the last evaluation (sigmoidResiduals
	// keeps them): a Hessian at that θ (Newton's, at the point its line
	// search accepted) takes its row weights from them without a pass of
	// scores and exponentials of its own (hessBinaryRows).
	negExp, expTheta []float64

	// Arguments of the kernels, set before each parallel.For; the method
	// values are bound once so that an evaluation allocates nothing.
	theta     []float64
	reuseExp  bool // hessBinaryRows reads negExp
	gradBlock func(b, lo, hi int)
	hessBlock func(b, lo, hi int)
}

// newProblem binds the data and sizes the scratch space.
func newProblem(z []float64, n, p, k int, y []int32, v []float64, lambda float64) *problem {
	pr := &problem{z: z, n: n, p: p, pd: p, k: k, y: y, v: v, lambda: lambda}
	for _, w := range v {
		pr.wsum += w
	}
	pr.ensureBlocks()
	pr.gradBlock = pr.gradRows
	pr.hessBlock = pr.hessRows
	return pr
}

// setSparse adds the columns of sp after the dense ones. The Newton
// kernel (hessRows) does not read them: Newton runs on dense rows.
//
// The sparse parts of the rows are summed row by row in each block's
// accumulator, fused with the dense part: text.CSR.MulTo and TMulTo in
// separate passes made an evaluation on sms_spam 15-20% slower (TMulTo
// takes the rows on one core).
func (pr *problem) setSparse(sp *text.CSR) {
	pr.sp, pr.p = sp, pr.pd+sp.Cols
	pr.blocks = nil
	pr.ensureBlocks()
}

// setAffine declares that z holds raw rows x whose design rows are
// (x − shift)/scale.
func (pr *problem) setAffine(shift, scale []float64) {
	pr.shift, pr.scale = shift, scale
	pr.rawTheta = make([]float64, pr.dim())
}

// subsample returns the problem on n rows drawn at random without
// replacement (selection sampling, so they stay in order and every subset
// of n rows is equally likely), with the same columns, standardisation
// and weights, and the penalty scaled by W_S/W, the subsample's share of
// the total weight, so that its objective approximates (W_S/W) J. The
// rows are copied, so the subsample's passes read contiguous memory.
func (pr *problem) subsample(n int, rng *rand.Rand) *problem {
	rows := make([]int, 0, n)
	for i := 0; i < pr.n && len(rows) < n; i++ {
		if rng.IntN(pr.n-i) < n-len(rows) {
			rows = append(rows, i)
		}
	}
	pd := pr.pd
	z := make([]float64, 0, n*pd)
	y, v := make([]int32, 0, n), make([]float64, 0, n)
	ws := 0.0
	for _, i := range rows {
		z = append(z, pr.z[i*pd:(i+1)*pd]...)
		y, v = append(y, pr.y[i]), append(v, pr.v[i])
		ws += pr.v[i]
	}
	sub := newProblem(z, n, pd, pr.k, y, v, pr.lambda*ws/pr.wsum)
	if pr.sp != nil {
		sub.setSparse(pr.sp.SelectRows(rows))
	}
	if pr.shift != nil {
		sub.setAffine(pr.shift, pr.scale)
	}
	return sub
}

// kernelTheta returns the parameters the kernels use: θ itself, or for
// raw rows θ_raw = Aᵀθ, per weight vector
//
//	u_j = w_j / s_j,  b' = b − Σ_j m_j w_j / s_j
//
// so that uᵀx + b' = wᵀz + b with z_j = (x_j − m_j)/s_j.
func (pr *problem) kernelTheta(theta []float64) []float64 {
	if pr.shift == nil {
		return theta
	}
	p, q := pr.p, pr.p+1
	for c := range pr.k {
		w, u := theta[c*q:c*q+p], pr.rawTheta[c*q:c*q+p]
		floats.DivTo(u, w, pr.scale)
		pr.rawTheta[c*q+p] = theta[c*q+p] - floats.Dot(pr.shift, u)
	}
	return pr.rawTheta
}

// fromRaw maps, in place, a vector of sums over raw rows x̃ = (x, 1) to the
// same sums over design rows z̃ = A x̃, per weight vector:
//
//	(A v)_j = (v_j − m_j v_b) / s_j,  (A v)_b = v_b
//
// stride is the distance between consecutive entries of v in its slice.
func (pr *problem) fromRaw(v []float64, stride int) {
	p, q := pr.p, pr.p+1
	for c := range pr.k {
		vb := v[(c*q+p)*stride]
		for j := range p {
			e := &v[(c*q+j)*stride]
			*e = (*e - pr.shift[j]*vb) / pr.scale[j]
		}
	}
}

// ensureBlocks sizes the per-block scratch for the number of blocks
// parallel.For will use (which follows GOMAXPROCS) and returns it.
func (pr *problem) ensureBlocks() int {
	nb := parallel.Blocks(pr.n, minBlock)
	for len(pr.blocks) < nb {
		ns := chunkRows * pr.k
		pr.blocks = append(pr.blocks, &blockScratch{
			g: make([]float64, pr.dim()), s: make([]float64, ns), ex: make([]float64, ns),
			pair: make([]float64, 2*chunkRows), top: make([]int32, chunkRows), spare: make([]float64, pr.pd)})
	}
	if pr.hpart != nil {
		dim := pr.dim()
		for len(pr.hpart) < nb {
			pr.hpart = append(pr.hpart, make([]float64, dim*dim+dim+pr.k*pr.k))
		}
	}
	return nb
}

// blockScratch is the scratch space of one block of rows.
type blockScratch struct {
	g      []float64 // the block's gradient sum (dim)
	s      []float64 // scores, then residuals, of a chunk of rows (chunkRows × k)
	ex     []float64 // exponentials of a chunk (chunkRows × k)
	pair   []float64 // the kernels' scores or coefficients of a chunk, two vectors at a time (chunkRows × 2)
	top    []int32   // the class of the largest score of each row of a chunk (softmax)
	spare  []float64 // the products of a weight vector that does not exist (pd, see addGradient)
	packed []float64 // the scaled rows of a chunk in kernel.SyrkPacked's layout (hessBinaryRows)
	// hessExp is the exponentials of a chunk of hessBinaryRows (hessChunk).
	hessExp []float64
	loss    float64 // Σ v_i (−log P) of the block
	wrong   int     // rows of positive weight the block misclassifies
}

// dim is the number of parameters, k(P+1).
func (pr *problem) dim() int { return pr.k * (pr.p + 1) }

// evaluation is J, its gradient's size and the separation count at one θ.
type evaluation struct {
	j     float64 // the objective J (to be minimised)
	nll   float64 // −Σ v_i log P(y_i | z_i), the negative log-likelihood
	wrong int     // rows of positive weight not strictly classified right
}

// eval computes J(θ) and writes ∇J(θ) to grad.
//
//	∂J/∂w_c = Σ_i v_i (p_ic − [y_i = c]) z_i + λ w_c,  ∂J/∂b_c = Σ_i v_i (p_ic − [y_i = c])
//
// (binary: one vector, p_i = σ(θᵀz̃_i), target [y_i = 1]).
func (pr *problem) eval(theta, grad []float64) evaluation {
	pr.theta = pr.kernelTheta(theta)
	nb := pr.ensureBlocks()
	if pr.k == 1 && len(pr.negExp) != pr.n {
		pr.negExp = make([]float64, pr.n)
	}
	parallel.For(pr.n, minBlock, pr.gradBlock)
	pr.expTheta = append(pr.expTheta[:0], theta...)
	e := evaluation{}
	clear(grad)
	for _, bs := range pr.blocks[:nb] {
		floats.Add(grad, bs.g)
		e.nll += bs.loss
		e.wrong += bs.wrong
	}
	if pr.shift != nil {
		pr.fromRaw(grad, 1)
	}
	e.j = e.nll + pr.penalty(theta, grad)
	return e
}

// penalty adds λ w_c to the weight entries of grad and returns (λ/2)Σ‖w_c‖².
func (pr *problem) penalty(theta, grad []float64) float64 {
	if pr.lambda == 0 {
		return 0
	}
	q, s := pr.p+1, 0.0
	for c := range pr.k {
		w := theta[c*q : c*q+pr.p]
		s += floats.Dot(w, w)
		if grad != nil {
			floats.AddScaled(grad[c*q:c*q+pr.p], pr.lambda, w)
		}
	}
	return pr.lambda / 2 * s
}

// withoutPenalty returns grad, the gradient of J at θ, without the
// penalty's part λ w_c: the gradient of the negative log-likelihood.
func (pr *problem) withoutPenalty(theta, grad []float64) []float64 {
	g := slices.Clone(grad)
	q := pr.p + 1
	for c := range pr.k {
		floats.AddScaled(g[c*q:c*q+pr.p], -pr.lambda, theta[c*q:c*q+pr.p])
	}
	return g
}

// chunkRows is the number of rows whose scores gradRows computes
// together, before their residuals and then their gradient terms: the
// exponentials of a chunk do not wait on one another, and its rows are
// still in cache for the second product.
const chunkRows = 64

// gradRows is the kernel of eval over rows [lo, hi), block b, chunk by
// chunk: the scores of the chunk's rows, their residuals
// r_ic = v_i (p_ic − [y_i = c]) and log-losses, then Σ_i r_ic z̃_i.
func (pr *problem) gradRows(b, lo, hi int) {
	bs := pr.blocks[b]
	clear(bs.g)
	bs.loss, bs.wrong = 0, 0
	for a := lo; a < hi; a += chunkRows {
		e := min(hi, a+chunkRows)
		pr.scores(bs, a, e)
		if pr.k == 1 {
			pr.sigmoidResiduals(bs, a, e)
		} else {
			pr.softmaxResiduals(bs, a, e)
		}
		pr.addGradient(bs, a, e)
	}
}

// scores writes θ_cᵀz̃_i to s[(i−a)·k + c] for the rows a ≤ i < e: the
// dense part two weight vectors at a time (dotRows2, the last vector
// paired with itself when k is odd), then the intercept and the sparse
// part.
func (pr *problem) scores(bs *blockScratch, a, e int) {
	p, pd, q, k := pr.p, pr.pd, pr.p+1, pr.k
	theta, s, out := pr.theta, bs.s, bs.pair
	x := pr.z[a*pd : e*pd]
	for c := 0; c < k; c += 2 {
		c1 := min(c+1, k-1)
		if pd > 0 {
			dotRows2(x, pd, theta[c*q:c*q+pd], theta[c1*q:c1*q+pd], out)
		} else {
			clear(out)
		}
		b0, b1 := theta[c*q+p], theta[c1*q+p]
		for r := range e - a {
			s[r*k+c], s[r*k+c1] = out[2*r]+b0, out[2*r+1]+b1
		}
	}
	if pr.sp == nil {
		return
	}
	for i := a; i < e; i++ {
		si, sv := pr.sparseRow(i)
		row := s[(i-a)*k : (i-a+1)*k]
		for c := range row {
			row[c] += sparseDot(si, sv, theta[c*q+pd:c*q+p])
		}
	}
}

// addGradient adds Σ_i r_ic z̃_i to the gradient bs.g of every weight
// vector c, with the residuals r of the rows a ≤ i < e in bs.s: the dense
// part two vectors at a time (axpyRows2, with bs.spare taking the
// products of the vector past the last when k is odd), then the
// intercept and the sparse part.
func (pr *problem) addGradient(bs *blockScratch, a, e int) {
	p, pd, q, k := pr.p, pr.pd, pr.p+1, pr.k
	g, s, coef := bs.g, bs.s, bs.pair
	x := pr.z[a*pd : e*pd]
	for c := 0; pd > 0 && c < k; c += 2 {
		g1 := bs.spare
		for r := range e - a {
			coef[2*r], coef[2*r+1] = s[r*k+c], 0
		}
		if c+1 < k {
			g1 = g[(c+1)*q : (c+1)*q+pd]
			for r := range e - a {
				coef[2*r+1] = s[r*k+c+1]
			}
		}
		axpyRows2(g[c*q:c*q+pd], g1, coef, x)
	}
	for i := a; i < e; i++ {
		si, sv := pr.sparseRow(i)
		for c, r := range s[(i-a)*k : (i-a+1)*k] {
			g[c*q+p] += r
			if si != nil {
				sparseAdd(g[c*q+pd:c*q+p], r, si, sv)
			}
		}
	}
}

// log1pSum accumulates Σ_i log1p(u_i) with one logarithm per chunk of
// rows rather than one per row: Q = Π_i (1 + u_i) − 1, updated as
// Q ← Q + u + Q·u, which keeps Q's relative precision when every u_i is
// tiny, and taken into the sum as log1p(Q) before it could overflow.
type log1pSum struct{ sum, q float64 }

func (l *log1pSum) add(u float64) {
	l.q += u + l.q*u
	if l.q > 1e200 {
		l.sum += math.Log1p(l.q)
		l.q = 0
	}
}

func (l *log1pSum) value() float64 { return l.sum + math.Log1p(l.q) }

// sigmoidResiduals replaces the scores t_i in bs.s by the residuals
// v_i (σ(t_i) − y_i) of the rows a ≤ i < e and adds their log-loss
// Σ_i v_i (log(1 + e^{t_i}) − y_i t_i) and how many rows of positive weight
// are not strictly classified right to bs.loss and bs.wrong. With
// u_i = e^{−|t_i|} (taken for the whole chunk by expInPlace),
//
//	log(1 + e^t) = max(t, 0) + log1p(u),  σ(t) = 1/(1 + u) or u/(1 + u),
//
// the log1p of the rows of unit weight summed by a log1pSum.
func (pr *problem) sigmoidResiduals(bs *blockScratch, a, e int) {
	s, ex := bs.s[:e-a], bs.ex[:e-a]
	for r, t := range s {
		ex[r] = -math.Abs(t)
	}
	expInPlace(ex)
	copy(pr.negExp[a:e], ex)
	var ones log1pSum
	for r, t := range s {
		i, u := a+r, ex[r]
		v, yt := pr.v[i], float64(pr.y[i])
		// σ(t) = 1/(1 + u) · (u when t < 0, else 1), the factor chosen
		// by a mask rather than a branch, which the signs of the
		// scores would make unpredictable.
		neg := uint64(0)
		if t < 0 {
			neg = math.MaxUint64
		}
		sig := 1 / (1 + u) * math.Float64frombits(math.Float64bits(u)&neg|math.Float64bits(1)&^neg)
		bs.loss += v * (max(t, 0) - yt*t)
		if v == 1 {
			ones.add(u)
		} else {
			bs.loss += v * math.Log1p(u)
		}
		s[r] = v * (sig - yt)
		bs.wrong += oneIf(v > 0) & oneIf((2*yt-1)*t <= 0)
	}
	bs.loss += ones.value()
}

// oneIf returns 1 when b is true and 0 otherwise, without a branch.
func oneIf(b bool) int {
	if b {
		return 1
	}
	return 0
}

// softmaxResiduals replaces the scores s_ic in bs.s of the rows
// a ≤ i < e by the residuals v_i (p_ic − [y_i = c]) and adds their
// log-loss Σ_i v_i (log Σ_c e^{s_ic} − s_{i,y_i}) and how many rows of
// positive weight are not strictly classified right to bs.loss and
// bs.wrong. With m_i = max_c s_ic, reached at c = top, the exponentials
// e^{s_ic − m_i} taken for the whole chunk by expInPlace, and
// U_i = Σ_{c ≠ top} e^{s_ic − m_i} (the term of the maximum, exactly 1,
// left out so that small terms keep their precision),
//
//	log Σ_c e^{s_ic} = m_i + log1p(U_i),  p_ic = e^{s_ic − m_i} / (1 + U_i),
//
// the log1p of the rows of unit weight summed by a log1pSum.
func (pr *problem) softmaxResiduals(bs *blockScratch, a, e int) {
	k := pr.k
	s, ex := bs.s[:(e-a)*k], bs.ex[:(e-a)*k]
	for r := range e - a {
		row, i := s[r*k:(r+1)*k], a+r
		sy := row[pr.y[i]]
		m, top, atLeast := row[0], 0, 0
		for c, sc := range row {
			if sc > m {
				m, top = sc, c
			}
			if sc >= sy {
				atLeast++
			}
		}
		if atLeast > 1 && pr.v[i] > 0 { // a class other than y scores at least as high
			bs.wrong++
		}
		bs.top[r] = int32(top)
		for c, sc := range row {
			ex[r*k+c] = sc - m
		}
		bs.loss += pr.v[i] * (m - sy)
	}
	expInPlace(ex)
	var ones log1pSum
	for r := range e - a {
		row, er := s[r*k:(r+1)*k], ex[r*k:(r+1)*k]
		i, top := a+r, bs.top[r]
		v := pr.v[i]
		er[top] = 0
		u := 0.0
		for _, ec := range er {
			u += ec
		}
		er[top] = 1
		if v == 1 {
			ones.add(u)
		} else {
			bs.loss += v * math.Log1p(u)
		}
		inv := v / (1 + u)
		for c, ec := range er {
			row[c] = ec * inv
		}
		row[pr.y[i]] -= v
	}
	bs.loss += ones.value()
}

// hessian writes the Hessian of J at θ to h (dim × dim, row major, full):
//
//	∂²J/∂θ_c∂θ_l = Σ_i v_i (p_ic [c = l] − p_ic p_il) z̃_i z̃_iᵀ + λ [c = l] I_w
//
// (binary: Σ_i v_i p_i (1 − p_i) z̃_i z̃_iᵀ + λ I_w), I_w the identity on the
// weights and zero on the intercept.
func (pr *problem) hessian(theta, h []float64) {
	dim := pr.dim()
	if pr.hpart == nil {
		pr.hpart = [][]float64{}
	}
	nb := pr.ensureBlocks()
	pr.theta = pr.kernelTheta(theta)
	pr.reuseExp = pr.k == 1 && slices.Equal(theta, pr.expTheta)
	parallel.For(pr.n, minBlock, pr.hessBlock)
	clear(h)
	for b := range nb {
		floats.Add(h, pr.hpart[b][:dim*dim])
	}
	for u := range dim {
		for v := range u {
			h[v*dim+u] = h[u*dim+v]
		}
	}
	if pr.shift != nil { // H = A H_raw Aᵀ: A on every column, then every row
		for u := range dim {
			pr.fromRaw(h[u:], dim)
		}
		for u := range dim {
			pr.fromRaw(h[u*dim:(u+1)*dim], 1)
		}
	}
	q := pr.p + 1
	for u := range dim {
		if pr.lambda != 0 && u%q != pr.p {
			h[u*dim+u] += pr.lambda
		}
	}
}

// hessRows is the kernel of hessian over rows [lo, hi), block b: it
// accumulates the lower triangle.
func (pr *problem) hessRows(b, lo, hi int) {
	dim, p, q, k := pr.dim(), pr.p, pr.p+1, pr.k
	if k == 1 {
		pr.hessBinaryRows(b, lo, hi)
		return
	}
	h := pr.hpart[b][:dim*dim]
	zt := pr.hpart[b][dim*dim : dim*dim+q]
	a := pr.hpart[b][dim*dim+dim:]
	s := pr.blocks[b].s[:k]
	clear(h)
	theta := pr.theta
	for i := lo; i < hi; i++ {
		copy(zt, pr.z[i*p:(i+1)*p])
		zt[p] = 1
		v := pr.v[i]
		if v == 0 {
			continue
		}
		// a[c*k+l] = v (p_c [c = l] − p_c p_l)
		for c := range k {
			s[c] = floats.Dot(zt, theta[c*q:c*q+q])
		}
		m := s[0]
		for _, sc := range s[1:] {
			m = max(m, sc)
		}
		floats.Scale(1/mathx.ExpShifted(s, m), s)
		for c := range k {
			for l := range c + 1 {
				a[c*k+l] = -v * s[c] * s[l]
			}
			a[c*k+c] += v * s[c]
		}
		for c := range k {
			for j := range q {
				u := c*q + j
				row := h[u*dim : u*dim+u+1]
				for l := range c {
					floats.AddScaled(row[l*q:l*q+q], a[c*k+l]*zt[j], zt)
				}
				floats.AddScaled(row[c*q:], a[c*k+c]*zt[j], zt[:j+1])
			}
		}
	}
}

// hessChunk is the number of rows whose scaled copies hessBinaryRows
// packs for one kernel.SyrkPacked: four times gradRows' chunk, since the
// kernel's fixed cost per call (the masked tiles of a triangle of 21
// columns padded to 32) weighs on 64 rows. BenchmarkSyrkNarrow (package
// kernel) on 21 columns: 12-14 GFLOP/s on chunks of 64 rows, 21 on 256
// and on 1024, whose packed rows (64 KB for 256) stay in the L2 cache;
// gonum's blas64.Syrk on the same rows row-major, 6-8.
const hessChunk = 256

// hessBinaryRows is hessRows for two classes (k = 1): the Hessian's sum
// over rows [lo, hi) is the scatter matrix of the rows scaled by
// √(v_i p_i (1 − p_i)),
//
//	Σ_i v_i p_i (1 − p_i) z̃_i z̃_iᵀ = Σ_i u_i u_iᵀ,  u_i = √(v_i p_i (1 − p_i)) z̃_i,
//
// with p_i (1 − p_i) = e/(1 + e)², e = exp(−|s_i|) for the score s_i
// (those of the last evaluation when it was at the same θ, negExp; else
// the exponentials of a chunk of hessChunk rows taken at once), added a
// chunk at a time by kernel.SyrkPacked from the u_i written in its
// packed layout (u_i's entry t of group g at g·gs + i·SyrkGroup + t),
// and then copied from the upper triangle, which SyrkPacked fills, to the
// lower, which hessian reads.
func (pr *problem) hessBinaryRows(b, lo, hi int) {
	p, q, g := pr.p, pr.p+1, kernel.SyrkGroup
	h := pr.hpart[b][:q*q]
	clear(h)
	bs := pr.blocks[b]
	gs := g * hessChunk
	if len(bs.packed) < (q+g-1)/g*gs {
		bs.packed = make([]float64, (q+g-1)/g*gs) // the rows of the groups past q stay 0
		bs.hessExp = make([]float64, hessChunk)
	}
	theta := pr.theta[:q]
	for a := lo; a < hi; a += hessChunk {
		n := min(hessChunk, hi-a)
		ex := bs.hessExp[:n]
		if pr.reuseExp {
			ex = pr.negExp[a : a+n]
		} else {
			for r := range n {
				i := a + r
				ex[r] = -math.Abs(floats.Dot(pr.z[i*p:(i+1)*p], theta[:p]) + theta[p])
			}
			expInPlace(ex)
		}
		for r, e := range ex {
			i := a + r
			u := math.Sqrt(pr.v[i]*e) / (1 + e)
			z := pr.z[i*p : (i+1)*p]
			for j0 := 0; j0 < p; j0 += g { // a group's run of g values at a time
				dst := bs.packed[j0/g*gs+r*g:][:g]
				for t, zj := range z[j0:min(j0+g, p)] {
					dst[t] = u * zj
				}
			}
			bs.packed[p/g*gs+r*g+p%g] = u
		}
		kernel.SyrkPacked(q, n, bs.packed, gs, h, q)
	}
	for u := range q {
		for v := range u {
			h[u*q+v] = h[v*q+u]
		}
	}
}

// sparseRow returns the sparse entries of row i, none without sparse
// columns.
func (pr *problem) sparseRow(i int) ([]int32, []float64) {
	if pr.sp == nil {
		return nil, nil
	}
	return pr.sp.Row(i)
}

// sparseDot returns Σ_k val_k w[idx_k].
func sparseDot(idx []int32, val, w []float64) float64 {
	s := 0.0
	for k, j := range idx {
		s += val[k] * w[j]
	}
	return s
}

// sparseAdd adds a·val_k to g[idx_k].
func sparseAdd(g []float64, a float64, idx []int32, val []float64) {
	for k, j := range idx {
		g[j] += a * val[k]
	}
}

// binaryLogProba returns the log-probabilities of the two classes at the
// score t, log σ(−t) = −softplus(t) and log σ(t) = −softplus(−t), with
// softplus(t) = log(1 + eᵗ) = max(t, 0) + log1p(e^{−|t|}) without
// overflow, from u = math.Exp(−|t|) (which the caller takes for a block
// of rows at once, kernel.Exp): one exponential and one logarithm for
// both, each bit for bit what softplus written apart gives
// (t + log1p(e^{−t}) for t > 0, log1p(eᵗ) otherwise).
func binaryLogProba(t, u float64) (lp0, lp1 float64) {
	l := math.Log1p(u)
	if t > 0 {
		return -(t + l), -l
	}
	return -l, -(-t + l)
}

// sigmoid returns σ(t) = 1/(1 + e⁻ᵗ) without overflow.
func sigmoid(t float64) float64 {
	if t >= 0 {
		return 1 / (1 + math.Exp(-t))
	}
	e := math.Exp(t)
	return e / (1 + e)
}
