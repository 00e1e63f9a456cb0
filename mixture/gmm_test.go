package mixture

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"sync"
	"testing"

	"gonum.org/v1/gonum/stat/distmv"

	"github.com/gendisc/gendisc/data"
	"github.com/gendisc/gendisc/modelfile"
)

func fitIris(t *testing.T, cov Covariance, missing bool) (*GMM, *data.Dataset) {
	t.Helper()
	d := standardized(loadDataset(t, "iris"))
	if missing {
		d = withMissing(d, 0.1, rand.New(rand.NewPCG(2, 3)))
	}
	g, err := Config{Components: 3, Covariance: cov, Restarts: 2}.Fit(d, rand.New(rand.NewPCG(1, 2)))
	if err != nil {
		t.Fatal(err)
	}
	return g, d
}

// TestRoundTrip saves every covariance type through modelfile and checks
// that the loaded model predicts bit for bit what the fitted one does.
func TestRoundTrip(t *testing.T) {
	for _, cov := range allCovariances {
		g, d := fitIris(t, cov, true)
		var buf bytes.Buffer
		if err := modelfile.Write(&buf, g); err != nil {
			t.Fatal(err)
		}
		env, err := modelfile.Read(&buf, "model.json")
		if err != nil {
			t.Fatal(err)
		}
		if env.Kind != Kind {
			t.Fatalf("kind %q", env.Kind)
		}
		h, err := UnmarshalGMM(env.Schema, env.Params)
		if err != nil {
			t.Fatal(err)
		}
		same := func(what string, a, b []float64) {
			t.Helper()
			for i := range a {
				if math.Float64bits(a[i]) != math.Float64bits(b[i]) {
					t.Fatalf("%s %s[%d]: %v after loading, %v before", cov, what, i, b[i], a[i])
				}
			}
		}
		same("score", g.ScoreSamples(nil, d), h.ScoreSamples(nil, d))
		same("responsibilities", g.Predict(nil, d), h.Predict(nil, d))
		same("trace", g.LogLikelihoodTrace(), h.LogLikelihoodTrace())
		same("restarts", g.RestartLogLikelihoods(), h.RestartLogLikelihoods())
		if g.BIC() != h.BIC() || g.Iterations() != h.Iterations() || g.Converged() != h.Converged() ||
			strings.Join(g.Warnings(), "\n") != strings.Join(h.Warnings(), "\n") || !g.Schema().Equal(h.Schema()) {
			t.Errorf("%s: fit information differs after loading", cov)
		}
	}
}

// TestUnmarshalRefusals edits saved parameters and checks that each edit
// is refused with an error.
func TestUnmarshalRefusals(t *testing.T) {
	g, _ := fitIris(t, Full, false)
	raw, err := g.MarshalJSON()
	if err != nil {
		t.Fatal(err)
	}
	edit := func(f func(m map[string]any)) []byte {
		var m map[string]any
		if err := json.Unmarshal(raw, &m); err != nil {
			t.Fatal(err)
		}
		f(m)
		b, _ := json.Marshal(m)
		return b
	}
	for _, c := range []struct {
		name   string
		params []byte
		want   string
	}{
		{"unknown type", edit(func(m map[string]any) { m["covariance"] = "banded" }), "unknown covariance"},
		{"no components", edit(func(m map[string]any) { m["components"] = 0 }), "0 components"},
		{"short means", edit(func(m map[string]any) { m["means"] = m["means"].([]any)[1:] }), "needs"},
		{"weights", edit(func(m map[string]any) { m["weights"].([]any)[0] = 0.9 }), "sum"},
		{"not positive definite", edit(func(m map[string]any) { m["covariances"].([]any)[0] = -1.0 }), "positive definite"},
		{"asymmetric", edit(func(m map[string]any) { m["covariances"].([]any)[1] = 0.123 }), "symmetric"},
		{"NaN mean", edit(func(m map[string]any) { m["means"].([]any)[0] = "NaN" }), "finite"},
		{"trace", edit(func(m map[string]any) { m["iterations"] = 1000 }), "trace"},
		{"rows", edit(func(m map[string]any) { m["rows"] = 0 }), "rows"},
		{"unknown field", edit(func(m map[string]any) { m["bandwidth"] = 1 }), "unknown field"},
		{"truncated", raw[:len(raw)/2], "reading"},
	} {
		if _, err := UnmarshalGMM(g.Schema(), c.params); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want one about %q", c.name, err, c.want)
		}
	}
	cat := g.Schema().Clone()
	cat.Features[0].Kind = data.Categorical
	if _, err := UnmarshalGMM(cat, raw); err == nil {
		t.Error("categorical feature accepted")
	}
}

