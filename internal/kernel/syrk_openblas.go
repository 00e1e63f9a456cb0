//go:build openblas

package kernel

import _ "github.com/gendisc/gendisc/internal/openblas" // blas64 runs in OpenBLAS

// The openblas build keeps OpenBLAS's dsyrk for Syrk.
func init() { blasSyrk = syrkBLAS64 }
