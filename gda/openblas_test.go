//go:build openblas

package gda

// With -tags openblas the tests and benchmarks run on OpenBLAS.
import _ "github.com/gendisc/gendisc/internal/openblas"
