package dataio

import (
	"bytes"
	"compress/gzip"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"slices"
	"sync"

	"github.com/klauspost/compress/snappy"
	"github.com/klauspost/compress/zstd"
	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/encoding/thrift"
	"github.com/parquet-go/parquet-go/format"
	"github.com/pierrec/lz4/v4"
)

// parquet-go allocates what a file announces before it reads it: the
// length of the footer, the counts of Thrift lists and the lengths of its
// strings, a page's size, the values of a run of the RLE/bit-packing
// hybrid encoding (two billion from a few bytes), the output of an LZ4
// block it cannot decode (doubling without end). A corrupt or hostile
// file of a few bytes then makes it allocate gigabytes, a fatal error in
// Go rather than an error value. checkFooter and checkChunk read what
// parquet-go is about to decode and refuse what announces more than the
// bytes or values there are; the values of a page are themselves bounded
// by the row group's rows, which openParquet bounds by the file's size.
// The inputs of testdata/fuzz/FuzzParquet named oom-* each killed the
// fuzzer's process before these checks.

// checkFooter refuses a file whose footer, the file metadata, is longer
// than the file: parquet-go allocates the length it reads from the file's
// last 8 bytes (a 4-byte length, then "PAR1") before it reads the footer.
func checkFooter(at io.ReaderAt, size int64) error {
	var tail [8]byte
	if size < 12 {
		return fmt.Errorf("%d bytes, fewer than a Parquet file's magic numbers and footer", size)
	}
	if _, err := at.ReadAt(tail[:], size-8); err != nil {
		return err
	}
	n := int64(binary.LittleEndian.Uint32(tail[:4]))
	if n > size-12 {
		return fmt.Errorf("a footer of %d bytes in a file of %d", n, size)
	}
	if string(tail[4:]) != "PAR1" {
		return nil // parquet-go says what it is (an encrypted footer, ...)
	}
	footer := make([]byte, n)
	if _, err := at.ReadAt(footer, size-8-n); err != nil {
		return err
	}
	_, err := checkThrift(footer)
	return err
}

// maxPageBytes bounds the uncompressed size of a page, which parquet-go
// allocates before it decompresses the page: writers make pages of about
// 1 MiB (8 MiB at most by default), and a page of more than 256 MiB is
// taken for a corrupt header.
const maxPageBytes = 256 << 20

// checkChunk checks the pages of the column chunk meta, read from at (of
// size bytes) into *buf, for a column of rows values (neither nested nor repeated)
// whose values may be null when optional: each page's compressed data
// decode to no more than the uncompressed size its header gives (see
// checkCompressed), each data page holds at most the rows that remain,
// and its definition levels and dictionary indices announce no more
// values than the page holds; and the chunk and its pages lie in the file
// (parquet-go allocates a page's size before it reads it).
func checkChunk(at io.ReaderAt, size int64, meta *format.ColumnMetaData, rows int, optional bool, buf *[]byte) error {
	start := meta.DataPageOffset
	if o := meta.DictionaryPageOffset; o > 0 && o < start {
		start = o
	}
	n := meta.TotalCompressedSize
	if start < 0 || n < 0 || start > size || n > size-start {
		return fmt.Errorf("a column chunk of %d bytes at byte %d of a file of %d", n, start, size)
	}
	*buf = slices.Grow((*buf)[:0], int(n))[:n] // reused: fresh memory costs a page fault per 4 kB
	b := *buf
	if _, err := at.ReadAt(b, start); err != nil {
		return nil
	}
	var protocol thrift.CompactProtocol
	var plain []byte
	left := rows
	for page := 0; len(b) > 0; page++ {
		var h format.PageHeader
		m, err := checkThrift(b)
		if err != nil {
			return fmt.Errorf("page %d: header: %w", page, err)
		}
		r := protocol.NewReaderFromBytes(b[:m])
		if err = thrift.NewDecoder(r).Decode(&h); err != nil {
			// parquet-go reads the header from a stream, allocating the
			// lengths it announces before it reads them.
			return fmt.Errorf("page %d: header: %w", page, err)
		}
		b = b[r.BytesRead():]
		if h.CompressedPageSize < 0 || h.UncompressedPageSize < 0 {
			return nil // parquet-go refuses them
		}
		if int(h.CompressedPageSize) > len(b) {
			return fmt.Errorf("page %d: %d bytes where the column chunk has %d left", page, h.CompressedPageSize, len(b))
		}
		body := b[:h.CompressedPageSize]
		b = b[h.CompressedPageSize:]
		switch {
		case h.Type == format.DictionaryPage:
			_, err = checkCompressed(meta.Codec, nil, body, int(h.UncompressedPageSize), 0)
		case h.Type == format.DataPage && h.DataPageHeader.Valid:
			v := &h.DataPageHeader.V
			if err = checkPageValues(int(v.NumValues), left); err != nil {
				break
			}
			left -= int(v.NumValues)
			// The levels come first, the dictionary indices after them:
			// a page of neither needs no decompressing, one of levels
			// only its first bytes.
			levels, dict := optional && v.DefinitionLevelEncoding == format.RLE, checksValues(v.Encoding)
			u, want := int(h.UncompressedPageSize), -1
			if !dict && levels {
				want = 4
			} else if !dict {
				want = 0
			}
			plain, err = checkCompressed(meta.Codec, plain, body, u, want)
			if err == nil && want == 4 && len(plain) == 4 {
				plain, err = checkCompressed(meta.Codec, plain, body, u, 4+int(binary.LittleEndian.Uint32(plain)))
			}
			if err == nil {
				err = checkDataPage(plain, int(v.NumValues), levels, v.Encoding, meta.Type)
			}
		case h.Type == format.DataPageV2 && h.DataPageHeaderV2.Valid:
			v := &h.DataPageHeaderV2.V
			if err = checkPageValues(int(v.NumValues), left); err != nil {
				break
			}
			left -= int(v.NumValues)
			lr, ld := int(v.RepetitionLevelsByteLength), int(v.DefinitionLevelsByteLength)
			if lr < 0 || ld < 0 || lr+ld > len(body) {
				return nil
			}
			if optional {
				err = checkRuns(body[lr:lr+ld], 1, int(v.NumValues))
			}
			values := body[lr+ld:]
			if err == nil && (!v.IsCompressed.Valid || v.IsCompressed.V) {
				want := 0
				if checksValues(v.Encoding) {
					want = -1
				}
				plain, err = checkCompressed(meta.Codec, plain, values, int(h.UncompressedPageSize)-lr-ld, want)
				values = plain
			}
			if err == nil && checksValues(v.Encoding) {
				err = checkValues(values, int(v.NumValues), v.Encoding, meta.Type)
			}
		}
		if err != nil {
			return fmt.Errorf("page %d: %w", page, err)
		}
	}
	return nil
}

