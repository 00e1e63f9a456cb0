package mixture

import (
	"encoding/json"
	"flag"
	"math"
	"math/rand/v2"
	"os"
	"testing"
)

var updateMStep = flag.Bool("update-mstep", false, "rewrite testdata/mstep.json from this build's fits")

// mstepCase is one fit of TestMStepUnchanged: its parameters after a few
// EM iterations.
type mstepCase struct {
	Name                        string
	Weights, Means, Covariances []float64
}

// mstepFits fits 3 components to 3,000 rows of 4 dimensions, complete and
// with 5% of the cells missing, for every covariance type: k-means++
// initialisation (an M-step from hard responsibilities) and 3 EM
// iterations (M-steps from the E-step's statistics, conditional
// covariances of missing cells included).
func mstepFits(t *testing.T) []mstepCase {
	var out []mstepCase
	for _, missing := range []bool{false, true} {
		d, _ := benchData(3000, 4, 3, 1)
		if missing {
			rng := rand.New(rand.NewPCG(7, 8))
			for i := range d.X {
				if rng.Float64() < 0.05 {
					d.X[i] = math.NaN()
				}
			}
		}
		for _, cov := range []Covariance{Full, Diag, Spherical, Tied, Identity} {
			cfg := Config{Components: 3, Covariance: cov, Tol: -1, MaxIter: 3}
			g, err := cfg.Fit(d, rand.New(rand.NewPCG(5, 6)))
			if err != nil {
				t.Fatal(err)
			}
			name := cov.String()
			if missing {
				name += " missing"
			}
			out = append(out, mstepCase{name, g.Weights(), g.Means(), g.Covariances()})
		}
	}
	return out
}

// TestMStepUnchanged compares fits with the M-step statistics of package
// stats (Chan's merges of blocks summarised about their own means) with
// those of the former statistics (sums about a fixed shift), kept in
// testdata/mstep.json (written with -update-mstep by the former build):
// the parameters agree to 1e-12 relative to the largest of each kind.
func TestMStepUnchanged(t *testing.T) {
	got := mstepFits(t)
	if *updateMStep {
		b, err := json.MarshalIndent(got, "", " ")
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile("testdata/mstep.json", b, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	b, err := os.ReadFile("testdata/mstep.json")
	if err != nil {
		t.Fatal(err)
	}
	var want []mstepCase
	if err := json.Unmarshal(b, &want); err != nil {
		t.Fatal(err)
	}
	if len(want) != len(got) {
		t.Fatalf("%d cases, want %d", len(got), len(want))
	}
	for i, w := range want {
		g := got[i]
		for _, p := range []struct {
			what      string
			got, want []float64
		}{{"weights", g.Weights, w.Weights}, {"means", g.Means, w.Means}, {"covariances", g.Covariances, w.Covariances}} {
			scale := 0.0
			for _, v := range p.want {
				scale = max(scale, math.Abs(v))
			}
			if len(p.got) != len(p.want) {
				t.Fatalf("%s %s: %d values, want %d", w.Name, p.what, len(p.got), len(p.want))
			}
			for j := range p.got {
				if math.Abs(p.got[j]-p.want[j]) > 1e-12*scale {
					t.Errorf("%s %s[%d] = %v, want %v", w.Name, p.what, j, p.got[j], p.want[j])
				}
			}
		}
	}
}
