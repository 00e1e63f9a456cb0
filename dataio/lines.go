package dataio

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"

	"github.com/gendisc/gendisc/data"
	"github.com/gendisc/gendisc/dataio/compress"
)

// ReadLines reads plain text, a document per line, into a Dataset of one
// text column named "text" without a target: a row per line, blank lines
// included (as empty documents), a line's end (\n or \r\n) removed,
// Dataset.Source.Lines holding the line numbers. Compressed text (gzip, zstd,
// bzip2, xz, told by its first bytes as Open tells them) is read as the
// text it holds. The bytes are kept as they are (not checked for UTF-8).
//
// lim bounds the read as for Read: a line longer than lim.MaxRecord (its
// line end included) is a *ParseError wrapping ErrTooLong, and the
// documents may take at most lim.MaxMemory, counted as their bytes plus
// linesOverhead a line, else a *ParseError wrapping ErrMemory; both name
// the line.
func ReadLines(in io.Reader, source string, lim Limits) (*data.Dataset, error) {
	head, rest, err := sniff(in, source)
	if err != nil {
		return nil, err
	}
	if name, dec := compress.Method(head); dec != nil {
		if rest, err = dec(rest); err != nil {
			return nil, fmt.Errorf("%s: %s: %w", source, name, err)
		}
	}
	maxRecord, budget := lim.maxRecord(), lim.maxMemory()
	br := bufio.NewReaderSize(rest, 64<<10)
	var docs []string
	var lines []int
	var long []byte // a line longer than br's buffer
	used := int64(0)
	for n := 1; ; n++ {
		line, err := br.ReadSlice('\n')
		for errors.Is(err, bufio.ErrBufferFull) {
			if len(long)+len(line) > maxRecord {
				return nil, tooLong(source, n, maxRecord)
			}
			long = append(long, line...)
			line, err = br.ReadSlice('\n')
		}
		if long != nil {
			line, long = append(long, line...), nil
		}
		if err != nil && err != io.EOF {
			return nil, fmt.Errorf("%s: %w", source, err)
		}
		if len(line) > maxRecord {
			return nil, tooLong(source, n, maxRecord)
		}
		if err == io.EOF && len(line) == 0 {
			break
		}
		line = bytes.TrimSuffix(bytes.TrimSuffix(line, []byte{'\n'}), []byte{'\r'})
		if used += int64(len(line)) + linesOverhead; budget >= 0 && used > budget {
			return nil, overBudget(source, n, used, budget)
		}
		docs = append(docs, string(line))
		lines = append(lines, n)
		if err == io.EOF {
			break
		}
	}
	return data.TextDataset(docs, data.Provenance{Name: source, Lines: lines}), nil
}

// linesOverhead is the memory ReadLines counts for a line besides its
// bytes: its string header (16 bytes), line number and cell of X (8 each),
// doubled for the slices' growth.
const linesOverhead = 64

// ReadText reads the whole of in, the text of an Input (see Open), into
// memory, for a reader of its own that needs all of it at once and holds
// it copies times over (as bytes, a string, parsed records): a line
// longer than lim.MaxRecord (its line end included) is a *ParseError
// wrapping ErrTooLong, and more than lim.MaxMemory bytes in all, counted
// copies times, one wrapping ErrMemory, positioned at the line reached.
func ReadText(in io.Reader, source string, lim Limits, copies int) ([]byte, error) {
	maxRecord, budget := lim.maxRecord(), lim.maxMemory()
	var b []byte
	line, start := 1, 0 // the line being read, and its offset in b
	buf := make([]byte, 64<<10)
	for {
		n, err := in.Read(buf)
		if need := int64(copies) * int64(len(b)+n); budget >= 0 && need > budget {
			return nil, overBudget(source, line, need, budget)
		}
		b = append(b, buf[:n]...)
		for p := len(b) - n; ; {
			e := bytes.IndexByte(b[p:], '\n')
			if e < 0 {
				break
			}
			p += e + 1
			if p-start > maxRecord {
				return nil, tooLong(source, line, maxRecord)
			}
			line, start = line+1, p
		}
		if len(b)-start > maxRecord {
			return nil, tooLong(source, line, maxRecord)
		}
		if err == io.EOF {
			return b, nil
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %w", source, err)
		}
	}
}
