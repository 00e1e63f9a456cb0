package dataio

import (
	"bytes"
	"fmt"
	"strings"
)

// scanRows finds row boundaries in b, which starts at the start of a row: a
// boundary is the offset just after a '\n' that is outside quotes. It
// returns, for each target offset (ascending), the first boundary after it
// (-1 when there is none in b), and the last boundary in b (0 when there is
// none).
//
// A quote opens a quoted field only at the start of a field; a quote
// elsewhere is left to the row parser, which reports it. A quoted field
// still open at the end of b (or closed by the last byte of b, which may be
// the first half of a doubled quote) stops the scan: the rows from there on
// are incomplete. Outside quoted fields the scan jumps from quote to quote
// with bytes.IndexByte, so a chunk without quotes costs a few vectorised
// passes.
func scanRows(b []byte, comma byte, targets []int) (splits []int, last int) {
	splits = make([]int, len(targets))
	for k := range splits {
		splits[k] = -1
	}
	next := 0 // next target to place
	pos := 0
	for pos < len(b) {
		q := bytes.IndexByte(b[pos:], '"')
		if q < 0 {
			q = len(b)
		} else {
			q += pos
		}
		// b[pos:q] is outside quotes.
		for next < len(targets) && targets[next] < q {
			from := max(pos, targets[next])
			i := bytes.IndexByte(b[from:q], '\n')
			if i < 0 {
				break
			}
			splits[next] = from + i + 1
			next++
		}
		if i := bytes.LastIndexByte(b[pos:q], '\n'); i >= 0 {
			last = pos + i + 1
		}
		if q == len(b) {
			break
		}
		if q > 0 && b[q-1] != comma && b[q-1] != '\n' {
			pos = q + 1 // a bare quote: the row parser reports it
			continue
		}
		closed := closeQuote(b, q+1)
		if closed < 0 {
			break
		}
		pos = closed
	}
	return splits, last
}

// closeQuote returns the offset after the quote that closes the quoted
// field whose content starts at b[p], or -1 when b ends first (a quote as
// the last byte of b counts as not yet closed, since it may be the first of
// a doubled quote).
func closeQuote(b []byte, p int) int {
	for {
		i := bytes.IndexByte(b[p:], '"')
		if i < 0 || p+i+1 == len(b) {
			return -1
		}
		p += i + 1
		if b[p] != '"' {
			return p
		}
		p++
	}
}

// headerEnd returns the offset just after the '\n' that ends the first row
// of b, quotes toggling the quoted state, or -1 when b holds no complete
// row. It also counts the candidate delimiters outside quotes on that row,
// for detectComma.
func headerEnd(b []byte) (end int, counts [3]int) {
	in := false
	for i, c := range b {
		switch {
		case c == '"':
			in = !in
		case in:
		case c == '\n':
			return i + 1, counts
		default:
			if k := strings.IndexByte(commas, c); k >= 0 {
				counts[k]++
			}
		}
	}
	return -1, counts
}

// commas are the delimiters that Read detects, in order of preference on a
// tie.
const commas = ",\t;"

// detectComma picks the candidate delimiter that occurs most often outside
// quotes on the header line; a header without any is one column, read as
// comma-separated.
func detectComma(counts [3]int) byte {
	best := 0
	for k := range counts {
		if counts[k] > counts[best] {
			best = k
		}
	}
	return commas[best]
}

// checkComma validates a delimiter given in Options.
func checkComma(r rune) (byte, error) {
	switch {
	case r == 0:
		return 0, nil
	case r == '"' || r == '\r' || r == '\n' || r >= 0x80:
		return 0, fmt.Errorf("data: invalid delimiter %q", r)
	}
	return byte(r), nil
}
