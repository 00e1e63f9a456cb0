package server

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"net"
	"net/http"
	"path"
	"runtime/debug"
	"slices"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials"
	grpcmd "google.golang.org/grpc/metadata"
	"google.golang.org/grpc/peer"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"

	"github.com/gendisc/gendisc/data"
	"github.com/gendisc/gendisc/server/internal/oippb"
)

// The Open Inference Protocol's gRPC service, inference.GRPCInferenceService
// (server/internal/oippb/inference.proto), answering as the REST
// endpoints do: the same models (hot reload included), metadata,
// predictions and errors, the same limits, token and metrics. A
// request's tensors are read into the model's rows by the REST reader's
// checks (inputs.begin) and cells (table), and the answer is computed by
// the REST infer's step (Server.inference). Differences:
//
//   - the values of a tensor come in the contents field of its datatype
//     (fp64_contents for FP64, int_contents for INT8, INT16 and INT32,
//     bytes_contents for BYTES, …) or in raw_input_contents, little-endian,
//     a BYTES element as its 4-byte little-endian length and its bytes;
//     a NaN, or an empty BYTES element of a categorical column (that has
//     no level ""), is a missing cell, as a JSON null is over REST; FP16 is
//     refused (no contents field holds it: send FP32 or FP64);
//   - the outputs are answered in contents (label in bytes_contents,
//     component in int64_contents, the others in fp64_contents), never in
//     raw_output_contents; the parameters of a request and of its
//     requested outputs are ignored (the binary tensor extension is
//     REST's);
//   - an error is answered with the gRPC code of the HTTP status REST
//     answers (grpcCode): NotFound for a model or version not served,
//     InvalidArgument for a bad request, ResourceExhausted for one over a
//     limit, Unavailable when --max-inflight requests are being answered,
//     Unauthenticated without the token, Internal for a panic;
//   - the metrics count a call under the endpoint grpc_<REST endpoint>
//     (grpc_infer, grpc_model_metadata, …) with the HTTP status REST
//     would answer, so that one dashboard reads both.
//
// A message is at most Options.MaxBodyBytes (grpc.MaxRecvMsgSize). gRPC
// decodes a message before the service sees it, so that --max-inflight
// bounds the calls computed at once, not the messages being decoded; a
// message's decoding takes memory in proportion to it (protobuf's own, at
// most about 12 bytes per byte received for the smallest BYTES
// elements). An answer is one message, built whole where REST sends its
// answer in 1 MiB pieces: its memory is about three times that of the
// predictions (the outputs, the message, its encoding).

// grpcEndpoints names the endpoint of each method in the metrics.
var grpcEndpoints = map[string]string{
	"ServerLive":     "grpc_live",
	"ServerReady":    "grpc_ready",
	"ServerMetadata": "grpc_server_metadata",
	"ModelMetadata":  "grpc_model_metadata",
	"ModelReady":     "grpc_model_ready",
	"ModelInfer":     "grpc_infer",
}

// grpcCode returns the gRPC code of an HTTP status.
func grpcCode(status int) codes.Code {
	switch status {
	case http.StatusOK:
		return codes.OK
	case http.StatusNotFound:
		return codes.NotFound
	case http.StatusUnauthorized:
		return codes.Unauthenticated
	case http.StatusRequestEntityTooLarge:
		return codes.ResourceExhausted
	case http.StatusServiceUnavailable:
		return codes.Unavailable
	case http.StatusInternalServerError:
		return codes.Internal
	}
	return codes.InvalidArgument
}

