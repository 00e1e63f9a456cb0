package logistic

import (
	"math"
	"testing"

	"github.com/gendisc/gendisc/dataio"
	"github.com/gendisc/gendisc/internal/bundled"
	"github.com/gendisc/gendisc/internal/kernel"
)

// TestPortableKernels: fits with the portable kernels reach the optimum
// the kernels in use reach, binary and multinomial, to the solver's
// tolerance.
func TestPortableKernels(t *testing.T) {
	for _, name := range []string{"breast_cancer_wdbc", "wine"} {
		d := bundled.Load(t, name, dataio.Options{})
		want, err := Config{Solver: LBFGS, Tol: 1e-10}.Fit(d)
		if err != nil {
			t.Fatal(err)
		}
		dot, axpy, exp := dotRows2, axpyRows2, expInPlace
		dotRows2, axpyRows2, expInPlace = kernel.DotRows2Go, kernel.AxpyRows2Go, kernel.ExpFlooredGo
		got, err := Config{Solver: LBFGS, Tol: 1e-10}.Fit(d)
		dotRows2, axpyRows2, expInPlace = dot, axpy, exp
		if err != nil {
			t.Fatal(err)
		}
		gw, gb := got.Coefficients()
		ww, wb := want.Coefficients()
		for c := range gw {
			for j := range gw[c] {
				if math.Abs(gw[c][j]-ww[c][j]) > 1e-7*max(1, math.Abs(ww[c][j])) {
					t.Errorf("%s: w[%d][%d] = %v portable, %v in use", name, c, j, gw[c][j], ww[c][j])
				}
			}
			if math.Abs(gb[c]-wb[c]) > 1e-7*max(1, math.Abs(wb[c])) {
				t.Errorf("%s: b[%d] = %v portable, %v in use", name, c, gb[c], wb[c])
			}
		}
	}
}
