package server

import (
	"bufio"
	"bytes"
	"context"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"os"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// TestSoak serves on loopback while clients send, for a while, good
// requests and hostile ones (huge shapes, many empty rows, bodies over
// the limit, Expect: 100-continue, garbage, deep nesting, a gzip body,
// requests cut short): every good request is answered with its answer,
// every hostile one with a 4xx (or its connection closed), the heap and
// the resident memory stay within decodeFactor·MaxBodyBytes per request
// in flight (twice, for the garbage collector's headroom) above what
// they were idle, and the goroutines and open files come back to their
// idle counts. It runs 3 s, skipped with -short; for a minute:
//
//	GENDISC_SOAK=60s go test -run TestSoak -v ./server
func TestSoak(t *testing.T) {
	if testing.Short() {
		t.Skip("a soak test")
	}
	duration := 3 * time.Second
	if v := os.Getenv("GENDISC_SOAK"); v != "" {
		d, err := time.ParseDuration(v)
		if err != nil {
			t.Fatalf("GENDISC_SOAK=%q: %v", v, err)
		}
		duration = d
	}
	const maxBody = 1 << 20
	opt := testOptions()
	opt.MaxBodyBytes = maxBody
	opt.MaxRows = 10_000
	opt.MaxInflight = 8
	s := newServer(t, opt)

	// The good requests and their answers.
	_, iris := readData(t, "iris", "iris")
	_, votes := readData(t, "house_votes84", "votes")
	good := []struct{ path, ctype, body string }{
		{"/v1/models/iris/predict", "application/json", string(mustJSON(t, map[string]any{"instances": instances(iris, 0, 100)}))},
		{"/v2/models/iris/infer", "application/json", string(mustJSON(t, map[string]any{"inputs": columnTensors(iris, 0, 50)}))},
		{"/v2/models/votes/infer", "application/json", string(mustJSON(t, map[string]any{"inputs": columnTensors(votes, 0, 50)}))},
		{"/v1/models/iris/score", "application/json", `{"instances":[[5.1,3.5,1.4,0.2],[9,1,9,1]]}`},
	}
	want := make([][]byte, len(good))
	for i, g := range good {
		code, body := do(t, s, "POST", g.path, g.ctype, []byte(g.body))
		if code != 200 {
			t.Fatalf("%s: %d %s", g.path, code, body)
		}
		want[i] = body
	}
	bad := hostile(maxBody)

	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ctx, cancel := context.WithCancel(context.Background())
	served := make(chan error, 1)
	go func() { served <- s.Serve(ctx, ln, "", "") }()
	defer func() {
		cancel()
		if err := <-served; err != nil {
			t.Error(err)
		}
	}()
	if resp, err := http.Get("http://" + addr + "/v2/health/live"); err != nil {
		t.Fatal(err)
	} else {
		resp.Body.Close()
		http.DefaultClient.CloseIdleConnections()
	}

	idleGoroutines, idleFiles := settle(t, 0, 0)
	idle := memory()
	bound := idle
	bound.heap += 2 * decodeFactor * maxBody * uint64(opt.MaxInflight)
	bound.rss += 2 * decodeFactor * maxBody * uint64(opt.MaxInflight)

	var goodN, badN, failed atomic.Int64
	var peak memStats
	var mu sync.Mutex
	stop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Go(func() { // the memory, every 20 ms
		for {
			select {
			case <-stop:
				return
			case <-time.After(20 * time.Millisecond):
			}
			m := memory()
			mu.Lock()
			peak.heap, peak.rss = max(peak.heap, m.heap), max(peak.rss, m.rss)
			mu.Unlock()
		}
	})
	errorf := func(format string, args ...any) {
		if failed.Add(1) <= 10 {
			t.Errorf(format, args...)
		}
	}
	var clients []*http.Client
	for c := range 6 {
		client := &http.Client{Transport: &http.Transport{}, Timeout: 30 * time.Second}
		clients = append(clients, client)
		wg.Go(func() {
			r := rand.New(rand.NewPCG(uint64(c), 7))
			for {
				select {
				case <-stop:
					return
				default:
				}
				if c < 2 { // a good client
					i := r.IntN(len(good))
					resp, err := client.Post("http://"+addr+good[i].path, good[i].ctype, strings.NewReader(good[i].body))
					if err != nil {
						errorf("good %s: %v", good[i].path, err)
						continue
					}
					b, _ := io.ReadAll(resp.Body)
					resp.Body.Close()
					if resp.StatusCode != 200 || !bytes.Equal(b, want[i]) {
						errorf("good %s: %d %.200s", good[i].path, resp.StatusCode, b)
					}
					goodN.Add(1)
					continue
				}
				badN.Add(1)
				switch k := r.IntN(len(bad) + 4); {
				case k < len(bad):
					req, _ := http.NewRequest("POST", "http://"+addr+bad[k].path, strings.NewReader(bad[k].body))
					req.Header.Set("Content-Type", bad[k].ctype)
					resp, err := client.Do(req)
					if err != nil {
						errorf("%s: %v", bad[k].name, err)
						continue
					}
					io.Copy(io.Discard, resp.Body)
					resp.Body.Close()
					if resp.StatusCode != bad[k].status && resp.StatusCode != 503 {
						errorf("%s: %d, want %d", bad[k].name, resp.StatusCode, bad[k].status)
					}
				case k == len(bad): // over the limit, no Content-Length
					resp, err := client.Post("http://"+addr+"/v1/models/iris/predict", "application/json",
						io.MultiReader(strings.NewReader(`{"instances":[`), strings.NewReader(strings.Repeat("[1,2,3,4],", maxBody/10+10))))
					if err == nil {
						io.Copy(io.Discard, resp.Body)
						resp.Body.Close()
						if resp.StatusCode != 413 {
							errorf("a chunked body over the limit: %d", resp.StatusCode)
						}
					}
				case k == len(bad)+1: // Expect: 100-continue over the limit
					rawRequest(t, addr, "POST /v2/models/iris/infer HTTP/1.1\r\nHost: x\r\nContent-Length: 100000000\r\nExpect: 100-continue\r\n\r\n", "HTTP/1.1 413", errorf)
				case k == len(bad)+2: // garbage
					g := make([]byte, r.IntN(4096))
					for i := range g {
						g[i] = byte(r.Uint32())
					}
					resp, err := client.Post("http://"+addr+"/v2/models/iris/infer", "application/json", bytes.NewReader(g))
					if err == nil {
						io.Copy(io.Discard, resp.Body)
						resp.Body.Close()
						if resp.StatusCode != 400 {
							errorf("garbage: %d", resp.StatusCode)
						}
					}
				default: // a request cut short
					rawRequest(t, addr, "POST /v1/models/iris/predict HTTP/1.1\r\nHost: x\r\nContent-Length: 1000\r\n\r\n{\"instances\":[[1,", "", errorf)
				}
			}
		})
	}
	time.Sleep(duration)
	close(stop)
	wg.Wait()
	for _, c := range clients {
		c.CloseIdleConnections()
	}
	t.Logf("%v: %d good requests, %d hostile; idle heap %d MiB, RSS %d MiB; peak heap %d MiB, RSS %d MiB; bound %d MiB, %d MiB",
		duration, goodN.Load(), badN.Load(), idle.heap>>20, idle.rss>>20, peak.heap>>20, peak.rss>>20, bound.heap>>20, bound.rss>>20)
	if goodN.Load() == 0 || badN.Load() == 0 {
		t.Errorf("%d good requests and %d hostile ones sent", goodN.Load(), badN.Load())
	}
	if (peak.heap > bound.heap || peak.rss > bound.rss) && !raceDetector {
		t.Errorf("peak heap %d MiB, RSS %d MiB, over the bound %d MiB, %d MiB", peak.heap>>20, peak.rss>>20, bound.heap>>20, bound.rss>>20)
	}
	settle(t, idleGoroutines, idleFiles)
}

// rawRequest writes the request text on a connection of its own and, when
// status is not "", checks that the answer starts with it; it closes the
// connection.
func rawRequest(t *testing.T, addr, text, status string, errorf func(string, ...any)) {
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		errorf("dial: %v", err)
		return
	}
	defer conn.Close()
	io.WriteString(conn, text)
	if status == "" {
		return
	}
	conn.SetReadDeadline(time.Now().Add(10 * time.Second))
	line, err := bufio.NewReader(conn).ReadString('\n')
	if err != nil || !strings.HasPrefix(line, status) {
		errorf("%q: %q %v, want %s", text[:40], line, err, status)
	}
}

// memStats is the heap in use and the resident set size of the process.
type memStats struct{ heap, rss uint64 }

func memory() memStats {
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return memStats{heap: m.HeapAlloc, rss: rss()}
}

// rss returns the resident set size of the process (Linux), 0 elsewhere.
func rss() uint64 {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for line := range strings.SplitSeq(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			kb, _ := strconv.ParseUint(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
			return kb << 10
		}
	}
	return 0
}

// openFiles returns the number of open file descriptors of the process
// (Linux), -1 elsewhere.
func openFiles() int {
	ents, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		return -1
	}
	return len(ents)
}

// settle waits, at most 10 s, for the goroutines and the open files to
// come down to the counts given (any counts, when 0), and returns them.
func settle(t *testing.T, goroutines, files int) (int, int) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		time.Sleep(50 * time.Millisecond)
		g, f := runtime.NumGoroutine(), openFiles()
		if goroutines == 0 {
			return g, f
		}
		if g <= goroutines && f <= files {
			return g, f
		}
		if time.Now().After(deadline) {
			buf := make([]byte, 1<<16)
			t.Errorf("%d goroutines and %d open files, idle %d and %d:\n%s", g, f, goroutines, files, buf[:runtime.Stack(buf, true)])
			return g, f
		}
	}
}
