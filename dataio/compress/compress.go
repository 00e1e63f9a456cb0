// Package compress removes the compressions that gendisc reads, gzip,
// zstd, bzip2 and xz, which it tells by their magic numbers (the first
// bytes of the input), never by a file's name. Package dataio uses it for
// data files; package models sets it as the registry's decompressor
// (registry.SetDecompressor) for model files of foreign formats, so that
// the registry, and the model families that import it, do not depend on
// the compressors.
package compress

import (
	"bytes"
	"compress/bzip2"
	"fmt"
	"io"

	"github.com/klauspost/compress/gzip"
	"github.com/klauspost/compress/zstd"
	"github.com/ulikunitz/xz"
)

// Method returns the name of the compression that head, the first bytes
// of an input, starts with ("gzip", "zstd", "bzip2" or "xz"), and a
// function that returns the decompressed input from the whole input; ""
// and nil when head starts with none of them.
func Method(head []byte) (name string, decompress func(io.Reader) (io.Reader, error)) {
	switch {
	case bytes.HasPrefix(head, []byte{0x1f, 0x8b}):
		return "gzip", func(r io.Reader) (io.Reader, error) { return gzip.NewReader(r) }
	case bytes.HasPrefix(head, []byte{0x28, 0xb5, 0x2f, 0xfd}):
		// One goroutine: the decoder then holds none that would need
		// closing.
		return "zstd", func(r io.Reader) (io.Reader, error) {
			return zstd.NewReader(r, zstd.WithDecoderConcurrency(1), zstd.WithDecoderLowmem(false))
		}
	case len(head) >= 4 && bytes.HasPrefix(head, []byte("BZh")) && head[3] >= '1' && head[3] <= '9':
		return "bzip2", func(r io.Reader) (io.Reader, error) { return bzip2.NewReader(r), nil }
	case bytes.HasPrefix(head, []byte{0xfd, '7', 'z', 'X', 'Z', 0}):
		return "xz", func(r io.Reader) (io.Reader, error) { return xz.NewReader(r) }
	}
	return "", nil
}

// Bytes returns b decompressed, and the name of the compression removed,
// when b starts with one that Method knows; b itself and "" otherwise.
// source names b in errors, which are those of a damaged or truncated
// compressed input.
func Bytes(b []byte, source string) ([]byte, string, error) {
	name, decompress := Method(b)
	if decompress == nil {
		return b, "", nil
	}
	r, err := decompress(bytes.NewReader(b))
	if err == nil {
		b, err = io.ReadAll(r)
	}
	if err != nil {
		return nil, name, fmt.Errorf("%s: %s: %w", source, name, err)
	}
	return b, name, nil
}
