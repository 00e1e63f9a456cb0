package cli

import (
	"bufio"
	"encoding/csv"
	"io"
	"strconv"

	"github.com/gendisc/gendisc/data"
)

// rowWriter writes rows of a schema as CSV, in the layout of the data the
// schema came from: optional leading columns (impute's imputation number),
// the feature columns in the schema's order, the target column when the
// rows have one, and a weight column when one was read. Numbers are
// written in strconv's shortest round-trip form, categorical values and
// classes as their names, missing cells as empty fields.
type rowWriter struct {
	cw     *csv.Writer
	schema *data.Schema
	target bool // write the target column
	weight bool // write the weight column
	rec    []string
}

// newRowWriter writes the header: the lead column names, the features,
// the target's name when target is set, and weight unless it is "".
func newRowWriter(w io.Writer, s *data.Schema, lead []string, target bool, weight string) (*rowWriter, error) {
	rw := &rowWriter{cw: csv.NewWriter(w), schema: s, target: target && s.Target != nil, weight: weight != ""}
	rec := append([]string(nil), lead...)
	for _, c := range s.Features {
		rec = append(rec, c.Name)
		if c.Kind != data.Numeric {
			stringColumns(w, c.Name)
		}
	}
	if rw.target {
		rec = append(rec, s.Target.Name)
		if s.Target.Kind != data.Numeric {
			stringColumns(w, s.Target.Name)
		}
	}
	if rw.weight {
		rec = append(rec, weight)
	}
	rw.rec = rec
	return rw, rw.cw.Write(rec)
}

// write writes one row: the lead values, the features x (text features
// from text, indexed by feature, which may be nil), the target y and the
// weight w, as the header says.
func (rw *rowWriter) write(lead []string, x []float64, text []string, y, w float64) error {
	rec := append(rw.rec[:0], lead...)
	for j, c := range rw.schema.Features {
		switch {
		case c.Kind == data.Text:
			s := ""
			if text != nil {
				s = text[j]
			}
			rec = append(rec, s)
		default:
			rec = append(rec, cell(&c, x[j]))
		}
	}
	if rw.target {
		rec = append(rec, cell(rw.schema.Target, y))
	}
	if rw.weight {
		rec = append(rec, strconv.FormatFloat(w, 'g', -1, 64))
	}
	rw.rec = rec
	return rw.cw.Write(rec)
}

// writeData writes row i of d, with the lead values.
func (rw *rowWriter) writeData(lead []string, d *data.Dataset, i int, text []string) error {
	if d.Text != nil {
		for j, col := range d.Text {
			if col != nil {
				text[j] = col[i]
			}
		}
	}
	y, w := 0.0, 1.0
	if d.Y != nil {
		y = d.Y[i]
	}
	if d.Weight != nil {
		w = d.Weight[i]
	}
	return rw.write(lead, d.Row(i), text, y, w)
}

// flush writes out what the CSV writer buffers and returns its error.
func (rw *rowWriter) flush() error {
	rw.cw.Flush()
	return rw.cw.Error()
}

// cell formats value v of column c: empty when missing, the level's name
// for a categorical column, the number otherwise.
func cell(c *data.Column, v float64) string {
	switch {
	case v != v:
		return ""
	case c.Kind == data.Categorical:
		return c.Levels[int(v)]
	}
	return strconv.FormatFloat(v, 'g', -1, 64)
}

// stdoutOrCreate opens the output of a command whose output may be too
// large for memory: standard output is written as it comes, through a
// buffer that commit flushes (a failure then leaves what was written),
// while a file is written atomically: a file of rows (rows: CSV text
// written) in the format its name or --format says (createRows), another
// as written (create).
func (env *Env) stdoutOrCreate(path string, rows bool) (w io.Writer, commit func() error, abort func(), err error) {
	if path == "-" && (!rows || env.outFormat == "" || env.outFormat == "csv") {
		bw := bufio.NewWriterSize(env.Stdout, 1<<16)
		return bw, bw.Flush, func() {}, nil
	}
	open := env.create
	if rows {
		open = env.createRows
	}
	out, err := open(path)
	if err != nil {
		return nil, nil, nil, err
	}
	return out, out.Commit, out.Abort, nil
}
