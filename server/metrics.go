package server

import (
	"net/http"
	"strconv"
	"strings"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// metrics are the Prometheus metrics of a Server, in a registry of its
// own (so that two Servers in one process do not clash), with the Go
// runtime's and the process's.
type metrics struct {
	reg       *prometheus.Registry
	requests  *prometheus.CounterVec   // model, endpoint, code
	latency   *prometheus.HistogramVec // endpoint
	rows      *prometheus.HistogramVec // endpoint
	info      *prometheus.GaugeVec     // model, kind, version
	loadTime  *prometheus.GaugeVec     // model
	reloads   *prometheus.CounterVec   // result
	panics    prometheus.Counter
	inflight  prometheus.Gauge
	unseenTot *prometheus.CounterVec // model
}

func newMetrics() *metrics {
	m := &metrics{
		reg: prometheus.NewRegistry(),
		requests: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "gendisc_requests_total", Help: "Requests answered, by model, endpoint and HTTP status code (for a gRPC call, endpoint grpc_*, the status REST answers for the same error).",
		}, []string{"model", "endpoint", "code"}),
		latency: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name: "gendisc_request_duration_seconds", Help: "Time to answer a request, by endpoint.",
			Buckets: prometheus.ExponentialBuckets(25e-6, 2, 18), // 25 µs to 3.3 s
		}, []string{"endpoint"}),
		rows: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name: "gendisc_request_rows", Help: "Rows per prediction request, by endpoint.",
			Buckets: prometheus.ExponentialBuckets(1, 4, 10), // 1 to 262,144
		}, []string{"endpoint"}),
		info: prometheus.NewGaugeVec(prometheus.GaugeOpts{
			Name: "gendisc_model_info", Help: "A model served: 1, with its kind and version (the model file's checksum).",
		}, []string{"model", "kind", "version"}),
		loadTime: prometheus.NewGaugeVec(prometheus.GaugeOpts{
			Name: "gendisc_model_load_timestamp_seconds", Help: "When the model served was loaded, in seconds since the Unix epoch.",
		}, []string{"model"}),
		reloads: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "gendisc_model_reloads_total", Help: "Model files loaded after the start (success), refused (failure), or refused because loading them panicked (panic).",
		}, []string{"result"}),
		panics: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "gendisc_panics_total", Help: "Panics recovered in request handlers.",
		}),
		inflight: prometheus.NewGauge(prometheus.GaugeOpts{
			Name: "gendisc_requests_in_flight", Help: "Requests with a body (predict, score, infer) being answered; at most the in-flight limit (Options.MaxInflight).",
		}),
		unseenTot: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "gendisc_unseen_categories_total", Help: "Categories not seen in training, read as missing, by model.",
		}, []string{"model"}),
	}
	m.reloads.WithLabelValues("success")
	m.reloads.WithLabelValues("failure")
	m.reloads.WithLabelValues("panic")
	m.reg.MustRegister(m.requests, m.latency, m.rows, m.info, m.loadTime, m.reloads, m.panics, m.inflight, m.unseenTot,
		collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	return m
}

// label returns s as a label value: Prometheus's client panics on one
// that is not valid UTF-8, which a model's name (its file's) may be, so
// the bytes that are not are replaced by U+FFFD.
func label(s string) string { return strings.ToValidUTF8(s, "\uFFFD") }

// loaded records that e is served.
func (m *metrics) loaded(e *entry) {
	m.info.DeletePartialMatch(prometheus.Labels{"model": label(e.name)})
	m.info.WithLabelValues(label(e.name), label(e.kind), label(e.version)).Set(1)
	m.loadTime.WithLabelValues(label(e.name)).Set(float64(e.loaded.UnixNano()) / 1e9)
}

// unloaded records that e is no longer served.
func (m *metrics) unloaded(e *entry) {
	m.info.DeletePartialMatch(prometheus.Labels{"model": label(e.name)})
	m.loadTime.DeleteLabelValues(label(e.name))
}

// observe records a request answered.
func (m *metrics) observe(model, endpoint string, code, rows int, seconds float64) {
	m.requests.WithLabelValues(label(model), endpoint, strconv.Itoa(code)).Inc()
	m.latency.WithLabelValues(endpoint).Observe(seconds)
	if rows > 0 {
		m.rows.WithLabelValues(endpoint).Observe(float64(rows))
	}
}

// handler serves the metrics in the format the request's Accept header
// asks for: OpenMetrics text (application/openmetrics-text), else
// Prometheus's text format 0.0.4.
func (m *metrics) handler() http.Handler {
	return promhttp.HandlerFor(m.reg, promhttp.HandlerOpts{EnableOpenMetrics: true})
}
