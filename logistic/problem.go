package logistic

import (
	"math"

	"gonum.org/v1/gonum/floats"

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
// into its own slice of part, and the blocks are added afterwards. No
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
	part  [][]float64 // gradient accumulator (len dim) then k scores
	hpart [][]float64 // Hessian accumulator (dim², lower triangle), newton only
	loss  []float64   // Σ v_i (−log P) of the block
	wrong []int       // rows of positive weight the block misclassifies

	// shift and scale, when set, mean that z holds raw feature rows x and
	// the design rows are z = (x − shift)/scale: the kernels then run on
	// θ_raw = Aᵀθ and their sums come back through A (see toRaw), so that
	// the standardised matrix is never materialised.
	shift, scale []float64
	rawTheta     []float64

	// Arguments of the kernels, set before each parallel.For; the method
	// values are bound once so that an evaluation allocates nothing.
	theta     []float64
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
	pr.part, pr.loss, pr.wrong = nil, nil, nil
	pr.ensureBlocks()
}

// setAffine declares that z holds raw rows x whose design rows are
// (x − shift)/scale.
func (pr *problem) setAffine(shift, scale []float64) {
	pr.shift, pr.scale = shift, scale
	pr.rawTheta = make([]float64, pr.dim())
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
	for len(pr.part) < nb {
		pr.part = append(pr.part, make([]float64, pr.dim()+pr.k))
		pr.loss = append(pr.loss, 0)
		pr.wrong = append(pr.wrong, 0)
	}
	if pr.hpart != nil {
		dim := pr.dim()
		for len(pr.hpart) < nb {
			pr.hpart = append(pr.hpart, make([]float64, dim*dim+dim+pr.k*pr.k))
		}
	}
	return nb
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
	parallel.For(pr.n, minBlock, pr.gradBlock)
	e := evaluation{}
	clear(grad)
	for b := range nb {
		floats.Add(grad, pr.part[b][:len(grad)])
		e.nll += pr.loss[b]
		e.wrong += pr.wrong[b]
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

// gradRows is the kernel of eval over rows [lo, hi), block b.
func (pr *problem) gradRows(b, lo, hi int) {
	dim, p, pd, q := pr.dim(), pr.p, pr.pd, pr.p+1
	g, s := pr.part[b][:dim], pr.part[b][dim:]
	clear(g)
	theta := pr.theta
	loss, wrong := 0.0, 0
	for i := lo; i < hi; i++ {
		x := pr.z[i*pd : (i+1)*pd]
		si, sv := pr.sparseRow(i)
		v, y := pr.v[i], int(pr.y[i])
		if pr.k == 1 {
			t := floats.Dot(x, theta[:pd]) + sparseDot(si, sv, theta[pd:p]) + theta[p]
			yt := float64(y)
			sp, sig := softplusSigmoid(t)
			loss += v * (sp - yt*t)
			r := v * (sig - yt)
			floats.AddScaled(g[:pd], r, x)
			sparseAdd(g[pd:p], r, si, sv)
			g[p] += r
			if v > 0 && (2*yt-1)*t <= 0 {
				wrong++
			}
			continue
		}
		for c := range pr.k {
			s[c] = floats.Dot(x, theta[c*q:c*q+pd]) + sparseDot(si, sv, theta[c*q+pd:c*q+p]) + theta[c*q+p]
		}
		sy, m := s[y], s[0]
		for _, sc := range s[1:] {
			m = max(m, sc)
		}
		ok := true
		for c, sc := range s {
			ok = ok && (c == y || sc < sy)
		}
		sum := softmax(s, m)
		loss += v * (m + math.Log(sum) - sy)
		inv := v / sum
		for c := range pr.k {
			r := s[c] * inv
			if c == y {
				r -= v
			}
			floats.AddScaled(g[c*q:c*q+pd], r, x)
			sparseAdd(g[c*q+pd:c*q+p], r, si, sv)
			g[c*q+p] += r
		}
		if v > 0 && !ok {
			wrong++
		}
	}
	pr.loss[b], pr.wrong[b] = loss, wrong
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
	h := pr.hpart[b][:dim*dim]
	zt := pr.hpart[b][dim*dim : dim*dim+q]
	a := pr.hpart[b][dim*dim+dim:]
	s := pr.part[b][dim:]
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
		if k == 1 {
			pi := sigmoid(floats.Dot(zt, theta[:q]))
			a[0] = v * pi * (1 - pi)
		} else {
			for c := range k {
				s[c] = floats.Dot(zt, theta[c*q:c*q+q])
			}
			m := s[0]
			for _, sc := range s[1:] {
				m = max(m, sc)
			}
			floats.Scale(1/softmax(s, m), s)
			for c := range k {
				for l := range c + 1 {
					a[c*k+l] = -v * s[c] * s[l]
				}
				a[c*k+c] += v * s[c]
			}
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

// softplus returns log(1 + eᵗ) without overflow.
func softplus(t float64) float64 {
	if t > 0 {
		return t + math.Log1p(math.Exp(-t))
	}
	return math.Log1p(math.Exp(t))
}

// softplusSigmoid returns log(1 + eᵗ) and σ(t) from one exponential,
// e = exp(−|t|):
//
//	t ≥ 0: log(1 + eᵗ) = t + log1p(e),  σ(t) = 1/(1 + e)
//	t < 0: log(1 + eᵗ) = log1p(e),      σ(t) = e/(1 + e)
func softplusSigmoid(t float64) (float64, float64) {
	e := math.Exp(-math.Abs(t))
	if t >= 0 {
		return t + math.Log1p(e), 1 / (1 + e)
	}
	return math.Log1p(e), e / (1 + e)
}

// softmax replaces s_c by exp(s_c − m) and returns their sum; m is
// max_c s_c, so that no term overflows and the sum is at least 1.
func softmax(s []float64, m float64) float64 {
	sum := 0.0
	for c, sc := range s {
		e := math.Exp(sc - m)
		s[c] = e
		sum += e
	}
	return sum
}

// sigmoid returns σ(t) = 1/(1 + e⁻ᵗ) without overflow.
func sigmoid(t float64) float64 {
	if t >= 0 {
		return 1 / (1 + math.Exp(-t))
	}
	e := math.Exp(t)
	return e / (1 + e)
}

// logSumExp returns m = max_c s_c and log Σ_c exp(s_c − m).
func logSumExp(s []float64) (m, lse float64) {
	m = s[0]
	for _, x := range s[1:] {
		m = max(m, x)
	}
	sum := 0.0
	for _, x := range s {
		sum += math.Exp(x - m)
	}
	return m, math.Log(sum)
}
