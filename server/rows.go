package server

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"net/http"
	"strconv"

	"github.com/gendisc/gendisc/data"
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
	if wantsCSV(c.r) {
		var b bytes.Buffer
		p.WriteCSV(&b)
		c.write(http.StatusOK, "text/csv; charset=utf-8", b.Bytes())
		return
	}
	out := getBuf()
	defer putBuf(out)
	b := rowHeader(out.AvailableBuffer(), e, d, p.Columns)
	b = append(b, `,"predictions":[`...)
	keys := quoted(p.Columns)
	lab := quoted(p.Labels)
	K := len(p.Labels)
	for i := range p.Rows() {
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
		b = append(b, '}')
	}
	b = append(b, "]}\n"...)
	c.write(http.StatusOK, "application/json", b)
	*out = *bytes.NewBuffer(b[:0]) // keep the grown buffer for the next answer
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
	if wantsCSV(c.r) {
		var b bytes.Buffer
		models.WriteScores(&b, scores)
		c.write(http.StatusOK, "text/csv; charset=utf-8", b.Bytes())
		return
	}
	b := rowHeader(make([]byte, 0, 256+d.N*64), e, d, models.ScoreColumns)
	b = append(b, `,"scores":[`...)
	for i, v := range scores {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, `{"log_p_nats":`...)
		b = appendNumber(b, v)
		b = append(b, `,"log_p_bits":`...)
		b = appendNumber(b, v/math.Ln2)
		b = append(b, '}')
	}
	c.write(http.StatusOK, "application/json", append(b, "]}\n"...))
}

// checkRows returns the error of rows that e's model refuses: negative
// counts for the count models, and, when predicting, rows that no class
// can produce.
func checkRows(e *entry, d *data.Dataset, predicting bool) error {
	if m, ok := e.model.(interface{ CheckCounts(*data.Dataset) error }); ok {
		if err := m.CheckCounts(d); err != nil {
			return err
		}
	}
	if m, ok := e.model.(interface{ Impossible(*data.Dataset) error }); ok && predicting {
		return m.Impossible(d)
	}
	return nil
}

// rowHeader appends to b the start of a row endpoint's answer: the
// model, its version, the columns and the unseen categories of d.
func rowHeader(b []byte, e *entry, d *data.Dataset, columns []string) []byte {
	b = append(b, `{"model_name":`...)
	b = strconv.AppendQuote(b, e.name)
	b = append(b, `,"model_version":`...)
	b = strconv.AppendQuote(b, e.version)
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
	for j, n := range d.Unseen {
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

// appendNumber appends v as JSON: the digits of strconv.FormatFloat(v,
// 'g', -1, 64), which JSON reads as a number, and NaN, +Inf and -Inf,
// which JSON has no number for, as the strings "NaN", "+Inf" and "-Inf".
func appendNumber(b []byte, v float64) []byte {
	switch {
	case math.IsNaN(v):
		return append(b, `"NaN"`...)
	case math.IsInf(v, 1):
		return append(b, `"+Inf"`...)
	case math.IsInf(v, -1):
		return append(b, `"-Inf"`...)
	}
	return strconv.AppendFloat(b, v, 'g', -1, 64)
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
	body := http.MaxBytesReader(c.w, c.r.Body, s.opt.MaxBodyBytes)
	var (
		d  *data.Dataset
		ok bool
	)
	switch mt {
	case "text/csv":
		b, err := io.ReadAll(body)
		if err != nil {
			c.failBody(err, s.opt.MaxBodyBytes)
			return nil, false
		}
		d, err = data.ReadWithSchema(bytes.NewReader(b), "request", e.model.Schema(), data.SchemaOptions{UnseenClassMissing: true})
		if err != nil {
			c.fail(http.StatusUnprocessableEntity, "%v", err)
			return nil, false
		}
	case "", "application/json":
		buf := getBuf()
		defer putBuf(buf)
		if _, err := buf.ReadFrom(body); err != nil {
			c.failBody(err, s.opt.MaxBodyBytes)
			return nil, false
		}
		if d, ok = fastInstances(buf.Bytes(), e.model.Schema()); !ok {
			if d, ok = s.readInstances(c, buf.Bytes(), e.model.Schema()); !ok {
				return nil, false
			}
		}
	default:
		c.fail(http.StatusUnsupportedMediaType, "Content-Type %s is not accepted: send application/json or text/csv", mt)
		return nil, false
	}
	if d.N > s.opt.MaxRows {
		c.fail(http.StatusRequestEntityTooLarge, "%d rows, more than the limit of %d rows per request", d.N, s.opt.MaxRows)
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

// countUnseen adds the categories of d not seen in training to the
// metrics.
func (s *Server) countUnseen(e *entry, d *data.Dataset) {
	n := 0
	for _, k := range d.Unseen {
		n += k
	}
	if n > 0 {
		s.metrics.unseenTot.WithLabelValues(e.name).Add(float64(n))
	}
}

// readInstances reads the JSON body {"instances": [...]} with the schema
// (when fastInstances does not),
// or answers the error and returns false. Rows that are arrays of numbers
// for a model of numeric features are read straight into the data set;
// others go through data.Schema.Rows.
func (s *Server) readInstances(c *call, body []byte, schema *data.Schema) (*data.Dataset, bool) {
	var req struct {
		Instances json.RawMessage `json:"instances"`
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&req); err != nil {
		c.fail(http.StatusBadRequest, "malformed JSON: %v", err)
		return nil, false
	}
	if _, err := dec.Token(); err != io.EOF {
		c.fail(http.StatusBadRequest, "malformed JSON: more after the object")
		return nil, false
	}
	tooMany := func(n int) bool {
		if n > s.opt.MaxRows {
			c.fail(http.StatusRequestEntityTooLarge, "%d rows, more than the limit of %d rows per request", n, s.opt.MaxRows)
		}
		return n > s.opt.MaxRows
	}
	if D := len(schema.Features); allNumeric(schema) && D > 0 {
		if X, ok := scanFloats(req.Instances, nil, D, true); ok {
			if tooMany(len(X) / D) {
				return nil, false
			}
			return &data.Dataset{Schema: schema, N: len(X) / D, X: X}, true
		}
	}
	var instances []any
	if len(req.Instances) > 0 {
		dec = json.NewDecoder(bytes.NewReader(req.Instances))
		dec.UseNumber()
		if err := dec.Decode(&instances); err != nil {
			c.fail(http.StatusBadRequest, "malformed JSON: instances: %v", err)
			return nil, false
		}
	}
	if tooMany(len(instances)) {
		return nil, false
	}
	d, err := records(schema, instances)
	if err != nil {
		c.fail(http.StatusUnprocessableEntity, "%v", err)
		return nil, false
	}
	return d, true
}

// records returns the data set of the instances, each an object keyed by
// column name or an array of the features in the schema's order
// (data.Schema.Rows).
func records(s *data.Schema, instances []any) (*data.Dataset, error) {
	recs := make([]map[string]any, len(instances))
	for i, inst := range instances {
		switch v := inst.(type) {
		case map[string]any:
			recs[i] = v
		case []any:
			if len(v) != len(s.Features) {
				return nil, fmt.Errorf("instance %d: an array of %d values, want one per feature, %d, in the schema's order", i, len(v), len(s.Features))
			}
			rec := make(map[string]any, len(v))
			for j, x := range v {
				rec[s.Features[j].Name] = x
			}
			recs[i] = rec
		default:
			return nil, fmt.Errorf("instance %d is neither an object nor an array", i)
		}
	}
	return s.Rows(recs)
}