// TestFitErrors checks the errors for data that cannot be fitted.
func TestFitErrors(t *testing.T) {
	iris := loadDataset(t, "iris")
	rng := rand.New(rand.NewPCG(1, 1))
	cat := *iris
	cat.Schema = iris.Schema.Clone()
	cat.Schema.Features[2].Kind = data.Categorical
	inf := *iris
	inf.X = append([]float64(nil), iris.X...)
	inf.X[7*4+1] = math.Inf(1)
	empty := *iris
	empty.X = append([]float64(nil), iris.X...)
	for i := range iris.N {
		empty.X[i*4+3] = math.NaN()
	}
	neg := *iris
	neg.Weight = make([]float64, iris.N)
	neg.Weight[5] = -1
	for _, c := range []struct {
		name string
		d    *data.Dataset
		cfg  Config
		want string
	}{
		{"categorical", &cat, Config{}, "categorical"},
		{"infinite", &inf, Config{}, "iris.csv:9"},
		{"no observed value", &empty, Config{}, "no observed value"},
		{"negative weight", &neg, Config{}, "weight"},
		{"too many components", iris.Subset([]int{0, 1, 2}), Config{Components: 4}, "4 components for 3 rows"},
		{"negative restarts", iris, Config{Restarts: -1}, "restarts"},
		{"bad start", iris, Config{Components: 2, Start: &Params{Weights: []float64{1}}}, "starting parameters"},
	} {
		if _, err := c.cfg.Fit(c.d, rng); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want one about %q", c.name, err, c.want)
		}
	}
	var perr *data.ParseError
	if _, err := (Config{}).Fit(&inf, rng); !errors.As(err, &perr) || perr.Line != 9 {
		t.Errorf("infinite value: %v, want a ParseError at line 9", err)
	}
}

// TestCollapse fits more components than there are distinct rows: the
// surplus components lose their rows, are re-seeded with a warning, and
// nothing becomes NaN.
func TestCollapse(t *testing.T) {
	d := &data.Dataset{Schema: &data.Schema{Features: []data.Column{{Name: "a"}, {Name: "b"}}}}
	for i := range 60 {
		d.X = append(d.X, float64(i%3), float64(i%3*2))
		d.N++
	}
	for _, cov := range allCovariances {
		g, err := Config{Components: 5, Covariance: cov, MaxIter: 20}.Fit(d, rand.New(rand.NewPCG(1, 1)))
		if err != nil {
			t.Fatal(cov, err)
		}
		if !finite(g.Weights()) || !finite(g.Means()) || !finite(g.Covariances()) || !finite(g.ScoreSamples(nil, d)) {
			t.Fatalf("%s: not finite", cov)
		}
		if !strings.Contains(strings.Join(g.Warnings(), "\n"), "re-seeded") {
			t.Errorf("%s: no re-seeding warning in %q", cov, g.Warnings())
		}
	}
}

// TestPredict checks that the responsibilities are a distribution per
// row, that Clusters takes their argmax, and that concurrent calls agree.
func TestPredict(t *testing.T) {
	g, d := fitIris(t, Full, true)
	resp := g.Predict(nil, d)
	lab := g.Clusters(nil, resp)
	for i := range d.N {
		r := resp[i*3 : i*3+3]
		s := 0.0
		for k, v := range r {
			if v < 0 || v > 1 {
				t.Fatalf("row %d: responsibility %v", i, v)
			}
			if v > r[lab[i]] {
				t.Fatalf("row %d: cluster %d, but %v > %v", i, lab[i], v, r[lab[i]])
			}
			s += r[k]
		}
		if math.Abs(s-1) > 1e-12 {
			t.Fatalf("row %d: responsibilities sum to %v", i, s)
		}
	}
	// The clusters of the complete iris data follow the species.
	h, full := fitIris(t, Full, false)
	lab = h.Clusters(nil, h.Predict(nil, full))
	agree := 0
	for i := range full.N {
		if lab[i] == lab[int(full.Y[i])*50] {
			agree++
		}
	}
	if agree < 140 {
		t.Errorf("%d of 150 rows in the cluster of their species' first row", agree)
	}
	var wg sync.WaitGroup
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			other := g.Predict(nil, d)
			for i := range other {
				if other[i] != resp[i] {
					t.Errorf("concurrent Predict differs at %d", i)
					return
				}
			}
		}()
	}
	wg.Wait()
}

