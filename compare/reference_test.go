package compare

import (
	"context"
	"encoding/csv"
	"math"
	"os"
	"strconv"
	"testing"

	"github.com/gendisc/gendisc"
	"github.com/gendisc/gendisc/data"
	"github.com/gendisc/gendisc/dataio"
	"github.com/gendisc/gendisc/internal/bundled"
	"github.com/gendisc/gendisc/logistic"
	"github.com/gendisc/gendisc/naivebayes"
)

// refPoint is a row of testdata/reference_curves.csv.
type refPoint struct {
	m          int
	mean, se   float64
	splits     int
	task, name string
}

func readReference(t *testing.T) map[[2]string][]refPoint {
	f, err := os.Open("testdata/reference_curves.csv")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	out := map[[2]string][]refPoint{}
	for _, r := range rows[1:] {
		p := refPoint{task: r[0], name: r[1]}
		p.m, _ = strconv.Atoi(r[2])
		p.splits, _ = strconv.Atoi(r[3])
		p.mean, _ = strconv.ParseFloat(r[4], 64)
		p.se, _ = strconv.ParseFloat(r[5], 64)
		key := [2]string{r[0], r[1]}
		out[key] = append(out[key], p)
	}
	return out
}

// referenceTasks are the data sets of gen_reference.py.
func referenceTasks(t *testing.T) []Task {
	var tasks []Task
	for _, name := range []string{"pima_indians_diabetes", "ionosphere", "sonar", "breast_cancer_wdbc", "house_votes84"} {
		tasks = append(tasks, Task{name, bundled.Load(t, name, dataio.Options{})})
	}
	digits := bundled.Load(t, "optdigits", dataio.Options{})
	for _, pair := range [][2]string{{"0", "1"}, {"2", "3"}} {
		d, err := Binary(digits, pair[0], pair[1])
		if err != nil {
			t.Fatal(err)
		}
		tasks = append(tasks, Task{"optdigits_" + pair[0] + "_vs_" + pair[1], d})
	}
	return tasks
}

// referenceLearners returns the learners of gen_reference.py: naive Bayes
// ("nb", the mixed model that gendisc compare runs: Gaussian on numeric
// columns, categorical with Laplace smoothing over the schema's levels on
// categorical ones, missing cells left out) and logistic regression
// (λ = 1, missing cells imputed with the training means).
func referenceLearners() []Learner {
	return []Learner{
		{Name: "nb", Fit: func(d *data.Dataset) (gendisc.Classifier, error) {
			return naivebayes.Config{}.Fit(d)
		}},
		{Name: "logistic", Family: Discriminative, Fit: func(d *data.Dataset) (gendisc.Classifier, error) {
			return logistic.Config{Impute: true}.Fit(d)
		}},
	}
}

// TestReference compares the learning curves with those of scikit-learn
// (testdata/gen_reference.py: GaussianNB or a categorical naive Bayes
// that leaves missing cells out, LogisticRegression with C = 1,
// the same sizes and split scheme, other random draws): at every m the
// mean errors must agree within 3 combined standard errors,
//
//	|ē_go − ē_sk| ≤ 3 sqrt(se_go² + se_sk²).
//
// The splits differ, so the curves agree in distribution only; the figures
// are deterministic, so the test does not flicker.
func TestReference(t *testing.T) {
	if testing.Short() {
		t.Skip("100 splits on seven data sets")
	}
	ref := readReference(t)
	checked := 0
	for ti, task := range referenceTasks(t) {
		res, err := Run(context.Background(), []Task{task}, referenceLearners(), Config{Splits: 100, Seed: uint64(ti)})
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range res.Tasks[0].Curves {
			want := ref[[2]string{task.Name, c.Learner}]
			if len(want) != len(c.Points) {
				t.Errorf("%s/%s: %d sizes, the reference has %d", task.Name, c.Learner, len(c.Points), len(want))
				continue
			}
			worst := 0.0
			for i, p := range c.Points {
				w := want[i]
				tol := 3 * math.Hypot(p.StdErr, w.se)
				if tol > 0 {
					worst = math.Max(worst, 3*math.Abs(p.Mean-w.mean)/tol)
				}
				if p.M != w.m || math.Abs(p.Mean-w.mean) > tol+1e-12 || p.Fallbacks > 0 {
					t.Errorf("%s/%s m = %d: error %.4f ± %.4f (%d fallbacks), scikit-learn at m = %d: %.4f ± %.4f",
						task.Name, c.Learner, p.M, p.Mean, p.StdErr, p.Fallbacks, w.m, w.mean, w.se)
				}
				checked++
			}
			t.Logf("%s/%s: largest |difference| / combined standard error %.2f", task.Name, c.Learner, worst)
		}
	}
	if checked < 210 {
		t.Errorf("%d points checked", checked)
	}
}
