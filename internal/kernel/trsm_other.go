//go:build !amd64

package kernel

// SolveLanes is the portable batched triangular solve (trsm.go) on this
// architecture; callers must not assign it (tests may, and must restore
// it).
var SolveLanes = SolveLanesGo
