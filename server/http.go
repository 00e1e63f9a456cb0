package server

import (
	"encoding/json"
	"errors"
	"fmt"
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
	case !public && !s.authorized(r):
		w.Header().Set("WWW-Authenticate", `Bearer realm="gendisc"`)
		c.fail(http.StatusUnauthorized, "a bearer token is required (Authorization: Bearer <token>)")
	case method != "" && r.Method != method && !(method == "GET" && r.Method == "HEAD"):
		w.Header().Set("Allow", method)
		c.fail(http.StatusMethodNotAllowed, "method %s not allowed on %s: use %s", r.Method, r.URL.Path, method)
	default:
		h(s, c)
	}
}

// entry returns the model the request names ({name}, and {version} when
// the path has one), or answers 404 and returns nil.
func (c *call) entry(s *Server) *entry {
	name := c.r.PathValue("name")
	e := s.model(name)
	if e == nil {
		c.fail(http.StatusNotFound, "no model named %q", name)
		return nil
	}
	if v := c.r.PathValue("version"); v != "" && v != e.version {
		c.fail(http.StatusNotFound, "model %q has no version %q (it serves %s)", name, v, e.version)
		return nil
	}
	c.model = name
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
