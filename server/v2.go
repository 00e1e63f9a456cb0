package server

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"

	"github.com/gendisc/gendisc/data"
	"github.com/gendisc/gendisc/modelfile"
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

// platform returns the platform of the model metadata, in the protocol's
// form <project>_<format>: gendisc_json for a gendisc model file,
// gendisc_<format> for a file of another format a kind reads
// (gendisc_arpa).
func platform(e *entry) string {
	if e.format == modelfile.Format {
		return "gendisc_json"
	}
	return "gendisc_" + e.format
}

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

// modelMeta is the v2 model metadata of a model.
type modelMeta struct {
	Name     string       `json:"name"`
	Versions []string     `json:"versions"`
	Platform string       `json:"platform"`
	Inputs   []tensorMeta `json:"inputs"`
	Outputs  []tensorMeta `json:"outputs"`
	// Extensions (REST only): the model's kind and its classes in the
	// order of the columns of proba.
	Kind    string   `json:"kind"`
	Classes []string `json:"classes,omitempty"`
}

// newModelMeta returns the v2 model metadata of e.
func newModelMeta(e *entry) *modelMeta {
	s := e.model.Schema()
	meta := &modelMeta{Name: e.name, Versions: []string{e.version}, Platform: platform(e), Kind: e.kind, Classes: s.Classes()}
	for j := range s.Features {
		c := &s.Features[j]
		meta.Inputs = append(meta.Inputs, tensorMeta{Name: c.Name, Datatype: datatype(c), Shape: []int{-1}})
	}
	for _, o := range outputs(e) {
		meta.Outputs = append(meta.Outputs, o.tensorMeta)
	}
	return meta
}

// metadata returns the v2 model metadata of e, as JSON.
func metadata(e *entry) ([]byte, error) {
	b, err := json.Marshal(newModelMeta(e))
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

// infer answers POST /v2/models/{name}/infer: the request decoded
// (readInfer), the answer computed (s.inference, which the gRPC
// ModelInfer shares) and encoded (writeInfer).
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
	if !s.readBody(c, body) {
		return
	}
	req, d, err := s.readInfer(body.Bytes(), e)
	if err != nil {
		status := http.StatusBadRequest
		if errorStatus(err) == http.StatusRequestEntityTooLarge {
			status = http.StatusRequestEntityTooLarge
		}
		c.fail(status, "%v", err)
		return
	}
	if req.binaryOutput {
		c.fail(http.StatusBadRequest, "binary tensor data is not supported: ask for JSON outputs")
		return
	}
	c.rows = d.N
	inf, err := s.inference(e, d, req.outputs)
	if err != nil {
		c.fail(http.StatusBadRequest, "%v", err)
		return
	}
	writeInfer(c.answer("application/json"), e, req.id, d.N, inf)
}

// inference is the answer to an inference request, computed.
type inference struct {
	want    []output            // the outputs answered
	p       *models.Predictions // nil when no output needs them
	ll      []float64           // the log-likelihoods, nil unless asked for
	unseen  map[string]int      // the categories not levels of the model, by column
	clamped int                 // values beyond float64, held as its largest magnitude
}

// inference computes the outputs asked for (nil: the default ones) of
// e's model for the rows d, counting their unseen categories in the
// metrics. An error is the rows' (a bad request).
func (s *Server) inference(e *entry, d *data.Dataset, asked []output) (*inference, error) {
	inf := &inference{want: asked, unseen: unseen(d)}
	if inf.want == nil {
		for _, o := range outputs(e) {
			if o.byDefault {
				inf.want = append(inf.want, o)
			}
		}
	}
	s.countUnseen(e, d)
	predicting := slices.ContainsFunc(inf.want, func(o output) bool { return o.Name != "log_likelihood" })
	if err := checkRows(e, d, predicting); err != nil {
		return nil, err
	}
	if predicting {
		p, err := models.Predict(e.model, d)
		if err != nil {
			return nil, err
		}
		inf.p = p
		inf.clamped += models.ClampAll(p.Values)
	}
	if slices.ContainsFunc(inf.want, func(o output) bool { return o.Name == "log_likelihood" }) {
		inf.ll = e.density(d)
		inf.clamped += models.ClampAll(inf.ll)
	}
	return inf, nil
}

