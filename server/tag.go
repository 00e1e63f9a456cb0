package server

import (
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"unicode/utf8"

	"google.golang.org/protobuf/proto"

	"github.com/gendisc/gendisc"
	"github.com/gendisc/gendisc/internal/jsonw"
	"github.com/gendisc/gendisc/models"
	"github.com/gendisc/gendisc/server/internal/oippb"
)

// Sequence taggers (gendisc.Tagger: hidden Markov models, linear-chain
// CRFs) are served by tagging sentences, on the endpoints of the other
// models. A sentence is a string, its tokens separated by white space
// (strings.Fields: any Unicode white space), or an array of its tokens
// (strings, none empty).
//
// The row endpoint, POST /v1/models/{name}/predict, takes
//
//	{"instances": ["The dog runs .", ["The", "dog", "runs", "."], {"tokens": ...}, ...],
//	 "marginals": true, "log_likelihood": true}
//
// (an object holds the sentence under "tokens", and may hold "tags",
// which is not read: a line of JSON-lines sequence data is an instance)
// and answers per sentence the tokens read and their tags, with on
// request the posterior marginals of the tags per token
// (forward–backward) and log p(tokens) (a generative tagger only):
//
//	{"model_name": ..., "model_version": ..., "columns": ["tokens", "tags", "marginals", "log_likelihood"],
//	 "labels": ["ADJ", ...],
//	 "predictions": [{"tokens": ["The", ...], "tags": ["DET", ...], "marginals": [[...], ...], "log_likelihood": -31.2}, ...]}
//
// where row i of "marginals" holds P(t_i = tag | tokens) for the tags in
// the order of "labels" (the model's tag set, sorted). POST
// /v1/models/{name}/score answers log p(tokens) of each sentence as
// gendisc score does (log_p_nats, log_p_bits).
//
// The v2 endpoint takes one input tensor "tokens" of datatype BYTES:
// shape [n] of sentences (strings split at white space) or [n, t] of
// tokens, each sentence padded at its end with empty strings to the t of
// the longest (tensors are rectangular). It answers
//
//	tags            BYTES [n, t]     padded with "" past a sentence's end (a tag is never empty)
//	marginals       FP64  [n, t, K]  on request; rows of 0 past a sentence's end
//	log_likelihood  FP64  [n]        on request, for a generative tagger
//
// with t the longest sentence, and the gRPC service the same in
// bytes_contents and fp64_contents.
//
// Limits: at most Options.MaxRows sentences, Options.MaxSentenceTokens
// tokens in a sentence, and answerLimit tokens in a request,
// MaxBodyBytes/(2(K+1)) for K tags (over v2, the n·t of the padded
// answer), so that the marginals take at most four times MaxBodyBytes;
// 413 past one. A sentence without tokens, a token that is not a string,
// an empty token between tokens is refused with 422 on the row endpoint,
// 400 on v2 (as a cell that does not fit its column).
//
// A tagger trained on sentences given as attributes (CRFsuite's data
// format) is not served: its model file is refused when loaded
// (checkTaggerInput), since requests hold words.

// checkTaggerInput returns the error of a tagger that the server cannot
// serve: one trained on sentences given as attributes (CRFsuite's data
// format, gendisc.AttributeTagger), which tags attributes, not the words
// that requests hold.
func checkTaggerInput(t gendisc.Tagger) error {
	if at, ok := t.(gendisc.AttributeTagger); ok && at.OnAttributes() {
		return errors.New("a tagger trained on given attributes (CRFsuite's data format) tags attributes, not the words of requests: it cannot be served")
	}
	return nil
}

// tokensInput names the one input tensor of a tagger, the text column of
// its schema.
const tokensInput = "tokens"

// overLimitError is a request of more sentences or tokens than a limit
// allows (413).
type overLimitError struct{ msg string }

func (e *overLimitError) Error() string { return e.msg }

func overLimit(format string, args ...any) error {
	return &overLimitError{fmt.Sprintf(format, args...)}
}

// sentences are the sentences of a request being read, with the limits
// of the server for its model.
type sentences struct {
	tokens       [][]string
	total        int // the tokens of all
	maxSentences int
	maxTokens    int // in a sentence
	maxTotal     int // in the request
	begun        bool
}

