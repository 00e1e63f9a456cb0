// Command serveload measures gendisc serve under load on loopback: it
// starts gendisc serve on the model files of a directory and, beside it,
// a bare net/http handler that decodes the JSON body and answers a
// constant (itself, with -bare), then sends requests from a number of
// connections for a bounded time and count, and prints for each scenario
// and number of connections the requests/s, rows/s, latency percentiles
// and the server's memory, as a Markdown table.
//
//	serveload -gendisc ./gendisc -models DIR [-duration 3s] [-conns 1,32,256] [-max 2000000]
//
// The model files DIR must hold: iris.json (gaussian-nb), iris-qda.json,
// adult.json (nb), sms.json (multinomial-nb), sms-logistic.json
// (logistic), fitted on the bundled data sets of those names (bench/serve
// writes them).
package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"log"
	"math"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/gendisc/gendisc/data"
	"github.com/gendisc/gendisc/dataio"
	"github.com/gendisc/gendisc/datasets"
	"github.com/gendisc/gendisc/models"
)

func main() {
	bare := flag.String("bare", "", "serve the bare handler on this `address` (used by serveload itself)")
	gendisc := flag.String("gendisc", "gendisc", "the gendisc `binary`")
	dir := flag.String("models", "", "the `directory` of the model files")
	duration := flag.Duration("duration", 3*time.Second, "the longest time of one measurement")
	conns := flag.String("conns", "1,32,256", "the numbers of connections, comma-separated")
	maxReq := flag.Int("max", 2_000_000, "the most requests of one measurement")
	only := flag.String("only", "", "run only the scenarios whose name contains this `text`")
	flag.Parse()
	if *bare != "" {
		serveBare(*bare)
		return
	}
	if *dir == "" {
		log.Fatal("serveload: -models is required")
	}
	var nconns []int
	for f := range strings.SplitSeq(*conns, ",") {
		n, err := strconv.Atoi(f)
		if err != nil || n < 1 {
			log.Fatalf("serveload: -conns %q", *conns)
		}
		nconns = append(nconns, n)
	}

	bareAddr, gdAddr := freeAddr(), freeAddr()
	self, _ := os.Executable()
	bareCmd := start(exec.Command(self, "-bare", bareAddr))
	defer stop(bareCmd)
	gdCmd := start(exec.Command(*gendisc, "serve", "--models", *dir, "--addr", gdAddr, "--max-rows", "100000"))
	defer stop(gdCmd)
	waitUp("http://" + bareAddr + "/")
	waitUp("http://" + gdAddr + "/v2/health/ready")

	scenarios := buildScenarios(*dir, "http://"+bareAddr, "http://"+gdAddr)
	fmt.Printf("| scenario | rows/request | connections | requests/s | rows/s | p50 ms | p99 ms | p99.9 ms | errors | server RSS MiB (peak) |\n")
	fmt.Printf("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n")
	for _, sc := range scenarios {
		if *only != "" && !strings.Contains(sc.name, *only) && sc.name != "bare net/http" {
			continue
		}
		for _, c := range nconns {
			r := run(sc, c, *duration, *maxReq)
			pid := gdCmd.Process.Pid
			if sc.name == "bare net/http" {
				pid = bareCmd.Process.Pid
			}
			rss, hwm := memory(pid)
			fmt.Printf("| %s | %d | %d | %.0f | %.0f | %.3f | %.3f | %.3f | %d | %.1f (%.1f) |\n",
				sc.name, sc.rows, c, r.rps, r.rps*float64(sc.rows), r.p50, r.p99, r.p999, r.errors, rss, hwm)
		}
	}
}

// serveBare serves the bare handler: it decodes the JSON body and answers
// a constant.
func serveBare(addr string) {
	answer := []byte(`{"prediction":"a"}` + "\n")
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var v map[string]any
		if err := json.NewDecoder(r.Body).Decode(&v); err != nil {
			http.Error(w, err.Error(), 400)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		w.Write(answer)
	})
	log.Fatal(http.ListenAndServe(addr, h))
}

func freeAddr() string {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		log.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().String()
}

func start(cmd *exec.Cmd) *exec.Cmd {
	cmd.Stderr = io.Discard
	if err := cmd.Start(); err != nil {
		log.Fatal(err)
	}
	return cmd
}

// stop stops a server: SIGTERM, which gendisc serve drains on and which
// a process started with SIGINT ignored (a background job of a shell)
// still receives.
func stop(cmd *exec.Cmd) {
	cmd.Process.Signal(syscall.SIGTERM)
	cmd.Wait()
}

func waitUp(url string) {
	for range 200 {
		if resp, err := http.Get(url); err == nil {
			resp.Body.Close()
			return
		}
		time.Sleep(50 * time.Millisecond)
	}
	log.Fatalf("serveload: %s does not answer", url)
}

// memory returns the resident and the peak resident memory of the process
// pid, in MiB.
func memory(pid int) (rss, hwm float64) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return math.NaN(), math.NaN()
	}
	for l := range strings.SplitSeq(string(b), "\n") {
		f := strings.Fields(l)
		if len(f) >= 2 && (f[0] == "VmRSS:" || f[0] == "VmHWM:") {
			kb, _ := strconv.ParseFloat(f[1], 64)
			if f[0] == "VmRSS:" {
				rss = kb / 1024
			} else {
				hwm = kb / 1024
			}
		}
	}
	return rss, hwm
}

// scenario is a kind of request: the URL and the request bodies, sent in
// turn.
type scenario struct {
	name   string
	url    string
	rows   int
	bodies [][]byte
}

