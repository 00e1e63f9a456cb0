package server

import (
	"context"
	"crypto/tls"
	"encoding/binary"
	"encoding/json"
	"math"
	"net"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials"
	"google.golang.org/grpc/credentials/insecure"
	grpcmd "google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"
	"google.golang.org/grpc/test/bufconn"

	"github.com/gendisc/gendisc/data"
	"github.com/gendisc/gendisc/server/internal/oippb"
)

// grpcClient serves the gRPC service of s on an in-memory listener and
// returns a client of it, generated from the protocol's .proto.
func grpcClient(t testing.TB, s *Server) oippb.GRPCInferenceServiceClient {
	t.Helper()
	ln := bufconn.Listen(1 << 20)
	ctx, cancel := context.WithCancel(context.Background())
	served := make(chan error, 1)
	go func() { served <- s.ServeGRPC(ctx, ln, "", "") }()
	conn, err := grpc.NewClient("passthrough:///bufconn",
		grpc.WithContextDialer(func(ctx context.Context, _ string) (net.Conn, error) { return ln.DialContext(ctx) }),
		grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		conn.Close()
		cancel()
		if err := <-served; err != nil {
			t.Error(err)
		}
	})
	return oippb.NewGRPCInferenceServiceClient(conn)
}

// grpcInputs returns the rows of d from lo to hi as gRPC input tensors,
// one per feature: FP64 in fp64_contents (NaN for a missing cell) and
// BYTES in bytes_contents (empty for a missing cell), or with raw in
// raw_input_contents.
func grpcInputs(d *data.Dataset, lo, hi int, raw bool) ([]*oippb.ModelInferRequest_InferInputTensor, [][]byte) {
	D := len(d.Schema.Features)
	var ins []*oippb.ModelInferRequest_InferInputTensor
	var raws [][]byte
	for j, c := range d.Schema.Features {
		t := &oippb.ModelInferRequest_InferInputTensor{Name: c.Name, Datatype: datatype(&c), Shape: []int64{int64(hi - lo)},
			Contents: &oippb.InferTensorContents{}}
		var rb []byte
		for i := lo; i < hi; i++ {
			x := d.X[i*D+j]
			var s string
			switch {
			case c.Kind == data.Numeric:
				t.Contents.Fp64Contents = append(t.Contents.Fp64Contents, x)
				rb = binary.LittleEndian.AppendUint64(rb, math.Float64bits(x))
				continue
			case c.Kind == data.Text:
				s = d.Text[j][i]
			case !math.IsNaN(x):
				s = c.Levels[int(x)]
			}
			t.Contents.BytesContents = append(t.Contents.BytesContents, []byte(s))
			rb = binary.LittleEndian.AppendUint32(rb, uint32(len(s)))
			rb = append(rb, s...)
		}
		if raw {
			t.Contents = nil
			raws = append(raws, rb)
		}
		ins = append(ins, t)
	}
	return ins, raws
}

// asJSON returns a gRPC answer as the generic JSON of the REST answer:
// numbers as float64 (NaN as nil), BYTES as strings.
func asJSON(resp *oippb.ModelInferResponse) map[string]any {
	out := map[string]any{"model_name": resp.ModelName, "model_version": resp.ModelVersion}
	if resp.Id != "" {
		out["id"] = resp.Id
	}
	if len(resp.Parameters) > 0 {
		p := map[string]any{}
		for k, v := range resp.Parameters {
			p[k] = float64(v.GetInt64Param())
		}
		out["parameters"] = p
	}
	var outs []any
	for _, o := range resp.Outputs {
		var vals []any
		for _, b := range o.Contents.BytesContents {
			vals = append(vals, string(b))
		}
		for _, k := range o.Contents.Int64Contents {
			vals = append(vals, float64(k))
		}
		for _, x := range o.Contents.Fp64Contents {
			if math.IsNaN(x) {
				vals = append(vals, nil)
			} else {
				vals = append(vals, x)
			}
		}
		shape := []any{}
		for _, n := range o.Shape {
			shape = append(shape, float64(n))
		}
		outs = append(outs, map[string]any{"name": o.Name, "datatype": o.Datatype, "shape": shape, "data": vals})
	}
	out["outputs"] = outs
	return out
}