func (s *Server) newSentences(e *entry) *sentences {
	return &sentences{maxSentences: s.rowLimit(e), maxTokens: s.opt.MaxSentenceTokens, maxTotal: s.answerLimit(e)}
}

// tooMany is the error of more sentences than the limit.
func (st *sentences) tooMany() error {
	return overLimit("more than the limit of %d sentences per request", st.maxSentences)
}

// add adds the next sentence, or returns the error of one without tokens
// or over a limit of tokens.
func (st *sentences) add(toks []string) error {
	i := len(st.tokens)
	switch {
	case len(toks) == 0:
		return fmt.Errorf("sentence %d has no tokens", i)
	case len(toks) > st.maxTokens:
		return overLimit("sentence %d has %d tokens, more than the limit of %d tokens per sentence", i, len(toks), st.maxTokens)
	case st.total+len(toks) > st.maxTotal:
		return overLimit("more than the limit of %d tokens per request", st.maxTotal)
	}
	st.total += len(toks)
	st.tokens = append(st.tokens, toks)
	return nil
}

// split returns the tokens of sentence i, the string v split at white
// space (as strings.Fields), or the error of more than the limit of
// tokens, found before more than the limit are kept.
func (st *sentences) split(i int, v []byte) ([]string, error) {
	var toks []string
	for tok := range strings.FieldsSeq(string(v)) {
		if len(toks) == st.maxTokens {
			return nil, overLimit("sentence %d has more than the limit of %d tokens per sentence", i, st.maxTokens)
		}
		toks = append(toks, tok)
	}
	return toks, nil
}

// longest returns the tokens of the longest sentence.
func (st *sentences) longest() int {
	t := 0
	for _, toks := range st.tokens {
		t = max(t, len(toks))
	}
	return t
}

// checkPadded returns the error of sentences whose tensor [n, t], padded
// to the longest, holds more than the limit of tokens.
func (st *sentences) checkPadded() error {
	if n, t := len(st.tokens), st.longest(); n*t > st.maxTotal {
		return overLimit("%d sentences of up to %d tokens are an answer of [%d, %d] tags, more than the limit of %d tokens per request: send the long sentences apart",
			n, t, n, t, st.maxTotal)
	}
	return nil
}

// tagWant are the outputs asked for beside the tags.
type tagWant struct{ marginals, logLikelihood bool }

var (
	sentenceRequestKeys = newKeyIndex("instances", "marginals", "log_likelihood")
	sentenceKeys        = newKeyIndex("tokens", "tags")
)

// instances reads the body of a row endpoint's request to a tagger,
// {"instances": [...], "marginals": bool, "log_likelihood": bool}.
func (st *sentences) instances(b []byte) (tagWant, error) {
	var want tagWant
	s := &scanner{b: b}
	s.fields(sentenceRequestKeys, nil, func(k int, key []byte) {
		switch {
		case k < 0:
			s.failf("unknown field %q", key)
		case s.null():
		case k == 0:
			s.elements(func(i int) { st.instance(s, i) })
		case k == 1:
			want.marginals = s.flag(key)
		case k == 2:
			want.logLikelihood = s.flag(key)
		}
	})
	s.end()
	return want, s.err
}

// flag reads the value of key, true or false.
func (s *scanner) flag(key []byte) bool {
	if c := s.peek(); c == 't' || c == 'f' {
		return s.literal() == 't'
	}
	at := s.i
	s.skip()
	if s.err == nil {
		s.i = at
		s.failf("%q: want true or false", key)
	}
	return false
}

// instance reads the sentence i: a sentence, or an object of it under
// "tokens".
func (st *sentences) instance(s *scanner, i int) {
	if i == st.maxSentences {
		s.fail(st.tooMany())
		return
	}
	var toks []string
	if s.peek() != '{' {
		toks = st.sentence(s, i)
	} else {
		found := false
		s.fields(sentenceKeys, nil, func(k int, key []byte) {
			switch k {
			case 0:
				toks, found = st.sentence(s, i), true
			case 1:
				s.skip() // the tags of tagged data, not read
			default:
				s.fail(fmt.Errorf("sentence %d: unknown field %q (the sentence goes under \"tokens\")", i, key))
			}
		})
		if s.err == nil && !found {
			s.fail(fmt.Errorf("sentence %d: an object without \"tokens\"", i))
		}
	}
	if s.err == nil {
		s.fail(st.add(toks))
	}
}

