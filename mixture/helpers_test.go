package mixture

import (
	"math"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/gendisc/gendisc/data"
	"github.com/gendisc/gendisc/dataio"
	"github.com/gendisc/gendisc/internal/bundled"
)

// loadDataset reads a bundled data set, the last column being the class,
// with NAME.csv as its source.
func loadDataset(tb testing.TB, name string) *data.Dataset {
	tb.Helper()
	d := bundled.Load(tb, name, dataio.Options{})
	d.Source.Name = name + ".csv"
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
