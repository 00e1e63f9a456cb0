package server

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"

	"github.com/gendisc/gendisc/data"
	"github.com/gendisc/gendisc/models"
)

// The Open Inference Protocol (KServe v2) REST API. A model's inputs are
// its feature columns, one tensor each, of shape [n] (or [n, 1]): FP64
// (or any integer type, or BOOL as 1 and 0) for a numeric column, BYTES
// (strings) for a categorical or text column, BOOL for a categorical
// column whose levels are true and false. A JSON null is a missing cell.
// A model whose features are all numeric also takes one FP64 tensor of
// shape [n, d], the features in the schema's order. The outputs:
//
//	classifier   label BYTES [n], proba FP64 [n, K] (classes in the model's order),
//	             and on request log_likelihood FP64 [n] for a generative one
//	mixture      component INT64 [n], log_likelihood FP64 [n],
//	             and on request proba FP64 [n, K] (the responsibilities)
//	regression   prediction FP64 [n]
//
// The binary tensor extension is not supported: a request for binary data
// (the parameters binary_data and binary_data_output) is refused.

// platform is the platform of the model metadata.
const platform = "gendisc"

// tensorMeta is the metadata of an input or output.
type tensorMeta struct {
	Name     string   `json:"name"`
	Datatype string   `json:"datatype"`
	Shape    []int    `json:"shape"`
	Labels   []string `json:"labels,omitempty"` // the classes or components of proba
}

// output is an output of a model: its metadata and whether it is
// returned when the request names no outputs.
type output struct {
	tensorMeta
	byDefault bool
}

// outputs returns the outputs of e's model.
func outputs(e *entry) []output {
	var out []output
	switch {
	case e.first == "prediction" && e.labels == nil:
		out = append(out, output{tensorMeta{"prediction", "FP64", []int{-1}, nil}, true})
	case e.first == "prediction":
		out = append(out, output{tensorMeta{"label", "BYTES", []int{-1}, nil}, true},
			output{tensorMeta{"proba", "FP64", []int{-1, len(e.labels)}, e.labels}, true})
	case e.first == "cluster":
		out = append(out, output{tensorMeta{"component", "INT64", []int{-1}, nil}, true},
			output{tensorMeta{"proba", "FP64", []int{-1, len(e.labels)}, e.labels}, false})
	}
	if e.density != nil {
		out = append(out, output{tensorMeta{"log_likelihood", "FP64", []int{-1}, nil}, e.first == "cluster"})
	}
	return out
}

// datatype returns the v2 datatype of a column.
func datatype(c *data.Column) string {
	if c.Kind == data.Numeric {
		return "FP64"
	}
	return "BYTES"
}

// metadata returns the v2 model metadata of e, as JSON.
func metadata(e *entry) ([]byte, error) {
	s := e.model.Schema()
	meta := struct {
		Name     string       `json:"name"`
		Versions []string     `json:"versions"`
		Platform string       `json:"platform"`
		Inputs   []tensorMeta `json:"inputs"`
		Outputs  []tensorMeta `json:"outputs"`
		// Extensions: the model's kind and its classes in the order of
		// the columns of proba.
		Kind    string   `json:"kind"`
		Classes []string `json:"classes,omitempty"`
	}{Name: e.name, Versions: []string{e.version}, Platform: platform, Kind: e.kind, Classes: s.Classes()}
	for j := range s.Features {
		c := &s.Features[j]
		meta.Inputs = append(meta.Inputs, tensorMeta{Name: c.Name, Datatype: datatype(c), Shape: []int{-1}})
	}
	for _, o := range outputs(e) {
		meta.Outputs = append(meta.Outputs, o.tensorMeta)
	}
	b, err := json.Marshal(meta)
	return append(b, '\n'), err
}

func (s *Server) serverMetadata(c *call) {
	c.json(http.StatusOK, map[string]any{"name": "gendisc", "version": version(), "extensions": []string{}})
}

func (s *Server) modelMetadata(c *call) {
	if e := c.entry(s); e != nil {
		c.write(http.StatusOK, "application/json", e.meta)
	}
}

