package seqio

import (
	"bytes"
	"compress/gzip"
	"errors"
	"io"
	"strings"
	"testing"
	"testing/iotest"
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