// sentence reads the sentence i: a string of tokens separated by white
// space, or an array of tokens.
func (st *sentences) sentence(s *scanner, i int) []string {
	switch s.peek() {
	case '"':
		toks, err := st.split(i, s.str())
		s.fail(err)
		return toks
	case '[':
		toks := []string{}
		s.elements(func(j int) {
			if j == st.maxTokens {
				s.fail(overLimit("sentence %d has more than the limit of %d tokens per sentence", i, st.maxTokens))
				return
			}
			if s.peek() != '"' {
				s.fail(fmt.Errorf("sentence %d, token %d: %s, want a string", i, j, s.skipValue()))
				return
			}
			v := s.str()
			if s.err == nil && len(v) == 0 {
				s.fail(fmt.Errorf("sentence %d, token %d: an empty token", i, j))
			}
			toks = append(toks, string(v))
		})
		return toks
	}
	s.fail(fmt.Errorf("sentence %d: %s, want a string or an array of tokens", i, s.skipValue()))
	return nil
}

// skipValue skips a value and returns what it was, for an error.
func (s *scanner) skipValue() string {
	what := "a number"
	switch s.peek() {
	case '"':
		what = "a string"
	case '[':
		what = "an array"
	case '{':
		what = "an object"
	case 't', 'f':
		what = "a boolean"
	case 'n':
		what = "null"
	}
	s.skip()
	return what
}

// tokenTensor reads the values of the input tensor of a tagger into
// sentences: shape [n], a sentence each, or [n, t], t tokens each, ""
// padding a sentence's end.
type tokenTensor struct {
	st       *sentences
	h        *tensorHead
	width    int // t, 0 for a tensor of sentences
	k, total int // the values read and the shape's
	row      []string
	padded   bool // the padding started in the row
}

// begin checks the tensor h, of count values (-1 when not known before
// they are read), in a request of size bytes in which a value takes at
// least valueBytes: its name, datatype and shape, and its sentences and
// values at most what the limits and the request allow.
func (st *sentences) begin(h *tensorHead, count, size, valueBytes int) (*tokenTensor, error) {
	if err := st.checkHead(h); err != nil {
		return nil, err
	}
	fail := func(format string, args ...any) error {
		return fmt.Errorf("input %q: %s", h.name, fmt.Sprintf(format, args...))
	}
	n, width := h.shape[0], 0
	if len(h.shape) == 2 {
		width = h.shape[1]
	}
	switch {
	case n < 0 || width < 0:
		return nil, fail("shape %v has a negative size", h.shape)
	case n > st.maxSentences:
		return nil, overLimit("%d sentences, more than the limit of %d sentences per request", n, st.maxSentences)
	case width > st.maxTokens:
		return nil, overLimit("input %q: shape %v, more than the limit of %d tokens per sentence", h.name, h.shape, st.maxTokens)
	case n == 0 || len(h.shape) == 2 && width == 0:
		return nil, fail("shape %v holds no tokens", h.shape)
	}
	total := n * max(1, width)
	switch {
	case total > (size+valueBytes-1)/valueBytes:
		return nil, fail("shape %v: %d values, more than a request of %d bytes holds", h.shape, total, size)
	case count >= 0 && count != total:
		return nil, fail("%d values, but shape %v holds %d", count, h.shape, total)
	}
	st.begun = true
	st.tokens = make([][]string, 0, n)
	return &tokenTensor{st: st, h: h, width: width, total: total}, nil
}

// checkHead returns the error of a tensor that is not the one input of
// a tagger: its name, datatype and the number of its dimensions.
func (st *sentences) checkHead(h *tensorHead) error {
	fail := func(format string, args ...any) error {
		return fmt.Errorf("input %q: %s", h.name, fmt.Sprintf(format, args...))
	}
	switch {
	case h.binary:
		return errBinary(h.name)
	case st.begun:
		return fail("a second input: a tagger takes one, %q", tokensInput)
	case h.name != tokensInput:
		return fail("the model has no input of that name: a tagger takes one, %q, BYTES [n] of sentences or [n, t] of tokens", tokensInput)
	case h.datatype != "BYTES":
		return fail("datatype %q, want BYTES", h.datatype)
	case len(h.shape) != 1 && len(h.shape) != 2:
		return fail("shape %v, want [n] of sentences or [n, t] of tokens", h.shape)
	}
	return nil
}

