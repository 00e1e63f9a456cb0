// Package server serves fitted gendisc models over HTTP: the Open
// Inference Protocol (KServe v2 REST) and a row endpoint for people and
// scripts, with hot reload of the model files, Prometheus metrics and
// structured logs. A Server is an http.Handler, so that a Go service can
// mount it in its own mux:
//
//	s, err := server.New(server.Options{Models: map[string]string{"iris": "iris.json"}})
//	if err != nil { ... }
//	mux.Handle("/", s)
//
// The endpoints, for a model named {name}:
//
//	GET  /v2/health/live, /v2/health/ready   liveness and readiness
//	GET  /v2                                 server metadata
//	GET  /v2/models/{name}                   model metadata: inputs, outputs, classes, version
//	GET  /v2/models/{name}/ready             readiness of the model
//	POST /v2/models/{name}/infer             inference on tensors
//	POST /v1/models/{name}/predict           the predictions of rows, as gendisc predict
//	POST /v1/models/{name}/score             the log density of rows, as gendisc score
//	GET  /v1/models                          the models served
//	GET  /metrics                            Prometheus metrics
//
// A sequence tagger (gendisc.Tagger: hmm, crf) answers on the same
// endpoints with the tags of sentences, sent as strings, arrays of tokens
// or BYTES tensors (tag.go).
//
// Server.GRPCServer and Server.ServeGRPC serve the protocol's gRPC
// service (inference.GRPCInferenceService) beside them, answering as the
// REST endpoints do, with the same limits, token and metrics (grpc.go).
//
// The v2 paths also answer under /v2/models/{name}/versions/{version},
// where the version is the model file's checksum. Bad requests are
// answered with a 4xx status and a JSON object {"error": "..."}; a panic
// in a handler is recovered, logged, counted and answered with 500.
//
// No request can take more memory than its limits allow: a body is read
// and decoded in one pass straight into the rows, each limit checked
// before anything of the size it bounds is allocated, in at most
// 8·Options.MaxBodyBytes; at most Options.MaxInflight such requests are
// answered at once (503 with Retry-After beyond), so that the server
// takes at most 8·MaxInflight·MaxBodyBytes for them.
//
// Models are swapped atomically: a request uses the model that was served
// when it started, to its end, and a model file that does not load is
// refused (logged and counted) while the model it would have replaced
// keeps serving. A panic while a model file is loaded is recovered and
// refuses the file alike.
package server

import (
	"context"
	"crypto/subtle"
	"errors"
	"fmt"
	"log/slog"
	"maps"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gendisc/gendisc"
	"github.com/gendisc/gendisc/data"
	"github.com/gendisc/gendisc/models"
	"github.com/gendisc/gendisc/registry"
)

// Defaults of Options.
const (
	DefaultMaxBodyBytes      = 8 << 20
	DefaultMaxRows           = 100_000
	DefaultMaxSentenceTokens = 1000
	DefaultReadHeaderTimeout = 5 * time.Second
	DefaultReadTimeout       = 30 * time.Second
	DefaultWriteTimeout      = 60 * time.Second
	DefaultIdleTimeout       = 120 * time.Second
	DefaultShutdownTimeout   = 30 * time.Second
	DefaultWatchDelay        = 100 * time.Millisecond
)

// DefaultMaxInflight returns the default of Options.MaxInflight: twice
// the CPUs the process may use (GOMAXPROCS), at least 4. The answers are
// computed on the CPUs, so that more requests at once would only wait
// longer and take more memory.
func DefaultMaxInflight() int { return max(4, 2*runtime.GOMAXPROCS(0)) }