// checkCompressed checks the compressed data src of a page whose header
// gives n bytes uncompressed, and returns the first want of them
// decompressed (all when want < 0, none when want = 0; in dst's memory).
// It refuses more than maxPageBytes, compressed data that announce more
// than n bytes (snappy's length prefix, which its decoder allocates), and
// LZ4 blocks that do not decode into n bytes (parquet-go's LZ4 decoder
// doubles its buffer for as long as a block fails, a corrupt block
// without end). zstd and gzip decode no more than asked, so that the
// definition levels at the start of a page cost a fraction of its
// decompression.
func checkCompressed(codec format.CompressionCodec, dst, src []byte, n, want int) ([]byte, error) {
	if n < 0 || n > maxPageBytes {
		return nil, fmt.Errorf("a page of %d bytes uncompressed, more than the %d read", n, maxPageBytes)
	}
	if want > n || want < 0 {
		want = n
	}
	var err error
	switch codec {
	case format.Uncompressed:
		return src, nil
	case format.Snappy:
		var m int
		if m, err = snappy.DecodedLen(src); err == nil && m > n {
			return nil, fmt.Errorf("compressed data of %d bytes in a page of %d", m, n)
		}
		if err == nil && want > 0 {
			dst, err = snappy.Decode(dst[:cap(dst)], src)
		}
	case format.Lz4Raw, format.Lz4:
		dst = slices.Grow(dst[:0], n)[:n]
		var m int
		if m, err = lz4.UncompressBlock(src, dst); err == nil {
			dst = dst[:m]
		}
	case format.Zstd, format.Gzip:
		if want > 0 {
			dst, err = decodePrefix(codec, dst, src, want)
		}
	default:
		if want > 0 {
			if dst, err = parquet.LookupCompressionCodec(codec).Decode(dst[:0], src); err == nil && len(dst) > n {
				return nil, fmt.Errorf("compressed data of more than the page's %d bytes", n)
			}
		}
	}
	if err != nil {
		return nil, fmt.Errorf("corrupt %s data: %w", codec, err)
	}
	return dst, nil
}

// zstdDecoders and gzipReaders hold streaming decoders for decodePrefix.
var (
	zstdDecoders sync.Pool
	gzipReaders  sync.Pool
)

