package server

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"net/http"
	"strconv"

	"github.com/gendisc/gendisc"
	"github.com/gendisc/gendisc/data"
	"github.com/gendisc/gendisc/dataio"
	"github.com/gendisc/gendisc/models"
)

// The row endpoint takes
//
//	{"instances": [{"sepal_length": 5.1, ...}, [5.1, 3.5, ...], ...]}
//
// rows as objects keyed by column name or as arrays of the features in
// the schema's order, or a CSV body (text/csv) with a header, read as
// gendisc predict reads a file. It answers JSON
//
//	{"model_name": ..., "model_version": ..., "columns": [...],
//	 "predictions": [{"prediction": "setosa", "p_setosa": 1, ...}, ...]}
//
// or, asked with Accept: text/csv, the CSV that gendisc predict writes,
// byte for byte. Numbers are written in strconv's shortest round-trip
// form in both: the same digits as the CSV.

// predict answers POST /v1/models/{name}/predict.
func (s *Server) predict(c *call) {
	e := c.entry(s)
	if e == nil {
		return
	}
	d, ok := s.readRows(c, e)
	if !ok {
		return
	}
	if err := checkRows(e, d, true); err != nil {
		c.fail(http.StatusUnprocessableEntity, "%v", err)
		return
	}
	p, err := models.Predict(e.model, d)
	if err != nil {
		c.fail(http.StatusBadRequest, "model %q (%s) %v", e.name, e.kind, err)
		return
	}
	a := c.answer("application/json")
	if wantsCSV(c.r) {
		a.contentType = "text/csv; charset=utf-8"
		p.WriteCSV(a)
		a.close()
		return
	}
	a.b = rowHeader(a.b, e, d, p.Columns)
	a.b = append(a.b, `,"predictions":[`...)
	keys := quoted(p.Columns)
	lab := quoted(p.Labels)
	K := len(p.Labels)
	for i := range p.Rows() {
		b := a.b
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, '{')
		b = append(append(b, keys[0]...), ':')
		if K == 0 {
			b = appendNumber(b, p.Values[i])
		} else {
			b = append(b, lab[p.Best[i]]...)
			for k, v := range p.Values[i*K : (i+1)*K] {
				b = append(b, ',')
				b = append(append(b, keys[k+1]...), ':')
				b = appendNumber(b, v)
			}
		}
		a.b = append(b, '}')
		a.flushFull()
	}
	a.b = append(a.b, "]}\n"...)
	a.close()
}

// score answers POST /v1/models/{name}/score.
func (s *Server) score(c *call) {
	e := c.entry(s)
	if e == nil {
		return
	}
	if e.density == nil {
		c.fail(http.StatusBadRequest, "model %q is a %s model, which is not generative: it has no density p(x) to score", e.name, e.kind)
		return
	}
	d, ok := s.readRows(c, e)
	if !ok {
		return
	}
	if err := checkRows(e, d, false); err != nil {
		c.fail(http.StatusUnprocessableEntity, "%v", err)
		return
	}
	scores := e.density(d)
	a := c.answer("application/json")
	if wantsCSV(c.r) {
		a.contentType = "text/csv; charset=utf-8"
		models.WriteScores(a, scores)
		a.close()
		return
	}
	a.b = rowHeader(a.b, e, d, models.ScoreColumns)
	if n := models.ClampAll(scores); n > 0 {
		// Log densities below float64's range, written as its largest
		// magnitude: the rows' count says so.
		a.b = append(a.b, `,"clamped":`...)
		a.b = strconv.AppendInt(a.b, int64(n), 10)
	}
	a.b = append(a.b, `,"scores":[`...)
	for i, v := range scores {
		if i > 0 {
			a.b = append(a.b, ',')
		}
		a.b = append(a.b, `{"log_p_nats":`...)
		a.b = appendNumber(a.b, v)
		a.b = append(a.b, `,"log_p_bits":`...)
		a.b = appendNumber(a.b, v/math.Ln2)
		a.b = append(a.b, '}')
		a.flushFull()
	}
	a.b = append(a.b, "]}\n"...)
	a.close()
}

// checkRows returns the error of rows that e's model refuses: negative
// counts for the count models, and, when predicting, rows that no class
// can produce.
func checkRows(e *entry, d *data.Dataset, predicting bool) error {
	if m, ok := e.model.(gendisc.CountChecker); ok {
		if err := m.CheckCounts(d); err != nil {
			return err
		}
	}
	if m, ok := e.model.(gendisc.ImpossibleChecker); ok && predicting {
		return m.Impossible(d)
	}
	return nil
}

