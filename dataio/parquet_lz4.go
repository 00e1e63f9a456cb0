package dataio

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"io"

	"github.com/parquet-go/parquet-go/encoding/thrift"
	"github.com/parquet-go/parquet-go/format"
	"github.com/pierrec/lz4/v4"
)

// parquet-go v0.32.0 loses the data of LZ4_RAW pages that compress by
// less than 3 to 1: Column.decompress hands the codec a pooled buffer of
// the page's size, the LZ4_RAW codec (which first reserves three times
// the compressed length) decodes into a new buffer instead, and when that
// buffer holds exactly the page's size — as every whole LZ4 block does —
// decompress keeps its own, unwritten one. The definition levels then
// read as garbage ("decoding level expected 10000 values but got only
// 0"): files of more than a few hundred rows written by DuckDB, whose
// default page is not that compressible, do not read. Until parquet-go
// keeps the decoded buffer, openParquet rewrites a file with LZ4_RAW
// column chunks as the same file uncompressed, in memory (decompressLZ4),
// and reads that; the pages are decoded by pierrec/lz4, which parquet-go
// uses too, into buffers of the size their headers give.

// decompressLZ4 returns the Parquet file of at (size bytes) with every
// LZ4_RAW column chunk decompressed, as a file of its own in memory (at
// itself when it has none): the pages, their headers (compressed size, no CRC,
// a V2 page marked uncompressed), the column chunks' offsets and sizes
// and the footer are written anew; the page indexes and bloom filters,
// which gendisc does not read, are dropped from the metadata. The file's
// footer has been checked (checkFooter); the pages are checked here as
// checkChunk checks them, so that a corrupt file is an error, not an
// allocation of what it announces.
func decompressLZ4(at io.ReaderAt, size int64) (io.ReaderAt, int64, error) {
	var tail [8]byte
	if _, err := at.ReadAt(tail[:], size-8); err != nil || string(tail[4:]) != "PAR1" {
		return at, size, nil // parquet-go says what it is
	}
	footer := make([]byte, binary.LittleEndian.Uint32(tail[:4]))
	if _, err := at.ReadAt(footer, size-8-int64(len(footer))); err != nil {
		return nil, 0, err
	}
	var meta format.FileMetaData
	if err := thrift.Unmarshal(new(thrift.CompactProtocol), footer, &meta); err != nil {
		return at, size, nil // parquet-go says what is wrong
	}
	lz4Chunks := false
	for _, g := range meta.RowGroups {
		for _, c := range g.Columns {
			lz4Chunks = lz4Chunks || c.MetaData.Codec == format.Lz4Raw
		}
	}
	if !lz4Chunks {
		return at, size, nil
	}
	out := bytes.NewBuffer(make([]byte, 0, size))
	out.WriteString("PAR1")
	var chunk []byte
	for gi := range meta.RowGroups {
		g := &meta.RowGroups[gi]
		groupStart, groupBytes := int64(out.Len()), int64(0)
		for ci := range g.Columns {
			c := &g.Columns[ci]
			m := &c.MetaData
			start := m.DataPageOffset
			if o := m.DictionaryPageOffset; o > 0 && o < start {
				start = o
			}
			n := m.TotalCompressedSize
			if start < 0 || n < 0 || start > size || n > size-start {
				return nil, 0, fmt.Errorf("a column chunk of %d bytes at byte %d of a file of %d", n, start, size)
			}
			chunk = append(chunk[:0], make([]byte, n)...)
			if _, err := at.ReadAt(chunk, start); err != nil {
				return nil, 0, err
			}
			chunkStart := int64(out.Len())
			if err := copyPages(out, chunk, m, c.MetaData.Codec == format.Lz4Raw); err != nil {
				return nil, 0, fmt.Errorf("row group %d, column %q: %w", gi+1, m.PathInSchema, err)
			}
			m.TotalCompressedSize = int64(out.Len()) - chunkStart
			m.TotalUncompressedSize = m.TotalCompressedSize
			m.IndexPageOffset, m.BloomFilterOffset, m.BloomFilterLength = 0, 0, 0
			c.OffsetIndexOffset, c.OffsetIndexLength, c.ColumnIndexOffset, c.ColumnIndexLength = 0, 0, 0, 0
			c.FileOffset = chunkStart
			groupBytes += m.TotalCompressedSize
		}
		g.FileOffset, g.TotalCompressedSize = groupStart, groupBytes
	}
	b, err := thrift.Marshal(new(thrift.CompactProtocol), &meta)
	if err != nil {
		return nil, 0, err
	}
	out.Write(b)
	out.Write(binary.LittleEndian.AppendUint32(nil, uint32(len(b))))
	out.WriteString("PAR1")
	return bytes.NewReader(out.Bytes()), int64(out.Len()), nil
}

