package mixture

import (
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/gendisc/gendisc"
	"github.com/gendisc/gendisc/data"
	"github.com/gendisc/gendisc/internal/testsupport/conformance"
)

func TestMDAConformance(t *testing.T) {
	for _, name := range []string{"iris", "wine"} {
		t.Run(name, func(t *testing.T) {
			d := loadDataset(t, name)
			conformance.Check(t, func(d *data.Dataset) (gendisc.Classifier, error) {
				return MDAConfig{ComponentsPerClass: 2, Mixture: Config{Restarts: 2}}.Fit(d, rand.New(rand.NewPCG(1, 2)))
			}, d, conformance.Decode(func(params []byte) (gendisc.Classifier, error) { return UnmarshalMDA(d.Schema, params) }))
		})
	}
}

// TestMDAOneComponent checks MDA with one full-covariance component per
// class against QDA computed by hand: per class the mean, the maximum-
// likelihood covariance (plus 1e-6·I with Ridge; the eigenvalues of wine's
// class covariances are above the Floor of 1e-6, which leaves them
// alone), and the prior n_c/n,
//
//	log p(x, c) = log π_c − ½ log|2πΣ_c| − ½ (x − μ_c)ᵀ Σ_c⁻¹ (x − μ_c).
func TestMDAOneComponent(t *testing.T) {
	d := loadDataset(t, "wine")
	for how, ridge := range map[Regularization]float64{Floor: 0, Ridge: DefaultRegCovar} {
		t.Run(how.String(), func(t *testing.T) {
			m, err := MDAConfig{ComponentsPerClass: 1, Mixture: Config{Regularization: how}}.Fit(d, rand.New(rand.NewPCG(1, 1)))
			if err != nil {
				t.Fatal(err)
			}
			checkQDA(t, d, m, ridge)
		})
	}
}

// checkQDA compares the joint log-likelihoods of m on d with QDA's by
// hand, with ridge added to the covariances' diagonal.
func checkQDA(t *testing.T, d *data.Dataset, m *MDA, ridge float64) {
	t.Helper()
	got := m.JointLogLikelihood(nil, d)
	D, C := d.D(), len(d.Schema.Classes())
	for c := range C {
		var rows []int
		for i, y := range d.Y {
			if int(y) == c {
				rows = append(rows, i)
			}
		}
		n := float64(len(rows))
		mu := make([]float64, D)
		for _, i := range rows {
			for j, v := range d.Row(i) {
				mu[j] += v / n
			}
		}
		cov := make([][]float64, D)
		for j := range D {
			cov[j] = make([]float64, D)
			for l := range D {
				for _, i := range rows {
					cov[j][l] += (d.Row(i)[j] - mu[j]) * (d.Row(i)[l] - mu[l]) / n
				}
			}
			cov[j][j] += ridge
		}
		inv, logDet := invert(cov)
		for i := range d.N {
			x := d.Row(i)
			q := 0.0
			for j := range D {
				for l := range D {
					q += (x[j] - mu[j]) * inv[j][l] * (x[l] - mu[l])
				}
			}
			want := math.Log(n/float64(d.N)) - 0.5*logDet - 0.5*float64(D)*math.Log(2*math.Pi) - 0.5*q
			if !close(got[i*C+c], want, 1e-9) {
				t.Fatalf("row %d class %d: %.15g, by hand %.15g", i, c, got[i*C+c], want)
			}
		}
	}
}

