package dataio

import (
	"encoding/binary"
	"testing"
)

// TestCheckRuns: runs that announce the page's values (a bit-packed run
// padded to a multiple of 8 included) pass; a run of repeated values that
// announces two billion from a few bytes, as a corrupt page can, is
// refused; so are bit-packed values of width 0.
func TestCheckRuns(t *testing.T) {
	rle := func(count uint64, value byte) []byte {
		return append(binary.AppendUvarint(nil, count<<1), value)
	}
	packed := func(groups uint64, bitWidth int) []byte {
		return append(binary.AppendUvarint(nil, groups<<1|1), make([]byte, int(groups)*bitWidth)...)
	}
	cases := []struct {
		name     string
		b        []byte
		bitWidth int
		n        int
		ok       bool
	}{
		{"exact", append(rle(5, 1), rle(3, 0)...), 1, 8, true},
		{"padded bit-packed run", packed(32, 1), 1, 130, true},
		{"padded runs (DuckDB)", append(append(packed(32, 1), rle(8, 1)...), packed(32, 1)...), 1, 300, true},
		{"run of two billion", rle(1<<31-1, 1), 1, 10, false},
		{"runs beyond the page", append(rle(1000, 1), rle(1000, 0)...), 1, 10, false},
		{"bit-packed of width 0", packed(1<<20, 0), 0, 10, false},
	}
	for _, c := range cases {
		if err := checkRuns(c.b, c.bitWidth, c.n); (err == nil) != c.ok {
			t.Errorf("%s: checkRuns gives %v", c.name, err)
		}
	}
	// A level stream behind its 4-byte length, then what follows.
	b := binary.LittleEndian.AppendUint32(nil, 2)
	b = append(append(b, rle(4, 1)...), 7, 8)
	rest, err := checkPrefixedRuns(b, 4)
	if err != nil || string(rest) != "\x07\x08" {
		t.Errorf("checkPrefixedRuns: %q, %v", rest, err)
	}
}

// TestCheckThrift: a struct walks to its stop byte; a string or a list
// longer than the bytes left is refused without being allocated.
func TestCheckThrift(t *testing.T) {
	// field 1 i32 = 3, field 2 binary "ab", stop.
	good := []byte{0x15, 0x06, 0x18, 0x02, 'a', 'b', 0x00, 0xff}
	if n, err := checkThrift(good); err != nil || n != 7 {
		t.Errorf("checkThrift(good) = %d, %v; want 7, nil", n, err)
	}
	longString := []byte{0x18, 0xff, 0xff, 0xff, 0xff, 0x07, 'a', 0x00}
	if _, err := checkThrift(longString); err == nil {
		t.Error("a string of 2 GB in 8 bytes was not refused")
	}
	// field 1, a list of structs whose count (varint after 0xfc) is 2³¹.
	longList := []byte{0x19, 0xfc, 0x80, 0x80, 0x80, 0x80, 0x08, 0x00, 0x00}
	if _, err := checkThrift(longList); err == nil {
		t.Error("a list of 2³¹ structs in 9 bytes was not refused")
	}
}
