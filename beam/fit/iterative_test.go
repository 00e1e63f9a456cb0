package fit

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/gendisc/gendisc"
	"github.com/gendisc/gendisc/dataio"
	"github.com/gendisc/gendisc/logistic"
	"github.com/gendisc/gendisc/mixture"
	"github.com/gendisc/gendisc/registry"
)

// logisticRows are rows of two real features, a categorical one and a
// class of three.
func logisticRows(n int) []string {
	r := rand.New(rand.NewPCG(9, 10))
	rows := make([]string, n)
	for i := range rows {
		k := r.IntN(3)
		rows[i] = fmt.Sprintf("%.6g,%.6g,%s,%s", r.NormFloat64()+0.8*float64(k), 2*r.NormFloat64()-float64(k), []string{"u", "v", "w"}[(k+r.IntN(2))%3], []string{"a", "b", "c"}[k])
	}
	return rows
}

// mixtureRows are rows of three real features from three clusters, with
// a class column that the mixture leaves out.
func mixtureRows(n int) []string {
	r := rand.New(rand.NewPCG(11, 12))
	rows := make([]string, n)
	for i := range rows {
		k := r.IntN(3)
		rows[i] = fmt.Sprintf("%.6g,%.6g,%.6g,%s", r.NormFloat64()+3*float64(k), 0.5*r.NormFloat64()-2*float64(k%2), r.NormFloat64()*float64(1+k), []string{"p", "q", "r"}[k])
	}
	return rows
}

// relClose checks that got and want are equal within rel relative to
// the largest magnitude of want.
func relClose(t *testing.T, what string, got, want []float64, rel float64) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s: %d values, want %d", what, len(got), len(want))
	}
	scale := 0.0
	for _, v := range want {
		scale = max(scale, math.Abs(v))
	}
	for i := range want {
		if !(math.Abs(got[i]-want[i]) <= rel*scale) {
			t.Errorf("%s[%d] = %.17g, want %.17g", what, i, got[i], want[i])
			return
		}
	}
}

// TestFitLogistic fits logistic regression by the pipelines on prism
// over 8 shards (one gzip-compressed) and checks it against gendisc
// fit's (logistic.Config.Fit) on the concatenated rows: the same solver
// and verdict (and for Newton the same iterations), coefficients and
// objective within 1e-8 relative; and that the model file it writes
// loads. Rows without a label are left out, as gendisc fit does. L-BFGS runs on the numeric features only: with the indicators of
// every level and the intercept, a direction of curvature λ alone, it
// stops within the rounding of J short of the optimum, at points 1e-7
// apart.
func TestFitLogistic(t *testing.T) {
	cases := []struct {
		cfg logistic.Config
		opt dataio.Options
	}{{cfg: logistic.Config{}}} // newton, chosen by the number of parameters
	if !testing.Short() {
		cases = append(cases, struct {
			cfg logistic.Config
			opt dataio.Options
		}{logistic.Config{Solver: logistic.LBFGS, L2: 0.3, Tol: 1e-10, ClassWeight: logistic.Balanced}, dataio.Options{Ignore: []string{"c"}}})
	}
	// Rows without a label, which gendisc fit leaves out.
	rows := append(logisticRows(2000), "0.5,1,u,", "1.5,-1,v,", "2.5,0,w,")
	dir, all := shards(t, "x1,x2,c,y", rows, 8)
	for _, c := range cases {
		cfg := c.cfg
		t.Run(string(cfg.Solver), func(t *testing.T) {
			d, err := dataio.Read(strings.NewReader(all), "all.csv", c.opt)
			if err != nil {
				t.Fatal(err)
			}
			d, dropped := gendisc.Labelled(d)
			if dropped != 3 {
				t.Errorf("%d rows without a label, want 3", dropped)
			}
			want, err := cfg.Fit(d)
			if err != nil {
				t.Fatal(err)
			}
			out := filepath.Join(t.TempDir(), "m.json")
			got, err := FitLogistic(context.Background(), runPrism, filepath.Join(dir, "part-*"), cfg, out, Options{Read: c.opt, Temp: out + ".tmp"})
			if err != nil {
				t.Fatal(err)
			}
			gd, wd := got.Diagnostics(), want.Diagnostics()
			if gd.Solver != wd.Solver || gd.Converged != wd.Converged || !gd.Converged {
				t.Errorf("diagnostics %+v, want %+v", gd, wd)
			}
			if wd.Solver == logistic.Newton && gd.Iterations != wd.Iterations {
				t.Errorf("%d Newton iterations, gendisc fit's %d", gd.Iterations, wd.Iterations)
			}
			relClose(t, "objective", []float64{gd.Objective, gd.LogLikelihood}, []float64{wd.Objective, wd.LogLikelihood}, 1e-8)
			gw, gb := got.Coefficients()
			ww, wb := want.Coefficients()
			for c := range ww {
				relClose(t, fmt.Sprintf("vector %d", c), append(gw[c], gb[c]), append(ww[c], wb[c]), 1e-8)
			}
			m, err := registry.Load(out)
			if err != nil {
				t.Fatal(err)
			}
			lw, _ := m.(*logistic.Model).Coefficients()
			relClose(t, "model file", lw[0], gw[0], 1e-15)
			t.Logf("%+v; gendisc fit %+v", gd, wd)
		})
	}
}

