package server

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"net/http"
	"slices"
	"strconv"
	"strings"

	"github.com/gendisc/gendisc/data"
	"github.com/gendisc/gendisc/dataio"
)

// The request decoder: every body a model is asked with is read straight
// into the model's columns, a table (the data.Dataset that prediction
// takes as it is: X row by row, Text, Y), cell by cell, by the setters of
// a column's kind (setNumber, setString, setBool), with the model's
// schema and the limits of the server checked before anything of the
// size a request claims is allocated. The wire formats are read by one
// front end each, all into the table:
//
//	JSON rows     {"instances": [...]}             table.instances, by the scanner (fast.go)
//	JSON tensors  {"inputs": [{"name": ...}, ...]}  Server.readInfer, by the scanner
//	gRPC tensors  ModelInferRequest's contents      Server.readInferGRPC (grpc.go), decoded by protobuf
//	CSV rows      text/csv with a header            readCSV, by dataio.ReadWithSchema, as gendisc predict reads a file
//
// The two JSON front ends share the checks of a cell (table.cell), the
// tensors' shapes and datatypes (inputs.begin, which gRPC shares too),
// and their errors: *jsonError for a body that is not JSON the server
// takes (400), *tooManyError past the rows' limit (413), *data.FieldError
// for a value that does not fit its column (422 on the row endpoints, 400
// on v2's). FuzzDecode checks the JSON front ends against encoding/json,
// FuzzGRPCInfer the gRPC one.

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
// the endpoint takes), 413 for too many rows (or sentences, or tokens), 415 for a CSV body that is
// not plain CSV, 422 for rows that do not fit the model's schema.
func errorStatus(err error) int {
	if _, ok := errors.AsType[*jsonError](err); ok {
		return http.StatusBadRequest
	}
	_, over := errors.AsType[*overLimitError](err)
	if _, ok := errors.AsType[*tooManyError](err); ok || over || errors.Is(err, errTooManyCells) {
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

// inferRequest is an inference request but its inputs, which are read
// into a table.
type inferRequest struct {
	id           string
	binaryOutput bool     // the parameter binary_data_output
	outputs      []output // the outputs asked for, nil for the default ones
}

var (
	inferKeys  = newKeyIndex("id", "parameters", "inputs", "outputs")
	tensorKeys = newKeyIndex("name", "shape", "datatype", "parameters", "data")
	outputKeys = newKeyIndex("name", "parameters")
)

// maxShape is the most dimensions of a tensor's shape; maxOutputs the
// most outputs a request may name.
const (
	maxShape   = 8
	maxOutputs = 16
)

// readInfer reads an inference request for e's model, its inputs into
// the rows of a data set, with the limits of s.
func (s *Server) readInfer(b []byte, e *entry) (*inferRequest, *data.Dataset, error) {
	req := &inferRequest{}
	in := s.newInputs(e, len(b), 2)
	avail := outputs(e)
	sc := &scanner{b: b}
	sc.protocolFields(inferKeys, func(k int) {
		switch {
		case sc.null():
		case k == 0:
			req.id = string(sc.str())
		case k == 1:
			req.binaryOutput = sc.binary("binary_data_output")
		case k == 2:
			sc.elements(func(int) { in.tensor(sc) })
		case k == 3:
			sc.elements(func(i int) { req.output(sc, e, avail, i) })
		}
	})
	sc.end()
	switch {
	case sc.err != nil:
		return nil, nil, sc.err
	}
	d, err := in.dataset()
	return req, d, err
}

// newInputs returns the reader of the input tensors of a request of size
// bytes for e's model, in which a value takes at least valueBytes.
func (s *Server) newInputs(e *entry, size, valueBytes int) *inputs {
	in := &inputs{t: newTable(e.model.Schema(), true), limit: s.rowLimit(e), size: size, valueBytes: valueBytes, n: -1}
	in.seen = make([]bool, in.t.D)
	return in
}

// dataset returns the rows read, or the error of inputs missing.
func (in *inputs) dataset() (*data.Dataset, error) {
	if in.count == 0 {
		return nil, errors.New("no inputs")
	}
	if j := slices.Index(in.seen, false); j >= 0 && !in.whole {
		return nil, fmt.Errorf("input %q is missing (inputs: one per feature, as the model's metadata lists)", in.t.column(j).Name)
	}
	return &in.t.d, nil
}

// output reads the output i that a request asks for, one of avail.
func (req *inferRequest) output(s *scanner, e *entry, avail []output, i int) {
	if i == maxOutputs {
		s.fail(fmt.Errorf("more than %d outputs asked for", maxOutputs))
		return
	}
	var name string
	binary := false
	s.protocolFields(outputKeys, func(k int) {
		switch {
		case s.null():
		case k == 0:
			name = string(s.str())
		case k == 1:
			binary = s.binary("binary_data")
		}
	})
	if s.err != nil {
		return
	}
	o, err := findOutput(e, avail, name)
	switch {
	case err != nil:
		s.fail(err)
	case binary:
		s.fail(fmt.Errorf("output %q: binary tensor data is not supported", name))
	default:
		req.outputs = append(req.outputs, o)
	}
}

// findOutput returns the output of e's model of the name, one of avail.
func findOutput(e *entry, avail []output, name string) (output, error) {
	j := slices.IndexFunc(avail, func(o output) bool { return o.Name == name })
	if j < 0 {
		return output{}, fmt.Errorf("model %q has no output %q (outputs: %s)", e.name, name, outputNames(avail))
	}
	return avail[j], nil
}

func outputNames(out []output) string {
	names := make([]string, len(out))
	for i, o := range out {
		names[i] = o.Name
	}
	return strings.Join(names, ", ")
}

// null reads a null and reports whether it was one.
func (s *scanner) null() bool {
	if s.peek() == 'n' {
		s.literal()
		return true
	}
	return false
}

// binary reads a parameters object and reports whether it asks for
// binary data by key: the key given with any value but false.
func (s *scanner) binary(key string) bool {
	found := false
	s.members(func(k []byte) {
		if string(k) == key && s.peek() != 'f' {
			found = true
		}
		s.skip()
	})
	return found
}

// shape reads the shape of a tensor, sizes that are integers.
func (s *scanner) shape() []int {
	shape := make([]int, 0, 2)
	s.elements(func(i int) {
		if i == maxShape {
			s.failf("a shape of more than %d dimensions", maxShape)
			return
		}
		num, integer := s.number()
		if s.err != nil {
			return
		}
		n, err := strconv.Atoi(string(num))
		if !integer || err != nil {
			s.failf("the size %s in a shape is not an integer of 64 bits", num)
			return
		}
		shape = append(shape, n)
	})
	return shape
}

// leaves reads an array of values, flat or nested, calling leaf with the
// scanner at each value.
func (s *scanner) leaves(leaf func()) {
	if !s.next('[') {
		s.unexpected("an array")
		return
	}
	if !s.enter() {
		return
	}
	if !s.next(']') {
		for s.err == nil {
			if s.peek() == '[' {
				s.leaves(leaf)
			} else {
				leaf()
			}
			if !s.comma() {
				break
			}
		}
	}
	s.depth--
}

// inputs reads the input tensors of a request into the rows of a table:
// one tensor of shape [n] (or [n, 1]) per feature, or when every feature
// is numeric one tensor [n, D] of them in the schema's order.
type inputs struct {
	t          *table
	limit      int    // the most rows
	size       int    // the request's size in bytes, which bounds the values it holds
	valueBytes int    // the fewest bytes a value takes in the request: 2 in JSON (a value and its comma), 1 in protobuf
	n          int    // the rows, -1 before the first tensor
	count      int    // the tensors read
	whole      bool   // the one tensor [n, D] is read
	seen       []bool // the features read
}

// tensorHead is what a tensor says of its data.
type tensorHead struct {
	name, datatype string
	shape          []int
	given          int  // bits 1, 2, 4: name, shape and datatype given
	binary         bool // binary_data_size given
}

// tensor reads a tensor, calling data with the scanner at its data once
// its name, shape and datatype are known: at once when they come first,
// else after the tensor, from where the data start.
func (s *scanner) tensor(data func(h *tensorHead)) {
	h := tensorHead{}
	dataAt, read := -1, false
	s.protocolFields(tensorKeys, func(k int) {
		switch k {
		case 0:
			h.name, h.given = string(s.str()), h.given|1
		case 1:
			h.shape, h.given = s.shape(), h.given|2
		case 2:
			h.datatype, h.given = string(s.str()), h.given|4
		case 3:
			if !s.null() {
				h.binary = s.binary("binary_data_size")
			}
		case 4:
			if h.given == 7 && !h.binary {
				data(&h)
				read = true
			} else {
				dataAt = s.i
				s.span() // checked when read
			}
		}
	})
	switch {
	case s.err != nil:
	case h.binary:
		s.fail(errBinary(h.name)) // parameters after the data
	case read:
	case dataAt < 0:
		s.fail(fmt.Errorf("input %q has no data", h.name))
	default: // read where the data stand, inside the tensor's object
		end := s.i
		s.i, s.depth = dataAt, s.depth+1
		data(&h)
		s.i, s.depth = end, s.depth-1
	}
}

// tensor reads a tensor of the inputs into the rows of the table.
func (in *inputs) tensor(s *scanner) { s.tensor(func(h *tensorHead) { in.data(s, h) }) }

// data reads the data of the tensor h at s into the rows of the table,
// as many values as its shape says.
func (in *inputs) data(s *scanner, h *tensorHead) {
	v, err := in.begin(h, -1)
	if err != nil {
		s.fail(err)
		return
	}
	s.leaves(func() {
		i, j, err := v.next()
		if err != nil {
			s.fail(err)
			return
		}
		in.t.cell(s, i, j)
	})
	if s.err == nil {
		s.fail(v.end())
	}
}

// begin checks the tensor h, of count values (-1 when not known before
// they are read), against the model and the tensors before: its name,
// shape and datatype, its rows at most the limit, and its values at most
// what the request can hold, before anything of their size is allocated.
// At the first tensor it allocates the table's rows. It returns the
// cursor of the tensor's values.
func (in *inputs) begin(h *tensorHead, count int) (*values, error) {
	schema := in.t.d.Schema
	D := in.t.D
	fail := func(format string, args ...any) error {
		return fmt.Errorf("input %q: %s", h.name, fmt.Sprintf(format, args...))
	}
	if h.binary {
		return nil, errBinary(h.name)
	}
	j := schema.Feature(h.name)
	width := 1
	switch {
	case in.count == 0 && len(h.shape) == 2 && h.shape[1] == D && (D > 1 || j < 0):
		in.whole, width = true, D
	case in.whole:
		return nil, fail("a tensor [n, %d] of every feature goes alone, without other inputs", D)
	case j < 0 && len(h.shape) == 2 && h.shape[1] != 1:
		return nil, fail("shape %v does not match the model's %d features: send one tensor [n, %d] of the features in the schema's order, or one tensor [n] per feature", h.shape, D, D)
	case j < 0:
		return nil, fail("the model has no feature of that name (inputs: one per feature, as the model's metadata lists)")
	case in.seen[j]:
		return nil, fmt.Errorf("input %q given twice", h.name)
	case len(h.shape) == 0 || len(h.shape) > 2 || len(h.shape) == 2 && h.shape[1] != 1:
		return nil, fail("shape %v, want [n] or [n, 1]", h.shape)
	}
	n := h.shape[0]
	switch {
	case n < 0:
		return nil, fail("shape %v has a negative size", h.shape)
	case in.n >= 0 && n != in.n:
		return nil, fail("%d rows, but the inputs before have %d", n, in.n)
	case n > in.limit:
		return nil, &tooManyError{n, in.limit}
	case n == 0:
		return nil, errors.New("no rows")
	case n*D > (in.size+in.valueBytes-1)/in.valueBytes:
		return nil, fail("shape %v: %d rows of %d features are %d values, more than a request of %d bytes holds", h.shape, n, D, n*D, in.size)
	case count >= 0 && count != n*width:
		return nil, fail("%d values, but shape %v holds %d", count, h.shape, n*width)
	}
	for jj := range schema.Features {
		c := &schema.Features[jj]
		switch {
		case !in.whole && jj != j:
			continue
		case in.whole && c.Kind != data.Numeric:
			return nil, fail("a tensor of every feature needs numeric features, and feature %q is %s: send one tensor per feature", c.Name, c.Kind)
		}
		if err := checkType(h, c); err != nil {
			return nil, err
		}
	}
	if in.n < 0 {
		in.n = n
		in.t.alloc(n)
	}
	v := &values{in: in, h: h, j: j, total: n * width, col: j}
	if in.whole {
		v.col = 0
	}
	return v, nil
}

// errBinary is the error of the input tensor of the name whose data are
// binary (the parameter binary_data_size).
func errBinary(name string) error {
	return fmt.Errorf("input %q: binary tensor data is not supported", name)
}

// values walks the cells of a tensor's values, in row-major order.
type values struct {
	in       *inputs
	h        *tensorHead
	j        int // the tensor's feature, -1 for the tensor of every feature
	k, total int // the values read and the shape's
	row, col int // the cell of value k
}

// next returns the cell of the next value, or an error when the shape
// holds no more.
func (v *values) next() (row, col int, err error) {
	if v.k == v.total {
		return 0, 0, fmt.Errorf("input %q: more values than shape %v holds, %d", v.h.name, v.h.shape, v.total)
	}
	row, col = v.row, v.col
	v.k++
	if !v.in.whole {
		v.row++
	} else if v.col++; v.col == v.in.t.D {
		v.row, v.col = v.row+1, 0
	}
	return row, col, nil
}

// end checks that the shape's values were all read, and records the
// tensor's features as read.
func (v *values) end() error {
	if v.k != v.total {
		return fmt.Errorf("input %q: %d values, but shape %v holds %d", v.h.name, v.k, v.h.shape, v.total)
	}
	for jj := range v.in.seen {
		v.in.seen[jj] = v.in.seen[jj] || v.in.whole || jj == v.j
	}
	v.in.count++
	return nil
}

// numericType reports whether a v2 datatype is a number's.
func numericType(dt string) bool {
	switch dt {
	case "FP64", "FP32", "FP16", "INT8", "INT16", "INT32", "INT64", "UINT8", "UINT16", "UINT32", "UINT64":
		return true
	}
	return false
}

// checkType returns an error when the datatype of t does not suit the
// column c.
func checkType(t *tensorHead, c *data.Column) error {
	ok := false
	switch {
	case numericType(t.datatype):
		ok = c.Kind == data.Numeric
	case t.datatype == "BOOL":
		ok = c.Kind == data.Numeric || c.Kind == data.Categorical && slices.Contains(c.Levels, "true")
	case t.datatype == "BYTES":
		ok = c.Kind != data.Numeric
	}
	if !ok {
		return fmt.Errorf("input %q: datatype %q, want %s (the column is %s)", t.name, t.datatype, datatype(c), c.Kind)
	}
	return nil
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
