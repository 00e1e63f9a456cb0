package logistic_test

import (
	"errors"
	"math"
	"slices"
	"testing"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"

	"github.com/gendisc/gendisc"
	"github.com/gendisc/gendisc/data"
	"github.com/gendisc/gendisc/dataio"
	"github.com/gendisc/gendisc/internal/bundled"
	"github.com/gendisc/gendisc/logistic"
	"github.com/gendisc/gendisc/text"
)

// withBins returns d with a categorical feature "bin" added: feature j
// cut at its mean ± half its standard deviation into lo, mid and hi.
func withBins(d *data.Dataset, j int) *data.Dataset {
	col := make([]float64, d.N)
	for i := range col {
		col[i] = d.Row(i)[j]
	}
	m := floats.Sum(col) / float64(d.N)
	s := math.Sqrt(floats.Dot(col, col)/float64(d.N) - m*m)
	out := *d
	out.Schema = d.Schema.Clone()
	out.Schema.Features = append(out.Schema.Features, data.Column{Name: "bin", Kind: data.Categorical, Levels: []string{"hi", "lo", "mid"}})
	D := d.D() + 1
	out.X = make([]float64, 0, d.N*D)
	for i, x := range col {
		level := 2.0
		switch {
		case x > m+s/2:
			level = 0
		case x < m-s/2:
			level = 1
		}
		out.X = append(append(out.X, d.Row(i)...), level)
	}
	return &out
}

// threeShards splits d into rows i mod 3; the second shard's "bin"
// levels are numbered in another order, as data read on its own could
// have them.
func threeShards(d *data.Dataset) []*data.Dataset {
	var idx [3][]int
	for i := range d.N {
		idx[i%3] = append(idx[i%3], i)
	}
	out := make([]*data.Dataset, 3)
	for s := range out {
		out[s] = d.Subset(idx[s])
	}
	j := d.Schema.Feature("bin")
	if j < 0 {
		return out
	}
	sh := out[1]
	sh.Schema = sh.Schema.Clone()
	old := sh.Schema.Features[j].Levels
	sh.Schema.Features[j].Levels = []string{"mid", "hi", "lo"}
	sh.X = slices.Clone(sh.X)
	for i := range sh.N {
		v := &sh.X[i*sh.D()+j]
		*v = float64(slices.Index(sh.Schema.Features[j].Levels, old[int(*v)]))
	}
	return out
}

// travel encodes and decodes v, as between processes.
func travel[T interface {
	MarshalBinary() ([]byte, error)
	UnmarshalBinary([]byte) error
}](t *testing.T, v T, into T) T {
	t.Helper()
	b, err := v.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	if err := into.UnmarshalBinary(b); err != nil {
		t.Fatal(err)
	}
	again, err := into.MarshalBinary()
	if err != nil || string(again) != string(b) {
		t.Fatalf("the encoding does not read back bit for bit: %v", err)
	}
	return into
}