// TestFitMixture fits a Gaussian mixture by the pipelines on prism over
// 8 shards and checks it against gendisc fit's (mixture.Config.Fit) on
// the concatenated rows with the same seed: the sample holds every row,
// so the starting points are gendisc fit's; the same iterations, trace
// (the log-likelihood of every iteration), parameters within 1e-8
// relative; the trace never falls, and OnIter reports every pass.
func TestFitMixture(t *testing.T) {
	dir, all := shards(t, "x1,x2,x3,y", mixtureRows(2000), 8)
	d, err := dataio.Read(strings.NewReader(all), "all.csv", dataio.Options{})
	if err != nil {
		t.Fatal(err)
	}
	cfg := mixture.Config{Components: 3, Covariance: mixture.Full, Tol: 1e-6, MaxIter: 500}
	want, err := cfg.Fit(d, rand.New(rand.NewPCG(7, 0)))
	if err != nil {
		t.Fatal(err)
	}
	var lls []float64
	cfg.OnIter = func(_, _ int, ll float64) { lls = append(lls, ll) }
	out := filepath.Join(t.TempDir(), "m.json")
	got, err := FitMixture(context.Background(), runPrism, filepath.Join(dir, "part-*"), cfg, MixtureOptions{Seed: 7, Sample: 5000}, out, Options{Temp: out + ".tmp"})
	if err != nil {
		t.Fatal(err)
	}
	if got.Iterations() != want.Iterations() || got.Converged() != want.Converged() || !got.Converged() {
		t.Errorf("%d iterations, converged %v; gendisc fit's %d, %v", got.Iterations(), got.Converged(), want.Iterations(), want.Converged())
	}
	tr := got.LogLikelihoodTrace()
	relClose(t, "trace", tr, want.LogLikelihoodTrace(), 1e-8)
	if !slices.Equal(lls, tr) {
		t.Errorf("OnIter saw %v, the trace is %v", lls, tr)
	}
	for i := 1; i < len(tr); i++ {
		if tr[i] < tr[i-1]-1e-9*math.Abs(tr[i-1]) {
			t.Errorf("the log-likelihood fell from %.17g to %.17g at iteration %d", tr[i-1], tr[i], i+1)
		}
	}
	gp, wp := got.Params(), want.Params()
	relClose(t, "weights", gp.Weights, wp.Weights, 1e-8)
	relClose(t, "means", gp.Means, wp.Means, 1e-8)
	relClose(t, "covariances", gp.Covariances, wp.Covariances, 1e-8)
	m, err := registry.Load(out)
	if err != nil {
		t.Fatal(err)
	}
	if g := m.(*mixture.GMM); !slices.Equal(g.LogLikelihoodTrace(), tr) || !slices.Equal(g.Means(), gp.Means) {
		t.Errorf("the model file does not hold the fit")
	}
	t.Logf("%d iterations", got.Iterations())
}

// TestSample checks that the sample of rows is the same however the rows
// are spread over shards and merged: the rows of smallest keys, missing
// cells and weights kept bit for bit through the encoding.
func TestSample(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 1))
	const n, d, size = 300, 3, 50
	rows := make([]sampleRow, n)
	for i := range rows {
		x := []float64{r.NormFloat64(), math.NaN(), float64(i % 7)}
		if i%5 == 0 {
			x[1] = r.Float64()
		}
		w := 0.5 + r.Float64()
		rows[i] = sampleRow{key: rowKey(9, x, w), w: w, x: x}
	}
	rows = append(rows, rows[3]) // a duplicate row
	of := func(rs []sampleRow) []byte {
		s := &sample{d: d, rows: slices.Clone(rs)}
		s.keep(size)
		return s.encode()
	}
	fn := &SampleFn{Size: size}
	var want []byte
	for k, cut := range [][]int{{0, n + 1}, {0, 100, 101, 250, n + 1}, {0, 7, 60, 200, 299, n + 1}} {
		var acc []byte
		for i := len(cut) - 2; i >= 0; i-- { // merged in reverse order
			var err error
			if acc, err = fn.MergeAccumulators(of(rows[cut[i]:cut[i+1]]), acc); err != nil {
				t.Fatal(err)
			}
		}
		if k == 0 {
			want = acc
		} else if !slices.Equal(acc, want) {
			t.Errorf("shards %v: another sample", cut)
		}
	}
	s, err := decodeSample(want)
	if err != nil || len(s.rows) != size {
		t.Fatalf("%v rows, %v", len(s.rows), err)
	}
	keys := make([]uint64, len(rows))
	for i, r := range rows {
		keys[i] = r.key
	}
	slices.Sort(keys)
	for i, r := range s.rows {
		if r.key != keys[i] || r.key != rowKey(9, r.x, r.w) {
			t.Fatalf("row %d of the sample: key %x, want %x", i, r.key, keys[i])
		}
	}
}