// Options configure a Server. The zero value of a limit is its default.
type Options struct {
	// Models maps a model's name to its model file.
	Models map[string]string
	// Dirs are model repositories: every file *.json in them (not
	// starting with a dot) is served under its name without ".json".
	Dirs []string

	// MaxBodyBytes is the largest request body, in bytes (8 MiB).
	MaxBodyBytes int64
	// MaxRows is the largest number of rows in a request (100,000); a
	// model of K classes takes at most MaxBodyBytes/(8(K+1)) rows, so
	// that its predictions take at most MaxBodyBytes.
	MaxRows int
	// MaxSentenceTokens is the most tokens of a sentence sent to a
	// tagger (1,000): forward–backward keeps a row of the lattice per
	// token (about 20 KB a token for a second-order HMM fitted on the
	// English Web Treebank).
	// The tokens of a request are at most MaxBodyBytes/(2(K+1)) for K
	// tags (Server.answerLimit), as the rows of a classifier of K classes.
	MaxSentenceTokens int
	// MaxInflight is the most requests with a body (predict, score,
	// infer) answered at once (DefaultMaxInflight); one more waits up
	// to a second for a place, then is answered 503 with Retry-After.
	// Each takes at most 8·MaxBodyBytes while its body is read and
	// decoded, so that together they take at most
	// 8·MaxInflight·MaxBodyBytes.
	MaxInflight int
	// Token, when not empty, is the bearer token that every request but
	// the health checks must carry (Authorization: Bearer <token>).
	Token string

	// Logger receives the log lines; nil discards them.
	Logger *slog.Logger
	// AccessLog logs one line per request.
	AccessLog bool

	// The timeouts of the http.Server of Serve (see net/http).
	ReadHeaderTimeout, ReadTimeout, WriteTimeout, IdleTimeout time.Duration
	// ShutdownTimeout bounds how long Serve waits for requests in flight
	// once its context is done (30 s).
	ShutdownTimeout time.Duration
	// WatchDelay is how long Watch waits after a change of a model file
	// before it reloads, so that a burst of changes gives one reload
	// (100 ms).
	WatchDelay time.Duration
}

// entry is a loaded model, immutable once served.
type entry struct {
	name, path string
	kind       string
	format     string // the model file's format: modelfile.Format, or another (arpa)
	version    string // the model file's checksum
	loaded     time.Time
	model      gendisc.Model
	tagger     gendisc.Tagger                  // the model as a tagger, nil for a model of rows
	density    func(d *data.Dataset) []float64 // nil without one
	first      string                          // the first column of the predictions, "" without them
	labels     []string                        // the labels of the probability columns (a tagger's tag set), nil for a regression
	meta       []byte                          // the v2 model metadata, JSON
}

// Server is the http.Handler of the prediction service. Its methods are
// safe for concurrent use.
type Server struct {
	opt     Options
	log     *slog.Logger
	mux     *http.ServeMux
	metrics *metrics

	models atomic.Pointer[map[string]*entry]
	mu     sync.Mutex // serialises reloads, guards refused
	// refused are the model files refused, with the error, so that a file
	// refused again with the same error is logged and counted once, not
	// at every reload.
	refused map[string]string
	// reloaded receives a value after a reload, for Watch to resolve the
	// paths it watches anew.
	reloaded chan struct{}
	// inflight holds a place for each request with a body being answered.
	inflight chan struct{}
}

