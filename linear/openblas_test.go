//go:build openblas

package linear

// With -tags openblas the tests and benchmarks run on OpenBLAS.
import _ "github.com/gendisc/gendisc/internal/openblas"
