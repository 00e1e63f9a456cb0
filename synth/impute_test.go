package synth

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/gendisc/gendisc"
	"github.com/gendisc/gendisc/data"
	"github.com/gendisc/gendisc/dataio"
	"github.com/gendisc/gendisc/internal/bundled"
)

// removeCells returns a copy of d with each feature cell removed (NaN)
// with probability share, drawn from rng, and the indices of the removed
// cells in X. A row keeps at least one observed cell.
func removeCells(d *data.Dataset, share float64, rng *rand.Rand) (*data.Dataset, []int) {
	out := *d
	out.X = append([]float64(nil), d.X...)
	var removed []int
	D := d.D()
	for i := range d.N {
		var row []int
		for j := range D {
			if rng.Float64() < share {
				row = append(row, i*D+j)
			}
		}
		if len(row) == D {
			row = row[1:]
		}
		for _, c := range row {
			out.X[c] = math.NaN()
		}
		removed = append(removed, row...)
	}
	return &out, removed
}

// columnMeans returns the mean of the observed cells of every column.
func columnMeans(d *data.Dataset) []float64 {
	D := d.D()
	sum, n := make([]float64, D), make([]float64, D)
	for i, v := range d.X {
		if v == v {
			sum[i%D] += v
			n[i%D]++
		}
	}
	for j := range sum {
		sum[j] /= n[j]
	}
	return sum
}

// columnSDs returns the population standard deviation of every column of
// the complete data set d.
func columnSDs(d *data.Dataset) []float64 {
	D := d.D()
	mean, ss := columnMeans(d), make([]float64, D)
	for i, v := range d.X {
		e := v - mean[i%D]
		ss[i%D] += e * e
	}
	for j := range ss {
		ss[j] = math.Sqrt(ss[j] / float64(d.N))
	}
	return ss
}

// rmse returns the root mean squared error of x against truth over the
// cells removed, each column in units of its standard deviation sd.
func rmse(x, truth []float64, removed []int, sd []float64) float64 {
	s := 0.0
	for _, c := range removed {
		e := (x[c] - truth[c]) / sd[c%len(sd)]
		s += e * e
	}
	return math.Sqrt(s / float64(len(removed)))
}

// TestImputeBeatsMeans removes 20% of the cells of breast_cancer_wdbc and
// wine at random, fits every kind on what is left, imputes the removed
// cells by their conditional expectation given the row's observed cells
// and label, and wants a lower RMSE than the column means' for qda, gmm
// and mda. The RMSE is in units of each column's standard deviation. The
// table in README.md is this test's log (go test ./synth -run
// TestImputeBeatsMeans -v).
func TestImputeBeatsMeans(t *testing.T) {
	var table strings.Builder
	table.WriteString("| data set | removed cells | column means | gaussian-nb | lda | qda | gmm | mda |\n|---|---|---|---|---|---|---|---|\n")
	for _, name := range []string{"breast_cancer_wdbc", "wine"} {
		full := bundled.Load(t, name, dataio.Options{})
		d, removed := removeCells(full, 0.2, seeded(20))
		sd := columnSDs(full)
		means := columnMeans(d)
		base := append([]float64(nil), d.X...)
		for _, c := range removed {
			base[c] = means[c%d.D()]
		}
		r0 := rmse(base, full.X, removed, sd)
		fmt.Fprintf(&table, "| %s | %d | %.3f |", name, len(removed), r0)
		for _, kc := range kindCases {
			m, err := kc.fit(d)
			if err != nil {
				t.Fatalf("%s on %s: %v", kc.name, name, err)
			}
			out, err := Impute(d, m.(gendisc.Imputer), 0, nil, nil)
			if err != nil {
				t.Fatal(err)
			}
			r := rmse(out[0].X, full.X, removed, sd)
			fmt.Fprintf(&table, " %.3f |", r)
			switch kc.name {
			case "qda", "gmm", "mda":
				if !(r < r0) {
					t.Errorf("%s on %s: RMSE %g, column means %g", kc.name, name, r, r0)
				}
			}
		}
		table.WriteString("\n")
	}
	t.Log("RMSE of the imputed cells, in standard deviations of their column:\n" + table.String())
}

// TestImputeDrawsMean: the mean of many random imputations of a cell is
// its conditional expectation, within 4 standard errors of the draws.
func TestImputeDrawsMean(t *testing.T) {
	iris := bundled.Load(t, "iris", dataio.Options{})
	d, removed := removeCells(iris, 0.3, seeded(5))
	d.Y = append([]float64(nil), d.Y...)
	for i := 0; i < d.N; i += 4 {
		d.Y[i] = math.NaN() // a quarter of the labels are latent too
	}
	const draws = 400
	eachKind(t, iris, func(t *testing.T, kc kindCase, m gendisc.Sampler) {
		want, err := Impute(d, m.(gendisc.Imputer), 0, nil, nil)
		if err != nil {
			t.Fatal(err)
		}
		outs, err := Impute(d, m.(gendisc.Imputer), draws, nil, seeded(6))
		if err != nil {
			t.Fatal(err)
		}
		bad := 0
		for _, c := range removed {
			s, ss := 0.0, 0.0
			for _, o := range outs {
				s += o.X[c]
				ss += o.X[c] * o.X[c]
			}
			mean := s / draws
			se := math.Sqrt((ss/draws - mean*mean) / draws)
			if !within(mean, want[0].X[c], se) {
				bad++
				t.Errorf("cell %d: mean of draws %g ± %g, expectation %g", c, mean, se, want[0].X[c])
			}
		}
		for i, y := range d.Y {
			if y == y {
				for _, o := range outs {
					if o.Y[i] != y {
						t.Fatalf("row %d: label %g changed to %g", i, y, o.Y[i])
					}
				}
			} else if m.Schema().Target != nil && want[0].Y[i] != want[0].Y[i] {
				t.Fatalf("row %d: label left missing", i)
			}
		}
		for i, v := range d.X {
			if v == v && (want[0].X[i] != v || outs[0].X[i] != v) {
				t.Fatalf("observed cell %d changed", i)
			}
		}
	})
}

// TestImputeLabels: a missing label is filled by its most probable class.
func TestImputeLabels(t *testing.T) {
	iris := bundled.Load(t, "iris", dataio.Options{})
	m, err := kindCases[2].fit(iris)
	if err != nil {
		t.Fatal(err)
	}
	d := *iris
	d.Y = append([]float64(nil), iris.Y...)
	for i := range d.Y {
		d.Y[i] = math.NaN()
	}
	out, err := Impute(&d, m.(gendisc.Imputer), 0, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	post := m.(gendisc.Classifier).LogProba(nil, iris)
	for i, y := range out[0].Y {
		if int(y) != argmax(post[i*3:(i+1)*3]) {
			t.Fatalf("row %d: label %g, most probable %d", i, y, argmax(post[i*3:(i+1)*3]))
		}
	}
	if _, err := Impute(&d, m.(gendisc.Imputer), -1, nil, nil); err == nil {
		t.Error("Impute with −1 draws: no error")
	}
}
