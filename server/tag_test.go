package server

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"unicode/utf8"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/gendisc/gendisc"
	"github.com/gendisc/gendisc/crf"
	"github.com/gendisc/gendisc/hmm"
	"github.com/gendisc/gendisc/internal/bundled"
	"github.com/gendisc/gendisc/modelfile"
	"github.com/gendisc/gendisc/seqio"
	"github.com/gendisc/gendisc/server/internal/oippb"
)

// taggers are an HMM (the zero Config: TnT) fitted on the first 300
// sentences of the English Web Treebank's dev part and a CRF (the
// default templates, 5 epochs of the perceptron) on the first 100, their
// model files, and the next 20 sentences' tokens to tag.
var taggers struct {
	once      sync.Once
	hmm       *hmm.Model
	crf       *crf.Model
	hmmFile   []byte
	crfFile   []byte
	sentences [][]string
	err       error
}

func fitTaggers(t testing.TB) {
	t.Helper()
	taggers.once.Do(func() {
		ss := bundled.Treebank(t, "ud_english_ewt_dev", seqio.Options{}).Sentences
		taggers.hmm, taggers.err = hmm.Config{}.Fit(ss[:300])
		if taggers.err != nil {
			return
		}
		var toks, tags [][]string
		for _, s := range ss[:100] {
			toks, tags = append(toks, s.Tokens), append(tags, s.Tags)
		}
		tp, err := crf.ParseTemplates(crf.DefaultTemplates)
		if err != nil {
			taggers.err = err
			return
		}
		cfg := crf.DefaultConfig()
		cfg.Perceptron, cfg.Epochs = true, 5
		if taggers.crf, taggers.err = crf.FitTokens(toks, tags, tp, cfg); taggers.err != nil {
			return
		}
		for _, m := range []struct {
			m   modelfile.Persistent
			out *[]byte
		}{{taggers.hmm, &taggers.hmmFile}, {taggers.crf, &taggers.crfFile}} {
			var b bytes.Buffer
			if taggers.err = modelfile.Write(&b, m.m); taggers.err != nil {
				return
			}
			*m.out = b.Bytes()
		}
		for _, s := range ss[300:320] {
			taggers.sentences = append(taggers.sentences, s.Tokens)
		}
	})
	if taggers.err != nil {
		t.Fatal(taggers.err)
	}
}

