package dataio

import (
	"slices"
	"testing"
)

// TestScanRows checks the row boundaries found in quoted input.
func TestScanRows(t *testing.T) {
	b := []byte("a,\"x\ny\"\nb,c\n\"\"\"\n\",d\ne,\"f")
	splits, last := scanRows(b, ',', []int{1, 9, 12, 20})
	if want := []int{8, 12, 20, -1}; !slices.Equal(splits, want) || last != 20 {
		t.Errorf("splits %v last %d, want %v 20", splits, last, want)
	}
	// A quote ending the buffer may be the first of a doubled quote.
	if _, last := scanRows([]byte("a\n\"x\""), ',', nil); last != 2 {
		t.Errorf("last %d, want 2", last)
	}
	// A quote inside an unquoted field does not open quotes.
	if _, last := scanRows([]byte("a\"b\nc\n"), ',', nil); last != 6 {
		t.Errorf("last %d, want 6", last)
	}
}