// rowHeader appends to b the start of a row endpoint's answer: the
// model, its version, the columns and the unseen categories of d.
func rowHeader(b []byte, e *entry, d *data.Dataset, columns []string) []byte {
	b = append(b, `{"model_name":`...)
	b = appendString(b, e.name)
	b = append(b, `,"model_version":`...)
	b = appendString(b, e.version)
	cols, _ := json.Marshal(columns)
	b = append(b, `,"columns":`...)
	b = append(b, cols...)
	if u := unseen(d); u != nil {
		ub, _ := json.Marshal(u)
		b = append(b, `,"unseen":`...)
		b = append(b, ub...)
	}
	return b
}

// unseen returns the number of categories not seen in training, read as
// missing, by column, or nil when there are none.
func unseen(d *data.Dataset) map[string]int {
	var u map[string]int
	for j, n := range d.Source.Unseen {
		if n > 0 {
			if u == nil {
				u = map[string]int{}
			}
			u[d.Schema.Features[j].Name] = n
		}
	}
	return u
}

// quoted returns each name as a JSON string.
func quoted(names []string) [][]byte {
	out := make([][]byte, len(names))
	for i, n := range names {
		out[i], _ = json.Marshal(n)
	}
	return out
}

// appendString appends s as a JSON string (encoding/json's: invalid
// UTF-8 as U+FFFD), which strconv.AppendQuote is not for every s (its
// \x7f and \xff escapes are Go's, not JSON's).
func appendString(b []byte, s string) []byte {
	q, _ := json.Marshal(s)
	return append(b, q...)
}

// appendNumber appends v as a JSON number: the digits of
// strconv.FormatFloat(v, 'g', -1, 64), ±Inf as float64's largest
// magnitude (models.Clamp: the answers count such values as "clamped"),
// and NaN, which no model answers for a finite row, as null.
func appendNumber(b []byte, v float64) []byte {
	if math.IsNaN(v) {
		return append(b, "null"...) // no model answers NaN for a finite row
	}
	return strconv.AppendFloat(b, models.Clamp(v), 'g', -1, 64)
}

// wantsCSV reports whether the request asks for CSV (Accept: text/csv).
func wantsCSV(r *http.Request) bool {
	for _, a := range r.Header.Values("Accept") {
		if bytes.Contains([]byte(a), []byte("text/csv")) {
			return true
		}
	}
	return false
}

// readRows reads the rows of a row endpoint's request, a JSON or CSV body,
// with e's schema, or answers the error and returns false.
func (s *Server) readRows(c *call, e *entry) (*data.Dataset, bool) {
	mt, err := c.mediaType()
	if err != nil {
		c.fail(http.StatusUnsupportedMediaType, "bad Content-Type %q: %v", c.r.Header.Get("Content-Type"), err)
		return nil, false
	}
	if mt != "" && mt != "application/json" && mt != "text/csv" {
		c.fail(http.StatusUnsupportedMediaType, "Content-Type %s is not accepted: send application/json or text/csv", mt)
		return nil, false
	}
	body := getBuf()
	defer putBuf(body)
	if !s.readBody(c, body) {
		return nil, false
	}
	limit := s.rowLimit(e)
	var d *data.Dataset
	if mt == "text/csv" {
		d, err = readCSV(body.Bytes(), e.model.Schema(), limit, s.opt.MaxBodyBytes)
	} else {
		t := newTable(e.model.Schema(), false)
		err = t.instances(body.Bytes(), limit)
		d = &t.d
	}
	if err != nil {
		c.fail(errorStatus(err), "%v", err)
		return nil, false
	}
	if d.N == 0 {
		c.fail(http.StatusBadRequest, "no rows")
		return nil, false
	}
	c.rows = d.N
	s.countUnseen(e, d)
	return d, true
}

// errorStatus returns the status that answers an error of reading a
// request's rows: 400 for a body that is not JSON (or not of the shape
// the endpoint takes), 413 for too many rows, 415 for a CSV body that is
// not plain CSV, 422 for rows that do not fit the model's schema.
func errorStatus(err error) int {
	if _, ok := errors.AsType[*jsonError](err); ok {
		return http.StatusBadRequest
	}
	if _, ok := errors.AsType[*tooManyError](err); ok || errors.Is(err, errTooManyCells) {
		return http.StatusRequestEntityTooLarge
	}
	if errors.Is(err, errNotCSV) {
		return http.StatusUnsupportedMediaType
	}
	return http.StatusUnprocessableEntity
}

