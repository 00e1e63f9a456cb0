package server

import (
	"bytes"
	"net/http/httptest"
	"strings"
	"testing"
)

// TestMetricsNegotiation: /metrics answers OpenMetrics text to a client
// that asks for it (as Prometheus does when it scrapes) and the text
// format 0.0.4 to one that does not.
func TestMetricsNegotiation(t *testing.T) {
	s := newServer(t, testOptions())
	for _, tc := range []struct{ accept, contentType, end string }{
		{"application/openmetrics-text;version=1.0.0,text/plain;version=0.0.4;q=0.5", "application/openmetrics-text", "# EOF\n"},
		{"", "text/plain; version=0.0.4", ""},
	} {
		r := httptest.NewRequest("GET", "/metrics", nil)
		if tc.accept != "" {
			r.Header.Set("Accept", tc.accept)
		}
		w := httptest.NewRecorder()
		s.ServeHTTP(w, r)
		ct, body := w.Header().Get("Content-Type"), w.Body.Bytes()
		if w.Code != 200 || !strings.HasPrefix(ct, tc.contentType) {
			t.Errorf("Accept %q: %d, Content-Type %q", tc.accept, w.Code, ct)
		}
		if tc.end != "" && !bytes.HasSuffix(body, []byte(tc.end)) {
			t.Errorf("Accept %q: the body does not end with %q", tc.accept, tc.end)
		}
		if !bytes.Contains(body, []byte("gendisc_model_info")) {
			t.Errorf("Accept %q: no gendisc_model_info in %.200s", tc.accept, body)
		}
	}
}
