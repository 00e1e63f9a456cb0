package server

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"runtime/debug"
	"strconv"
	"time"
)

// call is one request being answered: what the handler found out that
// the metrics and the access log report.
type call struct {
	w        http.ResponseWriter
	r        *http.Request
	model    string // the model's name once known to be served
	status   int
	rows     int
	endpoint string
}

// handlerFunc answers a call.
type handlerFunc func(s *Server, c *call)

// routes builds the mux of s.
func (s *Server) routes() {
	mux := http.NewServeMux()
	if s.opt.MaxInflight <= 0 {
		s.opt.MaxInflight = DefaultMaxInflight()
	}
	s.inflight = make(chan struct{}, s.opt.MaxInflight)
	handle := func(pattern, method, endpoint string, h handlerFunc, public bool) {
		mux.HandleFunc(pattern, func(w http.ResponseWriter, r *http.Request) {
			s.serve(w, r, method, endpoint, h, public)
		})
	}
	handle("/v2/health/live", "GET", "live", (*Server).live, true)
	handle("/v2/health/ready", "GET", "ready", (*Server).ready, true)
	handle("/v2", "GET", "server_metadata", (*Server).serverMetadata, false)
	handle("/v2/{$}", "GET", "server_metadata", (*Server).serverMetadata, false)
	for _, prefix := range []string{"/v2/models/{name}", "/v2/models/{name}/versions/{version}"} {
		handle(prefix, "GET", "model_metadata", (*Server).modelMetadata, false)
		handle(prefix+"/ready", "GET", "model_ready", (*Server).modelReady, false)
		handle(prefix+"/infer", "POST", "infer", (*Server).infer, false)
	}
	handle("/v1/models", "GET", "models", (*Server).list, false)
	handle("/v1/models/{name}/predict", "POST", "predict", (*Server).predict, false)
	handle("/v1/models/{name}/score", "POST", "score", (*Server).score, false)
	handle("/metrics", "GET", "metrics", func(s *Server, c *call) {
		c.status = http.StatusOK
		s.metrics.handler().ServeHTTP(c.w, c.r)
	}, false)
	handle("/", "", "other", func(s *Server, c *call) {
		c.fail(http.StatusNotFound, "no such endpoint: %s %s", c.r.Method, c.r.URL.Path)
	}, true)
	s.mux = mux
}

// serve answers r with h, after the checks of method and token, and
// records it: metrics, access log, and a panic recovered.
func (s *Server) serve(w http.ResponseWriter, r *http.Request, method, endpoint string, h handlerFunc, public bool) {
	start := time.Now()
	c := &call{w: w, r: r, endpoint: endpoint}
	defer func() {
		if p := recover(); p != nil {
			if p == http.ErrAbortHandler {
				panic(p)
			}
			s.metrics.panics.Inc()
			s.log.Error("panic answering a request", "method", r.Method, "path", r.URL.Path, "panic", fmt.Sprint(p), "stack", string(debug.Stack()))
			if c.status == 0 {
				c.fail(http.StatusInternalServerError, "internal error")
			}
		}
		elapsed := time.Since(start)
		s.metrics.observe(c.model, endpoint, c.status, c.rows, elapsed.Seconds())
		if s.opt.AccessLog {
			s.log.Info("request", "method", r.Method, "path", r.URL.Path, "status", c.status, "model", c.model,
				"rows", c.rows, "duration", elapsed, "remote", r.RemoteAddr)
		}
	}()
	switch {
	case !public && !s.authorized(r.Header.Get("Authorization")):
		w.Header().Set("WWW-Authenticate", `Bearer realm="gendisc"`)
		c.fail(http.StatusUnauthorized, "a bearer token is required (Authorization: Bearer <token>)")
	case method != "" && r.Method != method && !(method == "GET" && r.Method == "HEAD"):
		w.Header().Set("Allow", method)
		c.fail(http.StatusMethodNotAllowed, "method %s not allowed on %s: use %s", r.Method, r.URL.Path, method)
	case method == "POST" && r.ContentLength > s.opt.MaxBodyBytes:
		// Before the body is read, so that a client that waits for
		// 100 Continue (Expect: 100-continue) is not sent it.
		c.fail(http.StatusRequestEntityTooLarge, "the request body (Content-Length %d) is larger than the limit of %d bytes", r.ContentLength, s.opt.MaxBodyBytes)
	case method == "POST":
		if !s.acquire(r.Context()) {
			w.Header().Set("Retry-After", "1")
			c.fail(http.StatusServiceUnavailable, "the server is answering %d requests, its limit: retry later", s.opt.MaxInflight)
			return
		}
		defer s.release()
		h(s, c)
	default:
		h(s, c)
	}
}