// version returns the version of the gendisc module, "(devel)" when
// unknown.
func version() string {
	if bi, ok := debug.ReadBuildInfo(); ok {
		if bi.Main.Path == "github.com/gendisc/gendisc" && bi.Main.Version != "" {
			return bi.Main.Version
		}
		for _, m := range bi.Deps {
			if m.Path == "github.com/gendisc/gendisc" {
				return m.Version
			}
		}
	}
	return "(devel)"
}

// tensor is an input tensor of an inference request.
type tensor struct {
	Name       string          `json:"name"`
	Shape      []int           `json:"shape"`
	Datatype   string          `json:"datatype"`
	Parameters map[string]any  `json:"parameters"`
	Data       json.RawMessage `json:"data"`

	// The numbers of Data when the fast path read it (fastInfer), and
	// the length of its rows when they are nested, else 0.
	floats []float64
	rowLen int
}

type inferRequest struct {
	ID         string         `json:"id"`
	Parameters map[string]any `json:"parameters"`
	Inputs     []tensor       `json:"inputs"`
	Outputs    []struct {
		Name       string         `json:"name"`
		Parameters map[string]any `json:"parameters"`
	} `json:"outputs"`
}

// infer answers POST /v2/models/{name}/infer.
func (s *Server) infer(c *call) {
	e := c.entry(s)
	if e == nil {
		return
	}
	if mt, err := c.mediaType(); err != nil || mt != "" && mt != "application/json" {
		c.fail(http.StatusUnsupportedMediaType, "Content-Type %q is not accepted: send application/json", c.r.Header.Get("Content-Type"))
		return
	}
	body := getBuf()
	defer putBuf(body)
	if _, err := body.ReadFrom(http.MaxBytesReader(c.w, c.r.Body, s.opt.MaxBodyBytes)); err != nil {
		c.failBody(err, s.opt.MaxBodyBytes)
		return
	}
	var req inferRequest
	if !fastInfer(body.Bytes(), &req, len(e.model.Schema().Features)) {
		req = inferRequest{}
		dec := json.NewDecoder(bytes.NewReader(body.Bytes()))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&req); err != nil {
			c.fail(http.StatusBadRequest, "malformed JSON: %v", err)
			return
		}
		if _, err := dec.Token(); err != io.EOF {
			c.fail(http.StatusBadRequest, "malformed JSON: more after the object")
			return
		}
	}
	if binary(req.Parameters, "binary_data_output") {
		c.fail(http.StatusBadRequest, "binary tensor data is not supported: ask for JSON outputs")
		return
	}
	// The outputs asked for.
	avail := outputs(e)
	var want []output
	for _, ro := range req.Outputs {
		i := slices.IndexFunc(avail, func(o output) bool { return o.Name == ro.Name })
		if i < 0 {
			c.fail(http.StatusBadRequest, "model %q has no output %q (outputs: %s)", e.name, ro.Name, outputNames(avail))
			return
		}
		if binary(ro.Parameters, "binary_data") {
			c.fail(http.StatusBadRequest, "output %q: binary tensor data is not supported", ro.Name)
			return
		}
		want = append(want, avail[i])
	}
	if want == nil {
		for _, o := range avail {
			if o.byDefault {
				want = append(want, o)
			}
		}
	}
	d, err := s.tensors(e, req.Inputs)
	if err != nil {
		status := http.StatusBadRequest
		if errors.Is(err, errTooMany) {
			status = http.StatusRequestEntityTooLarge
		}
		c.fail(status, "%v", err)
		return
	}
	c.rows = d.N
	s.countUnseen(e, d)
	predicting := slices.ContainsFunc(want, func(o output) bool { return o.Name != "log_likelihood" })
	if err := checkRows(e, d, predicting); err != nil {
		c.fail(http.StatusBadRequest, "%v", err)
		return
	}
	var p *models.Predictions
	if predicting {
		if p, err = models.Predict(e.model, d); err != nil {
			c.fail(http.StatusBadRequest, "%v", err)
			return
		}
	}
	out := getBuf()
	defer putBuf(out)
	b := append(out.AvailableBuffer(), `{"model_name":`...)
	b = strconv.AppendQuote(b, e.name)
	b = append(b, `,"model_version":`...)
	b = strconv.AppendQuote(b, e.version)
	if req.ID != "" {
		b = append(b, `,"id":`...)
		id, _ := json.Marshal(req.ID)
		b = append(b, id...)
	}
	if u := unseen(d); u != nil {
		n := 0
		for _, k := range u {
			n += k
		}
		b = append(b, `,"parameters":{"unseen":`...)
		b = strconv.AppendInt(b, int64(n), 10)
		b = append(b, '}')
	}
	b = append(b, `,"outputs":[`...)
	for i, o := range want {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, `{"name":"`...)
		b = append(b, o.Name...)
		b = append(b, `","datatype":"`...)
		b = append(b, o.Datatype...)
		b = append(b, `","shape":[`...)
		b = strconv.AppendInt(b, int64(d.N), 10)
		if len(o.Shape) == 2 {
			b = append(b, ',')
			b = strconv.AppendInt(b, int64(o.Shape[1]), 10)
		}
		b = append(b, `],"data":[`...)
		switch o.Name {
		case "label":
			lab := quoted(p.Labels)
			for i, k := range p.Best {
				if i > 0 {
					b = append(b, ',')
				}
				b = append(b, lab[k]...)
			}
		case "component":
			for i, k := range p.Best {
				if i > 0 {
					b = append(b, ',')
				}
				b = strconv.AppendInt(b, int64(k), 10)
			}
		case "proba", "prediction":
			b = appendNumbers(b, p.Values)
		case "log_likelihood":
			b = appendNumbers(b, e.density(d))
		}
		b = append(b, "]}"...)
	}
	b = append(b, "]}\n"...)
	c.write(http.StatusOK, "application/json", b)
	*out = *bytes.NewBuffer(b[:0]) // keep the grown buffer for the next answer
}

