package dataio

import (
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/gendisc/gendisc/data"
)

// Options says how Read maps the columns of a file to a Dataset. The zero
// value reads every column but the last as a feature, with types
// inferred, and the last column as categorical class labels.
type Options struct {
	// Target names the target column; "" means the last column.
	Target string
	// NoTarget makes every column a feature (the input of a mixture
	// model); Target must then be "".
	NoTarget bool
	// NumericTarget reads the target as a number (regression); by
	// default it holds class labels, even when they look like numbers.
	NumericTarget bool
	// Numeric, Categorical and Text force the type of the named feature
	// columns; Ignore drops the named columns. In a Numeric column a cell
	// that is not a number (nor missing) is an error (ErrNotNumber).
	Numeric, Categorical, Text, Ignore []string
	// Weight names a column of row weights, which must be finite and
	// >= 0; it is not a feature. "" means every row weighs 1.
	Weight string
	// Comma is the delimiter; 0 detects it from the header line: the one
	// of ',', '\t' and ';' that occurs most often outside quotes.
	Comma rune
	// Limits bound the longest record and the memory of the read.
	Limits
}

// SchemaOptions says how ReadWithSchema reads a file.
type SchemaOptions struct {
	// Weight names a column of row weights, as in Options.
	Weight string
	// Extend admits categorical levels and classes that are not in the
	// schema: they are appended to the levels of a clone of the schema,
	// so the indices of the existing ones do not change. Without Extend
	// an unseen level is a missing value (counted in Dataset.Source.Unseen) and
	// an unseen class is an error.
	Extend bool
	// Comma is the delimiter, as in Options.
	Comma rune
	// UnseenError makes a categorical value that is not among a
	// feature's levels an error (ErrUnseenLevel, naming the file, line
	// and column) rather than a missing value counted in Dataset.Source.Unseen.
	// Either way true and false are read as the levels of a boolean pair
	// of another spelling (Column.BooleanLevel), counted in
	// Dataset.Source.Booleans.
	UnseenError bool
	// UnseenClassMissing reads a class that is not among the schema's
	// classes as a missing target (NaN in Y) rather than as an error
	// (ErrUnseenClass), for uses that do not need the labels, such as
	// prediction. Extend takes precedence.
	UnseenClassMissing bool
	// RequireTarget makes a file without the schema's target column an
	// error; otherwise Dataset.Y is nil for such a file.
	RequireTarget bool
	// Limits bound the longest record and the memory of the read.
	Limits
}

