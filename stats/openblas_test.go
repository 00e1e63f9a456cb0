//go:build openblas

package stats

// With -tags openblas the tests and benchmarks run on OpenBLAS.
import _ "github.com/gendisc/gendisc/internal/openblas"