// next reads the next value, v.
func (t *tokenTensor) next(v []byte) error {
	if t.k == t.total {
		return fmt.Errorf("input %q: more values than shape %v holds, %d", t.h.name, t.h.shape, t.total)
	}
	i, j := t.k/max(1, t.width), t.k%max(1, t.width)
	t.k++
	if !utf8.Valid(v) {
		return fmt.Errorf("input %q: sentence %d: a value that is not valid UTF-8", t.h.name, i)
	}
	if t.width == 0 {
		toks, err := t.st.split(i, v)
		if err != nil {
			return err
		}
		return t.st.add(toks)
	}
	switch {
	case len(v) == 0:
		t.padded = true
	case t.padded:
		return fmt.Errorf("input %q: sentence %d, token %d follows an empty one (\"\" pads the end of a sentence only)", t.h.name, i, j)
	default:
		t.row = append(t.row, string(v))
	}
	if j < t.width-1 {
		return nil
	}
	toks := t.row
	t.row, t.padded = nil, false
	return t.st.add(toks)
}

// end checks that the shape's values were all read.
func (t *tokenTensor) end() error {
	if t.k != t.total {
		return fmt.Errorf("input %q: %d values, but shape %v holds %d", t.h.name, t.k, t.h.shape, t.total)
	}
	return nil
}

// readTagInfer reads an inference request (JSON) to e's tagger: its
// sentences, the outputs it asks for, its id.
func (s *Server) readTagInfer(b []byte, e *entry) (*inferRequest, *sentences, error) {
	req := &inferRequest{}
	st := s.newSentences(e)
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
			sc.elements(func(int) {
				sc.tensor(func(h *tensorHead) {
					t, err := st.begin(h, -1, len(b), 2)
					if err != nil {
						sc.fail(err)
						return
					}
					sc.leaves(func() {
						if sc.peek() != '"' {
							sc.fail(fmt.Errorf("input %q: %s, want a string", h.name, sc.skipValue()))
							return
						}
						if v := sc.str(); sc.err == nil {
							sc.fail(t.next(v))
						}
					})
					if sc.err == nil {
						sc.fail(t.end())
					}
				})
			})
		case k == 3:
			sc.elements(func(i int) { req.output(sc, e, avail, i) })
		}
	})
	sc.end()
	if sc.err != nil {
		return nil, nil, sc.err
	}
	if !st.begun {
		return nil, nil, errors.New("no inputs")
	}
	return req, st, st.checkPadded()
}

// readTagInferGRPC reads a gRPC inference request to e's tagger, as
// readTagInfer.
func (s *Server) readTagInferGRPC(req *oippb.ModelInferRequest, e *entry) ([]output, *sentences, error) {
	asked, err := grpcOutputs(req, e)
	if err != nil {
		return nil, nil, err
	}
	st := s.newSentences(e)
	size := proto.Size(req)
	for i, in := range req.Inputs {
		h, err := grpcHead(in)
		if err == nil {
			err = st.checkHead(h)
		}
		if err != nil {
			return nil, nil, err
		}
		var count int
		var next func() []byte
		if raw := req.RawInputContents; len(raw) > 0 {
			if in.Contents != nil && proto.Size(in.Contents) > 0 {
				return nil, nil, fmt.Errorf("input %q: values in both contents and raw_input_contents", in.Name)
			}
			if count, err = rawBytesCount(raw[i]); err != nil {
				return nil, nil, fmt.Errorf("input %q: %w", in.Name, err)
			}
			next = rawBytes(raw[i])
		} else {
			c := in.Contents
			if c == nil {
				c = &oippb.InferTensorContents{}
			}
			if proto.Size(c) != proto.Size(&oippb.InferTensorContents{BytesContents: c.BytesContents}) {
				return nil, nil, fmt.Errorf("input %q: values of datatype BYTES go in bytes_contents, and values are in other fields", in.Name)
			}
			count = len(c.BytesContents)
			k := 0
			next = func() []byte { k++; return c.BytesContents[k-1] }
		}
		t, err := st.begin(h, count, size, 1)
		if err != nil {
			return nil, nil, err
		}
		for range count {
			if err := t.next(next()); err != nil {
				return nil, nil, err
			}
		}
		if err := t.end(); err != nil {
			return nil, nil, err
		}
	}
	if !st.begun {
		return nil, nil, errors.New("no inputs")
	}
	return asked, st, st.checkPadded()
}