// restInfer returns the REST answer of s to the JSON request, decoded.
func restInfer(t *testing.T, s *Server, model string, req map[string]any) map[string]any {
	t.Helper()
	code, body := do(t, s, "POST", "/v2/models/"+model+"/infer", "", mustJSON(t, req))
	if code != 200 {
		t.Fatalf("REST: %d %s", code, body)
	}
	var ans map[string]any
	if err := json.Unmarshal(body, &ans); err != nil {
		t.Fatal(err)
	}
	return ans
}

// TestGRPCInferMatchesREST checks that ModelInfer answers every model of
// testdata as the REST infer does, for the same rows: with typed and raw
// contents, the default outputs and each output alone, the id echoed.
func TestGRPCInferMatchesREST(t *testing.T) {
	s := newServer(t, testOptions())
	client := grpcClient(t, s)
	ctx := context.Background()
	for _, tm := range testModels {
		t.Run(tm.name, func(t *testing.T) {
			_, d := readData(t, tm.dataset, tm.name)
			lo, hi := 0, min(d.N, 30)
			asked := [][]string{nil}
			for _, o := range outputs(s.model(tm.name)) {
				asked = append(asked, []string{o.Name})
			}
			for _, names := range asked {
				jreq := map[string]any{"id": "req-9", "inputs": columnTensors(d, lo, hi)}
				var routs []*oippb.ModelInferRequest_InferRequestedOutputTensor
				if names != nil {
					jreq["outputs"] = []map[string]any{{"name": names[0]}}
					routs = append(routs, &oippb.ModelInferRequest_InferRequestedOutputTensor{Name: names[0]})
				}
				want := restInfer(t, s, tm.name, jreq)
				for _, raw := range []bool{false, true} {
					ins, raws := grpcInputs(d, lo, hi, raw)
					resp, err := client.ModelInfer(ctx, &oippb.ModelInferRequest{ModelName: tm.name, Id: "req-9",
						Inputs: ins, RawInputContents: raws, Outputs: routs})
					if err != nil {
						t.Fatalf("outputs %v, raw %v: %v", names, raw, err)
					}
					if got := asJSON(resp); !reflect.DeepEqual(got, want) {
						t.Errorf("outputs %v, raw %v:\ngRPC %.600v\nREST %.600v", names, raw, got, want)
					}
				}
			}
		})
	}
}

