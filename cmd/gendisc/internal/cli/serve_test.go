package cli

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gendisc/gendisc/datasets"
	"github.com/gendisc/gendisc/server"
)

// TestServeMatchesPredict checks that the row endpoints of the server
// answer the rows of bundled data sets with the bytes that gendisc predict
// and gendisc score write, for a model of every sort.
func TestServeMatchesPredict(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct {
		name, data string
		fit        []string
	}{
		{"gaussian-nb", "iris", []string{"fit", "--model", "gaussian-nb"}},
		{"qda", "iris", []string{"fit", "--model", "qda"}},
		{"nb", "adult", []string{"fit", "--model", "nb"}},
		{"multinomial-nb", "sms_spam", []string{"fit", "--model", "multinomial-nb"}},
		{"logistic", "sms_spam", []string{"fit", "--model", "logistic"}},
		{"linear", "wine", []string{"fit", "--model", "linear", "--target", "alcohol", "--ignore", "class"}},
		{"gmm", "iris", []string{"cluster", "--components", "3", "--ignore", "class", "--seed", "3"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			model := filepath.Join(dir, c.name+".json")
			mustRun(t, append(c.fit, "--data", c.data, "--out", model, "--quiet")...)
			s, err := server.New(server.Options{Models: map[string]string{c.name: model}, MaxRows: 1 << 20, MaxBodyBytes: 64 << 20})
			if err != nil {
				t.Fatal(err)
			}
			rc, err := datasets.Open(c.data)
			if err != nil {
				t.Fatal(err)
			}
			text, _ := io.ReadAll(rc)
			rc.Close()
			post := func(endpoint string) (int, string) {
				r := httptest.NewRequest("POST", "/v1/models/"+c.name+"/"+endpoint, bytes.NewReader(text))
				r.Header.Set("Content-Type", "text/csv")
				r.Header.Set("Accept", "text/csv")
				w := httptest.NewRecorder()
				s.ServeHTTP(w, r)
				return w.Code, w.Body.String()
			}
			want := mustRun(t, "predict", "--model", model, "--data", c.data)
			if code, got := post("predict"); code != 200 || got != want {
				t.Errorf("predict: status %d, the answer differs from gendisc predict's (%d bytes, want %d)", code, len(got), len(want))
			}
			if r := runCLI(t, "", "score", "--model", model, "--data", c.data, "--quiet"); r.code == 0 {
				if code, got := post("score"); code != 200 || got != r.stdout {
					t.Errorf("score: status %d, the answer differs from gendisc score's", code)
				}
			}
		})
	}
}

// lockedBuffer is a bytes.Buffer safe for concurrent use.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.String()
}

// TestServeCommand runs gendisc serve on a free loopback port, asks it for
// a prediction and stops it.
func TestServeCommand(t *testing.T) {
	dir := t.TempDir()
	model := filepath.Join(dir, "iris.json")
	mustRun(t, "fit", "--data", "iris", "--out", model, "--quiet")
	var stderr lockedBuffer
	env := &Env{Stdin: strings.NewReader(""), Stdout: io.Discard, Stderr: &stderr}
	ctx, cancel := context.WithCancel(context.Background())
	exit := make(chan int, 1)
	go func() {
		exit <- Main(ctx, env, []string{"serve", "--model", model, "--addr", "127.0.0.1:0", "--access-log"})
	}()
	var url string
	for deadline := time.Now().Add(10 * time.Second); url == ""; time.Sleep(5 * time.Millisecond) {
		if m := regexp.MustCompile(`url=(http://\S+)`).FindStringSubmatch(stderr.String()); m != nil {
			url = m[1]
		}
		if time.Now().After(deadline) {
			t.Fatalf("the server did not start: %s", stderr.String())
		}
	}
	resp, err := http.Post(url+"/v1/models/iris/predict", "application/json",
		strings.NewReader(`{"instances":[{"sepallength":5.1,"sepalwidth":3.5,"petallength":1.4,"petalwidth":0.2}]}`))
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || !strings.Contains(string(b), `"prediction":"Iris-setosa"`) {
		t.Errorf("status %d: %s", resp.StatusCode, b)
	}
	cancel()
	if code := <-exit; code != 0 {
		t.Errorf("exit %d: %s", code, stderr.String())
	}
	for _, want := range []string{"model loaded", "msg=request", "status=200", "msg=stopped"} {
		if !strings.Contains(stderr.String(), want) {
			t.Errorf("the log lacks %q:\n%s", want, stderr.String())
		}
	}
	if r := runCLI(t, "", "serve", "--addr", "127.0.0.1:0"); r.code != exitUsage {
		t.Errorf("serve without models: exit %d", r.code)
	}
}

// TestServeQuietWarns runs gendisc serve --quiet on every interface
// without a token: it warns once that anyone can use the models, and
// logs nothing else, no INFO line, while it answers a request.
func TestServeQuietWarns(t *testing.T) {
	dir := t.TempDir()
	model := filepath.Join(dir, "iris.json")
	mustRun(t, "fit", "--data", "iris", "--out", model, "--quiet")
	var stderr lockedBuffer
	env := &Env{Stdin: strings.NewReader(""), Stdout: io.Discard, Stderr: &stderr}
	ctx, cancel := context.WithCancel(context.Background())
	exit := make(chan int, 1)
	go func() {
		exit <- Main(ctx, env, []string{"serve", "--model", model, "--addr", ":0", "--quiet", "--access-log"})
	}()
	var port string
	for deadline := time.Now().Add(10 * time.Second); port == ""; time.Sleep(5 * time.Millisecond) {
		if m := regexp.MustCompile(`addr=\S*:(\d+)`).FindStringSubmatch(stderr.String()); m != nil {
			port = m[1]
		}
		if time.Now().After(deadline) {
			t.Fatalf("no warning: %s", stderr.String())
		}
	}
	resp, err := http.Get("http://127.0.0.1:" + port + "/v2/health/ready")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	cancel()
	if code := <-exit; code != 0 {
		t.Errorf("exit %d: %s", code, stderr.String())
	}
	lines := strings.Split(strings.TrimSpace(stderr.String()), "\n")
	if len(lines) != 1 || !strings.Contains(lines[0], "level=WARN") || !strings.Contains(lines[0], "without --token-file") {
		t.Errorf("--quiet on every interface: want one warning, got\n%s", stderr.String())
	}
}
