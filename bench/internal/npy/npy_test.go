package npy

import (
	"math"
	"path/filepath"
	"slices"
	"testing"
)

// The files in testdata were written by numpy.save:
//
//	np.save('f8.npy', np.array([[1.5, -2.0, np.pi], [1e300, -0.0, 7.0]]))
//	np.save('i8.npy', np.array([3, -1, 0, 9], dtype=np.int64))
func TestReadNpy(t *testing.T) {
	for _, tc := range []struct {
		file  string
		shape []int
		want  []float64
	}{
		{"f8.npy", []int{2, 3}, []float64{1.5, -2, math.Pi, 1e300, math.Copysign(0, -1), 7}},
		{"i8.npy", []int{4}, []float64{3, -1, 0, 9}},
	} {
		x, shape, err := Read(filepath.Join("testdata", tc.file))
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(shape, tc.shape) || !bitsEqual(x, tc.want) {
			t.Errorf("%s: got %v shape %v, want %v shape %v", tc.file, x, shape, tc.want, tc.shape)
		}
	}
}

func TestNpyRoundTrip(t *testing.T) {
	for _, shape := range [][]int{{5}, {2, 3}, {0, 4}} {
		n := 1
		for _, s := range shape {
			n *= s
		}
		x := make([]float64, n)
		for i := range x {
			x[i] = math.Sqrt(float64(i)) - 1
		}
		path := filepath.Join(t.TempDir(), "a.npy")
		if err := Write(path, x, shape...); err != nil {
			t.Fatal(err)
		}
		y, got, err := Read(path)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(got, shape) || !bitsEqual(x, y) {
			t.Errorf("shape %v: read back %v shape %v, wrote %v", shape, y, got, x)
		}
	}
}

func bitsEqual(a, b []float64) bool {
	return slices.EqualFunc(a, b, func(x, y float64) bool { return math.Float64bits(x) == math.Float64bits(y) })
}