// GRPCServer returns a grpc.Server of the Open Inference Protocol's gRPC
// service of s, with the options opts (credentials.NewServerTLSFromFile,
// say) after those of s: messages of at most Options.MaxBodyBytes, and an
// interceptor that checks the token, takes a place among the requests in
// flight for ModelInfer, recovers a panic, and records the metrics and
// the access log.
func (s *Server) GRPCServer(opts ...grpc.ServerOption) *grpc.Server {
	opts = append([]grpc.ServerOption{
		grpc.MaxRecvMsgSize(int(min(s.opt.MaxBodyBytes, math.MaxInt32))),
		grpc.UnaryInterceptor(s.intercept),
	}, opts...)
	gs := grpc.NewServer(opts...)
	oippb.RegisterGRPCInferenceServiceServer(gs, &grpcService{s: s})
	return gs
}

// ServeGRPC serves the gRPC service of s on the listener ln (with TLS
// when certFile and keyFile are given) until ctx is done, then shuts down
// gracefully: it stops accepting calls and waits, at most
// Options.ShutdownTimeout, for the calls in flight to finish. It returns
// nil after a clean shutdown.
func (s *Server) ServeGRPC(ctx context.Context, ln net.Listener, certFile, keyFile string) error {
	var opts []grpc.ServerOption
	if certFile != "" || keyFile != "" {
		creds, err := credentials.NewServerTLSFromFile(certFile, keyFile)
		if err != nil {
			ln.Close()
			return err
		}
		opts = append(opts, grpc.Creds(creds))
	}
	gs := s.GRPCServer(opts...)
	done := make(chan error, 1)
	go func() { done <- gs.Serve(ln) }()
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
	}
	s.log.Info("shutting down gRPC: draining calls in flight", "timeout", s.opt.ShutdownTimeout)
	stopped := make(chan struct{})
	go func() { gs.GracefulStop(); close(stopped) }()
	t := time.NewTimer(s.opt.ShutdownTimeout)
	defer t.Stop()
	var err error
	select {
	case <-stopped:
	case <-t.C:
		gs.Stop()
		<-stopped
		err = context.DeadlineExceeded
	}
	if e := <-done; err == nil && e != nil && !errors.Is(e, grpc.ErrServerStopped) {
		err = e
	}
	return err
}

// callKey is the context key of a gRPC call's *call.
type callKey struct{}

// intercept answers a gRPC call with handler, after the check of the
// token, and records it as serve records a REST request: metrics, access
// log, and a panic recovered.
func (s *Server) intercept(ctx context.Context, req any, info *grpc.UnaryServerInfo, handler grpc.UnaryHandler) (resp any, err error) {
	start := time.Now()
	method := path.Base(info.FullMethod)
	c := &call{endpoint: grpcEndpoints[method]}
	defer func() {
		if p := recover(); p != nil {
			s.metrics.panics.Inc()
			s.log.Error("panic answering a request", "method", "gRPC", "path", info.FullMethod, "panic", fmt.Sprint(p), "stack", string(debug.Stack()))
			resp, err = nil, &statusError{http.StatusInternalServerError, "internal error"}
		}
		se, ok := errors.AsType[*statusError](err)
		switch {
		case err == nil:
			c.status = http.StatusOK
		case ok:
			c.status = se.status
			err = status.Error(grpcCode(se.status), se.msg)
		default: // not an error of the service's
			c.status = http.StatusInternalServerError
		}
		elapsed := time.Since(start)
		s.metrics.observe(c.model, c.endpoint, c.status, c.rows, elapsed.Seconds())
		if s.opt.AccessLog {
			remote := ""
			if p, ok := peer.FromContext(ctx); ok {
				remote = p.Addr.String()
			}
			s.log.Info("request", "method", "gRPC", "path", info.FullMethod, "status", c.status, "code", status.Code(err).String(),
				"model", c.model, "rows", c.rows, "duration", elapsed, "remote", remote)
		}
	}()
	if method != "ServerLive" && method != "ServerReady" {
		md, _ := grpcmd.FromIncomingContext(ctx)
		auth := md.Get("authorization")
		if len(auth) > 1 || !s.authorized(append(auth, "")[0]) {
			return nil, &statusError{http.StatusUnauthorized, "a bearer token is required (metadata authorization: Bearer <token>)"}
		}
	}
	if method == "ModelInfer" {
		if !s.acquire(ctx) {
			return nil, &statusError{http.StatusServiceUnavailable,
				fmt.Sprintf("the server is answering %d requests, its limit: retry later", s.opt.MaxInflight)}
		}
		defer s.release()
	}
	return handler(context.WithValue(ctx, callKey{}, c), req)
}

