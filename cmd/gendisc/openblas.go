//go:build openblas

package main

// Built with -tags openblas, gendisc's linear algebra runs in OpenBLAS.
import _ "github.com/gendisc/gendisc/internal/openblas"