// writeInfer writes the JSON answer of inf for n rows of e's model to a
// and sends it.
func writeInfer(a *answer, e *entry, id string, n int, inf *inference) {
	b := append(a.b, `{"model_name":`...)
	b = appendString(b, e.name)
	b = append(b, `,"model_version":`...)
	b = appendString(b, e.version)
	if id != "" {
		b = append(b, `,"id":`...)
		idb, _ := json.Marshal(id)
		b = append(b, idb...)
	}
	b = appendParameters(b, inf.unseen, inf.clamped)
	a.b = append(b, `,"outputs":[`...)
	for i, o := range inf.want {
		if i > 0 {
			a.b = append(a.b, ',')
		}
		b := append(a.b, `{"name":"`...)
		b = append(b, o.Name...)
		b = append(b, `","datatype":"`...)
		b = append(b, o.Datatype...)
		b = append(b, `","shape":[`...)
		b = strconv.AppendInt(b, int64(n), 10)
		if len(o.Shape) == 2 {
			b = append(b, ',')
			b = strconv.AppendInt(b, int64(o.Shape[1]), 10)
		}
		a.b = append(b, `],"data":[`...)
		switch o.Name {
		case "label":
			lab := quoted(inf.p.Labels)
			for i, k := range inf.p.Best {
				if i > 0 {
					a.b = append(a.b, ',')
				}
				a.b = append(a.b, lab[k]...)
				a.flushFull()
			}
		case "component":
			for i, k := range inf.p.Best {
				if i > 0 {
					a.b = append(a.b, ',')
				}
				a.b = strconv.AppendInt(a.b, int64(k), 10)
				a.flushFull()
			}
		case "proba", "prediction":
			a.numbers(inf.p.Values)
		case "log_likelihood":
			a.numbers(inf.ll)
		}
		a.b = append(a.b, "]}"...)
	}
	a.b = append(a.b, "]}\n"...)
	a.close()
}

// appendParameters appends the response's parameters, when there are
// any: "unseen", the count of categorical values that are not levels of
// the model, read as missing, and "clamped", the count of values beyond
// float64 (log-likelihoods below about −1.8e308, regression predictions
// out of range) that the answer holds as float64's largest magnitude.
func appendParameters(b []byte, unseen map[string]int, clamped int) []byte {
	n := 0
	for _, k := range unseen {
		n += k
	}
	if n == 0 && clamped == 0 {
		return b
	}
	b = append(b, `,"parameters":{`...)
	if n > 0 {
		b = append(b, `"unseen":`...)
		b = strconv.AppendInt(b, int64(n), 10)
	}
	if clamped > 0 {
		if n > 0 {
			b = append(b, ',')
		}
		b = append(b, `"clamped":`...)
		b = strconv.AppendInt(b, int64(clamped), 10)
	}
	return append(b, '}')
}

// numbers appends the values, comma-separated, with appendNumber.
func (a *answer) numbers(v []float64) {
	for i, x := range v {
		if i > 0 {
			a.b = append(a.b, ',')
		}
		a.b = appendNumber(a.b, x)
		a.flushFull()
	}
}

// readInfer reads an inference request for e's model, its inputs into
// the rows of a data set, with the limits of s.
func (s *Server) readInfer(b []byte, e *entry) (*inferRequest, *data.Dataset, error) {
	req := &inferRequest{}
	in := s.newInputs(e, len(b), 2)
	avail := outputs(e)
	sc := &scanner{b: b}
	sc.fields(inferKeys, nil, func(k int, key []byte) {
		switch {
		case k < 0:
			sc.skip() // the protocol's schema allows other members
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
	s.fields(outputKeys, nil, func(k int, key []byte) {
		switch {
		case k < 0:
			s.skip() // the protocol's schema allows other members
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

// tensor reads a tensor. Its data are read when its name, shape and
// datatype are known: at once when they come first, else after the
// tensor, from where the data start.
func (in *inputs) tensor(s *scanner) {
	h := tensorHead{}
	dataAt, read := -1, false
	s.fields(tensorKeys, nil, func(k int, key []byte) {
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
				in.data(s, &h)
				read = true
			} else {
				dataAt = s.i
				s.span() // checked when read
			}
		default:
			s.skip() // the protocol's schema allows other members
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
		in.data(s, &h)
		s.i, s.depth = end, s.depth-1
	}
}

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