// grpcService is the GRPCInferenceService of a Server.
type grpcService struct {
	oippb.UnimplementedGRPCInferenceServiceServer
	s *Server
}

// entry returns the model of the call, recording its name for the
// metrics, or the error of one not served.
func (g *grpcService) entry(ctx context.Context, name, version string) (*entry, error) {
	e, err := g.s.lookup(name, version)
	if err != nil {
		return nil, err
	}
	ctx.Value(callKey{}).(*call).model = e.name
	return e, nil
}

func (g *grpcService) ServerLive(context.Context, *oippb.ServerLiveRequest) (*oippb.ServerLiveResponse, error) {
	return &oippb.ServerLiveResponse{Live: true}, nil
}

func (g *grpcService) ServerReady(context.Context, *oippb.ServerReadyRequest) (*oippb.ServerReadyResponse, error) {
	return &oippb.ServerReadyResponse{Ready: true}, nil
}

func (g *grpcService) ServerMetadata(context.Context, *oippb.ServerMetadataRequest) (*oippb.ServerMetadataResponse, error) {
	return &oippb.ServerMetadataResponse{Name: "gendisc", Version: version(), Extensions: []string{}}, nil
}

func (g *grpcService) ModelReady(ctx context.Context, req *oippb.ModelReadyRequest) (*oippb.ModelReadyResponse, error) {
	if _, err := g.entry(ctx, req.Name, req.Version); err != nil {
		return nil, err
	}
	return &oippb.ModelReadyResponse{Ready: true}, nil
}

func (g *grpcService) ModelMetadata(ctx context.Context, req *oippb.ModelMetadataRequest) (*oippb.ModelMetadataResponse, error) {
	e, err := g.entry(ctx, req.Name, req.Version)
	if err != nil {
		return nil, err
	}
	meta := newModelMeta(e)
	tensors := func(ts []tensorMeta) []*oippb.ModelMetadataResponse_TensorMetadata {
		out := make([]*oippb.ModelMetadataResponse_TensorMetadata, len(ts))
		for i, t := range ts {
			out[i] = &oippb.ModelMetadataResponse_TensorMetadata{Name: t.Name, Datatype: t.Datatype, Shape: int64s(t.Shape)}
		}
		return out
	}
	return &oippb.ModelMetadataResponse{Name: meta.Name, Versions: meta.Versions, Platform: meta.Platform,
		Inputs: tensors(meta.Inputs), Outputs: tensors(meta.Outputs)}, nil
}

func (g *grpcService) ModelInfer(ctx context.Context, req *oippb.ModelInferRequest) (*oippb.ModelInferResponse, error) {
	e, err := g.entry(ctx, req.ModelName, req.ModelVersion)
	if err != nil {
		return nil, err
	}
	if e.tagger != nil {
		resp, n, err := g.s.tagInferGRPC(req, e)
		ctx.Value(callKey{}).(*call).rows = n
		return resp, err
	}
	asked, d, err := g.s.readInferGRPC(req, e)
	if err != nil {
		status := http.StatusBadRequest
		if errorStatus(err) == http.StatusRequestEntityTooLarge {
			status = http.StatusRequestEntityTooLarge
		}
		return nil, &statusError{status, err.Error()}
	}
	ctx.Value(callKey{}).(*call).rows = d.N
	inf, err := g.s.inference(e, d, asked)
	if err != nil {
		return nil, &statusError{http.StatusBadRequest, err.Error()}
	}
	return inferResponse(e, req.Id, d.N, inf), nil
}

