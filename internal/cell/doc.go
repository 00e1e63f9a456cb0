// Package cell is the syntax of a cell of text data, which the readers
// (package dataio) and the table (package data, to order levels) share: a
// decimal number (Scan, Parse, with a fast path and the test of whether
// its text can be rebuilt from its value), the missing-value tokens
// (Missing) and the spaces around them (TrimSpace). It imports only the
// standard library.
package cell