// TestSample checks that draws follow the mixture: component frequencies
// near the weights, and the mean and covariance of the draws near the
// mixture's, Σ_k π_k μ_k and Σ_k π_k (Σ_k + μ_k μ_kᵀ) − μ μᵀ.
func TestSample(t *testing.T) {
	for _, cov := range allCovariances {
		g, _ := fitIris(t, cov, false)
		const n = 40000
		D, K := g.Dim(), g.Components()
		rng := rand.New(rand.NewPCG(5, 5))
		mean := make([]float64, D)
		second := make([]float64, D*D)
		count := make([]float64, K)
		x := make([]float64, D)
		for range n {
			_, k := g.Sample(x, rng)
			count[k]++
			for j := range D {
				mean[j] += x[j] / n
				for l := range D {
					second[j*D+l] += x[j] * x[l] / n
				}
			}
		}
		w, mu, sig := g.Weights(), g.Means(), g.Covariances()
		for k := range K {
			if math.Abs(count[k]/n-w[k]) > 0.01 {
				t.Errorf("%s: component %d drawn %.4f of the time, weight %.4f", cov, k, count[k]/n, w[k])
			}
		}
		for j := range D {
			m := 0.0
			for k := range K {
				m += w[k] * mu[k*D+j]
			}
			if math.Abs(mean[j]-m) > 0.03 {
				t.Errorf("%s: mean %d of the draws %.4f, mixture %.4f", cov, j, mean[j], m)
			}
			for l := range D {
				s := 0.0
				for k := range K {
					s += w[k] * (sig[(k*D+j)*D+l] + mu[k*D+j]*mu[k*D+l])
				}
				if math.Abs(second[j*D+l]-s) > 0.05 {
					t.Errorf("%s: second moment %d,%d of the draws %.4f, mixture %.4f", cov, j, l, second[j*D+l], s)
				}
			}
		}
	}
}

// TestGonum checks the distmv interfaces: LogProb agrees with
// ScoreSamples, and with gonum's Normal for one component.
func TestGonum(t *testing.T) {
	g, d := fitIris(t, Full, false)
	var rl distmv.RandLogProber = Rander{GMM: g, Src: rand.New(rand.NewPCG(1, 1))}
	ll := g.ScoreSamples(nil, d)
	for i := range d.N {
		if lp := rl.LogProb(d.Row(i)); !close(lp, ll[i], 1e-13) {
			t.Fatalf("row %d: LogProb %v, ScoreSamples %v", i, lp, ll[i])
		}
	}
	if x := rl.Rand(nil); len(x) != 4 || !finite(x) {
		t.Errorf("Rand gave %v", x)
	}
	one, err := Config{Components: 1}.Fit(d, rand.New(rand.NewPCG(1, 1)))
	if err != nil {
		t.Fatal(err)
	}
	p := one.Params()
	sym := distmvSym(p.Covariances, 4)
	normal, ok := distmv.NewNormal(p.Means, sym, nil)
	if !ok {
		t.Fatal("gonum: covariance not positive definite")
	}
	for i := range d.N {
		if a, b := one.LogProb(d.Row(i)), normal.LogProb(d.Row(i)); !close(a, b, 1e-12) {
			t.Fatalf("row %d: LogProb %v, gonum's Normal %v", i, a, b)
		}
	}
}

// TestSelectK checks that BIC finds the three components of well
// separated data, and the figures reported for every K.
func TestSelectK(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 8))
	d := &data.Dataset{Schema: &data.Schema{Features: []data.Column{{Name: "a"}, {Name: "b"}}}}
	for i := range 300 {
		c := float64(i % 3)
		d.X = append(d.X, 10*c+rng.NormFloat64(), -5*c+rng.NormFloat64())
		d.N++
	}
	g, cands, err := SelectK(d, rand.New(rand.NewPCG(1, 1)), Config{Restarts: 2}, 1, 6)
	if err != nil {
		t.Fatal(err)
	}
	if g.Components() != 3 || len(cands) != 6 {
		t.Fatalf("chose %d components of %d candidates", g.Components(), len(cands))
	}
	for i, c := range cands {
		if c.K != i+1 || c.BIC < g.BIC() {
			t.Errorf("candidate %+v, chosen BIC %v", c, g.BIC())
		}
	}
	if cands[2].BIC != g.BIC() || cands[2].LogLik != g.LogLikelihood() || cands[2].AIC != g.AIC() {
		t.Errorf("candidate 3 %+v differs from the model", cands[2])
	}
	raw, err := g.MarshalJSON()
	if err != nil {
		t.Fatal(err)
	}
	back, err := UnmarshalGMM(g.Schema(), raw)
	if err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(back.Candidates()) != fmt.Sprint(cands) {
		t.Errorf("candidates after loading %v, want %v", back.Candidates(), cands)
	}
	if _, _, err := SelectK(d, rng, Config{}, 0, 3); err == nil {
		t.Error("kmin 0 accepted")
	}
}