// TestGRPCDatatypes checks the numeric datatypes and BOOL, typed and raw, against
// REST's answer to the same numbers, the tensor [n, D] of every feature,
// the parameters unseen and clamped, and a missing categorical cell.
func TestGRPCDatatypes(t *testing.T) {
	s := newServer(t, testOptions())
	client := grpcClient(t, s)
	ctx := context.Background()
	rows := [][]float64{{5, 3, 1, 0}, {6, 3, 4, 1}, {7, 3, 6, 2}}
	var flat []any
	for _, r := range rows {
		for _, x := range r {
			flat = append(flat, x)
		}
	}
	want := restInfer(t, s, "iris", map[string]any{"inputs": []map[string]any{{"name": "x", "datatype": "INT32", "shape": []int{3, 4}, "data": flat}}})
	le := binary.LittleEndian
	for _, c := range []struct {
		datatype string
		contents *oippb.InferTensorContents
		raw      func(b []byte, x float64) []byte
	}{
		{"FP64", &oippb.InferTensorContents{}, func(b []byte, x float64) []byte { return le.AppendUint64(b, math.Float64bits(x)) }},
		{"FP32", &oippb.InferTensorContents{}, func(b []byte, x float64) []byte { return le.AppendUint32(b, math.Float32bits(float32(x))) }},
		{"INT8", &oippb.InferTensorContents{}, func(b []byte, x float64) []byte { return append(b, byte(int8(x))) }},
		{"INT16", &oippb.InferTensorContents{}, func(b []byte, x float64) []byte { return le.AppendUint16(b, uint16(x)) }},
		{"INT32", &oippb.InferTensorContents{}, func(b []byte, x float64) []byte { return le.AppendUint32(b, uint32(x)) }},
		{"INT64", &oippb.InferTensorContents{}, func(b []byte, x float64) []byte { return le.AppendUint64(b, uint64(x)) }},
		{"UINT8", &oippb.InferTensorContents{}, func(b []byte, x float64) []byte { return append(b, byte(x)) }},
		{"UINT16", &oippb.InferTensorContents{}, func(b []byte, x float64) []byte { return le.AppendUint16(b, uint16(x)) }},
		{"UINT32", &oippb.InferTensorContents{}, func(b []byte, x float64) []byte { return le.AppendUint32(b, uint32(x)) }},
		{"UINT64", &oippb.InferTensorContents{}, func(b []byte, x float64) []byte { return le.AppendUint64(b, uint64(x)) }},
	} {
		var raw []byte
		for _, r := range rows {
			for _, x := range r {
				tc := c.contents
				switch c.datatype {
				case "FP64":
					tc.Fp64Contents = append(tc.Fp64Contents, x)
				case "FP32":
					tc.Fp32Contents = append(tc.Fp32Contents, float32(x))
				case "INT8", "INT16", "INT32":
					tc.IntContents = append(tc.IntContents, int32(x))
				case "INT64":
					tc.Int64Contents = append(tc.Int64Contents, int64(x))
				case "UINT8", "UINT16", "UINT32":
					tc.UintContents = append(tc.UintContents, uint32(x))
				case "UINT64":
					tc.Uint64Contents = append(tc.Uint64Contents, uint64(x))
				}
				raw = c.raw(raw, x)
			}
		}
		for _, req := range []*oippb.ModelInferRequest{
			{ModelName: "iris", Inputs: []*oippb.ModelInferRequest_InferInputTensor{{Name: "x", Datatype: c.datatype, Shape: []int64{3, 4}, Contents: c.contents}}},
			{ModelName: "iris", Inputs: []*oippb.ModelInferRequest_InferInputTensor{{Name: "x", Datatype: c.datatype, Shape: []int64{3, 4}}}, RawInputContents: [][]byte{raw}},
		} {
			resp, err := client.ModelInfer(ctx, req)
			if err != nil {
				t.Fatalf("%s (raw %v): %v", c.datatype, req.RawInputContents != nil, err)
			}
			if got := asJSON(resp); !reflect.DeepEqual(got, want) {
				t.Errorf("%s (raw %v):\ngRPC %v\nREST %v", c.datatype, req.RawInputContents != nil, got, want)
			}
		}
	}

	// BOOL, typed and raw, against REST's true and false: 1 and 0 in a
	// numeric column.
	bools := []bool{true, false, true, false, false, true, true, true}
	var jb []any
	var rb []byte
	for _, b := range bools {
		jb = append(jb, b)
		rb = append(rb, map[bool]byte{false: 0, true: 1}[b])
	}
	want = restInfer(t, s, "iris", map[string]any{"inputs": []map[string]any{{"name": "x", "datatype": "BOOL", "shape": []int{2, 4}, "data": jb}}})
	for _, req := range []*oippb.ModelInferRequest{
		{ModelName: "iris", Inputs: []*oippb.ModelInferRequest_InferInputTensor{{Name: "x", Datatype: "BOOL", Shape: []int64{2, 4}, Contents: &oippb.InferTensorContents{BoolContents: bools}}}},
		{ModelName: "iris", Inputs: []*oippb.ModelInferRequest_InferInputTensor{{Name: "x", Datatype: "BOOL", Shape: []int64{2, 4}}}, RawInputContents: [][]byte{rb}},
	} {
		resp, err := client.ModelInfer(ctx, req)
		if err != nil {
			t.Fatal(err)
		}
		if got := asJSON(resp); !reflect.DeepEqual(got, want) {
			t.Errorf("BOOL (raw %v):\ngRPC %v\nREST %v", req.RawInputContents != nil, got, want)
		}
	}

	// BYTES of the votes model: "y"/"n" levels, an unseen level
	// ("maybe", counted in the parameters) and a missing cell (empty).
	votes := s.model("votes").model.Schema()
	var jins []map[string]any
	var gins []*oippb.ModelInferRequest_InferInputTensor
	for j, c := range votes.Features {
		vals := []any{c.Levels[0], nil, "maybe"}
		bs := [][]byte{[]byte(c.Levels[0]), nil, []byte("maybe")}
		if j > 0 {
			vals[2], bs[2] = c.Levels[len(c.Levels)-1], []byte(c.Levels[len(c.Levels)-1])
		}
		jins = append(jins, map[string]any{"name": c.Name, "datatype": "BYTES", "shape": []int{3}, "data": vals})
		gins = append(gins, &oippb.ModelInferRequest_InferInputTensor{Name: c.Name, Datatype: "BYTES", Shape: []int64{3},
			Contents: &oippb.InferTensorContents{BytesContents: bs}})
	}
	want = restInfer(t, s, "votes", map[string]any{"inputs": jins})
	if want["parameters"] == nil {
		t.Fatalf("REST counts no unseen level: %v", want)
	}
	resp, err := client.ModelInfer(ctx, &oippb.ModelInferRequest{ModelName: "votes", Inputs: gins})
	if err != nil {
		t.Fatal(err)
	}
	if got := asJSON(resp); !reflect.DeepEqual(got, want) {
		t.Errorf("votes:\ngRPC %v\nREST %v", got, want)
	}

	// A value of 1e300 for QDA: a log-likelihood beyond float64, clamped.
	qin := []*oippb.ModelInferRequest_InferInputTensor{{Name: "x", Datatype: "FP64", Shape: []int64{1, 4},
		Contents: &oippb.InferTensorContents{Fp64Contents: []float64{1e300, 3, 1, 0}}}}
	ll := []*oippb.ModelInferRequest_InferRequestedOutputTensor{{Name: "log_likelihood"}}
	want = restInfer(t, s, "iris-qda", map[string]any{"inputs": []map[string]any{{"name": "x", "datatype": "FP64", "shape": []int{1, 4}, "data": []any{1e300, 3, 1, 0}}},
		"outputs": []map[string]any{{"name": "log_likelihood"}}})
	resp, err = client.ModelInfer(ctx, &oippb.ModelInferRequest{ModelName: "iris-qda", Inputs: qin, Outputs: ll})
	if err != nil {
		t.Fatal(err)
	}
	if got := asJSON(resp); !reflect.DeepEqual(got, want) || resp.Parameters["clamped"].GetInt64Param() != 1 {
		t.Errorf("clamped:\ngRPC %v\nREST %v", got, want)
	}
}

