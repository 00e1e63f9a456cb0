package mixture

import (
	"encoding/csv"
	"math"
	"strconv"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/gendisc/gendisc/data"
	"github.com/gendisc/gendisc/datasets"
)

// loadDataset reads a bundled data set whose columns are all numeric
// except the last, the class.
func loadDataset(tb testing.TB, name string) *data.Dataset {
	tb.Helper()
	rc, err := datasets.Open(name)
	if err != nil {
		tb.Fatal(err)
	}
	defer rc.Close()
	recs, err := csv.NewReader(rc).ReadAll()
	if err != nil {
		tb.Fatal(err)
	}
	head := recs[0]
	D := len(head) - 1
	s := &data.Schema{Target: &data.Column{Name: head[D], Kind: data.Categorical}}
	for _, h := range head[:D] {
		s.Features = append(s.Features, data.Column{Name: h})
	}
	d := &data.Dataset{Schema: s, Source: name + ".csv"}
	levels := map[string]int{}
	for r, rec := range recs[1:] {
		for _, cell := range rec[:D] {
			v := math.NaN()
			if cell != "" && cell != "?" {
				if v, err = strconv.ParseFloat(cell, 64); err != nil {
					tb.Fatalf("%s line %d: %v", name, r+2, err)
				}
			}
			d.X = append(d.X, v)
		}
		c, ok := levels[rec[D]]
		if !ok {
			c = len(levels)
			levels[rec[D]] = c
			s.Target.Levels = append(s.Target.Levels, rec[D])
		}
		d.Y = append(d.Y, float64(c))
		d.Lines = append(d.Lines, r+2)
		d.N++
	}
	return d
}

// standardized returns a copy of d with every feature centred and scaled
// to unit population standard deviation, as scikit-learn's StandardScaler.
func standardized(d *data.Dataset) *data.Dataset {
	D := d.D()
	s := *d
	s.X = append([]float64(nil), d.X...)
	for j := range D {
		mu, n := 0.0, 0.0
		for i := range d.N {
			if v := s.X[i*D+j]; !math.IsNaN(v) {
				mu += v
				n++
			}
		}
		mu /= n
		v2 := 0.0
		for i := range d.N {
			if v := s.X[i*D+j]; !math.IsNaN(v) {
				v2 += (v - mu) * (v - mu)
			}
		}
		sd := math.Sqrt(v2 / n)
		for i := range d.N {
			s.X[i*D+j] = (s.X[i*D+j] - mu) / sd
		}
	}
	return &s
}

// distmvSym returns the d×d row-major matrix s as a mat.SymDense.
func distmvSym(s []float64, d int) *mat.SymDense {
	return mat.NewSymDense(d, append([]float64(nil), s...))
}