// errNotCSV: a text/csv body that is compressed or of another format.
var errNotCSV = errors.New("not plain CSV")

// errTooManyCells: a CSV body of more cells than the limit.
var errTooManyCells = errors.New("too many cells")

// tooManyError is a request of n rows (0 when unknown: decoding stopped
// at the first row past the limit), more than the limit.
type tooManyError struct{ n, limit int }

func (e *tooManyError) Error() string {
	if e.n > 0 {
		return fmt.Sprintf("%d rows, more than the limit of %d rows per request", e.n, e.limit)
	}
	return fmt.Sprintf("more than the limit of %d rows per request", e.limit)
}

// readCSV reads a CSV body with the schema. It refuses a compressed body
// or a file format other than CSV (which would take memory out of
// proportion to the body), and before it reads them, counting the lines
// that are not blank outside quotes, a body of more than limit rows or
// more than maxBody/2 cells (rows × features; a JSON body cannot hold
// more, each value and its comma taking two bytes or more).
func readCSV(b []byte, schema *data.Schema, limit int, maxBody int64) (*data.Dataset, error) {
	in, err := dataio.Open(bytes.NewReader(b), "request")
	if err != nil {
		return nil, err
	}
	if in.Compression != "" || in.Format != dataio.CSV {
		return nil, fmt.Errorf("the body is %s %v, %w: send the rows uncompressed", in.Compression, in.Format, errNotCSV)
	}
	lines, quoted, blank := 0, false, true
	for _, c := range b {
		switch {
		case c == '"':
			quoted = !quoted
		case c == '\n' && !quoted:
			if !blank {
				lines++
			}
			blank = true
			continue
		case c == '\r':
			continue
		}
		blank = false
	}
	if !blank {
		lines++
	}
	if lines > limit+1 { // the header and the rows
		return nil, &tooManyError{0, limit}
	}
	if D := len(schema.Features); int64(lines-1)*int64(D) > maxBody/2 {
		return nil, fmt.Errorf("%w: %d rows of %d features, more than the limit of %d cells (half the body limit)", errTooManyCells, lines-1, D, maxBody/2)
	}
	return dataio.ReadWithSchema(bytes.NewReader(b), "request", schema, dataio.SchemaOptions{UnseenClassMissing: true})
}

// countUnseen adds the categories of d not seen in training to the
// metrics.
func (s *Server) countUnseen(e *entry, d *data.Dataset) {
	n := 0
	for _, k := range d.Source.Unseen {
		n += k
	}
	if n > 0 {
		s.metrics.unseenTot.WithLabelValues(label(e.name)).Add(float64(n))
	}
}

// table is the data set that a request's rows are read into, cell by
// cell, with the schema of the model: the values of data.Schema.Rows,
// with its errors (*data.FieldError).
type table struct {
	d     data.Dataset
	D     int
	keys  *keyIndex // the features' names, then the target's
	seen  []bool    // which keys a row object held
	bools bool      // BOOL values: 1 and 0 in a numeric column, "true" and "false" in a categorical one (v2)
}

// newTable returns an empty table of the schema; bools admits true and
// false as values.
func newTable(schema *data.Schema, bools bool) *table {
	D := len(schema.Features)
	names := make([]string, D, D+1)
	for j := range schema.Features {
		names[j] = schema.Features[j].Name
	}
	if schema.Target != nil {
		names = append(names, schema.Target.Name)
	}
	t := &table{d: data.Dataset{Schema: schema}, D: D, keys: newKeyIndex(names...), bools: bools}
	t.seen = make([]bool, len(names))
	for j := range schema.Features {
		if schema.Features[j].Kind == data.Text {
			if t.d.Text == nil {
				t.d.Text = make([][]string, D)
			}
			t.d.Text[j] = []string{}
		}
	}
	return t
}

// alloc makes the table n rows, whose cells cell sets (a request of
// tensors, whose shape gives the rows).
func (t *table) alloc(n int) {
	t.d.N = n
	t.d.X = make([]float64, n*t.D)
	for j, col := range t.d.Text {
		if col != nil {
			t.d.Text[j] = make([]string, n)
		}
	}
}

// reserve makes room, in an empty table, for n rows that addRow appends
// (a request of rows, which come one by one).
func (t *table) reserve(n int) {
	t.d.X = make([]float64, 0, n*t.D)
	for j, col := range t.d.Text {
		if col != nil {
			t.d.Text[j] = make([]string, 0, n)
		}
	}
}

