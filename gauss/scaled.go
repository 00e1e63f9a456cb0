package gauss

import "github.com/gendisc/gendisc/internal/mathx"

// LogPdfScaled returns LogPdf's log N(x_o; μ_o, Σ_oo) as a mathx.Scaled of
// the row's scale s (mathx.RowScale): for a row far out, whose quadratic
// form overflows, the parts that the posteriors compare order by order.
// Each observed cell is split, x_j − μ_j = c·x̃_j + d_j (Scale.Split), the
// missing ones completed as LogPdf completes them (ĉ_m = A ĉ_o, linear,
// so x̃ and d separately), and with u = L⁻¹x̃, v = L⁻¹d
//
//	Quad = −½‖u‖²,  Lin = −uᵀv,  Const = −½ (|o| log 2π + log |Σ_oo| + ‖v‖²)
//
// whose Value(c) is LogPdf up to rounding. With nothing observed it is 0.
// work (length ≥ 2p) is scratch; nil allocates.
func (pat *Pattern) LogPdfScaled(x, mu []float64, s mathx.Scale, work []float64) mathx.Scaled {
	if len(pat.Obs) == 0 {
		return mathx.Scaled{}
	}
	c := pat.cov
	z := scratch(work, 2*c.p)
	u, v := z[:c.p], z[c.p:]
	for _, j := range pat.Obs {
		u[j], v[j] = s.Split(x[j], mu[j])
	}
	o := len(pat.Obs)
	if !c.diag {
		for b, j := range pat.Mis {
			var su, sv float64
			for a, i := range pat.Obs {
				su += pat.a[b*o+a] * u[i]
				sv += pat.a[b*o+a] * v[i]
			}
			u[j], v[j] = su, sv
		}
	}
	var uu, uv, vv float64
	if c.diag {
		for _, j := range pat.Obs {
			a, b := u[j]*c.linv[j], v[j]*c.linv[j]
			uu, uv, vv = uu+a*a, uv+a*b, vv+b*b
		}
	} else {
		c.whiten(u)
		c.whiten(v)
		for j := range u {
			uu, uv, vv = uu+u[j]*u[j], uv+u[j]*v[j], vv+v[j]*v[j]
		}
	}
	return mathx.Scaled{Quad: -0.5 * uu, Lin: -uv,
		Const: -0.5 * (float64(o)*Log2Pi + pat.logDetO + vv)}
}

// whiten replaces z by L⁻¹z (a full Σ), by forward substitution.
func (c *Cov) whiten(z []float64) {
	p := c.p
	for j := range p {
		row := c.l[j*p : j*p+j+1]
		v := z[j]
		for i, a := range row[:j] {
			v -= a * z[i]
		}
		z[j] = v / row[j]
	}
}
