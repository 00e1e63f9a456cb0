//go:build unix

package cli

import (
	"context"
	"errors"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestBinaryStoppedWhileWriting stops the built gendisc with SIGINT and
// with SIGTERM while it writes a large output file (sample of a billion
// rows): it removes its temporary file, leaves no output, and exits with
// 130 and 143.
func TestBinaryStoppedWhileWriting(t *testing.T) {
	bin, dir := buildGendisc(t)
	model := filepath.Join(dir, "iris.json")
	if out, err := exec.Command(bin, "fit", "--data", "iris", "--model", "gaussian-nb", "--out", model).CombinedOutput(); err != nil {
		t.Fatalf("fit: %v\n%s", err, out)
	}
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM} {
		t.Run(sig.String(), func(t *testing.T) {
			out := t.TempDir()
			cmd := exec.Command(bin, "sample", "--model", model, "-n", "1000000000", "--out", filepath.Join(out, "rows.csv"))
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			// Wait for rows in the temporary file.
			for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(5 * time.Millisecond) {
				ents, _ := os.ReadDir(out)
				if len(ents) == 1 && strings.HasPrefix(ents[0].Name(), ".rows.csv.tmp") {
					if fi, err := ents[0].Info(); err == nil && fi.Size() > 0 {
						break
					}
				}
				if time.Now().After(deadline) {
					cmd.Process.Kill()
					cmd.Wait()
					t.Fatalf("no temporary file written: %v", ents)
				}
			}
			cmd.Process.Signal(sig)
			err := cmd.Wait()
			var ee *exec.ExitError
			if !errors.As(err, &ee) || ee.ExitCode() != 128+int(sig) {
				t.Errorf("stopped by %v: %v, want exit status %d", sig, err, 128+int(sig))
			}
			if ents, _ := os.ReadDir(out); len(ents) != 0 {
				t.Errorf("left %v", ents)
			}
		})
	}
}

// TestServeSIGHUP checks that SIGHUP makes serve reload its model files,
// one that the watching cannot see changing included: a hard link to a
// file written in place in another directory.
func TestServeSIGHUP(t *testing.T) {
	dir, store := t.TempDir(), t.TempDir()
	nb, qda := filepath.Join(store, "nb.json"), filepath.Join(store, "qda.json")
	mustRun(t, "fit", "--data", "iris", "--out", nb, "--quiet")
	mustRun(t, "fit", "--data", "iris", "--model", "qda", "--out", qda, "--quiet")
	model := filepath.Join(dir, "iris.json")
	if err := os.Link(nb, model); err != nil {
		t.Skip("no hard links here:", err)
	}
	var stderr lockedBuffer
	env := &Env{Stdin: strings.NewReader(""), Stdout: io.Discard, Stderr: &stderr}
	ctx, cancel := context.WithCancel(context.Background())
	exit := make(chan int, 1)
	go func() { exit <- Main(ctx, env, []string{"serve", "--model", model, "--addr", "127.0.0.1:0"}) }()
	defer func() {
		cancel()
		if code := <-exit; code != 0 {
			t.Errorf("exit %d: %s", code, stderr.String())
		}
	}()
	waitLog := func(re string) []string {
		t.Helper()
		for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(5 * time.Millisecond) {
			if m := regexp.MustCompile(re).FindStringSubmatch(stderr.String()); m != nil {
				return m
			}
			if time.Now().After(deadline) {
				t.Fatalf("the log lacks %s:\n%s", re, stderr.String())
			}
		}
	}
	url := waitLog(`url=(http://\S+)`)[1]
	kind := func() string {
		resp, err := http.Get(url + "/v1/models")
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return regexp.MustCompile(`"kind":"([^"]+)"`).FindStringSubmatch(string(b))[1]
	}
	if k := kind(); k != "nb" {
		t.Fatalf("serving a %s model", k)
	}
	b, _ := os.ReadFile(qda)
	if err := os.WriteFile(nb, b, 0o644); err != nil { // in place: the link sees it, the watching does not
		t.Fatal(err)
	}
	time.Sleep(100 * time.Millisecond)
	if k := kind(); k != "nb" {
		t.Skipf("the watching saw the change (serving a %s model): SIGHUP is not what reloads", k)
	}
	syscall.Kill(os.Getpid(), syscall.SIGHUP)
	waitLog(`msg="SIGHUP: reloading the model files"`)
	waitLog(`msg="model loaded" model=iris kind=qda`)
	if k := kind(); k != "qda" {
		t.Errorf("after SIGHUP, serving a %s model", k)
	}
}