// addRow appends a row, its cells to be set by cell.
func (t *table) addRow() {
	t.d.N++
	t.d.X = append(t.d.X, make([]float64, t.D)...)
	for j, col := range t.d.Text {
		if col != nil {
			t.d.Text[j] = append(col, "")
		}
	}
	if t.d.Y != nil {
		t.d.Y = append(t.d.Y, math.NaN())
	}
}

// column returns the column j: a feature, or the target for j = D.
func (t *table) column(j int) *data.Column {
	if j == t.D {
		return t.d.Schema.Target
	}
	return &t.d.Schema.Features[j]
}

// cell reads the value at s into row i of column j (the target for
// j = D), as data.Schema.Rows reads it: a number for a numeric column, a
// string for a categorical or text one, null for a missing cell; a
// category not among the levels is missing and counted in Unseen. An
// error is a *data.FieldError in s.err.
func (t *table) cell(s *scanner, i, j int) {
	// The common cell first: a number of a numeric feature.
	if s.ws(); j < t.D && s.i < len(s.b) && (s.b[s.i] == '-' || '0' <= s.b[s.i] && s.b[s.i] <= '9') && t.d.Schema.Features[j].Kind == data.Numeric {
		num, _ := s.number()
		if s.err != nil {
			return
		}
		if x, ok := exactFloat(num); ok {
			t.d.X[i*t.D+j] = x
			return
		}
		s.i -= len(num)
	}
	t.anyCell(s, i, j)
}

// anyCell is cell for any value and column.
func (t *table) anyCell(s *scanner, i, j int) {
	var err error
	switch s.peek() {
	case '"':
		v := s.str()
		if s.err != nil {
			return
		}
		err = t.setString(i, j, v)
	case 'n', 't', 'f':
		switch lit := s.literal(); lit {
		case 'n', 0:
			err = t.setNumber(i, j, math.NaN())
		default:
			err = t.setBool(i, j, lit == 't')
		}
	case '[', '{':
		s.skip()
		err = t.wrong(i, j, "an array or an object, want a single value")
	default:
		num, _ := s.number()
		if s.err != nil {
			return
		}
		if t.column(j).Kind != data.Numeric {
			err = t.wrong(i, j, "the number %s, want a string", num)
			break
		}
		x, ok := exactFloat(num)
		if !ok {
			x, _ = strconv.ParseFloat(string(num), 64) // ±Inf out of range
		}
		if math.IsInf(x, 0) {
			err = &data.FieldError{Row: i, Field: t.column(j).Name, Err: fmt.Errorf("%w: %s", data.ErrInfinite, num)}
			break
		}
		err = t.setNumber(i, j, x)
	}
	if err != nil {
		s.fail(err)
	}
}

// The setters of a cell, whatever the request's encoding (JSON, or the
// typed values of a gRPC request): each sets row i of column j (the
// target for j = D) as data.Schema.Rows reads the value, or returns a
// *data.FieldError.

// setNumber sets a number, NaN for a missing cell (of any column).
func (t *table) setNumber(i, j int, x float64) error {
	c := t.column(j)
	switch {
	case math.IsNaN(x):
	case c.Kind != data.Numeric:
		return t.wrong(i, j, "the number %s, want a string", strconv.FormatFloat(x, 'g', -1, 64))
	case math.IsInf(x, 0):
		return &data.FieldError{Row: i, Field: c.Name, Err: fmt.Errorf("%w: %v", data.ErrInfinite, x)}
	}
	return t.set(i, j, x)
}

// setString sets a string: a category, or a text.
func (t *table) setString(i, j int, v []byte) error {
	switch c := t.column(j); c.Kind {
	case data.Numeric:
		return t.wrong(i, j, "the string %q, want a number", v)
	case data.Text:
		t.d.Text[j][i] = string(v)
		return t.set(i, j, math.NaN())
	}
	x, err := t.level(i, j, v)
	if err != nil {
		return err
	}
	return t.set(i, j, x)
}

// setBool sets a boolean: 1 or 0 in a numeric column and the level
// "true" or "false" in a categorical one, when the table admits
// booleans (t.bools).
func (t *table) setBool(i, j int, b bool) error {
	word := "false"
	if b {
		word = "true"
	}
	c := t.column(j)
	switch {
	case t.bools && c.Kind == data.Numeric && b:
		return t.set(i, j, 1)
	case t.bools && c.Kind == data.Numeric:
		return t.set(i, j, 0)
	case t.bools && c.Kind == data.Categorical:
		return t.setString(i, j, []byte(word))
	case c.Kind == data.Numeric:
		return t.wrong(i, j, "%s, want a number", word)
	}
	return t.wrong(i, j, "%s, want a string", word)
}

