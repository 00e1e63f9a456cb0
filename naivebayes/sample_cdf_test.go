package naivebayes

import "testing"

// TestSearchCDF: the first term whose cumulative probability exceeds u,
// never a term of probability 0, also when u reaches the total.
func TestSearchCDF(t *testing.T) {
	cdf := []float64{0, 0.25, 0.25, 0.75, 1, 1} // θ = 0, ¼, 0, ½, ¼, 0
	for _, c := range []struct {
		u    float64
		want int
	}{{0, 1}, {0.2, 1}, {0.25, 3}, {0.5, 3}, {0.75, 4}, {0.99, 4}, {1, 4}} {
		if got := searchCDF(cdf, c.u); got != c.want {
			t.Errorf("searchCDF(%g) = %d, want %d", c.u, got, c.want)
		}
	}
}
