package cli

import (
	"context"
	"flag"
	"fmt"
	"log/slog"
	"net"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/gendisc/gendisc/modelflags"
	"github.com/gendisc/gendisc/server"
)

var cmdServe = &Command{
	Name:      "serve",
	UsageLine: "serve --model M.json [--model N.json ...] [--name NAME ...] [--models DIR] [--addr HOST:PORT] [--grpc-addr HOST:PORT]",
	Short:     "serve models over HTTP (and gRPC): Open Inference Protocol v2, rows as JSON or CSV, metrics",
	Long: `
Serve answers prediction requests over HTTP for the models given with
--model (repeat it), each under its file name without .json or the --name
given in the same place, and for every model file *.json in the model
repositories --models (repeat it). The endpoints:

	GET  /v2/health/live, /v2/health/ready
	GET  /v2                          server metadata
	GET  /v2/models/NAME              inputs, outputs, classes, version (the checksum)
	GET  /v2/models/NAME/ready
	POST /v2/models/NAME/infer        Open Inference Protocol (KServe v2) tensors
	POST /v1/models/NAME/predict      rows as {"instances": [...]} or text/csv;
	                                  the numbers of gendisc predict (CSV with Accept: text/csv)
	POST /v1/models/NAME/score        the log density of rows, as gendisc score
	GET  /v1/models                   the models served
	GET  /metrics                     Prometheus metrics

With --grpc-addr, serve also answers the Open Inference Protocol's gRPC
service (inference.GRPCInferenceService: ServerLive, ServerReady,
ModelReady, ServerMetadata, ModelMetadata, ModelInfer) on that second
address (a port alone, --grpc-addr 9000, is 127.0.0.1:9000), as the v2
REST endpoints answer: the same models, metadata, predictions, limits,
token (metadata authorization: Bearer <token>), TLS, metrics (endpoints
grpc_*) and access log. Values come in the contents field of their
datatype or in raw_input_contents (little-endian; BYTES as a 4-byte
length and its bytes); an empty BYTES element of a categorical column
is a missing cell, and FP16 is refused. Errors have the gRPC code of
REST's status: NotFound (404), InvalidArgument (400), ResourceExhausted
(413, and a message over --max-body), Unavailable (503),
Unauthenticated (401).

A bad request is answered with a 4xx status and {"error": "..."}. The model
files are watched: a file saved over (gendisc writes by atomic rename) is
loaded, checked and swapped in while requests in flight finish on the old
model; a file that does not load is refused with a log line (once for
one error) and the old model keeps serving; a file added to or removed
from --models adds or removes its model. Symbolic links are followed: a
link pointed elsewhere, or a file saved over at its end, reloads (the
..data swap of a Kubernetes ConfigMap or Secret volume), and a --models
directory renamed away and made anew is watched again. SIGHUP reloads
every file, the backstop where the file system sends no events (some
network file systems). SIGTERM and SIGINT stop the server once the
requests in flight are answered (--shutdown-timeout).

At the start, a --model file that does not load stops serve; a file of a
--models directory that does not load (a config.json that is not a model
file, say) is skipped with a warning, and serve stops only when no model
at all loads.

Serve listens on loopback unless --addr says otherwise; it warns at start
when it (or --grpc-addr) listens on another address without --token-file. With
--token-file, every request but the health checks needs the header
Authorization: Bearer <the file's first line> (the scheme in any case);
with --tls-cert and --tls-key it serves HTTPS. Logs go to standard error
(--log-json for JSON lines, --access-log for a line per request, --quiet
for warnings and errors only).

Limits. What one request can cost is bounded by --max-body (default 8 MiB):
reading and decoding a body takes at most 8 x max-body of memory (64 MiB),
its rows at most 4 x (a cell is 8 bytes and takes 2 bytes of JSON or
more), its predictions at most 4 x more, and an answer past 1 MiB is sent
as it is written. The server as a whole answers at most --max-inflight
requests with a body at once, so that they take at most
8 x max-inflight x max-body (512 MiB with the defaults on 4 CPUs). When a
limit is reached:

	--max-body BYTES     a larger body: 413, before it is read (no 100 Continue)
	--max-rows N         more rows (default 100,000; a model of K classes takes
	                     at most max-body/(2(K+1)) rows): 413, decoding stops there
	--max-tokens N       a sentence of more tokens, sent to a tagger (hmm, crf;
	                     default 1,000: about 20 KB of memory a token for the
	                     marginals of a second-order HMM): 413; a tagger of K tags
	                     takes at most max-body/(2(K+1)) tokens a request
	--max-inflight N     more requests at once (default twice the CPUs, at least 4):
	                     the request waits up to 1 s, then 503 with Retry-After: 1
	(fixed)              a CSV body of more than max-body/2 cells: 413; a compressed
	                     body: 415; JSON nested deeper than 32, a key twice in an
	                     object, invalid UTF-8, more than 1,000 keys in parameters,
	                     a tensor shape of more values than the body holds: 400

Raise --max-body for larger batches (and with it the memory above), or
lower --max-inflight on a small machine. Health checks, metadata and
/metrics are never refused for load.

Example:

	gendisc fit --data iris --model gaussian-nb --out iris.json
	gendisc serve --model iris.json --addr 127.0.0.1:8080`,
	Flags: func(fs *flag.FlagSet, args []string) Runner {
		o := &serveOptions{opt: server.Options{
			MaxBodyBytes: server.DefaultMaxBodyBytes, MaxRows: server.DefaultMaxRows, MaxInflight: server.DefaultMaxInflight(),
			MaxSentenceTokens: server.DefaultMaxSentenceTokens,
			ReadHeaderTimeout: server.DefaultReadHeaderTimeout, ReadTimeout: server.DefaultReadTimeout,
			WriteTimeout: server.DefaultWriteTimeout, IdleTimeout: server.DefaultIdleTimeout,
			ShutdownTimeout: server.DefaultShutdownTimeout,
		}}
		fs.Var(&o.models, "model", "serve this model `file` (repeat the flag for more)")
		fs.Var(&o.names, "name", "serve the --model in the same place under this `name` (default: the file name without .json)")
		fs.Var(&o.dirs, "models", "serve every model file *.json in this `directory`, watching it for files added and removed")
		fs.StringVar(&o.addr, "addr", "127.0.0.1:8080", "listen on this `host:port`")
		fs.StringVar(&o.grpcAddr, "grpc-addr", "", "also serve the Open Inference Protocol's gRPC service on this `host:port` (a port alone: on loopback)")
		fs.Var(modelflags.AtLeast(&o.opt.MaxBodyBytes, 1), "max-body", "the largest request body, in `bytes`")
		fs.Var(modelflags.AtLeast(&o.opt.MaxRows, 1), "max-rows", "the most `rows` in one request")
		fs.Var(modelflags.AtLeast(&o.opt.MaxSentenceTokens, 1), "max-tokens", "the most `tokens` in a sentence sent to a tagger")
		fs.Var(modelflags.AtLeast(&o.opt.MaxInflight, 1), "max-inflight", "answer at most `n` requests with a body at once; more get 503 with Retry-After")
		fs.Var((*positiveDuration)(&o.opt.ReadHeaderTimeout), "read-header-timeout", "the `duration` to read a request's headers")
		fs.Var((*positiveDuration)(&o.opt.ReadTimeout), "read-timeout", "the `duration` to read a whole request")
		fs.Var((*positiveDuration)(&o.opt.WriteTimeout), "write-timeout", "the `duration` from the end of a request's headers to the end of its answer")
		fs.Var((*positiveDuration)(&o.opt.IdleTimeout), "idle-timeout", "the `duration` a kept-alive connection may wait for its next request")
		fs.Var((*positiveDuration)(&o.opt.ShutdownTimeout), "shutdown-timeout", "the `duration` to answer the requests in flight when stopping")
		fs.StringVar(&o.tokenFile, "token-file", "", "require the bearer token on the first line of this `file`")
		fs.StringVar(&o.cert, "tls-cert", "", "serve HTTPS with this certificate `file` (PEM), with --tls-key")
		fs.StringVar(&o.key, "tls-key", "", "the private key `file` (PEM) of --tls-cert")
		fs.BoolVar(&o.opt.AccessLog, "access-log", false, "log a line per request")
		fs.BoolVar(&o.logJSON, "log-json", false, "write the logs as JSON lines")
		return func(ctx context.Context, env *Env) error { return o.run(ctx, env) }
	},
}