// inferResponse returns the answer inf for n rows of e's model, as
// writeInfer writes it over REST.
func inferResponse(e *entry, id string, n int, inf *inference) *oippb.ModelInferResponse {
	resp := &oippb.ModelInferResponse{ModelName: e.name, ModelVersion: e.version, Id: id}
	total := 0
	for _, k := range inf.unseen {
		total += k
	}
	for key, v := range map[string]int{"unseen": total, "clamped": inf.clamped} {
		if v > 0 {
			if resp.Parameters == nil {
				resp.Parameters = map[string]*oippb.InferParameter{}
			}
			resp.Parameters[key] = &oippb.InferParameter{ParameterChoice: &oippb.InferParameter_Int64Param{Int64Param: int64(v)}}
		}
	}
	for _, o := range inf.want {
		shape := []int64{int64(n)}
		if len(o.Shape) == 2 {
			shape = append(shape, int64(o.Shape[1]))
		}
		c := &oippb.InferTensorContents{}
		switch o.Name {
		case "label":
			c.BytesContents = make([][]byte, len(inf.p.Best))
			labels := make([][]byte, len(inf.p.Labels))
			for k, l := range inf.p.Labels {
				labels[k] = []byte(l)
			}
			for i, k := range inf.p.Best {
				c.BytesContents[i] = labels[k]
			}
		case "component":
			c.Int64Contents = make([]int64, len(inf.p.Best))
			for i, k := range inf.p.Best {
				c.Int64Contents[i] = int64(k)
			}
		case "proba", "prediction":
			c.Fp64Contents = inf.p.Values
		case "log_likelihood":
			c.Fp64Contents = inf.ll
		}
		resp.Outputs = append(resp.Outputs, &oippb.ModelInferResponse_InferOutputTensor{Name: o.Name, Datatype: o.Datatype, Shape: shape, Contents: c})
	}
	return resp
}

// int64s returns the sizes of a shape as int64.
func int64s(shape []int) []int64 {
	out := make([]int64, len(shape))
	for i, n := range shape {
		out[i] = int64(n)
	}
	return out
}

// readInferGRPC reads the input tensors of a gRPC inference request for
// e's model into rows, with the checks and limits of readInfer, and the
// outputs it asks for (nil for the default ones).
func (s *Server) readInferGRPC(req *oippb.ModelInferRequest, e *entry) ([]output, *data.Dataset, error) {
	asked, err := grpcOutputs(req, e)
	if err != nil {
		return nil, nil, err
	}
	raw := req.RawInputContents
	in := s.newInputs(e, proto.Size(req), 1)
	for i, t := range req.Inputs {
		h, err := grpcHead(t)
		if err != nil {
			return nil, nil, err
		}
		var vals tensorValues
		if len(raw) > 0 {
			if t.Contents != nil && proto.Size(t.Contents) > 0 {
				return nil, nil, fmt.Errorf("input %q: values in both contents and raw_input_contents", t.Name)
			}
			vals, err = rawValues(in.t, t.Datatype, raw[i])
		} else {
			vals, err = typedValues(in.t, t.Datatype, t.Contents)
		}
		if err != nil {
			return nil, nil, fmt.Errorf("input %q: %w", t.Name, err)
		}
		v, err := in.begin(h, vals.count)
		if err != nil {
			return nil, nil, err
		}
		for range vals.count {
			row, col, _ := v.next() // begin checked the count
			if err := vals.set(row, col); err != nil {
				return nil, nil, err
			}
		}
		if err := v.end(); err != nil {
			return nil, nil, err
		}
	}
	d, err := in.dataset()
	return asked, d, err
}

