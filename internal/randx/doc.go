// Package randx holds the random draws that several model families share:
// an index drawn in proportion to weights or log-weights.
package randx