// tagOutputs returns the outputs of a tagger: tags, and marginals and
// log_likelihood when it has them.
func tagOutputs(e *entry) []output {
	out := []output{{tensorMeta{"tags", "BYTES", []int{-1, -1}, nil}, true}}
	if _, ok := e.tagger.(gendisc.MarginalTagger); ok {
		out = append(out, output{tensorMeta{"marginals", "FP64", []int{-1, -1, len(e.labels)}, e.labels}, false})
	}
	if _, ok := e.tagger.(gendisc.SequenceDensity); ok {
		out = append(out, output{tensorMeta{"log_likelihood", "FP64", []int{-1}, nil}, false})
	}
	return out
}

// tagged is the answer of a tagger for sentences.
type tagged struct {
	tags          [][]string
	marginals     [][][]float64 // nil unless asked for
	logLikelihood []float64     // nil unless asked for
	clamped       int           // log-likelihoods below float64's range
}

// tagAll tags the sentences with e's tagger, and computes the marginals
// and log-likelihoods asked for, which the model must have (tagOutputs).
// An error names its sentence. The sentences are tagged one after the
// other: the requests in flight keep the cores busy, and a goroutine of
// a request would take down the server if the model panicked in it.
func tagAll(e *entry, sentences [][]string, want tagWant) (*tagged, error) {
	ans := &tagged{tags: make([][]string, len(sentences))}
	for i, toks := range sentences {
		tags, err := e.tagger.TagTokens(toks)
		if err != nil {
			return nil, fmt.Errorf("sentence %d: %w", i, err)
		}
		ans.tags[i] = tags
	}
	if want.marginals {
		m := e.tagger.(gendisc.MarginalTagger)
		ans.marginals = make([][][]float64, len(sentences))
		for i, toks := range sentences {
			marg, err := m.TokenMarginals(toks)
			if err != nil {
				return nil, fmt.Errorf("sentence %d: %w", i, err)
			}
			ans.marginals[i] = marg
		}
	}
	if want.logLikelihood {
		d := e.tagger.(gendisc.SequenceDensity)
		ans.logLikelihood = make([]float64, len(sentences))
		for i, toks := range sentences {
			ans.logLikelihood[i] = d.LogProb(toks)
		}
		ans.clamped = models.ClampAll(ans.logLikelihood)
	}
	return ans, nil
}

// readSentences reads the sentences of a row endpoint's request to e's
// tagger, or answers the error and returns false.
func (s *Server) readSentences(c *call, e *entry) (*sentences, tagWant, bool) {
	if mt, err := c.mediaType(); err != nil || mt != "" && mt != "application/json" {
		c.fail(http.StatusUnsupportedMediaType, "Content-Type %q is not accepted: a tagger takes application/json", c.r.Header.Get("Content-Type"))
		return nil, tagWant{}, false
	}
	body := getBuf()
	defer putBuf(body)
	if !s.readBody(c, body) {
		return nil, tagWant{}, false
	}
	st := s.newSentences(e)
	want, err := st.instances(body.Bytes())
	switch {
	case err != nil:
		c.fail(errorStatus(err), "%v", err)
		return nil, want, false
	case len(st.tokens) == 0:
		c.fail(http.StatusBadRequest, "no sentences")
		return nil, want, false
	}
	c.rows = len(st.tokens)
	return st, want, true
}

// checkWant returns the error of outputs asked for that e's tagger does
// not have.
func checkWant(e *entry, want tagWant) error {
	if _, ok := e.tagger.(gendisc.MarginalTagger); want.marginals && !ok {
		return fmt.Errorf("model %q (%s) gives no marginals", e.name, e.kind)
	}
	if _, ok := e.tagger.(gendisc.SequenceDensity); want.logLikelihood && !ok {
		return fmt.Errorf("model %q is a %s model, which is not generative: it has no log-likelihood p(tokens)", e.name, e.kind)
	}
	return nil
}

