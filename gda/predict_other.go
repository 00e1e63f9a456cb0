//go:build !amd64

package gda

// defaultKernel returns the portable kernel.
func defaultKernel() laneKernel { return portableKernel }