// appendNumbers appends the values, comma-separated, with appendNumber.
func appendNumbers(b []byte, v []float64) []byte {
	for i, x := range v {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendNumber(b, x)
	}
	return b
}

// binary reports whether the parameters ask for binary tensor data.
func binary(params map[string]any, key string) bool {
	v, ok := params[key]
	return ok && v != false
}

func outputNames(out []output) string {
	names := make([]string, len(out))
	for i, o := range out {
		names[i] = o.Name
	}
	return strings.Join(names, ", ")
}

// errTooMany: a request of more rows than the limit.
var errTooMany = errors.New("too many rows")

// tensors returns the data set of the input tensors of an inference
// request for e's model.
func (s *Server) tensors(e *entry, inputs []tensor) (*data.Dataset, error) {
	schema := e.model.Schema()
	D := len(schema.Features)
	if len(inputs) == 0 {
		return nil, errors.New("no inputs")
	}
	if d := s.numeric(schema, inputs); d != nil {
		return d, nil
	}
	type column struct {
		j    int   // the feature
		vals []any // one per row
	}
	var cols []column
	n := -1
	if t := &inputs[0]; len(inputs) == 1 && len(t.Shape) == 2 && t.Shape[1] == D && (D > 1 || schema.Feature(t.Name) < 0) {
		// One tensor [n, d] of the features in the schema's order.
		vals, err := values(t)
		if err != nil {
			return nil, err
		}
		n = t.Shape[0]
		for j := range schema.Features {
			if schema.Features[j].Kind != data.Numeric {
				return nil, fmt.Errorf("input %q: a tensor of every feature needs numeric features, and feature %q is %s: send one tensor per feature", t.Name, schema.Features[j].Name, schema.Features[j].Kind)
			}
			if err := checkType(t, &schema.Features[j]); err != nil {
				return nil, err
			}
			col := column{j: j, vals: make([]any, n)}
			for i := range n {
				col.vals[i] = vals[i*D+j]
			}
			cols = append(cols, col)
		}
	} else {
		seen := make([]bool, D)
		for k := range inputs {
			t := &inputs[k]
			j := schema.Feature(t.Name)
			if j < 0 {
				return nil, fmt.Errorf("input %q: the model has no feature of that name (inputs: one per feature, as the model's metadata lists)", t.Name)
			}
			if seen[j] {
				return nil, fmt.Errorf("input %q given twice", t.Name)
			}
			seen[j] = true
			if len(t.Shape) == 0 || len(t.Shape) > 2 || len(t.Shape) == 2 && t.Shape[1] != 1 {
				return nil, fmt.Errorf("input %q: shape %v, want [n] or [n, 1]", t.Name, t.Shape)
			}
			if n >= 0 && t.Shape[0] != n {
				return nil, fmt.Errorf("input %q: %d rows, but the inputs before have %d", t.Name, t.Shape[0], n)
			}
			n = t.Shape[0]
			if err := checkType(t, &schema.Features[j]); err != nil {
				return nil, err
			}
			vals, err := values(t)
			if err != nil {
				return nil, err
			}
			cols = append(cols, column{j: j, vals: vals})
		}
		if i := slices.Index(seen, false); i >= 0 {
			return nil, fmt.Errorf("input %q is missing (inputs: one per feature, as the model's metadata lists)", schema.Features[i].Name)
		}
	}
	if n > s.opt.MaxRows {
		return nil, fmt.Errorf("%w: %d rows, more than the limit of %d rows per request", errTooMany, n, s.opt.MaxRows)
	}
	if n <= 0 {
		return nil, errors.New("no rows")
	}
	recs := make([]map[string]any, n)
	for i := range recs {
		recs[i] = make(map[string]any, D)
	}
	for _, col := range cols {
		c := &schema.Features[col.j]
		for i, v := range col.vals {
			if b, ok := v.(bool); ok {
				switch {
				case c.Kind == data.Numeric && b:
					v = 1.0
				case c.Kind == data.Numeric:
					v = 0.0
				default:
					v = strconv.FormatBool(b)
				}
			}
			recs[i][c.Name] = v
		}
	}
	return schema.Rows(recs)
}

