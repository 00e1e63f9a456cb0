package cv

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/gendisc/gendisc/data"
)

// FoldHeader is the header of a fold file.
const FoldHeader = "fold"

// MaxFold is the largest fold number a fold file may hold: as many folds
// as rows are needed only for leave-one-out, and no data set reaches it.
const MaxFold = 1<<31 - 1

// ErrFoldFile is wrapped by the errors about the content of a fold file.
var ErrFoldFile = errors.New("bad fold file")

// WriteFolds writes f as a fold file: the header "fold" and one line per
// row with its 0-based fold number, in row order.
func WriteFolds(w io.Writer, f Folds) error {
	bw := bufio.NewWriter(w)
	bw.WriteString(FoldHeader + "\n")
	for _, v := range f {
		bw.WriteString(strconv.Itoa(v))
		bw.WriteByte('\n')
	}
	return bw.Flush()
}

// ReadFolds reads a fold file written by WriteFolds (or by another tool)
// for a data set of rows rows; name names the file in errors. Lines may
// end in "\r\n"; a final line without a newline counts; blank lines are
// errors, as is anything but a non-negative decimal integer of at most
// MaxFold. Each error is a *data.ParseError naming the file and the line
// (the header is line 1), wrapping ErrFoldFile. A file with more or fewer
// data lines than rows is an error naming the line where the rows end.
// The folds are not checked against each other here: see Check.
func ReadFolds(r io.Reader, name string, rows int) (Folds, error) {
	sc := bufio.NewScanner(r)
	line := 0
	bad := func(format string, args ...any) error {
		return &data.ParseError{File: name, Line: line, Err: fmt.Errorf("%w: "+format, append([]any{ErrFoldFile}, args...)...)}
	}
	if !sc.Scan() {
		if err := sc.Err(); err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		line = 1
		return nil, bad("the file is empty; it needs the header %q", FoldHeader)
	}
	line = 1
	if h := strings.TrimSuffix(strings.TrimPrefix(sc.Text(), "\ufeff"), "\r"); h != FoldHeader {
		return nil, bad("header %q, want %q", h, FoldHeader)
	}
	f := make(Folds, 0, rows)
	for sc.Scan() {
		line++
		s := strings.TrimSuffix(sc.Text(), "\r")
		if len(f) == rows {
			return nil, bad("more fold numbers than the %d rows of the data", rows)
		}
		v, err := strconv.ParseInt(strings.TrimSpace(s), 10, 64)
		switch {
		case err != nil:
			return nil, bad("fold %q is not an integer", s)
		case v < 0:
			return nil, bad("fold %d is negative; folds are numbered from 0", v)
		case v > MaxFold:
			return nil, bad("fold %d is larger than %d", v, MaxFold)
		}
		f = append(f, int(v))
	}
	if err := sc.Err(); err != nil {
		return nil, &data.ParseError{File: name, Line: line + 1, Err: err}
	}
	if len(f) < rows {
		line++
		return nil, bad("%d fold numbers for the %d rows of the data", len(f), rows)
	}
	return f, nil
}
