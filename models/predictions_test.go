package models_test

import (
	"bytes"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/gendisc/gendisc"
	"github.com/gendisc/gendisc/data"
	"github.com/gendisc/gendisc/dataio"
	"github.com/gendisc/gendisc/datasets"
	"github.com/gendisc/gendisc/linear"
	"github.com/gendisc/gendisc/mixture"
	"github.com/gendisc/gendisc/models"
	"github.com/gendisc/gendisc/naivebayes"
)

func readIris(t *testing.T, opt dataio.Options) *data.Dataset {
	t.Helper()
	r, err := datasets.Open("iris")
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	d, err := dataio.Read(r, "iris", opt)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// TestPredict checks the prediction table of a classifier, a mixture and
// a regression: the columns, the labels and the values, against the
// models' own methods, and its CSV.
func TestPredict(t *testing.T) {
	iris := readIris(t, dataio.Options{})
	nb, err := naivebayes.GaussianConfig{}.Fit(iris)
	if err != nil {
		t.Fatal(err)
	}
	p, err := models.Predict(nb, iris)
	if err != nil {
		t.Fatal(err)
	}
	want := gendisc.Predict(nb, iris)
	logp := nb.LogProba(nil, iris)
	if strings.Join(p.Columns, ",") != "prediction,p_Iris-setosa,p_Iris-versicolor,p_Iris-virginica" || p.Rows() != 150 {
		t.Fatalf("columns %q, %d rows", p.Columns, p.Rows())
	}
	for i, k := range p.Best {
		if k != want[i] || p.Values[i*3+k] != math.Exp(logp[i*3+k]) {
			t.Fatalf("row %d: class %d (p %v), want %d", i, k, p.Values[i*3+k], want[i])
		}
	}
	var b bytes.Buffer
	if err := p.WriteCSV(&b); err != nil || !strings.HasPrefix(b.String(), "prediction,p_Iris-setosa,") || strings.Count(b.String(), "\n") != 151 {
		t.Errorf("CSV: %v %.100s", err, b.String())
	}

	x := readIris(t, dataio.Options{Ignore: []string{"class"}, Target: "sepallength", NumericTarget: true})
	lin, err := linear.Config{}.Fit(x)
	if err != nil {
		t.Fatal(err)
	}
	if p, err := models.Predict(lin, x); err != nil || strings.Join(p.Columns, ",") != "prediction" || p.Labels != nil || p.Values[7] != lin.Predict(nil, x)[7] {
		t.Errorf("regression: %v %+v", err, p.Columns)
	}
	g := readIris(t, dataio.Options{Ignore: []string{"class"}, NoTarget: true})
	gmm, err := mixture.Config{Components: 2}.Fit(g, rand.New(rand.NewPCG(1, 2)))
	if err != nil {
		t.Fatal(err)
	}
	if p, err := models.Predict(gmm, g); err != nil || strings.Join(p.Columns, ",") != "cluster,p_0,p_1" || len(p.Best) != 150 {
		t.Errorf("mixture: %v %+v", err, p)
	}
	if density, ok := models.Density(gmm); !ok || density(g)[3] != gmm.ScoreSamples(nil, g)[3] {
		t.Error("the density of a mixture")
	}
	if _, ok := models.Density(lin); ok {
		t.Error("a regression has a density")
	}
}
