package server

import (
	"bytes"
	"context"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gendisc/gendisc/data"
	"github.com/gendisc/gendisc/modelfile"
	"github.com/gendisc/gendisc/registry"
)

// watch starts s.Watch until the end of the test, and waits for the
// watching to have started (its first reload).
func watch(t *testing.T, s *Server) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- s.Watch(ctx) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Error(err)
		}
	})
	time.Sleep(50 * time.Millisecond) // the watch started
}

// symlink makes the symbolic link link to target, as ln -s does.
func symlink(t *testing.T, target, link string) {
	t.Helper()
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
}

// configMap writes the files of a Kubernetes ConfigMap volume into dir as
// the kubelet does (its atomic writer): the files in a new timestamped
// directory, a link ..data_tmp to it renamed over ..data, and the old
// directory removed. The first call also makes the links of the file
// names to ..data/name.
func configMap(t *testing.T, dir, stamp string, files map[string][]byte) {
	t.Helper()
	ts := filepath.Join(dir, "..2026_11_28_"+stamp)
	if err := os.Mkdir(ts, 0o755); err != nil {
		t.Fatal(err)
	}
	for name, b := range files {
		if err := os.WriteFile(filepath.Join(ts, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	old, _ := os.Readlink(filepath.Join(dir, "..data"))
	symlink(t, filepath.Base(ts), filepath.Join(dir, "..data_tmp"))
	if err := os.Rename(filepath.Join(dir, "..data_tmp"), filepath.Join(dir, "..data")); err != nil {
		t.Fatal(err)
	}
	for name := range files {
		if _, err := os.Lstat(filepath.Join(dir, name)); os.IsNotExist(err) {
			symlink(t, filepath.Join("..data", name), filepath.Join(dir, name))
		}
	}
	if old != "" {
		if err := os.RemoveAll(filepath.Join(dir, old)); err != nil {
			t.Fatal(err)
		}
	}
}

// waitVersion waits for the model name to be served from the model file
// b (its checksum).
func waitVersion(t *testing.T, s *Server, name string, b []byte) {
	t.Helper()
	waitFor(t, func() bool { e := s.model(name); return e != nil && strings.Contains(string(b), e.version) })
}

// TestWatchConfigMap checks that the swap of a ConfigMap volume's ..data
// link reloads the model, whether the file is given (--model) or its
// directory (--models), and again at the next swap (the new timestamped
// directory is followed).
func TestWatchConfigMap(t *testing.T) {
	a, _ := os.ReadFile("testdata/iris.json")
	b, _ := os.ReadFile("testdata/iris-shared.json")
	for _, repo := range []bool{false, true} {
		t.Run(map[bool]string{false: "model", true: "models"}[repo], func(t *testing.T) {
			dir := t.TempDir()
			configMap(t, dir, "1", map[string][]byte{"iris.json": a})
			opt := Options{Models: map[string]string{"iris": filepath.Join(dir, "iris.json")}, WatchDelay: time.Millisecond}
			if repo {
				opt = Options{Dirs: []string{dir}, WatchDelay: time.Millisecond}
			}
			s := newServer(t, opt)
			watch(t, s)
			waitVersion(t, s, "iris", a)
			configMap(t, dir, "2", map[string][]byte{"iris.json": b})
			waitVersion(t, s, "iris", b)
			configMap(t, dir, "3", map[string][]byte{"iris.json": a})
			waitVersion(t, s, "iris", a)
			if got := strings.Join(s.Models(), ","); got != "iris" {
				t.Errorf("serving %s", got)
			}
		})
	}
}

// TestWatchLinkedFile checks that a model file that is a link to a file in
// another directory is reloaded when that file is saved over, and when
// the link is pointed elsewhere.
func TestWatchLinkedFile(t *testing.T) {
	a, _ := os.ReadFile("testdata/iris.json")
	b, _ := os.ReadFile("testdata/iris-shared.json")
	serveDir, store := t.TempDir(), t.TempDir()
	writeAtomic(t, filepath.Join(store, "a.json"), a)
	writeAtomic(t, filepath.Join(store, "b.json"), b)
	link := filepath.Join(serveDir, "m.json")
	symlink(t, filepath.Join(store, "a.json"), link)
	s := newServer(t, Options{Models: map[string]string{"m": link}, WatchDelay: time.Millisecond})
	watch(t, s)
	writeAtomic(t, filepath.Join(store, "a.json"), b) // the target saved over
	waitVersion(t, s, "m", b)
	writeAtomic(t, filepath.Join(store, "b.json"), a)
	os.Remove(link) // the link pointed elsewhere, then the new target saved over
	symlink(t, filepath.Join(store, "b.json"), link)
	waitVersion(t, s, "m", a)
	writeAtomic(t, filepath.Join(store, "b.json"), b)
	waitVersion(t, s, "m", b)
}

// TestWatchRepositoryReplaced checks that a model repository renamed away
// and made anew is watched again: the models of the new directory are
// served, and a file added to it later too.
func TestWatchRepositoryReplaced(t *testing.T) {
	a, _ := os.ReadFile("testdata/iris.json")
	b, _ := os.ReadFile("testdata/iris-shared.json")
	parent := t.TempDir()
	dir := filepath.Join(parent, "models")
	os.Mkdir(dir, 0o755)
	writeAtomic(t, filepath.Join(dir, "a.json"), a)
	s := newServer(t, Options{Dirs: []string{dir}, WatchDelay: time.Millisecond})
	watch(t, s)
	if err := os.Rename(dir, filepath.Join(parent, "models.old")); err != nil {
		t.Fatal(err)
	}
	os.Mkdir(dir, 0o755)
	writeAtomic(t, filepath.Join(dir, "b.json"), b)
	waitFor(t, func() bool { return strings.Join(s.Models(), ",") == "b" })
	time.Sleep(20 * time.Millisecond)
	writeAtomic(t, filepath.Join(dir, "c.json"), a)
	waitFor(t, func() bool { return strings.Join(s.Models(), ",") == "b,c" })
	// A file added to the old directory is not served.
	writeAtomic(t, filepath.Join(parent, "models.old", "d.json"), a)
	time.Sleep(50 * time.Millisecond)
	if got := strings.Join(s.Models(), ","); got != "b,c" {
		t.Errorf("serving %s, want b,c", got)
	}
}

// TestStrayFileInRepository checks that a file of a model repository that
// is not a model file is skipped with a warning at the start, served
// around, and refused once (not at every reload) until its error changes;
// and
// that a model file given by name that does not load, or a repository
// without a model that loads, stops the start.
func TestStrayFileInRepository(t *testing.T) {
	dir := t.TempDir()
	iris, _ := os.ReadFile("testdata/iris.json")
	writeAtomic(t, filepath.Join(dir, "iris.json"), iris)
	stray := filepath.Join(dir, "config.json")
	writeAtomic(t, stray, []byte(`{"port": 8080}`))
	var log bytes.Buffer
	s, err := New(Options{Dirs: []string{dir}, Logger: slog.New(slog.NewTextHandler(&log, nil))})
	if err != nil {
		t.Fatalf("a stray file stops the start: %v", err)
	}
	if got := strings.Join(s.Models(), ","); got != "iris" {
		t.Errorf("serving %s, want iris", got)
	}
	if n := strings.Count(log.String(), "level=WARN msg=\"model file skipped: it does not load\" model=config file="+stray); n != 1 {
		t.Errorf("%d warnings about %s in the log:\n%s", n, stray, log.String())
	}
	failures := func() string {
		_, m := do(t, s, "GET", "/metrics", "", nil)
		return grep(m, `gendisc_model_reloads_total{result="failure"}`)
	}
	for range 2 {
		if err := s.Reload(); err == nil || !strings.Contains(err.Error(), stray) {
			t.Errorf("Reload: %v, want the refusal of %s", err, stray)
		}
	}
	writeAtomic(t, stray, []byte(`{"port": 8081}`)) // the same refusal
	s.Reload()
	if got := failures(); !strings.HasSuffix(got, " 0") {
		t.Errorf("the same refusal counted again: %s", got)
	}
	writeAtomic(t, stray, []byte(`{"format": "gendisc-model"`)) // another
	s.Reload()
	s.Reload()
	if got := failures(); !strings.HasSuffix(got, " 1") {
		t.Errorf("another refusal of the stray file: %s, want 1", got)
	}
	if strings.Count(log.String(), "level=ERROR msg=\"model file refused\" model=config") != 1 {
		t.Errorf("the other refusal is not logged once:\n%s", log.String())
	}
	// A file named with --model that does not load stops the start.
	if _, err := New(Options{Models: map[string]string{"config": stray}, Dirs: []string{dir}}); err == nil || !strings.HasPrefix(err.Error(), stray+": ") {
		t.Errorf("a bad --model file: %v", err)
	}
	// A repository with no model that loads, or none at all, too.
	only := t.TempDir()
	writeAtomic(t, filepath.Join(only, "config.json"), []byte(`{"port": 8080}`))
	if _, err := New(Options{Dirs: []string{only}}); err == nil || !strings.HasPrefix(err.Error(), "no model to serve: no model file in "+only+" loads (1 refused; the first: "+filepath.Join(only, "config.json")+": ") {
		t.Errorf("a repository of no model: %v", err)
	}
	empty := t.TempDir()
	if _, err := New(Options{Dirs: []string{empty}}); err == nil || err.Error() != "no model to serve: no model file *.json in "+empty {
		t.Errorf("an empty repository: %v", err)
	}
}

// panicKind is the kind of model file whose decoder panics, as a decoder
// with a bug would.
const panicKind = "server-test-panic"

// panicModel is a model of panicKind, to write its model file.
type panicModel struct{ schema *data.Schema }

func (m panicModel) Kind() string                 { return panicKind }
func (m panicModel) Schema() *data.Schema         { return m.schema }
func (m panicModel) MarshalJSON() ([]byte, error) { return []byte(`{}`), nil }

func init() {
	registry.Register(registry.Kind{Name: panicKind}, func(*data.Schema, []byte) (panicModel, error) {
		panic("a decoder with a bug")
	})
}

// TestReloadPanic checks that a model file whose loading panics is
// refused at a reload, logged with the stack and counted, while the old
// model keeps serving; and skipped at the start in a repository.
func TestReloadPanic(t *testing.T) {
	env, err := modelfile.Load("testdata/iris.json")
	if err != nil {
		t.Fatal(err)
	}
	var bad bytes.Buffer
	if err := modelfile.Write(&bad, panicModel{env.Schema}); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "m.json")
	iris, _ := os.ReadFile("testdata/iris.json")
	writeAtomic(t, path, iris)
	var log bytes.Buffer
	s := newServer(t, Options{Models: map[string]string{"m": path}, Logger: slog.New(slog.NewTextHandler(&log, nil))})
	writeAtomic(t, path, bad.Bytes())
	if err := s.Reload(); err == nil || err.Error() != path+": loading the model file panicked: a decoder with a bug" {
		t.Errorf("Reload: %v", err)
	}
	if e := s.model("m"); e == nil || e.version != env.Checksum {
		t.Error("the old model is not served")
	}
	if code, _ := do(t, s, "POST", "/v1/models/m/predict", "application/json", []byte(`{"instances":[[5.1,3.5,1.4,0.2]]}`)); code != 200 {
		t.Errorf("the old model answers %d", code)
	}
	_, m := do(t, s, "GET", "/metrics", "", nil)
	if !strings.Contains(string(m), `gendisc_model_reloads_total{result="panic"} 1`) {
		t.Errorf("the panic is not counted: %s", grep(m, "reloads"))
	}
	if !strings.Contains(log.String(), "msg=\"model file refused: loading it panicked, the old model keeps serving\"") ||
		!strings.Contains(log.String(), "stack=\"goroutine ") {
		t.Errorf("the panic is not logged with its stack:\n%s", log.String())
	}
	// At the start: a file of a repository is skipped, a file named
	// with --model stops the start.
	writeAtomic(t, filepath.Join(dir, "iris.json"), iris)
	if s, err := New(Options{Dirs: []string{dir}}); err != nil || strings.Join(s.Models(), ",") != "iris" {
		t.Errorf("a repository with a file that panics: %v", err)
	}
	if _, err := New(Options{Models: map[string]string{"m": path}}); err == nil || !strings.Contains(err.Error(), "panicked") {
		t.Errorf("--model of a file that panics: %v", err)
	}
}

// TestResolve checks the links that resolve meets and what a path
// resolves to: relative and absolute links, links to directories, "..",
// a missing part and a loop of links.
func TestResolve(t *testing.T) {
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	j := func(parts ...string) string { return filepath.Join(append([]string{dir}, parts...)...) }
	os.MkdirAll(j("ts1", "sub"), 0o755)
	os.WriteFile(j("ts1", "m.json"), nil, 0o644)
	symlink(t, "ts1", j("..data"))
	symlink(t, "..data/m.json", j("m.json"))
	symlink(t, j("m.json"), j("abs.json"))              // absolute, to a link
	symlink(t, "../..data/m.json", j("ts1", "up.json")) // .. from a linked directory
	symlink(t, "loop2", j("loop1"))
	symlink(t, "loop1", j("loop2"))
	for _, c := range []struct {
		path  string
		links []string
		real  string
	}{
		{j("ts1", "m.json"), nil, j("ts1", "m.json")},
		{j("m.json"), []string{j("m.json"), j("..data")}, j("ts1", "m.json")},
		{j("abs.json"), []string{j("abs.json"), j("m.json"), j("..data")}, j("ts1", "m.json")},
		{j("..data", "sub", "..", "up.json"), []string{j("..data"), j("ts1", "up.json"), j("..data")}, j("ts1", "m.json")},
		{j("..data", "none", "m.json"), []string{j("..data")}, j("ts1", "none")},
		{j("loop1"), nil, ""}, // links up to the limit, then stops
	} {
		links, real := resolve(c.path)
		if c.real == "" {
			if len(links) != maxLinks {
				t.Errorf("%s: %d links, want the limit %d", c.path, len(links), maxLinks)
			}
			continue
		}
		if !slices.Equal(links, c.links) || real != c.real {
			t.Errorf("%s: %v %s, want %v %s", c.path, links, real, c.links, c.real)
		}
	}
}