// wrong returns the error of a value of the wrong type in row i of
// column j.
func (t *table) wrong(i, j int, format string, args ...any) error {
	c := t.column(j)
	return &data.FieldError{Row: i, Field: c.Name,
		Err: fmt.Errorf("%w: %s (the column is %s)", data.ErrFieldType, fmt.Sprintf(format, args...), c.Kind)}
}

// set sets the value x, a number or a level's index, of row i of column
// j.
func (t *table) set(i, j int, x float64) error {
	if j == t.D {
		if t.d.Y == nil {
			t.d.Y = make([]float64, t.d.N, cap(t.d.X)/max(1, t.D))
			for k := range t.d.Y {
				t.d.Y[k] = math.NaN()
			}
		}
		t.d.Y[i] = x
		return nil
	}
	t.d.X[i*t.D+j] = x
	return nil
}

// level returns the index of v among the levels of the categorical
// column j, the level that true or false stands for in a column of a
// boolean pair (data.Column.BooleanLevel), or NaN, counted as unseen,
// when it is neither; a class not among the target's is an error
// (data.ErrUnseenClass).
func (t *table) level(i, j int, v []byte) (float64, error) {
	c := t.column(j)
	for k, l := range c.Levels {
		if l == string(v) {
			return float64(k), nil
		}
	}
	if j == t.D {
		return math.NaN(), &data.FieldError{Row: i, Field: c.Name, Err: fmt.Errorf("%w: %q", data.ErrUnseenClass, v)}
	}
	if k := c.BooleanLevel(string(v)); k >= 0 {
		t.d.CountBoolean(j)
		return float64(k), nil
	}
	t.d.CountUnseen(j, string(v))
	return math.NaN(), nil
}

var instancesKey = newKeyIndex("instances")

// instances reads the body {"instances": [...]} into the rows of t, at
// most limit of them: decoding stops at the row past the limit.
func (t *table) instances(b []byte, limit int) error {
	s := &scanner{b: b}
	s.fields(instancesKey, nil, func(k int, key []byte) {
		switch {
		case k < 0:
			s.failf("unknown field %q", key)
		case s.peek() == 'n':
			s.literal()
		default:
			t.rows(s, limit)
		}
	})
	s.end()
	return s.err
}

// rows reads the array of the instances.
func (t *table) rows(s *scanner, limit int) {
	// Room for the rows the rest of the body can hold: each row opens
	// with its own '[' or '{', and takes at least 2D+1 bytes (an array
	// of D values; an object of D fields takes more).
	if s.peek() == '[' {
		rest := s.b[s.i+1:]
		t.reserve(min(limit, bytes.Count(rest, []byte{'['})+bytes.Count(rest, []byte{'{'}), len(rest)/(2*t.D+1)+1))
	}
	s.elements(func(i int) {
		if i == limit {
			s.fail(&tooManyError{0, limit})
			return
		}
		t.addRow()
		switch s.peek() {
		case '[':
			t.arrayRow(s, i)
		case '{':
			t.objectRow(s, i)
		default:
			s.skip()
			s.fail(fmt.Errorf("instance %d is neither an object nor an array", i))
		}
	})
}

// arrayRow reads row i, an array of one value per feature in the
// schema's order.
func (t *table) arrayRow(s *scanner, i int) {
	n := 0
	s.elements(func(j int) {
		if j == t.D {
			s.fail(fmt.Errorf("instance %d: an array of more than %d values, want one per feature, %d, in the schema's order", i, t.D, t.D))
			return
		}
		t.cell(s, i, j)
		n++
	})
	if s.err == nil && n != t.D {
		s.fail(fmt.Errorf("instance %d: an array of %d values, want one per feature, %d, in the schema's order", i, n, t.D))
	}
}

// objectRow reads row i, an object of every feature by name and maybe
// the target.
func (t *table) objectRow(s *scanner, i int) {
	s.fields(t.keys, t.seen, func(k int, key []byte) {
		if k < 0 {
			s.fail(&data.FieldError{Row: i, Field: string(key), Err: data.ErrUnknownField})
			return
		}
		t.cell(s, i, k)
	})
	if s.err != nil {
		return
	}
	for j, ok := range t.seen[:t.D] {
		if !ok {
			s.fail(&data.FieldError{Row: i, Field: t.column(j).Name, Err: data.ErrMissingField})
			return
		}
	}
}