// numeric returns the data set of the inputs when every feature is
// numeric and the inputs are numeric tensors of the forms tensors takes
// whose data are all numbers, read straight into the rows; otherwise nil,
// and tensors reads them, with the checks and the errors of every value
// (data.Schema.Rows). The data set is the one Rows would return.
func (s *Server) numeric(schema *data.Schema, inputs []tensor) *data.Dataset {
	D := len(schema.Features)
	if !allNumeric(schema) {
		return nil
	}
	for k := range inputs {
		if t := &inputs[k]; !numericType(t.Datatype) || len(t.Shape) == 0 || t.Shape[0] <= 0 || t.Shape[0] > s.opt.MaxRows || t.Parameters != nil {
			return nil
		}
	}
	n := inputs[0].Shape[0]
	X := make([]float64, n*D)
	if t := &inputs[0]; len(inputs) == 1 && len(t.Shape) == 2 && t.Shape[1] == D && (D > 1 || schema.Feature(t.Name) < 0) {
		if !tensorFloats(t, X, D) {
			return nil
		}
		return &data.Dataset{Schema: schema, N: n, X: X}
	}
	if len(inputs) != D {
		return nil
	}
	col := make([]float64, n)
	seen := make([]bool, D)
	for k := range inputs {
		t := &inputs[k]
		j := schema.Feature(t.Name)
		if j < 0 || seen[j] || t.Shape[0] != n || len(t.Shape) > 2 || len(t.Shape) == 2 && t.Shape[1] != 1 || !tensorFloats(t, col, 1) {
			return nil
		}
		seen[j] = true
		for i, x := range col {
			X[i*D+j] = x
		}
	}
	return &data.Dataset{Schema: schema, N: n, X: X}
}

// numericType reports whether a v2 datatype is a number's.
func numericType(dt string) bool {
	switch dt {
	case "FP64", "FP32", "FP16", "INT8", "INT16", "INT32", "INT64", "UINT8", "UINT16", "UINT32", "UINT64":
		return true
	}
	return false
}

