//go:build !amd64

package kernel

// softmaxAsm is false: there is no assembly kernel for SoftmaxRows.
const softmaxAsm = false

func softmaxRowsAsm(x []float64, k int, e []float64, other func(row []float64)) {
	panic("kernel: no softmaxRowsAsm on this architecture")
}