type serveOptions struct {
	models, names, dirs  modelflags.List
	addr, grpcAddr       string
	tokenFile, cert, key string
	logJSON              bool
	opt                  server.Options
}

func (o *serveOptions) run(ctx context.Context, env *Env) error {
	if len(o.models) == 0 && len(o.dirs) == 0 {
		return usagef("give the models to serve: --model or --models")
	}
	if len(o.names) > len(o.models) {
		return usagef("%d --name for %d --model", len(o.names), len(o.models))
	}
	if (o.cert == "") != (o.key == "") {
		return usagef("--tls-cert and --tls-key go together")
	}
	o.opt.Models = map[string]string{}
	for i, path := range o.models {
		name := strings.TrimSuffix(filepath.Base(path), ".json")
		if i < len(o.names) {
			name = o.names[i]
		}
		if _, dup := o.opt.Models[name]; dup {
			return usagef("two models named %q: give --name", name)
		}
		o.opt.Models[name] = path
	}
	o.opt.Dirs = o.dirs
	if o.tokenFile != "" {
		b, err := os.ReadFile(o.tokenFile)
		if err != nil {
			return err
		}
		token, _, _ := strings.Cut(string(b), "\n")
		if o.opt.Token = strings.TrimSpace(token); o.opt.Token == "" {
			return fmt.Errorf("%s: the token file is empty", o.tokenFile)
		}
	}
	logOpt := &slog.HandlerOptions{}
	if env.Quiet {
		logOpt.Level = slog.LevelWarn // warnings and errors only
	}
	var h slog.Handler = slog.NewTextHandler(env.Stderr, logOpt)
	if o.logJSON {
		h = slog.NewJSONHandler(env.Stderr, logOpt)
	}
	o.opt.Logger = slog.New(h)
	// SIGHUP is caught from before the models load: one sent during the
	// start reloads once the server runs, instead of killing it.
	hup := make(chan os.Signal, 1)
	signal.Notify(hup, syscall.SIGHUP)
	defer signal.Stop(hup)
	s, err := server.New(o.opt)
	if err != nil {
		return err
	}
	ln, err := o.listen(o.addr)
	if err != nil {
		return err
	}
	var gln net.Listener
	if o.grpcAddr != "" {
		addr := o.grpcAddr
		if !strings.Contains(addr, ":") { // a port alone
			addr = net.JoinHostPort("127.0.0.1", addr)
		}
		if gln, err = o.listen(addr); err != nil {
			ln.Close()
			return fmt.Errorf("--grpc-addr: %w", err)
		}
	}
	ctx, stop := signal.NotifyContext(ctx, syscall.SIGINT, syscall.SIGTERM)
	defer stop()
	go func() {
		for {
			select {
			case <-ctx.Done():
				return
			case <-hup:
				o.opt.Logger.Info("SIGHUP: reloading the model files")
				s.Reload() // logs what it refuses
			}
		}
	}()
	watched := make(chan struct{})
	defer func() { stop(); <-watched }()
	go func() {
		defer close(watched)
		if err := s.Watch(ctx); err != nil {
			o.opt.Logger.Warn("model files not watched: reload with SIGHUP", "error", err)
		}
	}()
	scheme := "http"
	if o.cert != "" {
		scheme = "https"
	}
	o.opt.Logger.Info("serving", "url", scheme+"://"+ln.Addr().String(), "models", s.Models())
	start := time.Now()
	// The two servers stop together: at a signal, or when one of them
	// fails.
	both, cancel := context.WithCancel(ctx)
	defer cancel()
	grpcDone := make(chan error, 1)
	if gln != nil {
		o.opt.Logger.Info("serving gRPC", "addr", gln.Addr().String(), "tls", o.cert != "")
		go func() {
			defer cancel()
			grpcDone <- s.ServeGRPC(both, gln, o.cert, o.key)
		}()
	} else {
		grpcDone <- nil
	}
	err = s.Serve(both, ln, o.cert, o.key)
	cancel()
	if gerr := <-grpcDone; err == nil && gerr != nil {
		err = fmt.Errorf("gRPC: %w", gerr)
	}
	o.opt.Logger.Info("stopped", "uptime", time.Since(start).Round(time.Second))
	return err
}

// listen listens on addr, warning when it is not a loopback address and
// no token is required.
func (o *serveOptions) listen(addr string) (net.Listener, error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, err
	}
	if a, ok := ln.Addr().(*net.TCPAddr); ok && !a.IP.IsLoopback() && o.opt.Token == "" {
		o.opt.Logger.Warn("listening on a non-loopback address without --token-file: anyone who reaches it can use the models", "addr", ln.Addr().String())
	}
	return ln, nil
}