// TestGRPCMetadataAndHealth checks the health calls, the server metadata
// and every model's metadata against REST's.
func TestGRPCMetadataAndHealth(t *testing.T) {
	s := newServer(t, testOptions())
	client := grpcClient(t, s)
	ctx := context.Background()
	if r, err := client.ServerLive(ctx, &oippb.ServerLiveRequest{}); err != nil || !r.Live {
		t.Errorf("ServerLive: %v %v", r, err)
	}
	if r, err := client.ServerReady(ctx, &oippb.ServerReadyRequest{}); err != nil || !r.Ready {
		t.Errorf("ServerReady: %v %v", r, err)
	}
	_, body := do(t, s, "GET", "/v2", "", nil)
	var sm struct {
		Name, Version string
		Extensions    []string
	}
	json.Unmarshal(body, &sm)
	if r, err := client.ServerMetadata(ctx, &oippb.ServerMetadataRequest{}); err != nil || r.Name != sm.Name || r.Version != sm.Version || len(r.Extensions) != 0 {
		t.Errorf("ServerMetadata: %v %v, REST %s", r, err, body)
	}
	for _, tm := range testModels {
		_, body := do(t, s, "GET", "/v2/models/"+tm.name, "", nil)
		var want modelMeta
		if err := json.Unmarshal(body, &want); err != nil {
			t.Fatal(err)
		}
		r, err := client.ModelMetadata(ctx, &oippb.ModelMetadataRequest{Name: tm.name, Version: want.Versions[0]})
		if err != nil {
			t.Fatalf("%s: %v", tm.name, err)
		}
		got := modelMeta{Name: r.Name, Versions: r.Versions, Platform: r.Platform}
		for _, ts := range []struct {
			from []*oippb.ModelMetadataResponse_TensorMetadata
			to   *[]tensorMeta
		}{{r.Inputs, &got.Inputs}, {r.Outputs, &got.Outputs}} {
			for _, m := range ts.from {
				shape := make([]int, len(m.Shape))
				for i, n := range m.Shape {
					shape[i] = int(n)
				}
				*ts.to = append(*ts.to, tensorMeta{Name: m.Name, Datatype: m.Datatype, Shape: shape})
			}
		}
		want.Kind, want.Classes = "", nil // REST's extensions
		for i := range want.Outputs {
			want.Outputs[i].Labels = nil
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s:\ngRPC %+v\nREST %+v", tm.name, got, want)
		}
		if r, err := client.ModelReady(ctx, &oippb.ModelReadyRequest{Name: tm.name}); err != nil || !r.Ready {
			t.Errorf("%s: ModelReady %v %v", tm.name, r, err)
		}
	}
}