// taggerServer returns a server of the models "pos" (the HMM) and "crf"
// with the options opt.
func taggerServer(t testing.TB, opt Options) *Server {
	t.Helper()
	fitTaggers(t)
	dir := t.TempDir()
	opt.Models = map[string]string{"pos": filepath.Join(dir, "pos.json"), "crf": filepath.Join(dir, "crf.json")}
	for name, b := range map[string][]byte{"pos": taggers.hmmFile, "crf": taggers.crfFile} {
		if err := os.WriteFile(opt.Models[name], b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return newServer(t, opt)
}

// libraryTags returns the tags that model gives the sentences, its
// marginals and (for the HMM) log p(tokens).
func libraryTags(t *testing.T, model string, sentences [][]string) (tags [][]string, marg [][][]float64, ll []float64) {
	t.Helper()
	var m gendisc.MarginalTagger = taggers.crf
	if model == "pos" {
		m = taggers.hmm
	}
	for _, toks := range sentences {
		tt, err := m.TagTokens(toks)
		if err != nil {
			t.Fatal(err)
		}
		mm, err := m.TokenMarginals(toks)
		if err != nil {
			t.Fatal(err)
		}
		tags, marg = append(tags, tt), append(marg, mm)
		if model == "pos" {
			ll = append(ll, taggers.hmm.LogProb(toks))
		}
	}
	return tags, marg, ll
}

// TestTagRowEndpoint tags sentences sent as strings, arrays of tokens and
// objects through the row endpoint of an HMM and a CRF: the tags are the
// library's Viterbi tags, the marginals and log p(tokens) its own, bit
// for bit.
func TestTagRowEndpoint(t *testing.T) {
	s := taggerServer(t, Options{})
	sentences := taggers.sentences
	var instances []any
	for i, toks := range sentences {
		switch i % 3 {
		case 0:
			instances = append(instances, strings.Join(toks, " \t "))
		case 1:
			instances = append(instances, toks)
		default:
			instances = append(instances, map[string]any{"tokens": toks, "tags": []string{"ignored"}})
		}
	}
	for _, model := range []string{"pos", "crf"} {
		wantTags, wantMarg, wantLL := libraryTags(t, model, sentences)
		req := map[string]any{"instances": instances, "marginals": true}
		if model == "pos" {
			req["log_likelihood"] = true
		}
		code, out := do(t, s, "POST", "/v1/models/"+model+"/predict", "application/json", mustJSON(t, req))
		if code != http.StatusOK {
			t.Fatalf("%s: %d %s", model, code, out)
		}
		var got struct {
			Columns     []string `json:"columns"`
			Labels      []string `json:"labels"`
			Predictions []struct {
				Tokens        []string    `json:"tokens"`
				Tags          []string    `json:"tags"`
				Marginals     [][]float64 `json:"marginals"`
				LogLikelihood *float64    `json:"log_likelihood"`
			} `json:"predictions"`
		}
		if err := json.Unmarshal(out, &got); err != nil || len(got.Predictions) != len(sentences) {
			t.Fatalf("%s: %s (%v)", model, out, err)
		}
		schema := s.model(model).model.Schema()
		if !slices.Equal(got.Labels, schema.Target.Levels) {
			t.Errorf("%s: labels %q, want the tag set %q", model, got.Labels, schema.Target.Levels)
		}
		for i, p := range got.Predictions {
			if !slices.Equal(p.Tokens, sentences[i]) || !slices.Equal(p.Tags, wantTags[i]) {
				t.Errorf("%s, sentence %d: %q tagged %q, want %q tagged %q", model, i, p.Tokens, p.Tags, sentences[i], wantTags[i])
			}
			if !slices.EqualFunc(p.Marginals, wantMarg[i], slices.Equal) {
				t.Errorf("%s, sentence %d: marginals %v, want %v", model, i, p.Marginals, wantMarg[i])
			}
			if model == "pos" && (p.LogLikelihood == nil || *p.LogLikelihood != wantLL[i]) {
				t.Errorf("%s, sentence %d: log_likelihood %v, want %v", model, i, p.LogLikelihood, wantLL[i])
			}
		}
		// The tags alone by default.
		code, out = do(t, s, "POST", "/v1/models/"+model+"/predict", "", mustJSON(t, map[string]any{"instances": instances[:2]}))
		if code != http.StatusOK || bytes.Contains(out, []byte("marginals")) || !bytes.Contains(out, []byte(`"columns":["tokens","tags"]`)) {
			t.Errorf("%s, no options: %d %s", model, code, out)
		}
	}
	// score: log p(tokens) of the HMM.
	code, out := do(t, s, "POST", "/v1/models/pos/score", "application/json", mustJSON(t, map[string]any{"instances": instances[:3]}))
	var scores struct {
		Scores []struct {
			Nats float64 `json:"log_p_nats"`
		} `json:"scores"`
	}
	if err := json.Unmarshal(out, &scores); code != http.StatusOK || err != nil || len(scores.Scores) != 3 {
		t.Fatalf("score: %d %s", code, out)
	}
	for i, sc := range scores.Scores {
		if want := taggers.hmm.LogProb(sentences[i]); sc.Nats != want {
			t.Errorf("score of sentence %d: %v, want %v", i, sc.Nats, want)
		}
	}
}

// paddedTokens returns the sentences as a tensor [n, t] of tokens, each
// padded with "" to the longest.
func paddedTokens(sentences [][]string) ([]string, int) {
	t := 0
	for _, s := range sentences {
		t = max(t, len(s))
	}
	var flat []string
	for _, s := range sentences {
		flat = append(flat, s...)
		for range t - len(s) {
			flat = append(flat, "")
		}
	}
	return flat, t
}

// checkTensors checks the outputs of an inference of the sentences:
// tags [n, t] padded with "", marginals [n, t, K] padded with 0 and
// log_likelihood [n], the library's.
func checkTensors(t *testing.T, where, model string, sentences [][]string, tags []string, tagShape []int64, marg []float64, margShape []int64, ll []float64) {
	t.Helper()
	wantTags, wantMarg, wantLL := libraryTags(t, model, sentences)
	flatTags, T := paddedTokens(wantTags)
	K := len(wantMarg[0][0])
	n := len(sentences)
	if !slices.Equal(tagShape, []int64{int64(n), int64(T)}) || !slices.Equal(tags, flatTags) {
		t.Errorf("%s, %s: tags %v %q, want %v %q", where, model, tagShape, tags, []int{n, T}, flatTags)
	}
	if marg != nil {
		want := make([]float64, n*T*K)
		for i, m := range wantMarg {
			for j, row := range m {
				copy(want[(i*T+j)*K:], row)
			}
		}
		if !slices.Equal(margShape, []int64{int64(n), int64(T), int64(K)}) || !slices.Equal(marg, want) {
			t.Errorf("%s, %s: marginals of shape %v differ from the library's", where, model, margShape)
		}
	}
	if ll != nil && !slices.Equal(ll, wantLL) {
		t.Errorf("%s, %s: log_likelihood %v, want %v", where, model, ll, wantLL)
	}
}

// TestTagInferV2 tags sentences through the v2 REST endpoint, sent as a
// tensor [n] of sentences and as a tensor [n, t] of tokens padded with
// "": the same tensors of tags, marginals and log-likelihoods, the
// library's, and the metadata says so.
func TestTagInferV2(t *testing.T) {
	s := taggerServer(t, Options{})
	sentences := taggers.sentences[:7]
	var joined []string
	for _, toks := range sentences {
		joined = append(joined, strings.Join(toks, " "))
	}
	flat, T := paddedTokens(sentences)
	for _, model := range []string{"pos", "crf"} {
		outs := []map[string]string{{"name": "tags"}, {"name": "marginals"}}
		if model == "pos" {
			outs = append(outs, map[string]string{"name": "log_likelihood"})
		}
		for _, in := range []map[string]any{
			{"name": "tokens", "datatype": "BYTES", "shape": []int{len(joined)}, "data": joined},
			{"name": "tokens", "datatype": "BYTES", "shape": []int{len(sentences), T}, "data": flat},
		} {
			got := restInfer(t, s, model, map[string]any{"id": "7", "inputs": []any{in}, "outputs": outs})
			var tags []string
			var tagShape, margShape []int64
			var marg, ll []float64
			for _, o := range got["outputs"].([]any) {
				o := o.(map[string]any)
				var shape []int64
				for _, n := range o["shape"].([]any) {
					shape = append(shape, int64(n.(float64)))
				}
				switch o["name"] {
				case "tags":
					tagShape = shape
					for _, v := range o["data"].([]any) {
						tags = append(tags, v.(string))
					}
				case "marginals", "log_likelihood":
					var xs []float64
					for _, v := range o["data"].([]any) {
						xs = append(xs, v.(float64))
					}
					if o["name"] == "marginals" {
						marg, margShape = xs, shape
					} else {
						ll = xs
					}
				}
			}
			if got["id"] != "7" {
				t.Errorf("id %v", got["id"])
			}
			checkTensors(t, "REST", model, sentences, tags, tagShape, marg, margShape, ll)
		}
	}
	code, meta := do(t, s, "GET", "/v2/models/pos", "", nil)
	for _, want := range []string{`"inputs":[{"name":"tokens","datatype":"BYTES","shape":[-1,-1]}]`,
		`{"name":"tags","datatype":"BYTES","shape":[-1,-1]}`, `{"name":"marginals","datatype":"FP64","shape":[-1,-1,`,
		`{"name":"log_likelihood","datatype":"FP64","shape":[-1]}`, `"kind":"hmm"`} {
		if code != http.StatusOK || !bytes.Contains(meta, []byte(want)) {
			t.Errorf("metadata of pos: %d %s, want %s in it", code, meta, want)
		}
	}
	if _, meta := do(t, s, "GET", "/v2/models/crf", "", nil); bytes.Contains(meta, []byte("log_likelihood")) {
		t.Errorf("metadata of crf: %s: a CRF has no log-likelihood", meta)
	}
}

// TestTagGRPC tags sentences through the gRPC service, in bytes_contents
// and in raw_input_contents: the answers of REST, the library's tags.
func TestTagGRPC(t *testing.T) {
	s := taggerServer(t, Options{})
	client := grpcClient(t, s)
	sentences := taggers.sentences[5:12]
	flat, T := paddedTokens(sentences)
	var byts [][]byte
	var raw []byte
	for _, tok := range flat {
		byts = append(byts, []byte(tok))
		raw = binary.LittleEndian.AppendUint32(raw, uint32(len(tok)))
		raw = append(raw, tok...)
	}
	shape := []int64{int64(len(sentences)), int64(T)}
	for _, model := range []string{"pos", "crf"} {
		outs := []*oippb.ModelInferRequest_InferRequestedOutputTensor{{Name: "tags"}, {Name: "marginals"}}
		if model == "pos" {
			outs = append(outs, &oippb.ModelInferRequest_InferRequestedOutputTensor{Name: "log_likelihood"})
		}
		for _, req := range []*oippb.ModelInferRequest{
			{ModelName: model, Outputs: outs, Inputs: []*oippb.ModelInferRequest_InferInputTensor{{Name: "tokens", Datatype: "BYTES", Shape: shape,
				Contents: &oippb.InferTensorContents{BytesContents: byts}}}},
			{ModelName: model, Outputs: outs, RawInputContents: [][]byte{raw},
				Inputs: []*oippb.ModelInferRequest_InferInputTensor{{Name: "tokens", Datatype: "BYTES", Shape: shape}}},
		} {
			resp, err := client.ModelInfer(context.Background(), req)
			if err != nil {
				t.Fatalf("%s: %v", model, err)
			}
			var tags []string
			var tagShape, margShape []int64
			var marg, ll []float64
			for _, o := range resp.Outputs {
				switch o.Name {
				case "tags":
					tagShape = o.Shape
					for _, b := range o.Contents.BytesContents {
						tags = append(tags, string(b))
					}
				case "marginals":
					marg, margShape = o.Contents.Fp64Contents, o.Shape
				case "log_likelihood":
					ll = o.Contents.Fp64Contents
				}
			}
			checkTensors(t, "gRPC", model, sentences, tags, tagShape, marg, margShape, ll)
		}
	}
	// Bad requests: the codes of REST's statuses.
	for _, c := range []struct {
		in   *oippb.ModelInferRequest_InferInputTensor
		code codes.Code
		msg  string
	}{
		{&oippb.ModelInferRequest_InferInputTensor{Name: "tokens", Datatype: "BYTES", Shape: []int64{1},
			Contents: &oippb.InferTensorContents{BytesContents: [][]byte{{0xff, 'a'}}}}, codes.InvalidArgument, "not valid UTF-8"},
		{&oippb.ModelInferRequest_InferInputTensor{Name: "tokens", Datatype: "BYTES", Shape: []int64{1},
			Contents: &oippb.InferTensorContents{BytesContents: [][]byte{[]byte(" ")}}}, codes.InvalidArgument, "sentence 0 has no tokens"},
		{&oippb.ModelInferRequest_InferInputTensor{Name: "tokens", Datatype: "BYTES", Shape: []int64{1},
			Contents: &oippb.InferTensorContents{BytesContents: [][]byte{[]byte("a")}, Fp64Contents: []float64{1}}}, codes.InvalidArgument, "go in bytes_contents"},
		{&oippb.ModelInferRequest_InferInputTensor{Name: "tokens", Datatype: "FP64", Shape: []int64{1},
			Contents: &oippb.InferTensorContents{Fp64Contents: []float64{1}}}, codes.InvalidArgument, "want BYTES"},
		{&oippb.ModelInferRequest_InferInputTensor{Name: "tokens", Datatype: "BYTES", Shape: []int64{1, 2000},
			Contents: &oippb.InferTensorContents{BytesContents: make([][]byte, 2000)}}, codes.ResourceExhausted, "tokens per sentence"},
	} {
		_, err := client.ModelInfer(context.Background(), &oippb.ModelInferRequest{ModelName: "pos", Inputs: []*oippb.ModelInferRequest_InferInputTensor{c.in}})
		if status.Code(err) != c.code || !strings.Contains(status.Convert(err).Message(), c.msg) {
			t.Errorf("%v: %v, want %v and %q", c.in, err, c.code, c.msg)
		}
	}
}

// TestTagBadRequests checks that what a tagger cannot take is answered
// 4xx with a one-line message, and that the server then serves on: its
// health, metrics and a good request.
func TestTagBadRequests(t *testing.T) {
	s := taggerServer(t, Options{MaxRows: 3, MaxSentenceTokens: 5, MaxBodyBytes: 400})
	if limit := s.answerLimit(s.model("pos")); limit >= 15 { // tokens per request
		t.Fatalf("a limit of %d tokens per request, which 3 sentences of 5 do not reach", limit)
	}
	v2 := func(in map[string]any) string {
		b, _ := json.Marshal(map[string]any{"inputs": []any{in}})
		return string(b)
	}
	for _, c := range []struct {
		path, contentType, body string
		code                    int
		msg                     string
	}{
		{"/v1/models/pos/predict", "", `{"instances": [""]}`, 422, "sentence 0 has no tokens"},
		{"/v1/models/pos/predict", "", `{"instances": ["a b", []]}`, 422, "sentence 1 has no tokens"},
		{"/v1/models/pos/predict", "", `{"instances": [["a", 1]]}`, 422, "sentence 0, token 1: a number, want a string"},
		{"/v1/models/pos/predict", "", `{"instances": [["a", null]]}`, 422, "token 1: null, want a string"},
		{"/v1/models/pos/predict", "", `{"instances": [["a", ""]]}`, 422, "sentence 0, token 1: an empty token"},
		{"/v1/models/pos/predict", "", `{"instances": [3]}`, 422, "sentence 0: a number, want a string or an array of tokens"},
		{"/v1/models/pos/predict", "", `{"instances": [{"words": "a"}]}`, 422, `unknown field "words"`},
		{"/v1/models/pos/predict", "", `{"instances": [{"tags": ["X"]}]}`, 422, `without "tokens"`},
		{"/v1/models/pos/predict", "", `{"instances": ["a b c d e f"]}`, 413, "sentence 0 has more than the limit of 5 tokens per sentence"},
		{"/v1/models/pos/predict", "", `{"instances": [["a","b","c","d","e","f"]]}`, 413, "limit of 5 tokens per sentence"},
		{"/v1/models/pos/predict", "", `{"instances": ["a", "b", "c", "d"]}`, 413, "limit of 3 sentences"},
		{"/v1/models/pos/predict", "", `{"instances": ["a b c d e", "a b c d e", "a b c d e"]}`, 413, "tokens per request"},
		{"/v1/models/pos/predict", "", "{\"instances\": [\"a \xff\"]}", 400, "UTF-8"},
		{"/v1/models/pos/predict", "", `{"instances": ["a"], "marginals": 1}`, 400, `"marginals": want true or false`},
		{"/v1/models/pos/predict", "", `{"instances": ["a"], "other": 1}`, 400, `unknown field "other"`},
		{"/v1/models/pos/predict", "", `{"instances": []}`, 400, "no sentences"},
		{"/v1/models/pos/predict", "text/csv", "tokens\na b\n", 415, "a tagger takes application/json"},
		{"/v1/models/crf/predict", "", `{"instances": ["a"], "log_likelihood": true}`, 400, "not generative"},
		{"/v1/models/crf/score", "", `{"instances": ["a"]}`, 400, "not generative"},
		{"/v1/models/pos/score", "", `{"instances": ["a"], "marginals": true}`, 400, "score answers log p(tokens) alone"},
		{"/v2/models/pos/infer", "", v2(map[string]any{"name": "tokens", "datatype": "BYTES", "shape": []int{2, 2}, "data": []string{"a", "", "", "b"}}), 400,
			"sentence 1, token 1 follows an empty one"},
		{"/v2/models/pos/infer", "", v2(map[string]any{"name": "tokens", "datatype": "BYTES", "shape": []int{2, 2}, "data": []string{"a", "b", "", ""}}), 400,
			"sentence 1 has no tokens"},
		{"/v2/models/pos/infer", "", v2(map[string]any{"name": "tokens", "datatype": "BYTES", "shape": []int{1, 2}, "data": []any{"a", 2}}), 400,
			"a number, want a string"},
		{"/v2/models/pos/infer", "", v2(map[string]any{"name": "words", "datatype": "BYTES", "shape": []int{1}, "data": []string{"a"}}), 400,
			`a tagger takes one, "tokens"`},
		{"/v2/models/pos/infer", "", v2(map[string]any{"name": "tokens", "datatype": "BYTES", "shape": []int{2}, "data": []string{"a"}}), 400,
			"1 values, but shape [2] holds 2"},
		{"/v2/models/pos/infer", "", v2(map[string]any{"name": "tokens", "datatype": "BYTES", "shape": []int{1, 6}, "data": []string{"a", "b", "c", "d", "e", "f"}}), 413,
			"limit of 5 tokens per sentence"},
		{"/v2/models/pos/infer", "", v2(map[string]any{"name": "tokens", "datatype": "BYTES", "shape": []int{3}, "data": []string{"a b c d e", "a", "a"}}), 413,
			"an answer of [3, 5] tags"},
		{"/v2/models/crf/infer", "", `{"inputs": [{"name": "tokens", "datatype": "BYTES", "shape": [1], "data": ["a"]}], "outputs": [{"name": "log_likelihood"}]}`, 400,
			`no output "log_likelihood"`},
	} {
		code, out := do(t, s, "POST", c.path, c.contentType, []byte(c.body))
		var e struct{ Error string }
		json.Unmarshal(out, &e)
		if code != c.code || !strings.Contains(e.Error, c.msg) || strings.Contains(e.Error, "\n") {
			t.Errorf("%s %s: %d %s, want %d and %q", c.path, c.body, code, out, c.code, c.msg)
		}
	}
	if code, out := do(t, s, "GET", "/v2/health/ready", "", nil); code != http.StatusOK {
		t.Errorf("ready: %d %s", code, out)
	}
	if code, out := do(t, s, "POST", "/v1/models/pos/predict", "", []byte(`{"instances": ["The dog runs ."]}`)); code != http.StatusOK {
		t.Errorf("a good request after the bad ones: %d %s", code, out)
	}
	code, out := do(t, s, "GET", "/metrics", "", nil)
	for _, want := range []string{`gendisc_requests_total{code="200",endpoint="predict",model="pos"} 1`, `code="413",endpoint="predict",model="pos"`, `kind="hmm"`, `kind="crf"`} {
		if code != http.StatusOK || !bytes.Contains(out, []byte(want)) {
			t.Errorf("metrics: want %s in them:\n%s", want, grep(out, "pos"))
		}
	}
}

// FuzzTagRequest feeds the sentence decoders (the row endpoint's JSON,
// v2's JSON, and gRPC's raw BYTES contents of shape [n] or [n, width])
// any bytes: each refuses them with an error or reads sentences within
// the limits (at most 3 sentences of at most 4 tokens, at most the
// request's tokens), every token non-empty, valid UTF-8 and without
// white space where the request split a string; never a panic. Longer:
// go test -fuzz FuzzTagRequest -fuzztime 60s ./server
func FuzzTagRequest(f *testing.F) {
	for _, b := range []string{
		`{"instances": ["The dog runs .", ["a", "b"], {"tokens": "x y", "tags": ["X", "Y"]}], "marginals": true}`,
		`{"instances": [["a", 1]]}`, `{"instances": [""]}`, `{"instances": null, "log_likelihood": false}`,
		`{"inputs": [{"name": "tokens", "datatype": "BYTES", "shape": [2, 2], "data": [["a", ""], ["b", "c"]]}], "outputs": [{"name": "marginals"}]}`,
		`{"inputs": [{"data": ["a b", "c"], "name": "tokens", "shape": [2], "datatype": "BYTES"}]}`,
		"\x01\x00\x00\x00a\x00\x00\x00\x00",
	} {
		f.Add([]byte(b), int64(2), int64(-1))
	}
	f.Add([]byte("\x01\x00\x00\x00a\x00\x00\x00\x00\x02\x00\x00\x00bc\x00\x00\x00\x00"), int64(2), int64(2))
	s := taggerServer(f, Options{MaxRows: 3, MaxSentenceTokens: 4})
	e := s.model("pos")
	f.Fuzz(func(t *testing.T, b []byte, n, width int64) {
		check := func(where string, st *sentences, err error, split bool) {
			if err != nil {
				return
			}
			total := 0
			for i, toks := range st.tokens {
				if len(toks) == 0 || len(toks) > 4 {
					t.Fatalf("%s %q: sentence %d of %d tokens", where, b, i, len(toks))
				}
				for _, tok := range toks {
					if tok == "" || !utf8.ValidString(tok) || split && len(strings.Fields(tok)) != 1 {
						t.Fatalf("%s %q: token %q", where, b, tok)
					}
				}
				total += len(toks)
			}
			if len(st.tokens) > 3 || total > st.maxTotal || total > len(b) {
				t.Fatalf("%s %q: %d sentences of %d tokens", where, b, len(st.tokens), total)
			}
		}
		st := s.newSentences(e)
		_, err := st.instances(b)
		check("row endpoint", st, err, false)
		_, st, err = s.readTagInfer(b, e)
		check("v2", st, err, false)
		shape := []int64{n}
		if width >= 0 {
			shape = append(shape, width)
		}
		req := &oippb.ModelInferRequest{ModelName: "pos", RawInputContents: [][]byte{b},
			Inputs: []*oippb.ModelInferRequest_InferInputTensor{{Name: "tokens", Datatype: "BYTES", Shape: shape}}}
		_, st, err = s.readTagInferGRPC(req, e)
		check("gRPC", st, err, width < 0)
	})
}

// TestTagHostileBodies sends a tagger bodies of the largest size that
// cost the most per byte: one sentence of a million tokens as a string
// and as an array, and as many one-token sentences as the body holds.
// Each is refused or answered within decodeFactor times the body (the
// limits of tokens stop them before their tokens are kept), and the
// server serves on.
func TestTagHostileBodies(t *testing.T) {
	const maxBody = 2 << 20
	s := taggerServer(t, Options{MaxBodyBytes: maxBody})
	for _, c := range []struct {
		name string
		body string
		code int
	}{
		{"a string of tokens", `{"instances": ["` + strings.Repeat("a ", maxBody/2-20) + `"]}`, 413},
		{"an array of tokens", `{"instances": [[` + strings.Repeat(`"a",`, maxBody/4-10) + `"a"]]}`, 413},
		{"sentences of a token", `{"instances": [` + strings.Repeat(`"a",`, maxBody/4-10) + `"a"]}`, 413},
		{"v2 sentences of a token", `{"inputs": [{"name": "tokens", "datatype": "BYTES", "shape": [100], "data": [` +
			strings.Repeat(`"a",`, 99) + `"` + strings.Repeat("a ", 900) + `"]}]}`, 413},
	} {
		var code int
		var out []byte
		a := allocated(func() { code, out = do(t, s, "POST", "/v1/models/pos/predict", "application/json", []byte(c.body)) })
		if strings.HasPrefix(c.name, "v2") {
			a = allocated(func() { code, out = do(t, s, "POST", "/v2/models/pos/infer", "application/json", []byte(c.body)) })
		}
		if code != c.code || a > decodeFactor*maxBody {
			t.Errorf("%s (%d bytes): %d %.200s, %d bytes allocated, want %d within %d", c.name, len(c.body), code, out, a, c.code, decodeFactor*maxBody)
		}
	}
	if code, out := do(t, s, "POST", "/v1/models/pos/predict", "", []byte(`{"instances": ["The dog runs ."]}`)); code != http.StatusOK {
		t.Errorf("after the hostile bodies: %d %s", code, out)
	}
}

// TestTaggerEmptyTagRefused checks that a tagger with the empty tag
// (which a CRF fitted on tagged tokens may have) is refused at loading:
// its tags would not be told from the padding of v2's tensors.
func TestTaggerEmptyTagRefused(t *testing.T) {
	tp, err := crf.ParseTemplates(crf.DefaultTemplates)
	if err != nil {
		t.Fatal(err)
	}
	cfg := crf.DefaultConfig()
	cfg.Perceptron = true
	m, err := crf.FitTokens([][]string{{"a", "b"}}, [][]string{{"", "X"}}, tp, cfg)
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := modelfile.Write(&b, m); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "empty.json")
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := New(Options{Models: map[string]string{"empty": path}}); err == nil || !strings.Contains(err.Error(), "empty tag") {
		t.Errorf("New: %v, want the error of an empty tag", err)
	}
}

// TestTaggerOnAttributesRefused checks that a CRF trained on sentences
// given as attributes (CRFsuite's data format), which tags attributes and
// not words, is refused at loading with one line saying why.
func TestTaggerOnAttributesRefused(t *testing.T) {
	cfg := crf.DefaultConfig()
	cfg.Perceptron = true
	m, err := crf.Fit([]crf.Sequence{{Items: []crf.Item{{{Name: "w=a", Value: 1}}, {{Name: "w=b", Value: 1}}}, Labels: []string{"X", "Y"}}}, cfg)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "attrs.json")
	if err := modelfile.Save(path, m); err != nil {
		t.Fatal(err)
	}
	_, err = New(Options{Models: map[string]string{"attrs": path}})
	if err == nil || !strings.Contains(err.Error(), "attrs.json: a tagger trained on given attributes (CRFsuite's data format) tags attributes") || strings.Contains(err.Error(), "\n") {
		t.Errorf("New: %v, want the error of a model of given attributes", err)
	}
}
