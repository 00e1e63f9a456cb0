package seqio

import (
	"bytes"
	"compress/gzip"
	"errors"
	"io"
	"strings"
	"testing"
	"testing/iotest"
	"unicode/utf8"

	"github.com/gendisc/gendisc/data"
)

// TestReadAhead checks that the read-ahead gives its source's bytes in
// order across its blocks, from a source that gives one byte a read, and
// then the source's error, and that Close stops it midway.
func TestReadAhead(t *testing.T) {
	src := bytes.Repeat([]byte("0123456789abcdef"), (3*readAheadBlock+12345)/16)
	r := newReadAhead(iotest.OneByteReader(bytes.NewReader(src)))
	got, err := io.ReadAll(iotest.HalfReader(r))
	r.Close()
	if err != nil || !bytes.Equal(got, src) {
		t.Errorf("read %d bytes (error %v), want the %d of the source", len(got), err, len(src))
	}
	broken := errors.New("broken")
	r = newReadAhead(io.MultiReader(strings.NewReader("abc"), iotest.ErrReader(broken)))
	got, err = io.ReadAll(r)
	r.Close()
	if string(got) != "abc" || !errors.Is(err, broken) {
		t.Errorf("read %q, error %v: want abc and the source's error", got, err)
	}
	r = newReadAhead(bytes.NewReader(src))
	if _, err := io.ReadFull(r, make([]byte, 10)); err != nil {
		t.Fatal(err)
	}
	r.Close() // the goroutine, blocked on a full queue, returns
}

// TestReadTruncated checks that a gzip file cut short is an error, not
// the sentences read so far.
func TestReadTruncated(t *testing.T) {
	var buf bytes.Buffer
	for range 2000 {
		buf.WriteString("1\tword\t_\tX\t_\t_\t_\t_\t_\t_\n\n")
	}
	var zb bytes.Buffer
	zw := gzip.NewWriter(&zb)
	zw.Write(buf.Bytes())
	zw.Close()
	z := zb.Bytes()
	if _, err := Read(bytes.NewReader(z[:len(z)/2]), "f.conllu.gz", Options{}); err == nil {
		t.Error("a truncated gzip file read without an error")
	}
	c, err := Read(bytes.NewReader(z), "f.conllu.gz", Options{})
	if err != nil || len(c.Sentences) != 2000 {
		t.Fatalf("the whole file: error %v", err)
	}
}

// FuzzCutLetter checks that the blocks' checks of UTF-8, a letter cut by
// a block's end checked with the next block, are together utf8.Valid of
// the whole data, however it is cut into blocks.
func FuzzCutLetter(f *testing.F) {
	for _, s := range []string{"", "abc", "é", "日本語テキスト", "a\xffb", "\xe6\x97", "€\xe2\x82", "\xf0\x9f\x98\x80x", "\xed\xa0\x80", "\xc0\xaf"} {
		f.Add([]byte(s), []byte{1, 2, 3})
	}
	f.Fuzz(func(t *testing.T, data, cuts []byte) {
		var c cutLetter
		valid, rest := true, data
		for i := 0; ; i++ {
			n := len(rest)
			if i < len(cuts) {
				n = min(n, int(cuts[i]%7))
			}
			last := n == len(rest)
			valid = valid && c.check(rest[:n], last)
			rest = rest[n:]
			if last {
				break
			}
		}
		if valid != utf8.Valid(data) {
			t.Fatalf("%q cut by %v: blocks valid %v, utf8.Valid %v", data, cuts, valid, !valid)
		}
	})
}

// TestReadInvalidUTF8 checks that a line of invalid UTF-8 is refused at
// its line wherever a block of the read-ahead ends, in a file of
// several blocks.
func TestReadInvalidUTF8(t *testing.T) {
	line := "日本 X\n"
	for _, bad := range []string{"a\xff X\n", "\xe6\x97 X\n"} {
		for _, before := range []int{readAheadBlock/len(line) - 1, readAheadBlock / len(line), 3 * readAheadBlock / len(line)} {
			text := strings.Repeat(line, before) + bad + line
			_, err := Read(strings.NewReader(text), "s.conll", Options{})
			var pe *data.ParseError
			if !errors.As(err, &pe) || !errors.Is(err, data.ErrEncoding) || pe.Line != before+1 {
				t.Errorf("%q after %d lines: %v, want data.ErrEncoding at line %d", bad, before, err, before+1)
			}
		}
	}
	if _, err := Read(strings.NewReader(strings.Repeat(line, 3*readAheadBlock/len(line))), "s.conll", Options{}); err != nil {
		t.Errorf("valid UTF-8 over several blocks: %v", err)
	}
}