// New returns a Server of the models of opt, loaded and checked. It
// returns an error for a model file of Options.Models that does not load,
// for two models of one name, for a repository that cannot be read, and
// when there is no model to serve. A file of a repository (Options.Dirs)
// that does not load, such as a JSON file that is not a model file, is
// skipped with a warning in the log, as it is refused at a reload.
func New(opt Options) (*Server, error) {
	if opt.MaxBodyBytes <= 0 {
		opt.MaxBodyBytes = DefaultMaxBodyBytes
	}
	if opt.MaxRows <= 0 {
		opt.MaxRows = DefaultMaxRows
	}
	if opt.MaxSentenceTokens <= 0 {
		opt.MaxSentenceTokens = DefaultMaxSentenceTokens
	}
	for _, d := range []struct {
		v   *time.Duration
		def time.Duration
	}{{&opt.ReadHeaderTimeout, DefaultReadHeaderTimeout}, {&opt.ReadTimeout, DefaultReadTimeout},
		{&opt.WriteTimeout, DefaultWriteTimeout}, {&opt.IdleTimeout, DefaultIdleTimeout},
		{&opt.ShutdownTimeout, DefaultShutdownTimeout}, {&opt.WatchDelay, DefaultWatchDelay}} {
		if *d.v <= 0 {
			*d.v = d.def
		}
	}
	s := &Server{opt: opt, log: opt.Logger, metrics: newMetrics(), refused: map[string]string{}, reloaded: make(chan struct{}, 1)}
	if s.log == nil {
		s.log = slog.New(slog.DiscardHandler)
	}
	files, err := s.files()
	if err != nil {
		return nil, err
	}
	set := make(map[string]*entry, len(files))
	var skipped []error
	for _, name := range slices.Sorted(maps.Keys(files)) {
		path := files[name]
		e, err := load(name, path)
		if err != nil {
			if s.opt.Models[name] == path {
				return nil, err
			}
			skipped = append(skipped, err)
			s.refused[path] = err.Error()
			s.log.Warn("model file skipped: it does not load", "model", name, "file", path, "error", err)
			continue
		}
		set[name] = e
		s.metrics.loaded(e)
		s.log.Info("model loaded", "model", name, "kind", e.kind, "version", e.version, "file", path)
	}
	switch {
	case len(set) > 0:
	case len(skipped) > 0:
		return nil, fmt.Errorf("no model to serve: no model file in %s loads (%d refused; the first: %w)",
			strings.Join(opt.Dirs, ", "), len(skipped), skipped[0])
	case len(opt.Dirs) > 0:
		return nil, fmt.Errorf("no model to serve: no model file *.json in %s", strings.Join(opt.Dirs, ", "))
	default:
		return nil, errors.New("no model to serve")
	}
	s.models.Store(&set)
	s.routes()
	return s, nil
}

// files returns the model files to serve by name: those of Options.Models
// and those in Options.Dirs.
func (s *Server) files() (map[string]string, error) {
	files := maps.Clone(s.opt.Models)
	if files == nil {
		files = map[string]string{}
	}
	for _, dir := range s.opt.Dirs {
		repo, err := repoFiles(dir)
		if err != nil {
			return nil, err
		}
		for _, name := range slices.Sorted(maps.Keys(repo)) {
			path := repo[name]
			if other, dup := files[name]; dup && other != path {
				return nil, fmt.Errorf("two models named %q: %s and %s", name, other, path)
			}
			files[name] = path
		}
	}
	return files, nil
}

// repoFiles returns the model files of the model repository dir by name.
func repoFiles(dir string) (map[string]string, error) {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	files := map[string]string{}
	for _, de := range ents {
		if name, ok := modelName(de.Name()); ok && !de.IsDir() {
			files[name] = filepath.Join(dir, de.Name())
		}
	}
	return files, nil
}

// modelName returns the name of the model of a file in a model
// repository, the file name without ".json", and whether the file is a
// model file there: a name ending in .json that does not start with a
// dot (gendisc writes a model file to a hidden temporary file first).
func modelName(file string) (string, bool) {
	name, ok := strings.CutSuffix(file, ".json")
	return name, ok && name != "" && !strings.HasPrefix(file, ".")
}