// buildScenarios returns the scenarios: the bare handler, then single rows
// to both APIs for each model, then batches for gaussian-nb.
func buildScenarios(dir, bare, gd string) []scenario {
	type model struct{ file, dataset, kind string }
	ms := []model{
		{"iris", "iris", "gaussian-nb"},
		{"adult", "adult", "nb"},
		{"sms", "sms_spam", "multinomial-nb"},
		{"sms-logistic", "sms_spam", "logistic"},
		{"iris-qda", "iris", "qda"},
	}
	var out []scenario
	for _, m := range ms {
		path := filepath.Join(dir, m.file+".json")
		mod, err := models.Load(path)
		if err != nil {
			log.Fatal(err)
		}
		rc, err := datasets.Open(m.dataset)
		if err != nil {
			log.Fatal(err)
		}
		d, err := dataio.ReadWithSchema(rc, m.dataset, mod.Schema(), dataio.SchemaOptions{UnseenClassMissing: true})
		rc.Close()
		if err != nil {
			log.Fatal(err)
		}
		recs := records(d)
		if m.file == "iris" {
			var v1 [][]byte
			for i := range min(len(recs), 100) {
				v1 = append(v1, mustJSON(map[string]any{"instances": recs[i : i+1]}))
			}
			out = append(out, scenario{"bare net/http", bare + "/", 1, v1})
		}
		var v1, v2 [][]byte
		for i := range min(len(recs), 100) {
			v1 = append(v1, mustJSON(map[string]any{"instances": recs[i : i+1]}))
			v2 = append(v2, mustJSON(map[string]any{"inputs": tensors(d, recs[i:i+1])}))
		}
		out = append(out,
			scenario{m.kind + " (" + m.dataset + ") v1 predict", gd + "/v1/models/" + m.file + "/predict", 1, v1},
			scenario{m.kind + " (" + m.dataset + ") v2 infer", gd + "/v2/models/" + m.file + "/infer", 1, v2})
		if m.file == "iris" {
			for _, n := range []int{100, 1000} {
				batch := make([]map[string]any, n)
				for i := range batch {
					batch[i] = recs[i%len(recs)]
				}
				out = append(out,
					scenario{m.kind + " (" + m.dataset + ") v1 predict", gd + "/v1/models/" + m.file + "/predict", n,
						[][]byte{mustJSON(map[string]any{"instances": batch})}},
					scenario{m.kind + " (" + m.dataset + ") v2 infer", gd + "/v2/models/" + m.file + "/infer", n,
						[][]byte{mustJSON(map[string]any{"inputs": tensors(d, batch)})}})
			}
		}
	}
	return out
}

// records returns the rows of d as the JSON objects of the row endpoint.
func records(d *data.Dataset) []map[string]any {
	D := len(d.Schema.Features)
	out := make([]map[string]any, d.N)
	for i := range out {
		rec := map[string]any{}
		for j, c := range d.Schema.Features {
			x := d.X[i*D+j]
			switch {
			case c.Kind == data.Text:
				rec[c.Name] = d.Text[j][i]
			case math.IsNaN(x):
				rec[c.Name] = nil
			case c.Kind == data.Categorical:
				rec[c.Name] = c.Levels[int(x)]
			default:
				rec[c.Name] = x
			}
		}
		out[i] = rec
	}
	return out
}

// tensors returns the v2 inputs of the rows, one tensor per feature.
func tensors(d *data.Dataset, rows []map[string]any) []map[string]any {
	var out []map[string]any
	for _, c := range d.Schema.Features {
		vals := make([]any, len(rows))
		for i, r := range rows {
			vals[i] = r[c.Name]
		}
		dt := "BYTES"
		if c.Kind == data.Numeric {
			dt = "FP64"
		}
		out = append(out, map[string]any{"name": c.Name, "shape": []int{len(rows)}, "datatype": dt, "data": vals})
	}
	return out
}

func mustJSON(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		log.Fatal(err)
	}
	return b
}

type result struct {
	rps, p50, p99, p999 float64
	errors              int64
}

// run sends the scenario's requests from c connections, each one request
// at a time, for at most d and max requests in all.
func run(sc scenario, c int, d time.Duration, max int) result {
	tr := &http.Transport{MaxIdleConnsPerHost: c, MaxConnsPerHost: c, DisableCompression: true}
	defer tr.CloseIdleConnections()
	client := &http.Client{Transport: tr}
	var (
		sent   atomic.Int64
		errs   atomic.Int64
		mu     sync.Mutex
		lat    []time.Duration
		wg     sync.WaitGroup
		period = time.Now().Add(d)
	)
	begin := time.Now()
	for g := range c {
		wg.Go(func() {
			own := make([]time.Duration, 0, 1024)
			for i := g; time.Now().Before(period) && sent.Add(1) <= int64(max); i++ {
				body := sc.bodies[i%len(sc.bodies)]
				t0 := time.Now()
				resp, err := client.Post(sc.url, "application/json", bytes.NewReader(body))
				if err != nil {
					errs.Add(1)
					continue
				}
				io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
				if resp.StatusCode != 200 {
					errs.Add(1)
				}
				own = append(own, time.Since(t0))
			}
			mu.Lock()
			lat = append(lat, own...)
			mu.Unlock()
		})
	}
	wg.Wait()
	elapsed := time.Since(begin)
	slices.Sort(lat)
	q := func(p float64) float64 {
		if len(lat) == 0 {
			return math.NaN()
		}
		return float64(lat[min(len(lat)-1, int(p*float64(len(lat))))]) / 1e6
	}
	return result{rps: float64(len(lat)) / elapsed.Seconds(), p50: q(0.5), p99: q(0.99), p999: q(0.999), errors: errs.Load()}
}