// TestGRPCErrors checks the gRPC code of each error, and its message as
// REST's.
func TestGRPCErrors(t *testing.T) {
	opt := testOptions()
	opt.MaxRows = 5
	opt.MaxInflight = 1
	s := newServer(t, opt)
	client := grpcClient(t, s)
	ctx := context.Background()
	iris := func(datatype string, shape []int64, c *oippb.InferTensorContents) *oippb.ModelInferRequest {
		return &oippb.ModelInferRequest{ModelName: "iris", Inputs: []*oippb.ModelInferRequest_InferInputTensor{{Name: "x", Datatype: datatype, Shape: shape, Contents: c}}}
	}
	four := &oippb.InferTensorContents{Fp64Contents: []float64{5, 3, 1, 0}}
	for _, c := range []struct {
		name string
		req  *oippb.ModelInferRequest
		code codes.Code
		msg  string
	}{
		{"unknown model", &oippb.ModelInferRequest{ModelName: "nope"}, codes.NotFound, `no model named "nope"`},
		{"unknown version", &oippb.ModelInferRequest{ModelName: "iris", ModelVersion: "v0"}, codes.NotFound, `has no version "v0"`},
		{"no inputs", &oippb.ModelInferRequest{ModelName: "iris"}, codes.InvalidArgument, "no inputs"},
		{"wrong datatype", iris("BYTES", []int64{1, 4}, &oippb.InferTensorContents{BytesContents: [][]byte{{'a'}, {'b'}, {'c'}, {'d'}}}), codes.InvalidArgument, `datatype "BYTES", want FP64`},
		{"wrong field", iris("FP64", []int64{1, 4}, &oippb.InferTensorContents{Fp32Contents: []float32{5, 3, 1, 0}}), codes.InvalidArgument, "go in fp64_contents"},
		{"values short of the shape", iris("FP64", []int64{2, 4}, four), codes.InvalidArgument, "4 values, but shape [2 4] holds 8"},
		{"infinite", iris("FP64", []int64{1, 4}, &oippb.InferTensorContents{Fp64Contents: []float64{math.Inf(1), 3, 1, 0}}), codes.InvalidArgument, "infinite"},
		{"raw not whole", &oippb.ModelInferRequest{ModelName: "iris", Inputs: []*oippb.ModelInferRequest_InferInputTensor{{Name: "x", Datatype: "FP64", Shape: []int64{1, 4}}}, RawInputContents: [][]byte{make([]byte, 31)}}, codes.InvalidArgument, "not a whole number"},
		{"raw BYTES cut", &oippb.ModelInferRequest{ModelName: "sms", Inputs: []*oippb.ModelInferRequest_InferInputTensor{{Name: "text", Datatype: "BYTES", Shape: []int64{1}}}, RawInputContents: [][]byte{{9, 0, 0, 0, 'a'}}}, codes.InvalidArgument, "past the end"},
		{"unknown output", &oippb.ModelInferRequest{ModelName: "iris", Inputs: iris("FP64", []int64{1, 4}, four).Inputs, Outputs: []*oippb.ModelInferRequest_InferRequestedOutputTensor{{Name: "nope"}}}, codes.InvalidArgument, `has no output "nope"`},
		{"rows past the limit", iris("FP64", []int64{6, 4}, &oippb.InferTensorContents{Fp64Contents: make([]float64, 24)}), codes.ResourceExhausted, "more than the limit of 5 rows"},
		{"a shape of another width", iris("FP64", []int64{5, 1 << 40}, four), codes.InvalidArgument, "does not match"},
		{"rows of more cells than the message holds", &oippb.ModelInferRequest{ModelName: "votes", Inputs: []*oippb.ModelInferRequest_InferInputTensor{{Name: "handicapped-infants", Datatype: "BYTES", Shape: []int64{5},
			Contents: &oippb.InferTensorContents{BytesContents: make([][]byte, 5)}}}}, codes.InvalidArgument, "more than a request of"},
		{"FP16", iris("FP16", []int64{1, 4}, nil), codes.InvalidArgument, "FP16 is not supported"},
	} {
		_, err := client.ModelInfer(ctx, c.req)
		if st := status.Convert(err); st.Code() != c.code || !strings.Contains(st.Message(), c.msg) {
			t.Errorf("%s: %v %q, want %v and %q", c.name, st.Code(), st.Message(), c.code, c.msg)
		}
	}
	if _, err := client.ModelMetadata(ctx, &oippb.ModelMetadataRequest{Name: "nope"}); status.Code(err) != codes.NotFound {
		t.Errorf("ModelMetadata of no model: %v", err)
	}
	if _, err := client.ModelReady(ctx, &oippb.ModelReadyRequest{Name: "iris", Version: "v0"}); status.Code(err) != codes.NotFound {
		t.Errorf("ModelReady of no version: %v", err)
	}

	// The in-flight limit: its one place taken, a call waits, then is
	// Unavailable; metadata is answered.
	if !s.acquire(ctx) {
		t.Fatal("no place")
	}
	start := time.Now()
	_, err := client.ModelInfer(ctx, iris("FP64", []int64{1, 4}, four))
	if st := status.Convert(err); st.Code() != codes.Unavailable || !strings.Contains(st.Message(), "its limit: retry later") || time.Since(start) < inflightWait/2 {
		t.Errorf("full: %v after %v", err, time.Since(start))
	}
	if _, err := client.ModelMetadata(ctx, &oippb.ModelMetadataRequest{Name: "iris"}); err != nil {
		t.Errorf("metadata while full: %v", err)
	}
	s.release()
	if _, err := client.ModelInfer(ctx, iris("FP64", []int64{1, 4}, four)); err != nil {
		t.Errorf("after the place is given back: %v", err)
	}

	// The metrics count the calls with REST's statuses.
	_, body := do(t, s, "GET", "/metrics", "", nil)
	for _, line := range []string{
		`gendisc_requests_total{code="200",endpoint="grpc_infer",model="iris"} 1`,
		`gendisc_requests_total{code="404",endpoint="grpc_infer",model=""} 2`,
		`gendisc_requests_total{code="413",endpoint="grpc_infer",model="iris"} 1`,
		`gendisc_requests_total{code="503",endpoint="grpc_infer",model=""} 1`,
		`gendisc_requests_total{code="200",endpoint="grpc_model_metadata",model="iris"} 1`,
		`gendisc_request_rows_count{endpoint="grpc_infer"} 1`,
	} {
		if !strings.Contains(string(body), line) {
			t.Errorf("metrics: no %s", line)
		}
	}
}