// decodePrefix decodes the first want bytes of the zstd or gzip data src
// (fewer when there are fewer) into dst's memory.
func decodePrefix(codec format.CompressionCodec, dst, src []byte, want int) ([]byte, error) {
	var r io.Reader
	if codec == format.Zstd {
		d, _ := zstdDecoders.Get().(*zstd.Decoder)
		if d == nil {
			var err error
			if d, err = zstd.NewReader(nil, zstd.WithDecoderConcurrency(1)); err != nil {
				return nil, err
			}
		}
		defer zstdDecoders.Put(d)
		if err := d.Reset(bytes.NewReader(src)); err != nil {
			return nil, err
		}
		r = d
	} else {
		z, _ := gzipReaders.Get().(*gzip.Reader)
		if z == nil {
			z = new(gzip.Reader)
		}
		defer gzipReaders.Put(z)
		if err := z.Reset(bytes.NewReader(src)); err != nil {
			return nil, err
		}
		r = z
	}
	dst = slices.Grow(dst[:0], want)[:want]
	k, err := io.ReadFull(r, dst)
	if err == io.ErrUnexpectedEOF || err == io.EOF {
		err = nil
	}
	return dst[:k], err
}

// checkPageValues refuses a data page of more values than the rows left.
func checkPageValues(values, left int) error {
	if values > left {
		return fmt.Errorf("%d values in a data page where %d rows remain", values, left)
	}
	return nil
}

// checkDataPage checks the decompressed body of a data page (version 1)
// of n values of type typ: its definition levels when it has them (a
// 4-byte length, then the runs) and its values (checkValues).
func checkDataPage(b []byte, n int, levels bool, enc format.Encoding, typ format.Type) error {
	if levels {
		var err error
		if b, err = checkPrefixedRuns(b, n); err != nil || b == nil {
			return err
		}
	}
	return checkValues(b, n, enc, typ)
}

// checkPrefixedRuns checks the runs of width 1 that follow a 4-byte length
// at the start of b (definition levels, booleans in a version-1 page) and
// returns what follows them, nil when b is too short to tell.
func checkPrefixedRuns(b []byte, n int) ([]byte, error) {
	if len(b) < 4 {
		return nil, nil
	}
	m := int(binary.LittleEndian.Uint32(b))
	if m < 0 || m > len(b)-4 {
		return nil, nil
	}
	return b[4+m:], checkRuns(b[4:4+m], 1, n)
}

// plainDictionary is the dictionary encoding of Parquet 1 data pages,
// deprecated for writers but written still (DuckDB), so read.
//
//lint:ignore SA1019 readers must take what writers still write
const plainDictionary = format.PlainDictionary

// checksValues tells whether the values of encoding enc can announce
// more values than they take bytes, which checkValues then checks.
func checksValues(enc format.Encoding) bool {
	switch enc {
	case format.RLEDictionary, plainDictionary, format.RLE,
		format.DeltaBinaryPacked, format.DeltaLengthByteArray, format.DeltaByteArray:
		return true
	}
	return false
}

// checkValues checks the values b of a page of n values of type typ in
// encoding enc: dictionary indices (checkIndices), booleans in runs (a
// 4-byte length, then runs of width 1; other types in runs are not
// Parquet), and the count of values that the header of a delta encoding
// announces (block size, miniblocks a block, count, as varints).
func checkValues(b []byte, n int, enc format.Encoding, typ format.Type) error {
	switch enc {
	case format.RLEDictionary, plainDictionary:
		return checkIndices(b, n)
	case format.RLE:
		if typ != format.Boolean {
			return fmt.Errorf("values of type %s in run-length encoding, which Parquet keeps for booleans", typ)
		}
		_, err := checkPrefixedRuns(b, n)
		return err
	case format.DeltaBinaryPacked, format.DeltaLengthByteArray, format.DeltaByteArray:
		for range 2 {
			_, k := binary.Uvarint(b)
			if k <= 0 {
				return nil
			}
			b = b[k:]
		}
		if count, k := binary.Uvarint(b); k > 0 && count > uint64(n) {
			return fmt.Errorf("a delta encoding of %d values in a page of %d", count, n)
		}
	}
	return nil
}

// checkIndices checks dictionary indices: their bit width in one byte,
// then the runs.
func checkIndices(b []byte, n int) error {
	if len(b) == 0 || b[0] > 32 {
		return nil
	}
	return checkRuns(b[1:], int(b[0]), n)
}

