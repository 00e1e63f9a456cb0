//go:build goexperiment.simd && amd64

package gda

import (
	"testing"

	"simd/archsimd"

	"github.com/gendisc/gendisc/data"
	"github.com/gendisc/gendisc/internal/bundled"
)

// TestGroupSolver compares the AVX-512 distances with a Trsm solve, for
// groups of 32 rows and a partial last group, an even and an odd number of
// features.
func TestGroupSolver(t *testing.T) {
	if !archsimd.X86.AVX512() {
		t.Skip("no AVX-512")
	}
	for _, name := range []string{"sonar", "wine"} {
		checkSolver(t, bundled.Load(t, name, data.Options{}), newGroupSolver)
	}
}