// copyPages appends the pages of the column chunk b, of metadata m, to
// out, decompressing them when lz4 (an LZ4_RAW chunk; else as they are),
// and sets m's page offsets and codec to those of the copy.
func copyPages(out *bytes.Buffer, b []byte, m *format.ColumnMetaData, lz4Raw bool) error {
	var protocol thrift.CompactProtocol
	m.DictionaryPageOffset = 0
	data := false // whether a data page was copied
	for page := 0; len(b) > 0; page++ {
		hn, err := checkThrift(b)
		if err != nil {
			return fmt.Errorf("page %d: header: %w", page, err)
		}
		var h format.PageHeader
		if err := thrift.NewDecoder(protocol.NewReaderFromBytes(b[:hn])).Decode(&h); err != nil {
			return fmt.Errorf("page %d: header: %w", page, err)
		}
		b = b[hn:]
		if h.CompressedPageSize < 0 || int(h.CompressedPageSize) > len(b) || h.UncompressedPageSize < 0 || h.UncompressedPageSize > maxPageBytes {
			return fmt.Errorf("page %d: %d bytes (%d uncompressed) where the column chunk has %d left", page, h.CompressedPageSize, h.UncompressedPageSize, len(b))
		}
		body := b[:h.CompressedPageSize]
		b = b[h.CompressedPageSize:]
		if lz4Raw {
			if body, err = decompressPage(&h, body); err != nil {
				return fmt.Errorf("page %d: %w", page, err)
			}
		}
		if at := int64(out.Len()); h.Type == format.DictionaryPage {
			m.DictionaryPageOffset = at
		} else if !data {
			m.DataPageOffset, data = at, true
		}
		hb, err := thrift.Marshal(new(thrift.CompactProtocol), &h)
		if err != nil {
			return err
		}
		out.Write(hb)
		out.Write(body)
	}
	if lz4Raw {
		m.Codec = format.Uncompressed
	}
	return nil
}

// lz4MaxRatio bounds the ratio of an LZ4 block's decoded to encoded bytes.
const lz4MaxRatio = 256

// decompressPage returns the body of an LZ4_RAW page of header h
// decompressed, and rewrites h as that of the uncompressed page: a V2
// page's levels are not compressed, its values are.
func decompressPage(h *format.PageHeader, body []byte) ([]byte, error) {
	levels := 0
	if h.Type == format.DataPageV2 && h.DataPageHeaderV2.Valid {
		v := &h.DataPageHeaderV2.V
		levels = int(v.RepetitionLevelsByteLength) + int(v.DefinitionLevelsByteLength)
		if levels < 0 || levels > len(body) || int(h.UncompressedPageSize) < levels {
			return nil, fmt.Errorf("levels of %d bytes in a page of %d", levels, len(body))
		}
		if v.IsCompressed.Valid && !v.IsCompressed.V {
			levels = len(body) // nothing compressed
		}
		v.IsCompressed = thrift.New(false)
	}
	// An LZ4 sequence of one token byte and a 2-byte offset copies at
	// most 255 bytes per length byte: a page that announces more than
	// lz4MaxRatio times its compressed bytes is corrupt, and is refused
	// before its size is allocated.
	if int64(h.UncompressedPageSize-int32(levels)) > lz4MaxRatio*int64(len(body)-levels)+lz4MaxRatio {
		return nil, fmt.Errorf("corrupt LZ4_RAW data: %d bytes announced from %d", h.UncompressedPageSize, len(body))
	}
	out := make([]byte, h.UncompressedPageSize)
	copy(out, body[:levels])
	if levels < len(body) {
		n, err := lz4.UncompressBlock(body[levels:], out[levels:])
		if err != nil || levels+n != len(out) {
			return nil, fmt.Errorf("corrupt LZ4_RAW data: %d bytes decoded of the page's %d (%v)", levels+n, len(out), err)
		}
	}
	h.CompressedPageSize, h.CRC = h.UncompressedPageSize, 0
	return out, nil
}