// load reads and checks the model file at path: its envelope and
// checksum, its parameters, and that the model predicts or scores. A
// panic while it does (a bug of a kind's decoder, which must refuse every
// file it cannot serve with an error) is recovered as a *panicError, as is
// a decoder's panic that the registry recovered (registry.PanicError).
func load(name, path string) (e *entry, err error) {
	defer func() {
		if r := recover(); r != nil {
			e, err = nil, &panicError{path: path, value: r, stack: debug.Stack()}
		}
	}()
	env, m, err := models.LoadFile(path)
	if pe, ok := errors.AsType[*registry.PanicError](err); ok {
		// The registry recovered the decoder's panic: a panic all the same.
		return nil, &panicError{path: path, value: pe.Value, stack: pe.Stack}
	}
	if err != nil {
		return nil, err
	}
	e = &entry{name: name, path: path, kind: env.Kind, format: env.Format, version: env.Checksum, loaded: time.Now(), model: m}
	e.density, _ = models.Density(m)
	if t, ok := m.(gendisc.Tagger); ok {
		// Served by tagging sentences (tag.go); its labels are the tag set.
		e.tagger, e.labels = t, m.Schema().Target.Levels
		if slices.Contains(e.labels, "") {
			return nil, fmt.Errorf("%s: a %s model with an empty tag, which the padding \"\" of v2's tensors of tags would hide: it cannot be served", path, env.Kind)
		}
		if err := checkTaggerInput(t); err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
	} else if p, err := predictNone(m); err == nil {
		e.first, e.labels = p.Columns[0], p.Labels
	} else if e.density == nil {
		return nil, fmt.Errorf("%s: a %s model neither predicts nor scores", path, env.Kind)
	}
	e.meta, err = metadata(e)
	if err != nil {
		return nil, err
	}
	return e, nil
}

// panicError is a panic recovered while a model file was loaded.
type panicError struct {
	path  string
	value any
	stack []byte
}

func (e *panicError) Error() string {
	return fmt.Sprintf("%s: loading the model file panicked: %v", e.path, e.value)
}

// predictNone returns the predictions of m for no rows, which give their
// columns, or the error of a model that does not predict (or panics on no
// rows).
func predictNone(m gendisc.Model) (p *models.Predictions, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("predicting no rows: %v", r)
		}
	}()
	return models.Predict(m, &data.Dataset{Schema: m.Schema()})
}

// Reload reloads every model file: a changed file replaces its model once
// it loads, a file that does not load is refused (logged and counted) and
// its old model keeps serving, a file new in a model repository adds a
// model and a file gone from one removes it. A file refused again with
// the same error is logged and counted once, not at every reload. When a repository cannot be read (it is
// being replaced, say), the whole reload is refused and every model keeps
// serving. It returns the errors of the files refused, joined.
func (s *Server) Reload() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	defer func() {
		select {
		case s.reloaded <- struct{}{}:
		default: // one is pending already
		}
	}()
	old := *s.models.Load()
	files, err := s.files()
	if err != nil {
		s.metrics.reloads.WithLabelValues("failure").Inc()
		s.log.Error("reload refused", "error", err)
		return err
	}
	set := make(map[string]*entry, len(files))
	paths := make(map[string]bool, len(files))
	var errs []error
	for name, path := range files {
		paths[path] = true
		e, err := load(name, path)
		if err != nil {
			errs = append(errs, err)
			if o := old[name]; o != nil {
				set[name] = o
			}
			if s.refused[path] == err.Error() {
				continue // logged and counted already
			}
			s.refused[path] = err.Error()
		} else {
			delete(s.refused, path)
		}
		var pe *panicError
		switch {
		case errors.As(err, &pe):
			s.metrics.reloads.WithLabelValues("panic").Inc()
			s.log.Error(refusedMsg("model file refused: loading it panicked", old[name]), "model", name, "file", path,
				"error", err, "stack", string(pe.stack))
		case err != nil:
			s.metrics.reloads.WithLabelValues("failure").Inc()
			s.log.Error(refusedMsg("model file refused", old[name]), "model", name, "file", path, "error", err)
		case old[name] != nil && old[name].version == e.version && old[name].path == path:
			set[name] = old[name]
		default:
			set[name] = e
			s.metrics.reloads.WithLabelValues("success").Inc()
			s.metrics.loaded(e)
			s.log.Info("model loaded", "model", name, "kind", e.kind, "version", e.version, "file", path)
		}
	}
	for path := range s.refused {
		if !paths[path] { // gone
			delete(s.refused, path)
		}
	}
	for name := range old {
		if set[name] == nil {
			s.metrics.unloaded(old[name])
			s.log.Info("model removed", "model", name)
		}
	}
	s.models.Store(&set)
	return errors.Join(errs...)
}