// ReadFile reads the file at path with Read; "-" reads standard input,
// named "<stdin>" in errors.
func ReadFile(path string, opt Options) (*data.Dataset, error) {
	if path == "-" {
		return Read(os.Stdin, "<stdin>", opt)
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return Read(f, path, opt)
}

// Read reads a delimited text file with a header line from r and infers
// the type of each column; source names r in errors.
//
// A column is numeric when every cell that is not missing is a finite
// decimal number (spaces around it allowed). Otherwise it holds strings,
// and it is text when its cells look like prose: they average at least 3
// words (runs of non-space), or, with at least 20 distinct values making
// up more than half the cells, more than half the distinct values have
// more than one word. Any other string column is categorical, its levels
// sorted numerically when every level is a number and bytewise otherwise.
// Options.Numeric, Options.Categorical and Options.Text override the
// inference. A categorical column whose cells are mostly numbers,
//
//	numbers >= 0.95 × non-missing cells,
//
// which is usually a numeric column with a few stray words, gets a
// warning in Dataset.Source.Warnings (an *ParseError wrapping ErrMostlyNumeric,
// positioned at the first cell that is not a number). An
// infinite number (inf, Infinity, 1e999) in a column that is otherwise
// numeric is an error (ErrInfinite).
//
// The format is RFC 4180: fields separated by the delimiter, optionally
// quoted with ", a quote inside a quoted field written "", quoted fields
// may hold the delimiter and line ends (kept as they are); lines end in
// \n or \r\n. The file is UTF-8, with or without a byte order mark. Blank
// lines are skipped. An empty header name becomes column_K, K the
// column's number from 1; two columns of the same name are an error
// (ErrDuplicate). Strings are kept as written; numbers and the
// missing-value tokens may have spaces around them. Quoting does not
// change how a cell is read.
//
// Missing values are the empty cell and the tokens NA, N/A, NaN, nan, ?,
// null and NULL (case-sensitive); they are NaN in X and Y and "" in Text.
// A missing target is NaN in Y, not a dropped row.
//
// Errors are *ParseError values naming the line and column. Read parses
// chunks of the input on all cores while it reads the next one; its memory
// is about that of the Dataset plus two chunk buffers (32 MB each, less
// for a smaller input). Options.Limits bound it: a record longer than
// MaxRecord (64 MiB by default) is an error wrapping ErrTooLong, and a
// read that would hold more than MaxMemory (half the machine's or the
// control group's memory by default) stops with an error wrapping
// ErrMemory, where ReadChunks would read the file in bounded memory.
//
// A column that holds numbers for a while and then a string gets the
// earlier numbers back as text. Numbers written in their shortest form
// (1.5, 42) are rebuilt exactly from their values; for others (1.50, 1e3,
// 007) Read reads the input again when r is an io.Seeker that can seek
// (as a regular file is), and otherwise names them by their shortest
// form.
//
// The input may be compressed, and may be Parquet or JSON lines rather
// than delimited text: Open tells them by their first bytes (a binary
// file of another format is an error wrapping ErrFormat). Compressed
// text is read as the text it holds, errors positioned in it.
//
// Parquet: the columns of the file are the columns; DOUBLE, FLOAT (as the
// shortest decimal that rounds to it), INT32 and INT64 (signed or
// unsigned) values are numbers, BOOLEAN values the strings false and true,
// and BYTE_ARRAY values (dictionary-encoded or not) strings, read as a CSV
// cell of that text is (a missing-value token is missing; a column of
// strings is categorical or text), and a null is missing. NaN is missing;
// an infinite number is as in CSV. A DECIMAL is the float64 nearest its
// exact value, or its text ("12.30") when Options.Categorical names it. A
// DATE, TIME or TIMESTAMP is read only when named (see logicalKind): in
// Options.Numeric as days or seconds since the epoch (since midnight for
// a TIME), in Options.Categorical as ISO 8601 text; named neither way,
// it is an error wrapping ErrParquetType. An INT96, INTERVAL, other
// FIXED_LEN_BYTE_ARRAY, nested or repeated column is an error wrapping
// ErrParquetType unless it is ignored. The file is read a row
// group at a time, its columns in parallel; errors name the row group and
// the row (ParseError.RowGroup), Dataset.Source.Lines hold the rows' numbers in
// the file and Dataset.Source.RowGroups the first row of each row group.
//
// JSON lines: one flat JSON object per line (blank lines skipped), whose
// keys are the columns: those of the first 65,536 lines, in the order
// they are met (a key first met later is an error wrapping ErrNoColumn).
// A number is read from its text as a CSV cell is, a string as a CSV cell
// of that text, true and false as those strings, null and an absent key
// as missing; a nested value is an error wrapping ErrJSON. Errors name
// the line and the key.
func Read(r io.Reader, source string, opt Options) (*data.Dataset, error) {
	return readInferred(r, source, opt, defaultConfig)
}

// readInferred is Read with a configuration.
func readInferred(in io.Reader, source string, opt Options, cfg readConfig) (*data.Dataset, error) {
	cfg.limits = opt.Limits
	r, forced, err := startInferred(in, source, opt, cfg, (*reader).readRows)
	if err != nil {
		return nil, err
	}
	return r.inferred(forced)
}

// startInferred reads the header of in, plans the fields for Read and
// reads with read the rows that the types are inferred from. When a
// column turned into strings after numbers whose text was lost, it reads
// those rows again, that column read as strings from the start, if in
// can seek. It returns the forced kinds of feature columns, by field.
func startInferred(in io.Reader, source string, opt Options, cfg readConfig, read func(*reader) error) (*reader, map[int]data.Kind, error) {
	seeker, start := seekStart(in)
	textual := map[string]bool{}
	for {
		r, err := newReader(in, source, opt.Comma, cfg)
		if err != nil {
			return nil, nil, err
		}
		forced, err := r.planInferred(opt, textual)
		if err != nil {
			return nil, nil, err
		}
		if err := read(r); err != nil {
			return nil, nil, err
		}
		again := false
		for f := range r.plans {
			if r.cols[f].inexact && seeker != nil && !textual[r.plans[f].name] {
				textual[r.plans[f].name], again = true, true
			}
		}
		if !again {
			return r, forced, nil
		}
		if _, err := seeker.Seek(start, io.SeekStart); err != nil {
			return nil, nil, fmt.Errorf("%s: %w", source, err)
		}
	}
}

// seekStart returns in as an io.Seeker with its current offset when it can
// seek, else nil.
func seekStart(in io.Reader) (io.Seeker, int64) {
	s, ok := in.(io.Seeker)
	if !ok {
		return nil, 0
	}
	off, err := s.Seek(0, io.SeekCurrent)
	if err != nil {
		return nil, 0
	}
	return s, off
}

// planInferred maps the header to fields for Read. Columns in textual are
// read as strings from the start. It returns the forced kinds of feature
// columns, by field.
func (r *reader) planInferred(opt Options, textual map[string]bool) (map[int]data.Kind, error) {
	nf := len(r.header)
	role := make([]string, nf)
	assign := func(name, what string) (int, error) {
		f := r.column(name)
		if f < 0 {
			return -1, r.noColumn(name)
		}
		if role[f] != "" && role[f] != what {
			return -1, &data.ParseError{File: r.src, Line: r.headerLine, Column: f + 1, ColumnName: name,
				Err: fmt.Errorf("named as both %s and %s", role[f], what)}
		}
		role[f] = what
		return f, nil
	}
	if opt.NoTarget && opt.Target != "" {
		return nil, fmt.Errorf("data: Options.Target %q with NoTarget", opt.Target)
	}
	forced := map[int]data.Kind{}
	lists := []struct {
		names []string
		what  string
	}{{opt.Ignore, "ignored"}, {opt.Text, "text"}, {opt.Categorical, "categorical"}, {opt.Numeric, "numeric"}}
	for _, l := range lists {
		for _, name := range l.names {
			f, err := assign(name, l.what)
			if err != nil {
				return nil, err
			}
			switch l.what {
			case "text":
				forced[f] = data.Text
			case "categorical":
				forced[f] = data.Categorical
			}
		}
	}
	if opt.Weight != "" {
		if _, err := assign(opt.Weight, "weight"); err != nil {
			return nil, err
		}
	}
	if !opt.NoTarget {
		target := opt.Target
		if target == "" {
			target = r.header[nf-1]
		}
		f := r.column(target)
		if f >= 0 && role[f] == "categorical" && !opt.NumericTarget {
			role[f] = ""
			delete(forced, f)
		}
		if _, err := assign(target, "target"); err != nil {
			return nil, err
		}
	}
	r.plans = make([]fieldPlan, nf)
	for f, name := range r.header {
		pl := fieldPlan{name: name, mode: cellInfer, j: r.d}
		switch role[f] {
		case "ignored":
			pl.mode = cellSkip
		case "target":
			pl.dst, pl.mode, r.hasY = destY, cellString, true
			if opt.NumericTarget {
				pl.mode = cellNumber
			}
		case "weight":
			pl.dst, pl.mode, r.hasW = destW, cellNumber, true
		case "numeric":
			pl.mode = cellNumber
		case "text", "categorical":
			pl.mode = cellString
		}
		if textual[name] && pl.mode == cellInfer {
			pl.mode = cellString
		}
		if pl.dst == destX && pl.mode != cellSkip {
			r.d++
		}
		r.plans[f] = pl
	}
	r.cols = make([]colState, nf)
	return forced, nil
}

// ReadWithSchema reads a file laid out as schema s describes, such as new
// data for a fitted model: the columns are found by name, in any order,
// and columns the schema does not name are ignored; a feature missing from
// the file is an error. Numeric features must hold numbers, categorical
// ones are encoded as indices of the schema's levels, text is kept. The
// target is read when the file has it (Y is nil otherwise, or an error
// with RequireTarget). See SchemaOptions.Extend for levels the schema
// lacks. The format is that of Read.
func ReadWithSchema(in io.Reader, source string, s *data.Schema, opt SchemaOptions) (*data.Dataset, error) {
	return readSchema(in, source, s, opt, defaultConfig)
}

// readSchema is ReadWithSchema with a configuration.
func readSchema(in io.Reader, source string, s *data.Schema, opt SchemaOptions, cfg readConfig) (*data.Dataset, error) {
	cfg.limits = opt.Limits
	r, err := newReader(in, source, opt.Comma, cfg)
	if err != nil {
		return nil, err
	}
	nf := len(r.header)
	r.plans = make([]fieldPlan, nf)
	r.cols = make([]colState, nf)
	r.unseenClassMissing, r.unseenError = opt.UnseenClassMissing, opt.UnseenError
	for f, name := range r.header {
		r.plans[f] = fieldPlan{name: name, mode: cellSkip}
	}
	use := func(col *data.Column, dst dest, j int) error {
		f := r.column(col.Name)
		if f < 0 {
			return r.noColumn(col.Name)
		}
		if r.plans[f].mode != cellSkip {
			return &data.ParseError{File: r.src, Line: r.headerLine, Column: f + 1, ColumnName: col.Name,
				Err: fmt.Errorf("named twice: as the weight and in the schema")}
		}
		pl := fieldPlan{name: col.Name, mode: cellNumber, dst: dst, j: j}
		if col.Kind != data.Numeric {
			pl.mode = cellString
		}
		if col.Kind == data.Categorical {
			c := &r.cols[f]
			for _, l := range col.Levels {
				intern(c, l)
			}
			c.closed, c.level = !opt.Extend, col
		}
		r.plans[f] = pl
		return nil
	}
	if opt.Weight != "" {
		if err := use(&data.Column{Name: opt.Weight}, destW, 0); err != nil {
			return nil, err
		}
		r.hasW = true
	}
	for j := range s.Features {
		if err := use(&s.Features[j], destX, j); err != nil {
			return nil, err
		}
	}
	r.d = len(s.Features)
	if s.Target != nil && (r.column(s.Target.Name) >= 0 || opt.RequireTarget) {
		if err := use(s.Target, destY, 0); err != nil {
			return nil, err
		}
		r.hasY = true
	}
	if err := r.readRows(); err != nil {
		return nil, err
	}
	return r.withSchema(s, opt.Extend)
}

// column returns the field of the header named name, or -1.
func (r *reader) column(name string) int {
	for f, h := range r.header {
		if h == name {
			return f
		}
	}
	return -1
}

// noColumn is the error for a column the header lacks.
func (r *reader) noColumn(name string) error {
	const most = 10
	list := strings.Join(r.header[:min(most, len(r.header))], ", ")
	if len(r.header) > most {
		list += fmt.Sprintf(", ... (%d in all)", len(r.header))
	}
	return &data.ParseError{File: r.src, Line: r.headerLine, ColumnName: name,
		Err: fmt.Errorf("%w; the columns are %s", data.ErrNoColumn, list)}
}