// setUp runs the setup pass over the shards, each shard's statistics
// encoded and decoded before they are merged.
func setUp(t *testing.T, cfg logistic.Config, shards []*data.Dataset) *logistic.Problem {
	t.Helper()
	var all *logistic.SetupAccumulator
	for _, sh := range shards {
		a, err := cfg.NewSetup()
		if err != nil {
			t.Fatal(err)
		}
		if err := a.Add(sh); err != nil {
			t.Fatal(err)
		}
		a = travel(t, a, new(logistic.SetupAccumulator))
		if all == nil {
			all = a
		} else if err := all.Merge(a); err != nil {
			t.Fatal(err)
		}
	}
	p, err := all.Problem()
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// pass evaluates θ over the shards, each shard's pass encoded and
// decoded before they are merged.
func pass(t *testing.T, p *logistic.Problem, shards []*data.Dataset, theta []float64, hessian bool) *logistic.Pass {
	t.Helper()
	total := p.NewPass(theta, hessian)
	for _, sh := range shards {
		s := p.NewPass(theta, hessian)
		if err := s.Add(sh); err != nil {
			t.Fatal(err)
		}
		if err := total.Merge(travel(t, s, p.NewPass(theta, hessian))); err != nil {
			t.Fatal(err)
		}
	}
	return total
}

// newton minimises J by Newton's method with a backtracking line search,
// from nothing but the passes over the shards. For a softmax the Hessian
// is singular along the shift of every class's intercept at once (which
// the gradient never has a component along): the step solves
// (H + μ Σ_j u_j u_jᵀ) Δ = −∇J with u_j the shift of parameter j of every
// class.
func newton(t *testing.T, p *logistic.Problem, shards []*data.Dataset) *logistic.Pass {
	t.Helper()
	dim, q := p.Dim(), len(p.Terms())+1
	k := dim / q
	theta := p.Start()
	for range 100 {
		s := pass(t, p, shards, theta, true)
		j, g, h := s.Objective()
		if floats.Norm(g, math.Inf(1))/s.Weight() < 1e-13 {
			return s
		}
		if k > 1 {
			for u := range dim {
				for c := range k {
					h[u*dim+c*q+u%q] += s.Weight() / float64(k)
				}
			}
		}
		var chol mat.Cholesky
		if !chol.Factorize(mat.NewSymDense(dim, h)) {
			t.Fatal("the Hessian is not positive definite")
		}
		var step mat.VecDense
		if err := chol.SolveVecTo(&step, mat.NewVecDense(dim, floats.ScaleTo(make([]float64, dim), -1, g))); err != nil {
			t.Fatal(err)
		}
		d := step.RawVector().Data
		next := make([]float64, dim)
		for a := 1.0; ; a /= 2 {
			floats.AddScaledTo(next, theta, a, d)
			jn, _, _ := pass(t, p, shards, next, false).Objective()
			if jn <= j+1e-4*a*floats.Dot(g, d) || a < 1e-10 {
				break
			}
		}
		theta = next
	}
	t.Fatal("Newton did not converge in 100 steps")
	return nil
}

// TestDriver: a Newton driver built from the public per-pass statistics
// of three shards (set up, then evaluated, each shard's statistics
// encoded and decoded) reaches Fit's optimum on all the rows to 1e-8 in
// the objective and the coefficients, for a binary and a softmax model
// with a categorical feature, class weights and sample weights, and for
// a text column's term counts (the vocabulary pruned over all the
// shards).
func TestDriver(t *testing.T) {
	pima := withBins(bundled.Load(t, "pima_indians_diabetes", dataio.Options{}), 2)
	wine := withBins(bundled.Load(t, "wine", dataio.Options{}), 0)
	wine.Weight = make([]float64, wine.N)
	for i := range wine.Weight {
		wine.Weight[i] = 1 + float64(i%4)/2
	}
	sms := bundled.Load(t, "sms_spam", dataio.Options{Text: []string{"text"}})
	sms = sms.Subset(slices.Collect(func(yield func(int) bool) {
		for i := 0; i < sms.N; i += 7 {
			yield(i)
		}
	}))
	for _, tc := range []struct {
		name string
		d    *data.Dataset
		cfg  logistic.Config
	}{
		{"binary", pima, logistic.Config{L2: 1}},
		{"softmax", wine, logistic.Config{L2: 0.5, ClassWeight: logistic.Balanced}},
		{"text", sms, logistic.Config{L2: 1, Text: text.VectorizerConfig{MaxFeatures: 40, StopWords: "english"}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			want, err := (func() logistic.Config { c := tc.cfg; c.Solver = logistic.Newton; c.Tol = 1e-12; return c }()).Fit(tc.d)
			if err != nil {
				t.Fatal(err)
			}
			shards := threeShards(tc.d)
			p := setUp(t, tc.cfg, shards)
			if !slices.Equal(p.Terms(), want.Terms()) {
				t.Fatalf("terms %v, Fit's %v", p.Terms(), want.Terms())
			}
			got, err := newton(t, p, shards).Model()
			if err != nil {
				t.Fatal(err)
			}
			if g, w := got.Diagnostics().Objective, want.Diagnostics().Objective; math.Abs(g-w) > 1e-8*math.Abs(w) {
				t.Errorf("objective %.15g, Fit's %.15g", g, w)
			}
			gw, gb := got.Coefficients()
			ww, wb := want.Coefficients()
			for c := range ww {
				g, w := append(gw[c], gb[c]), append(ww[c], wb[c])
				scale := floats.Norm(w, math.Inf(1))
				for j := range w {
					if math.Abs(g[j]-w[j]) > 1e-8*scale {
						t.Errorf("vector %d, coefficient %d: %.15g, Fit's %.15g", c, j, g[j], w[j])
					}
				}
			}
			lp, wlp := got.LogProba(nil, tc.d), want.LogProba(nil, tc.d)
			for i := range lp {
				if math.Abs(lp[i]-wlp[i]) > 1e-8*max(1, math.Abs(wlp[i])) {
					t.Fatalf("log P %d: %.15g, Fit's %.15g", i, lp[i], wlp[i])
				}
			}
		})
	}
}

// TestPassErrors: statistics of another configuration, passes at another
// θ and rows with classes the setup did not see are refused.
func TestPassErrors(t *testing.T) {
	d := withBins(bundled.Load(t, "wine", dataio.Options{}), 0)
	a, _ := logistic.Config{L2: 1}.NewSetup()
	b, _ := logistic.Config{L2: 2}.NewSetup()
	var ce *gendisc.MergeError
	if err := a.Merge(b); !errors.As(err, &ce) {
		t.Errorf("merging another λ: %v", err)
	}
	two := d.Subset(slices.DeleteFunc(slices.Collect(func(yield func(int) bool) {
		for i := range d.N {
			yield(i)
		}
	}), func(i int) bool { return d.Y[i] == 2 }))
	two.Schema = two.Schema.Clone()
	two.Schema.Target.Levels = two.Schema.Target.Levels[:2]
	if err := a.Add(two); err != nil {
		t.Fatal(err)
	}
	p, err := a.Problem()
	if err != nil {
		t.Fatal(err)
	}
	if err := p.NewPass(p.Start(), false).Add(d); err == nil {
		t.Error("a class the setup did not see accepted")
	}
	s0, s1 := p.NewPass(p.Start(), false), p.NewPass(make([]float64, p.Dim()), false)
	if err := s0.Merge(s1); err == nil {
		t.Error("passes at different θ merged")
	}
	if err := s0.Merge(p.NewPass(p.Start(), true)); err == nil {
		t.Error("a pass with the Hessian merged into one without")
	}
}

// TestSetupNewClasses: shards whose schemas hold only their own classes
// (a later shard bringing a class the first did not have) set up the
// problem of all the rows: the same terms and starting point.
func TestSetupNewClasses(t *testing.T) {
	d := withBins(bundled.Load(t, "wine", dataio.Options{}), 0)
	classes := d.Schema.Target.Levels
	var shards []*data.Dataset
	for _, keep := range [][]int{{0, 1}, {2}, {1, 0, 2}} {
		var rows []int
		for i, y := range d.Y {
			if slices.Contains(keep, int(y)) && (len(keep) < 3) == (i%2 == 0) {
				rows = append(rows, i)
			}
		}
		sh := d.Subset(rows)
		sh.Schema = d.Schema.Clone()
		sh.Schema.Target.Levels = nil
		for _, c := range keep {
			sh.Schema.Target.Levels = append(sh.Schema.Target.Levels, classes[c])
		}
		sh.Y = slices.Clone(sh.Y)
		for i, y := range sh.Y {
			sh.Y[i] = float64(slices.Index(keep, int(y)))
		}
		shards = append(shards, sh)
	}
	cfg := logistic.Config{ClassWeight: logistic.Balanced}
	got := setUp(t, cfg, shards)
	want := setUp(t, cfg, []*data.Dataset{d})
	if !slices.Equal(got.Schema().Classes(), classes) || !slices.Equal(got.Terms(), want.Terms()) {
		t.Fatalf("classes %v terms %v, want %v and %v", got.Schema().Classes(), got.Terms(), classes, want.Terms())
	}
	gs, ws := got.Start(), want.Start()
	for j := range ws {
		if math.Abs(gs[j]-ws[j]) > 1e-14*max(1, math.Abs(ws[j])) {
			t.Errorf("start %d: %v, want %v", j, gs[j], ws[j])
		}
	}
	j0, _, _ := pass(t, got, shards, gs, false).Objective()
	j1, _, _ := pass(t, want, []*data.Dataset{d}, ws, false).Objective()
	if math.Abs(j0-j1) > 1e-13*math.Abs(j1) {
		t.Errorf("objective at the start %.17g, want %.17g", j0, j1)
	}
}