// grpcOutputs returns the outputs of e's model that a gRPC inference
// request asks for (nil for the default ones), or the error of a request
// that asks for others or whose raw contents are not one per input.
func grpcOutputs(req *oippb.ModelInferRequest, e *entry) ([]output, error) {
	var asked []output
	avail := outputs(e)
	if len(req.Outputs) > maxOutputs {
		return nil, fmt.Errorf("more than %d outputs asked for", maxOutputs)
	}
	for _, ro := range req.Outputs {
		o, err := findOutput(e, avail, ro.Name)
		if err != nil {
			return nil, err
		}
		asked = append(asked, o)
	}
	if raw := req.RawInputContents; len(raw) > 0 && len(raw) != len(req.Inputs) {
		return nil, fmt.Errorf("%d raw_input_contents for %d inputs: give one per input, or none", len(raw), len(req.Inputs))
	}
	return asked, nil
}

// grpcHead returns the head of a gRPC input tensor, or the error of a
// shape of too many dimensions or sizes out of int's range.
func grpcHead(t *oippb.ModelInferRequest_InferInputTensor) (*tensorHead, error) {
	if len(t.Shape) > maxShape {
		return nil, fmt.Errorf("input %q: a shape of more than %d dimensions", t.Name, maxShape)
	}
	h := &tensorHead{name: t.Name, datatype: t.Datatype, shape: make([]int, len(t.Shape))}
	for k, n := range t.Shape {
		if int64(int(n)) != n {
			return nil, fmt.Errorf("input %q: the size %d in a shape is out of range", t.Name, n)
		}
		h.shape[k] = int(n)
	}
	return h, nil
}

// tensorValues are the values of a gRPC input tensor: their count, and
// set, which sets the next one into the cell (row, col) of the table.
type tensorValues struct {
	count int
	set   func(row, col int) error
}

// sequence returns the tensorValues of the values xs, each set by put.
func sequence[T any](xs []T, put func(row, col int, x T) error) tensorValues {
	k := 0
	return tensorValues{len(xs), func(row, col int) error {
		k++
		return put(row, col, xs[k-1])
	}}
}

// typedValues returns the values of a tensor of the datatype from the
// contents field of its type; the other fields must be empty.
func typedValues(t *table, datatype string, c *oippb.InferTensorContents) (tensorValues, error) {
	if c == nil {
		c = &oippb.InferTensorContents{}
	}
	number := func(row, col int, x float64) error { return t.setNumber(row, col, x) }
	var v tensorValues
	field := ""
	switch datatype {
	case "FP64":
		v, field = sequence(c.Fp64Contents, number), "fp64_contents"
	case "FP32":
		v, field = sequence(c.Fp32Contents, func(row, col int, x float32) error { return number(row, col, float64(x)) }), "fp32_contents"
	case "INT8", "INT16", "INT32":
		v, field = sequence(c.IntContents, func(row, col int, x int32) error { return number(row, col, float64(x)) }), "int_contents"
	case "INT64":
		v, field = sequence(c.Int64Contents, func(row, col int, x int64) error { return number(row, col, float64(x)) }), "int64_contents"
	case "UINT8", "UINT16", "UINT32":
		v, field = sequence(c.UintContents, func(row, col int, x uint32) error { return number(row, col, float64(x)) }), "uint_contents"
	case "UINT64":
		v, field = sequence(c.Uint64Contents, func(row, col int, x uint64) error { return number(row, col, float64(x)) }), "uint64_contents"
	case "BOOL":
		v, field = sequence(c.BoolContents, t.setBool), "bool_contents"
	case "BYTES":
		v, field = sequence(c.BytesContents, t.setBytes), "bytes_contents"
	case "FP16":
		return v, errors.New("datatype FP16 is not supported over gRPC: send FP32 or FP64")
	default:
		return v, fmt.Errorf("unknown datatype %q", datatype)
	}
	all := len(c.Fp64Contents) + len(c.Fp32Contents) + len(c.IntContents) + len(c.Int64Contents) +
		len(c.UintContents) + len(c.Uint64Contents) + len(c.BoolContents) + len(c.BytesContents)
	if all != v.count {
		return v, fmt.Errorf("values of datatype %s go in %s, and %d values are in other fields", datatype, field, all-v.count)
	}
	return v, nil
}