// checkRuns adds up the values that the runs of b, of bitWidth bits a
// value, announce,
//
//	header = varint(count<<1 | 1)  then count·bitWidth bytes: 8·count values
//	header = varint(count<<1)      then ⌈bitWidth/8⌉ bytes:   count values
//
// and refuses more than n + 8·len(b) values. Writers pad bit-packed runs
// (DuckDB pads the last run of a page to 256 values, whatever is left),
// and the reader drops what is beyond the page's n values; but a run of
// repeated values, or bit-packed values of width 0, costs a few bytes for
// any count. So bounded, the runs decode to no more than 8 values a byte
// of b beyond the page's.
func checkRuns(b []byte, bitWidth, n int) error {
	limit := uint64(n) + 8*uint64(len(b))
	var total uint64
	for i := 0; i < len(b); {
		u, k := binary.Uvarint(b[i:])
		if k <= 0 {
			return nil
		}
		i += k
		count := u >> 1
		if count > limit {
			return fmt.Errorf("run-length encoded data of more than the page's %d values", n)
		}
		if u&1 == 1 { // count groups of 8 values, bitWidth bytes a group
			i += int(count) * bitWidth
			count *= 8
		} else {
			i += (bitWidth + 7) / 8
		}
		if total += count; total > limit {
			return fmt.Errorf("run-length encoded data of more than the page's %d values", n)
		}
	}
	return nil
}

// maxThriftDepth bounds the nesting of structs and lists that checkThrift
// walks: Parquet's metadata nests a few levels deep.
const maxThriftDepth = 64

// checkThrift walks the struct encoded by Thrift's compact protocol at the
// start of b, without decoding it, and returns its length, or an error
// when it is malformed or announces a string or list longer than the
// bytes left: parquet-go's decoder allocates what a length or a count
// announces before it reads the elements (a list of two billion structs
// from a few bytes), so the file metadata and page headers pass here
// first. An element takes at least one byte, a map entry two.
func checkThrift(b []byte) (int, error) {
	w := thriftWalker{b: b}
	if err := w.structure(0); err != nil {
		return 0, fmt.Errorf("corrupt metadata at byte %d: %w", w.i, err)
	}
	return w.i, nil
}

type thriftWalker struct {
	b []byte
	i int
}

var errThrift = errors.New("a length or count beyond the bytes left, or an unknown type")

func (w *thriftWalker) varint() (uint64, error) {
	u, k := binary.Uvarint(w.b[w.i:])
	if k <= 0 {
		return 0, errThrift
	}
	w.i += k
	return u, nil
}

func (w *thriftWalker) skip(n uint64) error {
	if n > uint64(len(w.b)-w.i) {
		return errThrift
	}
	w.i += int(n)
	return nil
}

// structure walks the fields of a struct up to its stop byte.
func (w *thriftWalker) structure(depth int) error {
	if depth > maxThriftDepth {
		return errThrift
	}
	for {
		if w.i >= len(w.b) {
			return errThrift
		}
		h := w.b[w.i]
		w.i++
		t := h & 0x0f
		if t == 0 {
			return nil
		}
		if h>>4 == 0 { // the field id follows, a zigzag varint
			if _, err := w.varint(); err != nil {
				return err
			}
		}
		if t == 1 || t == 2 { // a boolean field holds its value in its type
			continue
		}
		if err := w.value(t, depth); err != nil {
			return err
		}
	}
}

// value walks one value of compact type t.
func (w *thriftWalker) value(t byte, depth int) error {
	switch t {
	case 1, 2, 3: // a boolean in a list, a byte
		return w.skip(1)
	case 4, 5, 6: // i16, i32, i64
		_, err := w.varint()
		return err
	case 7: // double
		return w.skip(8)
	case 8: // binary
		n, err := w.varint()
		if err != nil {
			return err
		}
		return w.skip(n)
	case 9, 10: // list, set
		if w.i >= len(w.b) {
			return errThrift
		}
		h := w.b[w.i]
		w.i++
		n := uint64(h >> 4)
		if n == 15 {
			var err error
			if n, err = w.varint(); err != nil {
				return err
			}
		}
		if n > uint64(len(w.b)-w.i) {
			return errThrift
		}
		for range n {
			if err := w.value(h&0x0f, depth+1); err != nil {
				return err
			}
		}
		return nil
	case 11: // map
		n, err := w.varint()
		if err != nil || n == 0 {
			return err
		}
		if n > uint64(len(w.b)-w.i)/2 || w.i >= len(w.b) {
			return errThrift
		}
		kv := w.b[w.i]
		w.i++
		for range n {
			if err := w.value(kv>>4, depth+1); err != nil {
				return err
			}
			if err := w.value(kv&0x0f, depth+1); err != nil {
				return err
			}
		}
		return nil
	case 12:
		return w.structure(depth + 1)
	}
	return errThrift
}