// TestGRPCMessageLimit checks that a message larger than --max-body is
// refused with ResourceExhausted.
func TestGRPCMessageLimit(t *testing.T) {
	opt := testOptions()
	opt.MaxBodyBytes = 1000
	client := grpcClient(t, newServer(t, opt))
	req := &oippb.ModelInferRequest{ModelName: "iris", Inputs: []*oippb.ModelInferRequest_InferInputTensor{{Name: "x", Datatype: "FP64", Shape: []int64{200, 4},
		Contents: &oippb.InferTensorContents{Fp64Contents: make([]float64, 800)}}}}
	if _, err := client.ModelInfer(context.Background(), req); status.Code(err) != codes.ResourceExhausted {
		t.Errorf("a message of 6,400 bytes: %v", err)
	}
}

// TestGRPCPanicRecovered checks that the interceptor recovers a panic,
// answers Internal, and counts it.
func TestGRPCPanicRecovered(t *testing.T) {
	s := newServer(t, testOptions())
	_, err := s.intercept(context.Background(), nil, &grpc.UnaryServerInfo{FullMethod: "/inference.GRPCInferenceService/ServerLive"},
		func(context.Context, any) (any, error) { panic("boom") })
	if st := status.Convert(err); st.Code() != codes.Internal || st.Message() != "internal error" {
		t.Errorf("panic: %v", err)
	}
	_, body := do(t, s, "GET", "/metrics", "", nil)
	if !strings.Contains(string(body), "gendisc_panics_total 1") ||
		!strings.Contains(string(body), `gendisc_requests_total{code="500",endpoint="grpc_live",model=""} 1`) {
		t.Errorf("the panic is not counted")
	}
}