// setBytes sets a BYTES element of a gRPC request, which has no null:
// an empty element in a categorical column is a missing cell, unless ""
// is one of its levels; any other, a string (table.setString).
func (t *table) setBytes(row, col int, v []byte) error {
	if c := t.column(col); len(v) == 0 && c.Kind == data.Categorical && !slices.Contains(c.Levels, "") {
		return t.setNumber(row, col, math.NaN())
	}
	return t.setString(row, col, v)
}

// rawSizes are the bytes of a value of each fixed-size datatype in
// raw_input_contents.
var rawSizes = map[string]int{
	"FP64": 8, "FP32": 4, "INT8": 1, "INT16": 2, "INT32": 4, "INT64": 8,
	"UINT8": 1, "UINT16": 2, "UINT32": 4, "UINT64": 8, "BOOL": 1,
}

// rawValues returns the values of a tensor of the datatype from its raw
// contents b: little-endian values of the type's size, or for BYTES each
// element a 4-byte little-endian length and its bytes.
func rawValues(t *table, datatype string, b []byte) (tensorValues, error) {
	if datatype == "BYTES" {
		n, err := rawBytesCount(b)
		next := rawBytes(b)
		return tensorValues{n, func(row, col int) error { return t.setBytes(row, col, next()) }}, err
	}
	size, ok := rawSizes[datatype]
	switch {
	case datatype == "FP16":
		return tensorValues{}, errors.New("datatype FP16 is not supported over gRPC: send FP32 or FP64")
	case !ok:
		return tensorValues{}, fmt.Errorf("unknown datatype %q", datatype)
	case len(b)%size != 0:
		return tensorValues{}, fmt.Errorf("raw_input_contents of %d bytes, not a whole number of %s values of %d bytes", len(b), datatype, size)
	}
	at := 0
	return tensorValues{len(b) / size, func(row, col int) error {
		v := b[at : at+size]
		at += size
		le := binary.LittleEndian
		switch datatype {
		case "BOOL":
			return t.setBool(row, col, v[0] != 0)
		case "FP64":
			return t.setNumber(row, col, math.Float64frombits(le.Uint64(v)))
		case "FP32":
			return t.setNumber(row, col, float64(math.Float32frombits(le.Uint32(v))))
		}
		var x float64
		switch datatype {
		case "INT8":
			x = float64(int8(v[0]))
		case "INT16":
			x = float64(int16(le.Uint16(v)))
		case "INT32":
			x = float64(int32(le.Uint32(v)))
		case "INT64":
			x = float64(int64(le.Uint64(v)))
		case "UINT8":
			x = float64(v[0])
		case "UINT16":
			x = float64(le.Uint16(v))
		case "UINT32":
			x = float64(le.Uint32(v))
		case "UINT64":
			x = float64(le.Uint64(v))
		}
		return t.setNumber(row, col, x)
	}}, nil
}

// rawBytesCount returns the number of BYTES elements in raw contents b,
// each a 4-byte little-endian length and its bytes, or the error of
// contents that are not.
func rawBytesCount(b []byte) (int, error) {
	n := 0
	for i := 0; i < len(b); n++ {
		if len(b)-i < 4 {
			return 0, fmt.Errorf("raw_input_contents: element %d is cut in its 4-byte length", n)
		}
		size := int(binary.LittleEndian.Uint32(b[i:]))
		if size > len(b)-i-4 {
			return 0, fmt.Errorf("raw_input_contents: element %d of %d bytes, past the end", n, size)
		}
		i += 4 + size
	}
	return n, nil
}

// rawBytes returns a function that returns the next BYTES element of the
// raw contents b, which rawBytesCount checked, at each call.
func rawBytes(b []byte) func() []byte {
	at := 0
	return func() []byte {
		size := int(binary.LittleEndian.Uint32(b[at:]))
		at += 4 + size
		return b[at-size : at]
	}
}
