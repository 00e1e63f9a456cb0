package server

import (
	"bytes"
	"encoding/json"
	"math"
	"net/http"
	"strconv"

	"github.com/gendisc/gendisc"
	"github.com/gendisc/gendisc/data"
	"github.com/gendisc/gendisc/internal/jsonw"
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
	if e.tagger != nil {
		s.tagPredict(c, e)
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
	if e.tagger != nil {
		s.tagScore(c, e)
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
	writeScores(c, e, d, e.density(d))
}

// writeScores answers the log densities of the rows d (nil for the
// sentences of a tagger) under e's model.
func writeScores(c *call, e *entry, d *data.Dataset, scores []float64) {
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
	b = jsonw.String(b, e.name)
	b = append(b, `,"model_version":`...)
	b = jsonw.String(b, e.version)
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
	if d == nil {
		return nil
	}
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