// TestGRPCReload checks that a model file saved over is answered anew
// through gRPC: its version and predictions.
func TestGRPCReload(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "m.json")
	a, _ := os.ReadFile("testdata/iris.json")
	b, _ := os.ReadFile("testdata/iris-shared.json")
	writeAtomic(t, path, a)
	s := newServer(t, Options{Models: map[string]string{"m": path}})
	client := grpcClient(t, s)
	ctx := context.Background()
	_, d := readData(t, "iris", "iris")
	ins, _ := grpcInputs(d, 0, d.N, false)
	infer := func() *oippb.ModelInferResponse {
		r, err := client.ModelInfer(ctx, &oippb.ModelInferRequest{ModelName: "m", Inputs: ins})
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	before := infer()
	writeAtomic(t, path, b)
	if err := s.Reload(); err != nil {
		t.Fatal(err)
	}
	after := infer()
	meta, err := client.ModelMetadata(ctx, &oippb.ModelMetadataRequest{Name: "m"})
	if err != nil {
		t.Fatal(err)
	}
	v := s.model("m").version
	if before.ModelVersion == v || after.ModelVersion != v || meta.Versions[0] != v {
		t.Errorf("versions: before %s, after %s, metadata %v, served %s", before.ModelVersion, after.ModelVersion, meta.Versions, v)
	}
	if reflect.DeepEqual(before.Outputs[1].Contents.Fp64Contents, after.Outputs[1].Contents.Fp64Contents) {
		t.Error("the same probabilities after the reload")
	}
	if _, err := client.ModelReady(ctx, &oippb.ModelReadyRequest{Name: "m", Version: before.ModelVersion}); status.Code(err) != codes.NotFound {
		t.Errorf("the old version: %v", err)
	}
}