// tagPredict answers POST /v1/models/{name}/predict for a tagger.
func (s *Server) tagPredict(c *call, e *entry) {
	st, want, ok := s.readSentences(c, e)
	if !ok {
		return
	}
	if err := checkWant(e, want); err != nil {
		c.fail(http.StatusBadRequest, "%v", err)
		return
	}
	ans, err := tagAll(e, st.tokens, want)
	if err != nil {
		c.fail(http.StatusUnprocessableEntity, "%v", err)
		return
	}
	columns := []string{"tokens", "tags"}
	if want.marginals {
		columns = append(columns, "marginals")
	}
	if want.logLikelihood {
		columns = append(columns, "log_likelihood")
	}
	a := c.answer("application/json")
	a.b = rowHeader(a.b, e, nil, columns)
	if want.marginals {
		a.b = append(a.b, `,"labels":`...)
		a.b = jsonw.List(a.b, e.labels, jsonw.String)
	}
	if ans.clamped > 0 {
		a.b = append(a.b, `,"clamped":`...)
		a.b = strconv.AppendInt(a.b, int64(ans.clamped), 10)
	}
	a.b = append(a.b, `,"predictions":[`...)
	for i, toks := range st.tokens {
		if i > 0 {
			a.b = append(a.b, ',')
		}
		a.b = append(a.b, `{"tokens":`...)
		a.b = jsonw.List(a.b, toks, jsonw.String)
		a.b = append(a.b, `,"tags":`...)
		a.b = jsonw.List(a.b, ans.tags[i], jsonw.String)
		if ans.marginals != nil {
			a.b = append(a.b, `,"marginals":[`...)
			for j, row := range ans.marginals[i] {
				if j > 0 {
					a.b = append(a.b, ',')
				}
				a.b = append(a.b, '[')
				a.numbers(row)
				a.b = append(a.b, ']')
			}
			a.b = append(a.b, ']')
		}
		if ans.logLikelihood != nil {
			a.b = append(a.b, `,"log_likelihood":`...)
			a.b = appendNumber(a.b, ans.logLikelihood[i])
		}
		a.b = append(a.b, '}')
		a.flushFull()
	}
	a.b = append(a.b, "]}\n"...)
	a.close()
}

// tagScore answers POST /v1/models/{name}/score for a tagger: log
// p(tokens) of each sentence.
func (s *Server) tagScore(c *call, e *entry) {
	d, ok := e.tagger.(gendisc.SequenceDensity)
	if !ok {
		c.fail(http.StatusBadRequest, "model %q is a %s model, which is not generative: it has no density p(tokens) to score", e.name, e.kind)
		return
	}
	st, want, ok := s.readSentences(c, e)
	if !ok {
		return
	}
	if want != (tagWant{}) {
		c.fail(http.StatusBadRequest, "score answers log p(tokens) alone: ask predict for marginals and log_likelihood")
		return
	}
	scores := make([]float64, len(st.tokens))
	for i, toks := range st.tokens {
		scores[i] = d.LogProb(toks)
	}
	writeScores(c, e, nil, scores)
}