// allNumeric reports whether every feature of the schema is numeric.
func allNumeric(schema *data.Schema) bool {
	for j := range schema.Features {
		if schema.Features[j].Kind != data.Numeric {
			return false
		}
	}
	return true
}

// readFloats reads the JSON array b, flat or of rows of k numbers, into
// dst, and reports whether it held len(dst) finite numbers and nothing
// else (scanFloats).
func readFloats(b []byte, dst []float64, k int) bool {
	v, ok := scanFloats(b, dst[:0], k, false)
	return ok && len(v) == len(dst)
}

// scanFloats appends to dst the numbers of the JSON array b, flat (unless
// nested is set) or of rows of k numbers, and reports whether b held
// finite numbers and nothing else. b is valid JSON (the request decoded),
// so that a value starting with a digit or a minus sign is a number of
// JSON's grammar.
func scanFloats(b []byte, dst []float64, k int, nested bool) ([]float64, bool) {
	depth, inRow := 0, 0
	for i := 0; i < len(b); i++ {
		switch c := b[i]; {
		case c == '[':
			if depth++; depth > 2 {
				return dst, false
			}
			inRow = 0
		case c == ']':
			if depth == 2 && inRow != k {
				return dst, false
			}
			depth--
		case c == ',' || c == ' ' || c == '\t' || c == '\n' || c == '\r':
		case c == '-' || '0' <= c && c <= '9':
			j := i + 1
			for j < len(b) && (b[j] >= '0' && b[j] <= '9' || b[j] == '.' || b[j] == 'e' || b[j] == 'E' || b[j] == '+' || b[j] == '-') {
				j++
			}
			x, err := strconv.ParseFloat(string(b[i:j]), 64)
			if err != nil || depth == 0 || nested && depth != 2 {
				return dst, false // ±Inf out of range: the errors of the slow path
			}
			dst = append(dst, x)
			inRow++
			i = j - 1
		default:
			return dst, false // a string, true, false, null or an object
		}
	}
	return dst, depth == 0 && len(b) > 0 && b[0] == '['
}

// checkType returns an error when the datatype of t does not suit the
// column c.
func checkType(t *tensor, c *data.Column) error {
	ok := false
	switch {
	case numericType(t.Datatype):
		ok = c.Kind == data.Numeric
	case t.Datatype == "BOOL":
		ok = c.Kind == data.Numeric || c.Kind == data.Categorical && slices.Contains(c.Levels, "true")
	case t.Datatype == "BYTES":
		ok = c.Kind != data.Numeric
	}
	if !ok {
		return fmt.Errorf("input %q: datatype %q, want %s (the column is %s)", t.Name, t.Datatype, datatype(c), c.Kind)
	}
	return nil
}

// values returns the data of t, flattened in row-major order, checked
// against its shape.
func values(t *tensor) ([]any, error) {
	if binary(t.Parameters, "binary_data_size") {
		return nil, fmt.Errorf("input %q: binary tensor data is not supported", t.Name)
	}
	size := 1
	for _, n := range t.Shape {
		if n < 0 {
			return nil, fmt.Errorf("input %q: shape %v has a negative size", t.Name, t.Shape)
		}
		if n > 0 && size > 1<<40/n {
			return nil, fmt.Errorf("input %q: shape %v is too large", t.Name, t.Shape)
		}
		size *= n
	}
	dec := json.NewDecoder(bytes.NewReader(t.Data))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, fmt.Errorf("input %q: data: %v", t.Name, err)
	}
	flat := make([]any, 0, size)
	var flatten func(v any)
	flatten = func(v any) {
		if a, ok := v.([]any); ok {
			for _, x := range a {
				flatten(x)
			}
			return
		}
		flat = append(flat, v)
	}
	flatten(v)
	if len(flat) != size {
		return nil, fmt.Errorf("input %q: %d values, but shape %v holds %d", t.Name, len(flat), t.Shape, size)
	}
	return flat, nil
}
