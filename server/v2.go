package server

import (
	"encoding/json"
	"net/http"
	"runtime/debug"
	"slices"
	"strconv"

	"github.com/gendisc/gendisc/data"
	"github.com/gendisc/gendisc/internal/jsonw"
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
	if e.tagger != nil {
		return tagOutputs(e)
	}
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
	if e.tagger != nil {
		meta.Inputs = []tensorMeta{{Name: tokensInput, Datatype: "BYTES", Shape: []int{-1, -1}}}
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
	if e.tagger != nil {
		s.tagInfer(c, e, body.Bytes())
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
	density := slices.ContainsFunc(inf.want, func(o output) bool { return o.Name == "log_likelihood" })
	switch {
	case predicting && density:
		// Both from one computation of the joint where the model has one
		// (models.PredictDensity).
		p, ll, err := models.PredictDensity(e.model, d)
		if err != nil {
			return nil, err
		}
		inf.p, inf.ll = p, ll
	case predicting:
		p, err := models.Predict(e.model, d)
		if err != nil {
			return nil, err
		}
		inf.p = p
	case density:
		inf.ll = e.density(d)
	}
	if inf.p != nil {
		inf.clamped += models.ClampAll(inf.p.Values)
	}
	inf.clamped += models.ClampAll(inf.ll)
	return inf, nil
}

// writeInfer writes the JSON answer of inf for n rows of e's model to a
// and sends it.
func writeInfer(a *answer, e *entry, id string, n int, inf *inference) {
	a.b = inferHeader(a.b, e, id, inf.unseen, inf.clamped)
	a.b = append(a.b, `,"outputs":[`...)
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

// inferHeader appends to b the start of an inference response of e's
// model: its name and version, the request's id, and the parameters
// (appendParameters).
func inferHeader(b []byte, e *entry, id string, unseen map[string]int, clamped int) []byte {
	b = append(b, `{"model_name":`...)
	b = jsonw.String(b, e.name)
	b = append(b, `,"model_version":`...)
	b = jsonw.String(b, e.version)
	if id != "" {
		b = append(b, `,"id":`...)
		b = jsonw.String(b, id)
	}
	return appendParameters(b, unseen, clamped)
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