// refusedMsg returns the log message msg of a model file refused, saying
// that the old model keeps serving when there is one.
func refusedMsg(msg string, old *entry) string {
	if old != nil {
		return msg + ", the old model keeps serving"
	}
	return msg
}

// lookup returns the model served under name, of the version when it is
// not empty, or the error of one not served (404).
func (s *Server) lookup(name, version string) (*entry, *statusError) {
	e := s.model(name)
	if e == nil {
		return nil, &statusError{http.StatusNotFound, fmt.Sprintf("no model named %q", name)}
	}
	if version != "" && version != e.version {
		return nil, &statusError{http.StatusNotFound, fmt.Sprintf("model %q has no version %q (it serves %s)", name, version, e.version)}
	}
	return e, nil
}

// statusError is the error of a request, answered with its HTTP status
// over REST and with the gRPC code of that status (grpcCode) over gRPC.
type statusError struct {
	status int
	msg    string
}

func (e *statusError) Error() string { return e.msg }

// model returns the model served under name, or nil.
func (s *Server) model(name string) *entry { return (*s.models.Load())[name] }

// Models returns the names of the models served, sorted.
func (s *Server) Models() []string { return slices.Sorted(maps.Keys(*s.models.Load())) }

// ServeHTTP answers a request.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) { s.mux.ServeHTTP(w, r) }

// authorized reports whether the value of an Authorization header (or
// of the gRPC metadata authorization) carries the bearer token, compared
// in constant time. The scheme's name is case-insensitive (RFC 7235):
// bearer and BEARER are Bearer.
func (s *Server) authorized(authorization string) bool {
	if s.opt.Token == "" {
		return true
	}
	scheme, got, ok := strings.Cut(authorization, " ")
	got = strings.TrimLeft(got, " ")
	return ok && strings.EqualFold(scheme, "Bearer") && subtle.ConstantTimeCompare([]byte(got), []byte(s.opt.Token)) == 1
}

// HTTPServer returns an http.Server of s with the timeouts of the options.
func (s *Server) HTTPServer() *http.Server {
	return &http.Server{
		Handler:           s,
		ReadHeaderTimeout: s.opt.ReadHeaderTimeout,
		ReadTimeout:       s.opt.ReadTimeout,
		WriteTimeout:      s.opt.WriteTimeout,
		IdleTimeout:       s.opt.IdleTimeout,
		ErrorLog:          slog.NewLogLogger(s.log.Handler(), slog.LevelWarn),
	}
}

// Serve serves s on the listener ln (with TLS when certFile and keyFile
// are given) until ctx is done, then shuts down gracefully: it stops
// accepting connections and waits, at most Options.ShutdownTimeout, for
// the requests in flight to finish. It returns nil after a clean
// shutdown.
func (s *Server) Serve(ctx context.Context, ln net.Listener, certFile, keyFile string) error {
	hs := s.HTTPServer()
	done := make(chan error, 1)
	go func() {
		if certFile != "" || keyFile != "" {
			done <- hs.ServeTLS(ln, certFile, keyFile)
		} else {
			done <- hs.Serve(ln)
		}
	}()
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
	}
	s.log.Info("shutting down: draining requests in flight", "timeout", s.opt.ShutdownTimeout)
	sctx, cancel := context.WithTimeout(context.Background(), s.opt.ShutdownTimeout)
	defer cancel()
	err := hs.Shutdown(sctx)
	if e := <-done; !errors.Is(e, http.ErrServerClosed) && err == nil {
		err = e
	}
	return err
}
