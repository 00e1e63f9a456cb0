package mixture

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// randomSym returns a random symmetric d×d matrix B Bᵀ / d − shift·I,
// row-major, whose eigenvalues lie around 1 − shift.
func randomSym(rng *rand.Rand, d int, shift float64) []float64 {
	b := make([]float64, d*d)
	for i := range b {
		b[i] = rng.NormFloat64()
	}
	a := make([]float64, d*d)
	for i := range d {
		for j := range d {
			for k := range d {
				a[i*d+j] += b[i*d+k] * b[j*d+k] / float64(d)
			}
		}
		a[i*d+i] -= shift
	}
	return a
}

// TestJacobiEigen checks that V is orthonormal, that V Λ Vᵀ gives the
// matrix back, and that the eigenvalues agree with LAPACK's.
func TestJacobiEigen(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, d := range []int{1, 2, 5, 12} {
		a := randomSym(rng, d, 0.5)
		lambda, v := jacobiEigen(slices.Clone(a), d)
		for i := range d {
			for j := range d {
				vv, back := 0.0, 0.0
				for e := range d {
					vv += v[e*d+i] * v[e*d+j]
					back += v[i*d+e] * lambda[e] * v[j*d+e]
				}
				if want := float64(bool2int(i == j)); math.Abs(vv-want) > 1e-14 {
					t.Errorf("d=%d: (VᵀV)_%d%d = %v", d, i, j, vv)
				}
				if math.Abs(back-a[i*d+j]) > 1e-14 {
					t.Errorf("d=%d: (VΛVᵀ)_%d%d = %v, want %v", d, i, j, back, a[i*d+j])
				}
			}
		}
		var eig mat.EigenSym
		if !eig.Factorize(mat.NewSymDense(d, slices.Clone(a)), false) {
			t.Fatal("no decomposition")
		}
		slices.Sort(lambda)
		checkSlice(t, "eigenvalues", lambda, eig.Values(nil), 1e-13)
	}
}

func bool2int(b bool) int {
	if b {
		return 1
	}
	return 0
}

// TestFloorEigen checks regularize's Floor: on a random matrix with
// eigenvalues on both sides of the floor it is V max(Λ, r) Vᵀ (from
// LAPACK's decomposition), on one whose eigenvalues are all above the floor
// it changes nothing, and on a matrix of raw scales (variances 1e10, 6
// and 0, with correlations) it gives a matrix whose Cholesky
// factorisation succeeds, with the zero variance raised to the floor.
func TestFloorEigen(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	const d, r = 6, 0.3
	a := randomSym(rng, d, 0.6)
	var eig mat.EigenSym
	if !eig.Factorize(mat.NewSymDense(d, slices.Clone(a)), true) {
		t.Fatal("no decomposition")
	}
	lambda := eig.Values(nil)
	if lambda[0] >= r || lambda[d-1] <= r {
		t.Fatalf("eigenvalues %v do not straddle %v", lambda, r)
	}
	var v mat.Dense
	eig.VectorsTo(&v)
	want := make([]float64, d*d)
	for i := range d {
		for j := range d {
			for e, l := range lambda {
				want[i*d+j] += v.At(i, e) * max(l, r) * v.At(j, e)
			}
		}
	}
	got := slices.Clone(a)
	regularize(got, d, r, Floor, false)
	checkSlice(t, "floored", got, want, 1e-14)

	above := slices.Clone(want)
	regularize(above, d, r*(1-1e-9), Floor, false)
	checkSlice(t, "above the floor", above, want, 0)

	// A component's covariance on adult's raw numeric features, as EM
	// computed it (age, fnlwgt, education-num, capital-gain,
	// capital-loss, hours-per-week): variances from 1.7e10 to −1.3e-48
	// (capital-loss is 0 in the component's rows). Floored from LAPACK's
	// eigenvalues it is indefinite.
	raw := []float64{
		164.9551528627609, -440286.9706063595, -2.220436065618689, 20256.33593561318, -3.614991532862209e-32, -7.738657129401694,
		-440286.9706063595, 1.689179638016711e+10, -98857.82883651166, -5.3425489346621794e+08, 3.948534751627629e-28, -77300.51195772926,
		-2.220436065618689, -98857.82883651166, 6.248165796368512, 3460.9512243703043, -3.012492944051841e-33, 8.81299624735284,
		20256.33593561318, -5.3425489346621794e+08, 3460.9512243703043, 1.6867304424549985e+08, 3.084792774709085e-30, 20403.81349055743,
		-3.614991532862209e-32, 3.948534751627629e-28, -3.012492944051841e-33, 3.084792774709085e-30, -1.3378156112028709e-48, -9.037478832155522e-33,
		-7.738657129401694, -77300.51195772926, 8.81299624735284, 20403.81349055743, -9.037478832155522e-33, 125.5966873065509,
	}
	floored := slices.Clone(raw)
	regularize(floored, 6, 1e-6, Floor, false)
	var chol mat.Cholesky
	if !chol.Factorize(mat.NewSymDense(6, slices.Clone(floored))) {
		t.Errorf("floored raw-scale matrix %v is not positive definite", floored)
	}
	for i, v := range floored {
		want := raw[i]
		if i == 4*6+4 {
			want = 1e-6
		}
		if !close(v, want, 1e-9) {
			t.Errorf("floored raw-scale matrix: entry %d/%d is %v, want %v", i/6, i%6, v, want)
		}
	}
}
