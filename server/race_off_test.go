//go:build !race

package server

// raceDetector: the race detector pads allocations, so that the tests
// that measure them only log what they measure.
const raceDetector = false