// TestMDAAccuracy checks that two components per class classify iris's
// training rows at least as well as QDA does (98%), with 10% of the cells
// missing too.
func TestMDAAccuracy(t *testing.T) {
	d := loadDataset(t, "iris")
	for _, frac := range []float64{0, 0.1} {
		dd := withMissing(d, frac, rand.New(rand.NewPCG(4, 4)))
		m, err := MDAConfig{ComponentsPerClass: 2, Mixture: Config{Restarts: 3}}.Fit(dd, rand.New(rand.NewPCG(1, 1)))
		if err != nil {
			t.Fatal(err)
		}
		lp := m.LogProba(nil, dd)
		right := 0
		for i := range dd.N {
			best := 0
			for c := range 3 {
				if lp[i*3+c] > lp[i*3+best] {
					best = c
				}
			}
			if best == int(dd.Y[i]) {
				right++
			}
		}
		want := map[float64]int{0: 147, 0.1: 140}[frac]
		if right < want {
			t.Errorf("%g missing: %d of 150 right, want at least %d", frac, right, want)
		}
		x, c := m.Sample(nil, rand.New(rand.NewPCG(1, 1)))
		if len(x) != 4 || c < 0 || c > 2 || !finite(x) {
			t.Errorf("Sample gave %v, %d", x, c)
		}
	}
}

// TestMDAEmptyClass checks that a class without training rows gets
// probability 0 and survives a round trip.
func TestMDAEmptyClass(t *testing.T) {
	d := loadDataset(t, "iris")
	var idx []int
	for i, y := range d.Y {
		if y != 1 {
			idx = append(idx, i)
		}
	}
	sub := d.Subset(idx)
	m, err := MDAConfig{ComponentsPerClass: 2}.Fit(sub, rand.New(rand.NewPCG(1, 1)))
	if err != nil {
		t.Fatal(err)
	}
	raw, err := m.MarshalJSON()
	if err != nil {
		t.Fatal(err)
	}
	back, err := UnmarshalMDA(m.Schema(), raw)
	if err != nil {
		t.Fatal(err)
	}
	for _, mm := range []*MDA{m, back} {
		lp := mm.LogProba(nil, d)
		for i := range d.N {
			if !math.IsInf(lp[i*3+1], -1) || math.IsNaN(lp[i*3]) || math.IsNaN(lp[i*3+2]) {
				t.Fatalf("row %d: log-probabilities %v", i, lp[i*3:i*3+3])
			}
		}
	}
	if _, err := (MDAConfig{}).Fit(&data.Dataset{Schema: &data.Schema{Features: d.Schema.Features}, N: d.N, X: d.X}, rand.New(rand.NewPCG(1, 1))); err == nil {
		t.Error("data without a target accepted")
	}
}

// TestMDATooManyComponents: a class with fewer rows than
// ComponentsPerClass is an error naming the class and its row count (not
// a silently smaller mixture), so every class's mixture has exactly
// ComponentsPerClass components; UnmarshalMDA refuses parameters that
// claim another count than their mixtures have.
func TestMDATooManyComponents(t *testing.T) {
	d := loadDataset(t, "iris")
	idx := []int{0, 1}
	for i, y := range d.Y {
		if y != 0 {
			idx = append(idx, i)
		}
	}
	_, err := MDAConfig{ComponentsPerClass: 3}.Fit(d.Subset(idx), rand.New(rand.NewPCG(1, 1)))
	if want := fmt.Sprintf("class %q has 2 rows", d.Schema.Classes()[0]); err == nil || !strings.Contains(err.Error(), want) {
		t.Fatalf("got %v, want an error containing %q", err, want)
	}
	m, err := MDAConfig{ComponentsPerClass: 2}.Fit(d.Subset(idx), rand.New(rand.NewPCG(1, 1)))
	if err != nil {
		t.Fatal(err)
	}
	for c := range m.Classes() {
		if got := m.Mixture(c).Components(); got != 2 {
			t.Errorf("class %d: %d components, want 2", c, got)
		}
	}
	raw, err := m.MarshalJSON()
	if err != nil {
		t.Fatal(err)
	}
	var p map[string]json.RawMessage
	if err := json.Unmarshal(raw, &p); err != nil {
		t.Fatal(err)
	}
	p["components_per_class"] = json.RawMessage("3")
	edited, _ := json.Marshal(p)
	if _, err := UnmarshalMDA(m.Schema(), edited); err == nil || !strings.Contains(err.Error(), "a mixture of 2 components, the model has 3 per class") {
		t.Errorf("UnmarshalMDA of an edited count: %v", err)
	}
}