// TestOnIter checks the progress callback's calls.
func TestOnIter(t *testing.T) {
	d := standardized(loadDataset(t, "wine"))
	var calls [][2]int
	var lls []float64
	g, err := Config{Components: 3, Restarts: 2, OnIter: func(r, it int, ll float64) {
		calls = append(calls, [2]int{r, it})
		lls = append(lls, ll)
	}}.Fit(d, rand.New(rand.NewPCG(1, 1)))
	if err != nil {
		t.Fatal(err)
	}
	if calls[0] != [2]int{0, 1} || calls[len(calls)-1][0] != 1 {
		t.Errorf("calls %v", calls)
	}
	var last []float64
	for i, c := range calls {
		if c[0] == 1 {
			last = append(last, lls[i])
		}
	}
	// The second restart was kept only if it ended higher.
	if rl := g.RestartLogLikelihoods(); len(rl) != 2 || rl[1] != last[len(last)-1] {
		t.Errorf("restart log-likelihoods %v, last callback %v", rl, last[len(last)-1])
	}
}

// TestRandomInit checks that the random initialisation fits too.
func TestRandomInit(t *testing.T) {
	d := standardized(loadDataset(t, "iris"))
	g, err := Config{Components: 3, Init: Random, Restarts: 2}.Fit(d, rand.New(rand.NewPCG(1, 1)))
	if err != nil {
		t.Fatal(err)
	}
	checkMonotone(t, g, monotoneTol)
	if ll := g.LogLikelihood() / 150; ll < -3 {
		t.Errorf("mean log-likelihood %v", ll)
	}
}

// TestSelectKCutsRange checks that SelectK tries no K above kmin whose
// mixture has more parameters than there are rows, and says so: on 4
// rows in 2 dimensions, spherical components have 4K − 1 parameters (2K
// means, K variances, K − 1 weights), so 1-10 stops at K = 1 (K = 2 has
// 7); full ones have 6K − 1, and kmin = 1, with 5, is fitted as asked.
func TestSelectKCutsRange(t *testing.T) {
	d := &data.Dataset{Schema: &data.Schema{Features: []data.Column{{Name: "a"}, {Name: "b"}}},
		N: 4, X: []float64{1, 2, 2, 1, 5, 7, 6, 5}}
	for _, c := range []struct {
		cov  Covariance
		warn string
	}{
		{Spherical, "components 1-10 cut at K = 1: K = 2 has 7 parameters for 4 rows"},
		{Full, "components 1-10 cut at K = 1: K = 2 has 11 parameters for 4 rows"},
	} {
		g, cands, err := SelectK(d, rand.New(rand.NewPCG(1, 1)), Config{Covariance: c.cov}, 1, 10)
		if err != nil {
			t.Fatal(err)
		}
		if g.Components() != 1 || len(cands) != 1 {
			t.Errorf("%v: chose %d components of %d candidates, want 1 of 1", c.cov, g.Components(), len(cands))
		}
		if w := g.Warnings(); len(w) == 0 || !strings.HasPrefix(w[0], c.warn) {
			t.Errorf("%v: warnings %q, want %q first", c.cov, w, c.warn)
		}
	}
	// Twelve rows: spherical K = 3 has 11 parameters, K = 4 has 15.
	for range 2 {
		d.X = append(d.X, d.X[:8]...)
	}
	d.N = 12
	_, cands, err := SelectK(d, rand.New(rand.NewPCG(1, 1)), Config{Covariance: Spherical}, 2, 6)
	if err != nil {
		t.Fatal(err)
	}
	if len(cands) != 2 || cands[1].K != 3 {
		t.Errorf("candidates %+v, want K = 2, 3", cands)
	}
}