// decodeFactor bounds the memory a request takes while its body is read
// and decoded: at most decodeFactor·Options.MaxBodyBytes (TestHostileBodies
// and TestLargestRequests measure it). The body itself takes one
// MaxBodyBytes; its rows at most four more (8 bytes a cell, and a cell
// takes two bytes of the body or more); text cells and the scanner's
// bookkeeping the rest.
const decodeFactor = 8

// inflightWait is how long a request waits for a place among the
// requests in flight before it is answered 503.
const inflightWait = time.Second

// acquire takes a place among the requests in flight (which read a
// body), waiting at most inflightWait, and reports whether it got one.
func (s *Server) acquire(ctx context.Context) bool {
	select {
	case s.inflight <- struct{}{}:
	default:
		t := time.NewTimer(inflightWait)
		defer t.Stop()
		select {
		case s.inflight <- struct{}{}:
		case <-t.C:
			return false
		case <-ctx.Done():
			return false
		}
	}
	s.metrics.inflight.Inc()
	return true
}

// release gives back the place of a request in flight.
func (s *Server) release() {
	s.metrics.inflight.Dec()
	<-s.inflight
}

// readBody reads the request body into buf, at most
// Options.MaxBodyBytes of it, or answers the error and returns false.
// With a Content-Length, buf is grown once to hold it; without, it grows
// fourfold, never past the limit, so that reading a body allocates at
// most 1.7 times the limit (4/3 of it, then the limit).
func (s *Server) readBody(c *call, buf *bytes.Buffer) bool {
	limit := int(s.opt.MaxBodyBytes) + 1 // one byte more tells a body over the limit
	r := http.MaxBytesReader(c.w, c.r.Body, s.opt.MaxBodyBytes)
	b := buf.AvailableBuffer()
	if n := c.r.ContentLength; n > 0 && n <= s.opt.MaxBodyBytes && cap(b) < int(n)+1 {
		b = make([]byte, 0, n+1) // read without growing: +1 for the end
	}
	for {
		if len(b) == cap(b) {
			size := min(max(4*cap(b), bytes.MinRead), limit)
			if limit-size < size/2 {
				size = limit // rather than one more step of a few bytes
			}
			bigger := make([]byte, len(b), size)
			b = bigger[:copy(bigger, b)]
		}
		n, err := r.Read(b[len(b):cap(b)])
		b = b[:len(b)+n]
		if err == io.EOF {
			break
		}
		if err != nil {
			c.failBody(err, s.opt.MaxBodyBytes)
			return false
		}
	}
	*buf = *bytes.NewBuffer(b) // pooled with its storage
	return true
}

// rowLimit returns the most rows of a request for e (sentences for a
// tagger): Options.MaxRows, and fewer for a model of many classes
// (answerLimit).
func (s *Server) rowLimit(e *entry) int { return min(s.opt.MaxRows, s.answerLimit(e)) }

// answerLimit returns the most rows of a request for a model of K
// classes (tokens for a tagger of K tags), so that its predictions (8
// bytes per class and row, and 8 more per row) take at most four times
// Options.MaxBodyBytes, as its rows do:
//
//	MaxBodyBytes / (2·(K+1))   for K classes (K = 0 for a regression), at least 1.
func (s *Server) answerLimit(e *entry) int {
	return max(1, int(s.opt.MaxBodyBytes/int64(2*(len(e.labels)+1))))
}

// answerChunk is the size of the pieces of a long answer: an answer
// that grows past it is sent as it is written (chunked), so that an
// answer takes no more memory than this however many rows it has.
const answerChunk = 1 << 20