// tagInfer answers POST /v2/models/{name}/infer for a tagger, the body b.
func (s *Server) tagInfer(c *call, e *entry, b []byte) {
	req, st, err := s.readTagInfer(b, e)
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
	c.rows = len(st.tokens)
	want, outs := tagOutputsAsked(e, req.outputs)
	ans, err := tagAll(e, st.tokens, want)
	if err != nil {
		c.fail(http.StatusBadRequest, "%v", err)
		return
	}
	n, t, K := len(st.tokens), st.longest(), len(e.labels)
	a := c.answer("application/json")
	a.b = inferHeader(a.b, e, req.id, nil, ans.clamped)
	a.b = append(a.b, `,"outputs":[`...)
	for i, o := range outs {
		if i > 0 {
			a.b = append(a.b, ',')
		}
		a.b = append(a.b, `{"name":"`...)
		a.b = append(a.b, o.Name...)
		a.b = append(a.b, `","datatype":"`...)
		a.b = append(a.b, o.Datatype...)
		a.b = append(a.b, `","shape":`...)
		a.b = jsonw.List(a.b, tagShape(o, n, t, K), jsonw.Int[int])
		a.b = append(a.b, `,"data":[`...)
		switch o.Name {
		case "tags":
			for i, tags := range ans.tags {
				for j := range t {
					if i > 0 || j > 0 {
						a.b = append(a.b, ',')
					}
					if j < len(tags) {
						a.b = jsonw.String(a.b, tags[j])
					} else {
						a.b = append(a.b, `""`...)
					}
				}
				a.flushFull()
			}
		case "marginals":
			a.numbers(ans.paddedMarginals(t, K))
		case "log_likelihood":
			a.numbers(ans.logLikelihood)
		}
		a.b = append(a.b, "]}"...)
	}
	a.b = append(a.b, "]}\n"...)
	a.close()
}

// tagOutputsAsked returns what the outputs asked for (nil: the default
// ones, the tags) want of tagAll, and the outputs answered.
func tagOutputsAsked(e *entry, asked []output) (tagWant, []output) {
	if asked == nil {
		asked = tagOutputs(e)[:1]
	}
	var want tagWant
	for _, o := range asked {
		want.marginals = want.marginals || o.Name == "marginals"
		want.logLikelihood = want.logLikelihood || o.Name == "log_likelihood"
	}
	return want, asked
}

// tagShape returns the shape of the output o for n sentences of at most
// t tokens and K tags.
func tagShape(o output, n, t, K int) []int {
	switch o.Name {
	case "tags":
		return []int{n, t}
	case "marginals":
		return []int{n, t, K}
	}
	return []int{n}
}

// paddedMarginals returns the marginals as a tensor [n, t, K], rows of 0
// past a sentence's end.
func (ans *tagged) paddedMarginals(t, K int) []float64 {
	out := make([]float64, len(ans.marginals)*t*K)
	for i, marg := range ans.marginals {
		for j, row := range marg {
			copy(out[(i*t+j)*K:], row)
		}
	}
	return out
}

// tagInferGRPC returns the answer of e's tagger to a gRPC inference
// request and its sentences, as tagInfer writes it over REST.
func (s *Server) tagInferGRPC(req *oippb.ModelInferRequest, e *entry) (*oippb.ModelInferResponse, int, error) {
	asked, st, err := s.readTagInferGRPC(req, e)
	if err != nil {
		status := http.StatusBadRequest
		if errorStatus(err) == http.StatusRequestEntityTooLarge {
			status = http.StatusRequestEntityTooLarge
		}
		return nil, 0, &statusError{status, err.Error()}
	}
	want, outs := tagOutputsAsked(e, asked)
	ans, err := tagAll(e, st.tokens, want)
	if err != nil {
		return nil, 0, &statusError{http.StatusBadRequest, err.Error()}
	}
	n, t, K := len(st.tokens), st.longest(), len(e.labels)
	resp := &oippb.ModelInferResponse{ModelName: e.name, ModelVersion: e.version, Id: req.Id}
	if ans.clamped > 0 {
		resp.Parameters = map[string]*oippb.InferParameter{"clamped": {ParameterChoice: &oippb.InferParameter_Int64Param{Int64Param: int64(ans.clamped)}}}
	}
	for _, o := range outs {
		c := &oippb.InferTensorContents{}
		switch o.Name {
		case "tags":
			c.BytesContents = make([][]byte, n*t)
			for i, tags := range ans.tags {
				for j, tag := range tags {
					c.BytesContents[i*t+j] = []byte(tag)
				}
				for j := len(tags); j < t; j++ {
					c.BytesContents[i*t+j] = []byte{}
				}
			}
		case "marginals":
			c.Fp64Contents = ans.paddedMarginals(t, K)
		case "log_likelihood":
			c.Fp64Contents = ans.logLikelihood
		}
		resp.Outputs = append(resp.Outputs, &oippb.ModelInferResponse_InferOutputTensor{Name: o.Name, Datatype: o.Datatype,
			Shape: int64s(tagShape(o, n, t, K)), Contents: c})
	}
	return resp, n, nil
}
