package cli

import (
	"bytes"
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestStreamStatus(t *testing.T) {
	for _, tc := range []struct {
		read, size int64
		elapsed    time.Duration
		want       string
	}{
		// 420 MB in 12 s: 35 MB/s; 580 MB left: 16.57 s.
		{420e6, 1e9, 12 * time.Second, "fit --stream: big.csv: 42% (420.0 MB of 1.0 GB), 35.0 MB/s, 17s left, 1234 rows"},
		{3000, -1, 2 * time.Second, "fit --stream: big.csv: 3.0 kB read, 1.5 kB/s, 1234 rows"},
		{999, 2000, 0, "fit --stream: big.csv: 49% (999 B of 2.0 kB), 1234 rows"},
		{2000, 2000, time.Second, "fit --stream: big.csv: 100% (2.0 kB of 2.0 kB), 2.0 kB/s, 0s left, 1234 rows"},
		{3e12, -1, 1000 * time.Second, "fit --stream: big.csv: 3.0 TB read, 3.0 GB/s, 1234 rows"},
	} {
		if got := streamStatus("big.csv", tc.read, tc.size, tc.elapsed, "1234 rows"); got != tc.want {
			t.Errorf("streamStatus(%d, %d, %v) = %q, want %q", tc.read, tc.size, tc.elapsed, got, tc.want)
		}
	}
}

// runTerminal runs args with Stderr counted as a terminal or not.
func runTerminal(terminal bool, args ...string) (stderr string, code int) {
	var out, errb bytes.Buffer
	env := &Env{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb, terminal: terminal}
	code = Main(context.Background(), env, args)
	return errb.String(), code
}

// TestProgressLines checks the progress lines of fit --stream and cluster
// on a terminal, and that they are off with --quiet or without one.
func TestProgressLines(t *testing.T) {
	smallChunks(t, 1000)
	dir := t.TempDir()
	file := filepath.Join(dir, "iris.csv")
	mustRun(t, "datasets", "export", "iris", "--out", file)
	out := filepath.Join(dir, "m.json")
	const clear = "\r\033[K"
	for _, tc := range []struct {
		args []string
		want []string // in the output on a terminal
	}{
		{[]string{"fit", "--stream", "--data", file, "--model", "gaussian-nb", "--out", out},
			[]string{clear + "fit --stream: " + file + ": ", " of 4.", "rows" + clear}},
		{[]string{"cluster", "--data", "iris", "--target", "class", "--components", "1-3", "--out", out},
			[]string{clear + "K = 1 (candidate 1 of at most 3), restart 1/1, iteration 1/100, log-likelihood "}},
		{[]string{"cluster", "--data", "iris", "--target", "class", "--restarts", "2", "--out", out},
			[]string{clear + "restart 1/2, iteration 1/100, log-likelihood "}},
	} {
		stderr, code := runTerminal(true, tc.args...)
		if code != 0 {
			t.Fatalf("%s: exit %d: %s", strings.Join(tc.args, " "), code, stderr)
		}
		for _, w := range tc.want {
			if !strings.Contains(stderr, w) {
				t.Errorf("%s on a terminal: stderr %q lacks %q", strings.Join(tc.args, " "), stderr, w)
			}
		}
		// Off without a terminal, and with --quiet on one.
		if stderr, _ := runTerminal(false, tc.args...); strings.Contains(stderr, "\r") {
			t.Errorf("%s without a terminal: stderr %q", strings.Join(tc.args, " "), stderr)
		}
		if stderr, _ := runTerminal(true, append(tc.args, "--quiet")...); stderr != "" {
			t.Errorf("%s --quiet on a terminal: stderr %q", strings.Join(tc.args, " "), stderr)
		}
	}
}