// answer is the body of a successful answer being written: sent in one
// piece with its Content-Length when shorter than answerChunk, else in
// pieces. Its Write serves the CSV writers.
type answer struct {
	c           *call
	contentType string
	buf         *bytes.Buffer
	b           []byte
	sent        bool // the header is sent
}

// answer starts the answer of c, of the content type.
func (c *call) answer(contentType string) *answer {
	buf := getBuf()
	return &answer{c: c, contentType: contentType, buf: buf, b: buf.AvailableBuffer()}
}

func (a *answer) Write(p []byte) (int, error) {
	a.b = append(a.b, p...)
	a.flushFull()
	return len(p), nil
}

// flushFull sends what is written once it reaches answerChunk.
func (a *answer) flushFull() {
	if len(a.b) < answerChunk {
		return
	}
	if !a.sent {
		a.c.status = http.StatusOK
		a.c.w.Header().Set("Content-Type", a.contentType)
		a.c.w.WriteHeader(http.StatusOK)
		a.sent = true
	}
	a.c.w.Write(a.b)
	a.b = a.b[:0]
}

// close sends the rest of the answer. It is not deferred: a handler that
// panics before it sends no 200.
func (a *answer) close() {
	if a.sent {
		a.c.w.Write(a.b)
	} else {
		a.c.write(http.StatusOK, a.contentType, a.b)
	}
	*a.buf = *bytes.NewBuffer(a.b[:0]) // keep the grown buffer for the next answer
	putBuf(a.buf)
}

// entry returns the model the request names ({name}, and {version} when
// the path has one), or answers 404 and returns nil.
func (c *call) entry(s *Server) *entry {
	e, err := s.lookup(c.r.PathValue("name"), c.r.PathValue("version"))
	if err != nil {
		c.fail(err.status, "%s", err.msg)
		return nil
	}
	c.model = e.name
	return e
}

// write answers with status and the body b of the content type.
func (c *call) write(status int, contentType string, b []byte) {
	c.status = status
	h := c.w.Header()
	h.Set("Content-Type", contentType)
	h.Set("Content-Length", strconv.Itoa(len(b)))
	c.w.WriteHeader(status)
	c.w.Write(b)
}

// json answers with status and v as JSON.
func (c *call) json(status int, v any) {
	b, err := json.Marshal(v)
	if err != nil {
		panic("server: " + err.Error()) // every value answered marshals
	}
	c.write(status, "application/json", append(b, '\n'))
}

// fail answers with status and the JSON error object {"error": msg}.
func (c *call) fail(status int, format string, args ...any) {
	c.json(status, struct {
		Error string `json:"error"`
	}{fmt.Sprintf(format, args...)})
}

// failBody answers the error of reading the request body: 413 for a body
// over the limit, else 400.
func (c *call) failBody(err error, limit int64) {
	if _, ok := errors.AsType[*http.MaxBytesError](err); ok {
		c.fail(http.StatusRequestEntityTooLarge, "the request body is larger than the limit of %d bytes", limit)
		return
	}
	c.fail(http.StatusBadRequest, "reading the request body: %v", err)
}

// mediaType returns the media type of the request's Content-Type, "" when
// there is none.
func (c *call) mediaType() (string, error) {
	ct := c.r.Header.Get("Content-Type")
	if ct == "" {
		return "", nil
	}
	mt, _, err := mime.ParseMediaType(ct)
	return mt, err
}

func (s *Server) live(c *call) { c.json(http.StatusOK, map[string]bool{"live": true}) }

func (s *Server) ready(c *call) { c.json(http.StatusOK, map[string]bool{"ready": true}) }

func (s *Server) modelReady(c *call) {
	if e := c.entry(s); e != nil {
		c.json(http.StatusOK, map[string]any{"name": e.name, "ready": true})
	}
}

func (s *Server) list(c *call) {
	type model struct {
		Name    string `json:"name"`
		Kind    string `json:"kind"`
		Version string `json:"version"`
		Loaded  string `json:"loaded"`
	}
	var out struct {
		Models []model `json:"models"`
	}
	set := *s.models.Load()
	for _, name := range s.Models() {
		if e := set[name]; e != nil {
			out.Models = append(out.Models, model{e.name, e.kind, e.version, e.loaded.UTC().Format(time.RFC3339Nano)})
		}
	}
	c.json(http.StatusOK, out)
}