// TestServeGRPCTLS checks ServeGRPC over TCP with TLS and the token: the
// token required but for the health calls, the scheme in any case, and a
// graceful stop.
func TestServeGRPCTLS(t *testing.T) {
	certFile, keyFile, pool := testCert(t)
	opt := testOptions()
	opt.Token = "t0ken"
	s := newServer(t, opt)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	served := make(chan error, 1)
	go func() { served <- s.ServeGRPC(ctx, ln, certFile, keyFile) }()
	conn, err := grpc.NewClient(ln.Addr().String(), grpc.WithTransportCredentials(credentials.NewTLS(&tls.Config{RootCAs: pool})))
	if err != nil {
		t.Fatal(err)
	}
	client := oippb.NewGRPCInferenceServiceClient(conn)
	bg := context.Background()
	if _, err := client.ServerLive(bg, &oippb.ServerLiveRequest{}); err != nil {
		t.Errorf("ServerLive without the token: %v", err)
	}
	for _, c := range []struct {
		auth string
		code codes.Code
	}{
		{"", codes.Unauthenticated},
		{"Bearer t0ke", codes.Unauthenticated},
		{"Basic t0ken", codes.Unauthenticated},
		{"Bearer t0ken", codes.OK},
		{"bearer t0ken", codes.OK},
	} {
		ctx := bg
		if c.auth != "" {
			ctx = grpcmd.AppendToOutgoingContext(bg, "authorization", c.auth)
		}
		_, err := client.ModelMetadata(ctx, &oippb.ModelMetadataRequest{Name: "iris"})
		if status.Code(err) != c.code {
			t.Errorf("authorization %q: %v, want %v", c.auth, err, c.code)
		}
		_, err = client.ModelInfer(ctx, &oippb.ModelInferRequest{ModelName: "iris", Inputs: []*oippb.ModelInferRequest_InferInputTensor{{Name: "x", Datatype: "FP64", Shape: []int64{1, 4},
			Contents: &oippb.InferTensorContents{Fp64Contents: []float64{5, 3, 1, 0}}}}})
		if status.Code(err) != c.code {
			t.Errorf("ModelInfer with authorization %q: %v, want %v", c.auth, err, c.code)
		}
	}
	conn.Close()
	cancel()
	if err := <-served; err != nil {
		t.Error(err)
	}
}

// FuzzGRPCInfer feeds ModelInfer's reader tensors of any name, datatype,
// shape and raw contents, for a numeric, a categorical and a text model:
// it must refuse them with an error or read as many rows as the shape
// says, never panic. Longer: go test -fuzz FuzzGRPCInfer -fuzztime 60s ./server
func FuzzGRPCInfer(f *testing.F) {
	s := newServer(f, testOptions())
	f.Add("iris", "x", "FP64", int64(1), int64(4), make([]byte, 32))
	f.Add("iris", "x", "INT8", int64(2), int64(4), []byte{1, 2, 3, 4, 5, 6, 7, 8})
	f.Add("iris", "sepallength", "FP32", int64(1), int64(0), []byte{0, 0, 0x80, 0x7f})
	f.Add("sms", "text", "BYTES", int64(2), int64(1), []byte{1, 0, 0, 0, 'a', 0, 0, 0, 0})
	f.Add("votes", "crime", "BYTES", int64(1), int64(0), []byte{1, 0, 0, 0, 'y'})
	f.Add("votes", "crime", "BOOL", int64(1), int64(-1), []byte{1})
	f.Fuzz(func(t *testing.T, model, name, datatype string, n, width int64, raw []byte) {
		e := s.model(model)
		if e == nil {
			return
		}
		shape := []int64{n}
		if width >= 0 {
			shape = append(shape, width)
		}
		req := &oippb.ModelInferRequest{ModelName: model, RawInputContents: [][]byte{raw},
			Inputs: []*oippb.ModelInferRequest_InferInputTensor{{Name: name, Datatype: datatype, Shape: shape}}}
		_, d, err := s.readInferGRPC(req, e)
		if err == nil && (int64(d.N) != n || len(d.X) != d.N*len(d.Schema.Features)) {
			t.Errorf("shape %v: %d rows, %d cells", shape, d.N, len(d.X))
		}
	})
}