// TestFitMixtureSample fits a mixture whose starting points come from a
// sample of 300 of the 2000 rows, with two restarts: each restart's
// log-likelihood never falls, OnIter reports it, and the best restart is
// kept. (TestSample checks that the sample does not depend on the shards.)
func TestFitMixtureSample(t *testing.T) {
	if testing.Short() {
		t.Skip("two EM runs of pipelines")
	}
	dir, _ := shards(t, "x1,x2,x3,y", mixtureRows(2000), 8)
	cfg := mixture.Config{Components: 3, Covariance: mixture.Diag, Restarts: 2}
	var trace [2][]float64
	cfg.OnIter = func(r, _ int, ll float64) { trace[r] = append(trace[r], ll) }
	out := filepath.Join(t.TempDir(), "m.json")
	g, err := FitMixture(context.Background(), runPrism, filepath.Join(dir, "part-*"), cfg, MixtureOptions{Seed: 3, Sample: 300}, out, Options{Temp: out + ".tmp"})
	if err != nil {
		t.Fatal(err)
	}
	finals := g.RestartLogLikelihoods()
	if len(finals) != 2 || g.LogLikelihood() != max(finals[0], finals[1]) {
		t.Errorf("restarts' log-likelihoods %v, the model's %v", finals, g.LogLikelihood())
	}
	for r, tr := range trace {
		if len(tr) < 2 || tr[len(tr)-1] != finals[r] {
			t.Errorf("restart %d: trace %v, final %v", r, tr, finals[r])
		}
		for i := 1; i < len(tr); i++ {
			if tr[i] < tr[i-1]-1e-9*math.Abs(tr[i-1]) {
				t.Errorf("restart %d: the log-likelihood fell from %.17g to %.17g", r, tr[i-1], tr[i])
			}
		}
	}
}

// TestFitLogisticText fits logistic regression with a text column by the
// pipelines over 8 shards, whose vocabularies are merged, and checks the
// coefficients of every term against gendisc fit's on the concatenated
// rows, within 1e-8 relative, matched by name.
func TestFitLogisticText(t *testing.T) {
	dir, all := shards(t, "x,c,doc,y", mixedRows(400), 8)
	opt := dataio.Options{Categorical: []string{"c"}}
	d, err := dataio.Read(strings.NewReader(all), "all.csv", opt)
	if err != nil {
		t.Fatal(err)
	}
	cfg := logistic.Config{Solver: logistic.Newton}
	want, err := cfg.Fit(d)
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "m.json")
	got, err := FitLogistic(context.Background(), runPrism, filepath.Join(dir, "part-*"), cfg, out, Options{Read: opt, Temp: out + ".tmp"})
	if err != nil {
		t.Fatal(err)
	}
	gw, gb := got.Coefficients()
	ww, wb := want.Coefficients()
	at := map[string]float64{}
	for j, name := range got.Terms() {
		at[name] = gw[0][j]
	}
	scale := math.Abs(wb[0])
	for _, v := range ww[0] {
		scale = max(scale, math.Abs(v))
	}
	if len(got.Terms()) != len(want.Terms()) {
		t.Fatalf("terms %v, gendisc fit's %v", got.Terms(), want.Terms())
	}
	for j, name := range want.Terms() {
		if g, ok := at[name]; !ok || math.Abs(g-ww[0][j]) > 1e-8*scale {
			t.Errorf("term %q: %v, gendisc fit's %v", name, g, ww[0][j])
		}
	}
	if math.Abs(gb[0]-wb[0]) > 1e-8*scale {
		t.Errorf("intercept %v, gendisc fit's %v", gb[0], wb[0])
	}
}
